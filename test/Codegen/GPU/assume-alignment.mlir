// RUN: mlc-opt %s -split-input-file -verify-diagnostics --mlc-gpu-assume-alignment | FileCheck %s
// Running it twice adds nothing.
// RUN: mlc-opt %s -split-input-file -verify-diagnostics --mlc-gpu-assume-alignment --mlc-gpu-assume-alignment | FileCheck %s

// Identity-layout buffer arguments of a kernel are assumed aligned and used
// through the assumption; a strided view and an unused argument are left
// alone; shared buffers get an explicit alignment.
// CHECK-LABEL: gpu.func @copy
// CHECK-SAME:    workgroup(%[[S:.*]] : memref<64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-NEXT:    %[[X:.*]] = memref.assume_alignment %arg0, 16 : memref<64xf32>
// CHECK-NEXT:    %[[Y:.*]] = memref.assume_alignment %arg1, 16 : memref<64xf32>
// CHECK-NOT:     memref.assume_alignment
// CHECK:         memref.load %[[X]]
// CHECK:         memref.store %{{.*}}, %[[Y]]
// CHECK:         memref.load %arg2
gpu.module @kernels {
  gpu.func @copy(%x: memref<64xf32>, %y: memref<64xf32>,
                 %v: memref<8xf32, strided<[2], offset: 1>>, %unused: memref<4xf32>)
      workgroup(%s: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
    %tx = gpu.thread_id x
    %a = memref.load %x[%tx] : memref<64xf32>
    memref.store %a, %y[%tx] : memref<64xf32>
    %c0 = arith.constant 0 : index
    %b = memref.load %v[%c0] : memref<8xf32, strided<[2], offset: 1>>
    memref.store %b, %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A device function that is no kernel is left alone (its callers' pointers
// are not the kernel's arguments).
// CHECK-LABEL: gpu.func @helper
// CHECK-NOT:     memref.assume_alignment
gpu.module @kernels {
  gpu.func @helper(%x: memref<64xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %a = memref.load %x[%c0] : memref<64xf32>
    gpu.return %a : f32
  }
}

// -----

// A reshape of an aligned argument (a view at its offset 0) is assumed
// aligned too: expand-strided-metadata folds the reshape's metadata through
// the argument's assumption, which then goes, and the accesses through the
// reshape (a head split's loads by a linear index) would lose their vector
// width.
// CHECK-LABEL: gpu.func @reshaped
// CHECK-NEXT:    %[[X:.*]] = memref.assume_alignment %arg0, 16 : memref<4x64xf16>
// CHECK:         %[[C:.*]] = memref.collapse_shape %[[X]]
// CHECK-NEXT:    %[[CX:.*]] = memref.assume_alignment %[[C]], 16 : memref<256xf16>
// CHECK-NEXT:    %[[E:.*]] = memref.expand_shape %[[CX]]
// CHECK-NEXT:    %[[EX:.*]] = memref.assume_alignment %[[E]], 16 : memref<2x128xf16>
// CHECK:         memref.load %[[CX]]
// CHECK:         memref.load %[[EX]]
gpu.module @kernels {
  gpu.func @reshaped(%x: memref<4x64xf16>, %y: memref<2xf16>) kernel {
    %tx = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %flat = memref.collapse_shape %x [[0, 1]] : memref<4x64xf16> into memref<256xf16>
    %rows = memref.expand_shape %flat [[0, 1]] output_shape [2, 128] : memref<256xf16> into memref<2x128xf16>
    %a = memref.load %flat[%tx] : memref<256xf16>
    %b = memref.load %rows[%c0, %tx] : memref<2x128xf16>
    memref.store %a, %y[%c0] : memref<2xf16>
    memref.store %b, %y[%tx] : memref<2xf16>
    gpu.return
  }
}
