// C += A * B over 8x8 integer matrices (affine.for, memref<8x8xi32>)
func.func @matmul(%A: memref<8x8xi32>, %B: memref<8x8xi32>, %C: memref<8x8xi32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %c0 = affine.load %C[%i, %j] : memref<8x8xi32>
      %acc = affine.for %k = 0 to 8 iter_args(%s = %c0) -> (i32) {
        %a = affine.load %A[%i, %k] : memref<8x8xi32>
        %b = affine.load %B[%k, %j] : memref<8x8xi32>
        %p = arith.muli %a, %b : i32
        %n = arith.addi %s, %p : i32
        affine.yield %n : i32
      }
      affine.store %acc, %C[%i, %j] : memref<8x8xi32>
    }
  }
  return
}
