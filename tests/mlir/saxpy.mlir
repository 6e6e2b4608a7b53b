// y[i] = a * x[i] + y[i] over 64 integers (scf.for, memref<64xi32>)
func.func @saxpy(%a: i32, %x: memref<64xi32>, %y: memref<64xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %xi = memref.load %x[%i] : memref<64xi32>
    %yi = memref.load %y[%i] : memref<64xi32>
    %p = arith.muli %a, %xi : i32
    %s = arith.addi %p, %yi : i32
    memref.store %s, %y[%i] : memref<64xi32>
  }
  return
}
