// sum of a dynamically sized integer vector: its size comes from the memref descriptor
func.func @vsum(%x: memref<?xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
    %v = memref.load %x[%i] : memref<?xi32>
    %a = arith.addi %acc, %v : i32
    scf.yield %a : i32
  }
  return %s : i32
}
