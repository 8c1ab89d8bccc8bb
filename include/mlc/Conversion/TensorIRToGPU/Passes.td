//===- Passes.td - tensorir-to-gpu conversion ---------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CONVERSION_TENSORIRTOGPU_PASSES_TD
#define MLC_CONVERSION_TENSORIRTOGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTensorIRToGPU : Pass<"convert-tensorir-to-gpu", "::mlir::ModuleOp"> {
  let summary = "turn thread-bound tensorir loop nests into gpu.launch kernels";
  let description = [{
    Lowers the GPU thread bindings of every `tensorir.prim_func` (what TVM's
    `LowerThreadAllreduce`-free part of `SplitHostDevice`, `ThreadSync` and
    the storage-scope lowering do):

    - Each outermost loop bound to `blockIdx.{x,y,z}` or `threadIdx.{x,y,z}`
      is a kernel: it is moved into a `gpu.launch` whose grid and block
      sizes are the extents of the kernel's bound loops (the largest, per
      tag). A bound loop becomes its body with the induction variable
      replaced by `gpu.block_id`/`gpu.thread_id`, under an `scf.if` when its
      extent is smaller than the launch's. As in TVM, loops bound to the
      same tag anywhere in one kernel (e.g. a cooperative copy under a loop
      already bound to `threadIdx.x`) all denote the same hardware index.
      `blockIdx` extents may be dynamic (computed on the host), `threadIdx`
      extents must be constants. `vthread` loops run serially.
    - Buffers in GPU memory spaces (`tensorir.alloc_buffer` of
      `memref<..., #gpu.address_space<workgroup>>`, what `cache_read(...,
      "shared")` creates, or `#gpu.address_space<private>`, scope `local`)
      become workgroup/private attributions of each kernel that uses them.
    - `gpu.barrier` is placed before and after every statement that writes
      workgroup memory, at the level where all threads of a block run it
      (the kernel body and the bodies of serial loops), as TVM's
      `ThreadSync` does for shared memory.

    - A reduction block whose reduce iteration variable a `threadIdx.x`
      loop feeds (TVM's `LowerCrossThreadReduction`): each thread
      accumulates its part in a private scalar, `gpu.shuffle xor` combines
      the threads of a warp, and with more than one warp (all threads of
      the block along x, y and z of extent 1) a shared array of the warps'
      results and more shuffles combine the warps. Fewer than 32 threads
      along x (a power of two, in a block of whole warps) are consecutive
      lanes of one warp: log2 of them shuffles combine them, whatever y and
      z are. Every thread then holds the result: into private memory (a
      `local` buffer) each stores its own copy, elsewhere thread 0 stores
      it. 32-bit add, mul, min, max, and, or and xor are supported.

    The rest of the kernel (serial loops, blocks) stays tensorir for
    `convert-tensorir-to-scf`. Errors, each naming the loop or block: a
    block outside every kernel (it would run on the host), a `threadIdx`
    extent that is dynamic or above the hardware limit (1024 threads in all,
    64 in z), a `blockIdx.y/z` extent above 65535, a bound loop that does not
    start at 0 with step 1, workgroup memory above 48 KiB (the static limit),
    and a cross-thread reduction of another form (other combiners or types,
    a thread count that is no multiple of 32 nor a power of two below it,
    a thread loop that leaves threads of the block out of the shuffles).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // MLC_CONVERSION_TENSORIRTOGPU_PASSES_TD
