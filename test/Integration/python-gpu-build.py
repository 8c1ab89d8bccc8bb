# GPU builds from Python, with TVM's names: mlc.target.Target (TVM's target
# strings, dicts and tags), relax.build / VirtualMachine, mlc.build
# (prim_funcs, buffers written in place) and create_executor for target
# cuda. The libraries run on the fake CUDA driver of the runtime's test (a
# "device" over host memory that runs the kernels mlc_add_one_memref on the
# CPU, found through LD_LIBRARY_PATH), checked against numpy.
# REQUIRES: cuda-runtime, c-compiler
# RUN: rm -rf %t && mkdir -p %t
# RUN: %cc -std=c99 -Wall -Wextra -Werror -shared -fPIC -I%cuda_toolkit_dir/include %mlc_src_root/test/ExecutionEngine/Inputs/fake-libcuda.c -o %t/libcuda.so.1
# RUN: env LD_LIBRARY_PATH=%t %python %s %t | FileCheck %s

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import mlc  # noqa: E402
from mlc.target import Target  # noqa: E402

tmp = sys.argv[1]

# TVM's spellings of a target, and mlc-compile's --target for each.
for spec in ["llvm", "llvm -mcpu=znver4", "cuda", "cuda -arch=sm_80",
             {"kind": "cuda", "arch": "sm_90a"}, "nvidia/nvidia-h100",
             "nvidia/geforce-rtx-4090"]:
    print("target %r: %s, --target=%s" % (spec, Target(spec), Target(spec).mlc_target))
# CHECK: target 'llvm': llvm, --target=cpu
# CHECK: target 'llvm -mcpu=znver4': llvm -mcpu=znver4, --target=cpu
# CHECK: target 'cuda': cuda, --target=cuda
# CHECK: target 'cuda -arch=sm_80': cuda -arch=sm_80, --target=cuda:sm_80
# CHECK: target {'kind': 'cuda', 'arch': 'sm_90a'}: cuda -arch=sm_90a, --target=cuda:sm_90a
# CHECK: target 'nvidia/nvidia-h100': cuda -arch=sm_90a, --target=cuda:sm_90a
# CHECK: target 'nvidia/geforce-rtx-4090': cuda -arch=sm_89, --target=cuda:sm_89
for spec in ["rocm", "cuda -arch=gfx90a", "cuda -mcpu=znver4", {"arch": "sm_80"}]:
    try:
        Target(spec)
    except ValueError as e:
        print("error:", e)
# CHECK: error: Target: unsupported target 'rocm': mlc compiles for the host CPU (llvm) and NVIDIA GPUs (cuda, or a tag: {{.*}}nvidia/nvidia-h100{{.*}})
# CHECK: error: Target: arch 'gfx90a' is no NVIDIA chip (sm_XX, sm_XXa)
# CHECK: error: Target: unsupported option '-mcpu=znver4' of 'cuda -mcpu=znver4' (mlc takes -arch= for cuda and -mcpu= for llvm)
# CHECK: error: Target: a dict takes 'kind' and optionally 'arch' or 'mcpu', got ['arch']

# A relax model for an H100 (sm_90a): the library's target, its entry, and
# an exported copy that mlc.runtime loads.
dense = mlc.relay.fromtext("""#[version = "0.0.5"]
def @main(%x: Tensor[(64, 128), float16], %w: Tensor[(256, 128), float16]) {
  nn.relu(nn.dense(%x, %w, units=None, out_dtype="float32"))
}""")
relax = mlc.Module(mlc.tools.run_passes(dense.text, "relay-to-relax"))
ex = mlc.relax.build(relax, target="nvidia/nvidia-h100", pipeline_options="format=isa")
ex.export_library(os.path.join(tmp, "dense.so"))
lib = mlc.runtime.load_module(os.path.join(tmp, "dense.so"))
print("built for %s: library target %s, exported %s%s" % (
    ex.target, ex.library.target, lib.target, lib["main"].input_names))
# CHECK: built for cuda -arch=sm_90a: library target cuda, exported cuda['x', 'w']
try:
    mlc.relax.VirtualMachine(ex, mlc.cpu())
except ValueError as e:
    print("error:", e)
# CHECK: error: relax.VirtualMachine: the executable was built for cuda -arch=sm_90a, which runs on cuda devices, got cpu(0)
print("default device:", mlc.relax.VirtualMachine(ex).device)
# CHECK: default device: cuda(0)
try:
    mlc.relax.build(relax, target="cuda", params={"w": np.zeros((256, 128), np.float16)})
except NotImplementedError as e:
    print("error:", e)
# CHECK: error: relax.build: params= is not supported; bind the weights when importing (the frontends' default) or pass them as arguments

# Run on the fake driver: x + 1 into a new tensor, through relax.build and
# VirtualMachine, and through create_executor.
LAUNCH = """
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c250 = arith.constant 250 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c250, %sy = %c1, %sz = %c1)
             module(@kernels) function(@mlc_add_one_memref) {
    %i = affine.apply affine_map<(b, t) -> (b * 250 + t)>(%bx, %tx)
    %v = memref.load %BUF[%i] : memref<1000xi32>
    %one = arith.constant 1 : i32
    %w = arith.addi %v, %one : i32
    memref.store %w, %BUF[%i] : memref<1000xi32>
    gpu.terminator
  }
"""
add_one = mlc.Module("""
func.func @main(%x: tensor<1000xi32> {relax.name = "x"}) -> tensor<1000xi32> {
  %in = bufferization.to_buffer %x read_only : tensor<1000xi32> to memref<1000xi32>
  %out = memref.alloc() : memref<1000xi32>
  memref.copy %in, %out : memref<1000xi32> to memref<1000xi32>
""" + LAUNCH.replace("%BUF", "%out") + """
  %result = bufferization.to_tensor %out restrict : memref<1000xi32> to tensor<1000xi32>
  return %result : tensor<1000xi32>
}""")
rng = np.random.default_rng(0)
x = rng.integers(-1000, 1000, 1000, dtype=np.int32)
# The fake driver loads PTX only (format=isa; a real one takes the default
# fatbin too).
ISA = "format=isa"
vm = mlc.relax.VirtualMachine(mlc.relax.build(add_one, target="cuda", pipeline_options=ISA),
                              mlc.cuda())
out = vm["main"](mlc.nd.array(x, mlc.cuda()))
print("relax.build cuda:", type(out).__name__, out.device, (out.numpy() == x + 1).all())
# CHECK: relax.build cuda: NDArray cuda(0) True
executor = mlc.create_executor("graph", mod=add_one, target="cuda", pipeline_options=ISA)
print("create_executor cuda:", (executor.evaluate()(x) == x + 1).all())
# CHECK: create_executor cuda: True

# mlc.build: a buffer function (a prim_func's calling convention) writes its
# buffer in place; numpy buffers go to the GPU and come back, a strided
# view through a contiguous copy.
in_place = mlc.Module("""
func.func @main(%data: memref<1000xi32> {tensorir.name = "data"}) {
""" + LAUNCH.replace("%BUF", "%data") + """
  return
}""")
rt = mlc.build(in_place, target="cuda", pipeline_options=ISA)
data = x.copy()
rt["main"](data)
strided = np.zeros(2000, np.int32)
strided[::2] = x
rt["main"](strided[::2])
print("mlc.build cuda in place:", (data == x + 1).all(), (strided[::2] == x + 1).all(),
      (strided[1::2] == 0).all())
# CHECK: mlc.build cuda in place: True True True
