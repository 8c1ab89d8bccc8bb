// RUN: mlc-opt %s -split-input-file -mlc-gpu-lower-bf16-mma-sync | FileCheck %s
// RUN: mlc-opt %s -split-input-file -mlc-gpu-lower-bf16-mma-sync -convert-nvgpu-to-nvvm -convert-vector-to-llvm -reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// bf16 A and B, f32 C: nvvm.mma.sync on the rows of the fragments packed
// into i32 registers, the result back as vector<2x2xf32>.
// CHECK-LABEL: func.func @bf16
// CHECK-SAME:    (%[[A:.*]]: vector<4x2xbf16>, %[[B:.*]]: vector<2x2xbf16>, %[[C:.*]]: vector<2x2xf32>)
// CHECK-NOT:     nvgpu.mma.sync
// CHECK:         %[[A0:.*]] = vector.extract %[[A]][0] : vector<2xbf16> from vector<4x2xbf16>
// CHECK:         %[[A0P:.*]] = vector.bitcast %[[A0]] : vector<2xbf16> to vector<1xi32>
// CHECK:         %[[A0I:.*]] = vector.extract %[[A0P]][0] : i32 from vector<1xi32>
// CHECK-COUNT-3: vector.bitcast {{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK-COUNT-2: vector.bitcast {{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK:         %[[C0:.*]] = vector.extract %[[C]][0, 0] : f32 from vector<2x2xf32>
// CHECK:         %[[C1:.*]] = vector.extract %[[C]][0, 1] : f32 from vector<2x2xf32>
// CHECK:         %[[C2:.*]] = vector.extract %[[C]][1, 0] : f32 from vector<2x2xf32>
// CHECK:         %[[C3:.*]] = vector.extract %[[C]][1, 1] : f32 from vector<2x2xf32>
// CHECK:         %[[R:.*]] = nvvm.mma.sync A[%[[A0I]], {{.*}}] B[{{.*}}] C[%[[C0]], %[[C1]], %[[C2]], %[[C3]]]
// CHECK-SAME:      layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
// CHECK-SAME:      multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME:      shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME:      : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-4: llvm.extractvalue %[[R]]
// CHECK:         %[[D:.*]] = vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK:         return %[[D]]
// LLVM-LABEL: func.func @bf16
// LLVM:         nvvm.mma.sync {{.*}} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// f16: left to convert-nvgpu-to-nvvm, which handles it.
// CHECK-LABEL: func.func @f16
// CHECK:         nvgpu.mma.sync
// CHECK-NOT:     nvvm.mma.sync
// LLVM-LABEL: func.func @f16
// LLVM:         nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// bf16 with a bf16 accumulator: PTX's bf16 mma accumulates in f32 only, so
// the op is left alone (convert-nvgpu-to-nvvm then reports it).
// CHECK-LABEL: func.func @bf16_accumulator
// CHECK:         nvgpu.mma.sync
// CHECK-NOT:     nvvm.mma.sync
func.func @bf16_accumulator(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xbf16>) -> vector<2x2xbf16> {
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xbf16>) -> vector<2x2xbf16>
  return %d : vector<2x2xbf16>
}
