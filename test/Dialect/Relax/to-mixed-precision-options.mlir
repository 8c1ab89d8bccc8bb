// fp16-input-names changes the named parameters' types in the signature.
// RUN: mlc-opt %s --relax-to-mixed-precision="fp16-input-names=x" | FileCheck %s
// Errors name the option and the value.
// RUN: not mlc-opt %s --relax-to-mixed-precision="compute-dtype=float64" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DTYPE
// RUN: not mlc-opt %s --relax-to-mixed-precision="out-dtype=bfloat16" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OUT
// RUN: not mlc-opt %s --relax-to-mixed-precision="fp16-input-names=x,nope" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NAME
// RUN: not mlc-opt %s --relax-to-mixed-precision="fp16-input-names=i" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INT
// RUN: not mlc-opt %s --relax-to-mixed-precision="fp16-input-names=y" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CALLED

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf16> {relax.name = "x"}, %[[W:.*]]: tensor<8x16xf32> {relax.name = "w"}, %{{.*}}: tensor<4xi32> {relax.name = "i"}) -> tensor<4x16xf32>
// CHECK: %[[WH:.*]] = relax.astype %[[W]] {dtype = f16}
// CHECK: relax.matmul %[[X]], %[[WH]] {out_dtype = f32} : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf32>
// DTYPE: error: relax-to-mixed-precision: compute-dtype 'float64' is not float16 or bfloat16
// OUT: error: relax-to-mixed-precision: out-dtype 'bfloat16' is not float32 or the compute-dtype 'float16'
// NAME: error: relax-to-mixed-precision: fp16-input-names: no function parameter is named 'nope'
// INT: error: relax-to-mixed-precision: parameter 'i' of @main has type 'tensor<4xi32>', not a float32 tensor
// CALLED: error: relax-to-mixed-precision: cannot change the signature of @helper (fp16-input-names), it is used in the module
func.func @main(%x: tensor<4x8xf32> {relax.name = "x"}, %w: tensor<8x16xf32> {relax.name = "w"}, %i: tensor<4xi32> {relax.name = "i"}) -> tensor<4x16xf32> {
  %0 = relax.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = func.call @helper(%0) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}

func.func private @helper(%y: tensor<4x16xf32> {relax.name = "y"}) -> tensor<4x16xf32> {
  return %y : tensor<4x16xf32>
}
