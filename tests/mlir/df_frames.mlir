// df_frames: a dataflow region lowered from MLIR.  The top runs 4 frames of 32 samples
// (affine.for %f); per frame it calls three outlined stages (func.call) linked by two
// local buffers (memref.alloca): the channels of the region.  Each stage gets the whole
// input/output memref and the frame index, and loops over its frame (affine.for).
func.func private @df_scale(%in: memref<4x32xi32>, %f: index, %a: memref<32xi32>) {
  %c3 = arith.constant 3 : i32
  %c7 = arith.constant 7 : i32
  affine.for %i = 0 to 32 {
    %x = affine.load %in[%f, %i] : memref<4x32xi32>
    %m = arith.muli %x, %c3 : i32
    %y = arith.subi %m, %c7 : i32
    affine.store %y, %a[%i] : memref<32xi32>
  }
  return
}

func.func private @df_smooth(%a: memref<32xi32>, %b: memref<32xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %last = affine.for %i = 0 to 32 iter_args(%prev = %c0) -> (i32) {
    %x = affine.load %a[%i] : memref<32xi32>
    %s = arith.addi %x, %prev : i32
    %h = arith.shrsi %s, %c1 : i32
    affine.store %h, %b[%i] : memref<32xi32>
    affine.yield %x : i32
  }
  return
}

func.func private @df_clamp(%b: memref<32xi32>, %f: index, %out: memref<4x32xi32>) {
  %lo = arith.constant -1000 : i32
  %hi = arith.constant 1000 : i32
  affine.for %i = 0 to 32 {
    %x = affine.load %b[%i] : memref<32xi32>
    %l = arith.maxsi %x, %lo : i32
    %y = arith.minsi %l, %hi : i32
    affine.store %y, %out[%f, %i] : memref<4x32xi32>
  }
  return
}

func.func @df_frames(%in: memref<4x32xi32>, %out: memref<4x32xi32>) {
  %a = memref.alloca() : memref<32xi32>
  %b = memref.alloca() : memref<32xi32>
  affine.for %f = 0 to 4 {
    func.call @df_scale(%in, %f, %a) : (memref<4x32xi32>, index, memref<32xi32>) -> ()
    func.call @df_smooth(%a, %b) : (memref<32xi32>, memref<32xi32>) -> ()
    func.call @df_clamp(%b, %f, %out) : (memref<32xi32>, index, memref<4x32xi32>) -> ()
  }
  return
}
