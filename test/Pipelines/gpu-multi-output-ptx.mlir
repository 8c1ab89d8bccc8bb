// A float32 result that a residual add reads and that, cast to float16,
// feeds the next GEMM (mixed precision's residual pattern): relax-fuse-ops'
// multi-output-casts puts the cast in the producer's kernel, whose
// write-back stores both outputs, each with vector stores (16 bytes of f32
// and 8 of f16 per access), instead of a kernel of its own that read the
// float32 result back. So for the tensor-core (sm_90), Hopper (sm_90a)
// and layer norm (GeneralReduction) rules; ptxas finds no spills.
// REQUIRES: ptxas
// RUN: split-file %s %t
// RUN: mlc-compile --target=cuda:sm_90 %t/residual.mlir -o %t/sm90.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM90 < %t/sm90.ptx
// RUN: mlc-compile --target=cuda:sm_90a %t/residual.mlir -o %t/sm90a.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM90A < %t/sm90a.ptx
// RUN: mlc-compile --target=cuda:sm_90 %t/layer-norm.mlir -o %t/ln.ptx
// RUN: FileCheck %s --check-prefix=LN < %t/ln.ptx
// RUN: mkdir -p %t/k && split-file %t/sm90a.ptx %t/k && split-file %t/sm90.ptx %t/k && split-file %t/ln.ptx %t/k
// RUN: for f in %t/k/*.ptx; do %ptxas -arch=sm_90a -v $f -o %t/k.cubin || exit 1; done 2> %t/ptxas.log
// RUN: not grep -E "[1-9][0-9]* bytes (spill|stack)" %t/ptxas.log

// The first GEMM's kernel writes x (f32) and its cast; no astype kernel.
// On sm_90 the write-back's stores come after its loads, grouped by
// buffer (convert-tensorir-to-scf), so that LLVM merges them: 16 bytes of
// f32 per store, the f16 copy 16 bytes per store where the alignment is
// known; the second GEMM's write-back, which reads the residual, likewise.
// CHECK-NOT:  .entry astype{{(_[0-9]+)?}}_kernel(
// CHECK:      .entry fused_matmul_add_relu_astype_kernel(
// SM90:         mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SM90A:        wgmma.mma_async
// SM90-NOT:     st.global.b32
// CHECK-DAG:    st.global.v4.b32
// SM90A-DAG:    st.global.v2.b32
// SM90-NOT:     st.global.b32
// CHECK:        ret;
// CHECK-NOT:  .entry astype{{(_[0-9]+)?}}_kernel(
// SM90:       .entry fused_matmul_0_add_1_kernel(
// SM90-NOT:     st.global.b32
// SM90:         st.global.v4.b32
// SM90-NOT:     st.global.b32
// SM90:         ret;

// LN-NOT:  .entry astype{{(_[0-9]+)?}}_kernel(
// LN:      .entry fused_layer_norm_astype_kernel(
// LN:        shfl.sync.bfly.b32
// LN-DAG:    cvt.rn.f16.f32
// LN-DAG:    st.global.b16
// LN:        ret;
// LN-NOT:  .entry astype{{(_[0-9]+)?}}_kernel(

//--- residual.mlir
func.func @main(%a: tensor<256x128xf16>, %w1: tensor<128x256xf16>, %b1: tensor<256xf32>, %w2: tensor<256x256xf16>) -> tensor<256x256xf32> {
  %0 = relay.nn.matmul %a, %w1 {out_dtype = f32} : (tensor<256x128xf16>, tensor<128x256xf16>) -> tensor<256x256xf32>
  %1 = relay.add %0, %b1 : (tensor<256x256xf32>, tensor<256xf32>) -> tensor<256x256xf32>
  %x = relay.nn.relu %1 : (tensor<256x256xf32>) -> tensor<256x256xf32>
  %h = relay.cast %x {dtype = f16} : (tensor<256x256xf32>) -> tensor<256x256xf16>
  %2 = relay.nn.matmul %h, %w2 {out_dtype = f32} : (tensor<256x256xf16>, tensor<256x256xf16>) -> tensor<256x256xf32>
  %3 = relay.add %2, %x : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %3 : tensor<256x256xf32>
}

//--- layer-norm.mlir
func.func @main(%x: tensor<512x768xf32>, %gamma: tensor<768xf32>, %beta: tensor<768xf32>, %w: tensor<768x768xf16>) -> tensor<512x768xf32> {
  %0 = relay.nn.layer_norm %x, %gamma, %beta : (tensor<512x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<512x768xf32>
  %h = relay.cast %0 {dtype = f16} : (tensor<512x768xf32>) -> tensor<512x768xf16>
  %1 = relay.nn.matmul %h, %w {out_dtype = f32} : (tensor<512x768xf16>, tensor<768x768xf16>) -> tensor<512x768xf32>
  %2 = relay.add %1, %0 : (tensor<512x768xf32>, tensor<512x768xf32>) -> tensor<512x768xf32>
  return %2 : tensor<512x768xf32>
}
