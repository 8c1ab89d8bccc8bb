// A relax function calling hand-written TensorIR prim_funcs through the whole
// CPU pipeline, verified after every pass: the kernels are lowered first, the
// relax host code calls them, the returned allocation becomes the caller's
// out-parameter (no copy) and the intermediate buffer is freed.
// RUN: mlc-opt %s --mlc-cpu-pipeline=fuse-opt-level=0 --verify-each | FileCheck %s
// By default the pipeline fuses linear0 and relu0 into one kernel.
// RUN: mlc-opt %s --mlc-cpu-pipeline --verify-each | FileCheck %s --check-prefix=FUSED
// RUN: mlc-opt %s --mlc-cpu-bufferize --verify-each | FileCheck %s --check-prefix=BUF

// CHECK-NOT: relax.
// CHECK-NOT: tensorir.
// CHECK-DAG: llvm.func @linear0(
// CHECK-DAG: llvm.func @relu0(
// CHECK-DAG: llvm.func @main(
// FUSED-NOT: llvm.func @relu0(
// FUSED-DAG: llvm.func @fused_linear0_relu0(
// FUSED-DAG: llvm.func @main(

// BUF-LABEL: func.func @main(
// BUF-SAME:      %[[X:.*]]: memref<1x784xf32> {relax.name = "x"}, %[[W:.*]]: memref<128x784xf32> {relax.name = "w0"}, %[[B:.*]]: memref<128xf32> {relax.name = "b0"}, %[[OUT:.*]]: memref<1x128xf32>) {
// BUF-NEXT:    %[[LV0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x128xf32>
// BUF-NEXT:    call @linear0(%[[X]], %[[W]], %[[B]], %[[LV0]])
// BUF-NEXT:    call @relu0(%[[LV0]], %[[OUT]])
// BUF-NEXT:    memref.dealloc %[[LV0]] : memref<1x128xf32>
// BUF-NEXT:    return
// BUF-LABEL: func.func @dynamic(
// BUF-SAME:      %[[X:.*]]: memref<?x128xf32>, %[[OUT:.*]]: memref<?x128xf32>) {
// BUF:         %[[N:.*]] = memref.dim %[[X]]
// BUF-NEXT:    %[[Y:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x128xf32>
// BUF-NEXT:    call @relu_dyn(%[[X]], %[[Y]], %[[N]])
// BUF-NEXT:    memref.copy %[[Y]], %[[OUT]]
// BUF-NEXT:    memref.dealloc %[[Y]]

tensorir.prim_func @linear0(%X: memref<1x784xf32>, %W: memref<128x784xf32>, %B: memref<128xf32>, %Z: memref<1x128xf32>) attributes {tensorir.noalias} {
  %Y = tensorir.alloc_buffer : memref<1x128xf32>
  tensorir.for %i = 0 to 1 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 784 {
        tensorir.block "Y"(%vi = spatial(1, %i), %vj = spatial(128, %j), %vk = reduce(784, %k)) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<1x128xf32>
          }
          %y = memref.load %Y[%vi, %vj] : memref<1x128xf32>
          %x = memref.load %X[%vi, %vk] : memref<1x784xf32>
          %w = memref.load %W[%vj, %vk] : memref<128x784xf32>
          %m = arith.mulf %x, %w : f32
          %s = arith.addf %y, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<1x128xf32>
        }
      }
    }
  }
  tensorir.for %i = 0 to 1 {
    tensorir.for %j = 0 to 128 {
      tensorir.block "Z"(%vi = spatial(1, %i), %vj = spatial(128, %j)) {
        %y = memref.load %Y[%vi, %vj] : memref<1x128xf32>
        %b = memref.load %B[%vj] : memref<128xf32>
        %s = arith.addf %y, %b : f32
        memref.store %s, %Z[%vi, %vj] : memref<1x128xf32>
      }
    }
  }
}

tensorir.prim_func @relu0(%X: memref<1x128xf32>, %Y: memref<1x128xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 1 {
    tensorir.for %j = 0 to 128 {
      tensorir.block "Y"(%vi = spatial(1, %i), %vj = spatial(128, %j)) {
        %zero = arith.constant 0.0 : f32
        %x = memref.load %X[%vi, %vj] : memref<1x128xf32>
        %r = arith.maximumf %x, %zero : f32
        memref.store %r, %Y[%vi, %vj] : memref<1x128xf32>
      }
    }
  }
}

func.func @main(%x: tensor<1x784xf32> {relax.name = "x"}, %w0: tensor<128x784xf32> {relax.name = "w0"},
                %b0: tensor<128xf32> {relax.name = "b0"}) -> tensor<1x128xf32> {
  %out = relax.dataflow -> tensor<1x128xf32> {
    %lv0 = relax.call_tir @linear0(%x, %w0, %b0) : (tensor<1x784xf32>, tensor<128x784xf32>, tensor<128xf32>) -> tensor<1x128xf32>
    %lv1 = relax.call_tir @relu0(%lv0) : (tensor<1x128xf32>) -> tensor<1x128xf32>
    relax.output %lv1 : tensor<1x128xf32>
  }
  return %out : tensor<1x128xf32>
}

// A dynamic result cannot be hoisted: it is copied into the out-parameter.
func.func private @relu_dyn(memref<?x128xf32>, memref<?x128xf32>, index)

func.func @dynamic(%x: tensor<?x128xf32, #relax.shape<[n, 128]>>) -> tensor<?x128xf32, #relax.shape<[n, 128]>> {
  %0 = relax.call_tir @relu_dyn(%x) tir_vars [n] : (tensor<?x128xf32, #relax.shape<[n, 128]>>) -> tensor<?x128xf32, #relax.shape<[n, 128]>>
  return %0 : tensor<?x128xf32, #relax.shape<[n, 128]>>
}
