# mlc.runtime.load_module on stand-ins for mlc-compile's libraries, built
# from C (Inputs/runtime-module.c: the metadata, _mlir_ciface_ entries over
# memref descriptors and, for target cuda, an mlc_cuda_* runtime on host
# memory), so that the loader's CPU and CUDA paths run without MLIR or a
# GPU: calls with outputs returned or written in place, scalars, dynamic
# shapes, non-contiguous arrays, __cuda_array_interface__ objects passed
# without copies, the errors for bad arguments and failing "kernels",
# device buffers freed after every call, time_evaluator, and a machine
# without a device. Results are exact (small float sums).
# REQUIRES: c-compiler
# RUN: rm -rf %t && mkdir -p %t
# RUN: %cc -std=c99 -Wall -Wextra -Werror -shared -fPIC %S/Inputs/runtime-module.c -o %t/cpu.so
# RUN: %cc -std=c99 -Wall -Wextra -Werror -shared -fPIC -DMLC_TARGET_CUDA %S/Inputs/runtime-module.c -o %t/cuda.so
# RUN: echo 'int mlc_nothing;' | %cc -x c - -shared -fPIC -o %t/plain.so
# RUN: %python %s %t | FileCheck %s
# RUN: env MLC_FAKE_NO_DEVICE=1 %python %s %t --no-device | FileCheck %s --check-prefix=NODEV

import os
import sys

import numpy as np
from mlc import runtime
from mlc_test_utils import expect_error

DIR = sys.argv[1]
rng = np.random.default_rng(0)


class FakeCudaArray:
    """A __cuda_array_interface__ over host memory: the stand-in's "device"."""

    def __init__(self, array, strides=None, readonly=False, stream=1):
        self.array = array
        self.__cuda_array_interface__ = {
            "shape": array.shape, "typestr": array.dtype.str,
            "data": (array.ctypes.data, readonly), "strides": strides,
            "version": 3, "stream": stream}


if "--no-device" in sys.argv:
    mod = runtime.load_module(os.path.join(DIR, "cuda.so"))
    print(mod.target, mod.entry_names)
    # NODEV: cuda ['add', 'axpy', 'row_stats', 'fail']
    x = np.ones(3, np.float32)
    expect_error(RuntimeError, mod["add"], x, x, x.copy())
    # NODEV-NEXT: RuntimeError: cannot initialize CUDA: no CUDA device
    expect_error(RuntimeError, lambda: mod.device_name)
    # NODEV-NEXT: RuntimeError: cannot initialize CUDA: no CUDA device
    sys.exit(0)

expect_error(ValueError, runtime.load_module, os.path.join(DIR, "plain.so"))
# CHECK: ValueError: {{.*}}plain.so exports no mlc_module_metadata: it was not written by mlc-compile, or by an older one
expect_error(OSError, runtime.load_module, os.path.join(DIR, "missing.so"))
# CHECK-NEXT: OSError: cannot load {{.*}}missing.so: {{.*}}No such file

x = rng.standard_normal(7).astype(np.float32)
y = rng.standard_normal(7).astype(np.float32)
a = rng.standard_normal((4, 3)).astype(np.float32)
b = rng.standard_normal((4, 3)).astype(np.float32)
m = rng.standard_normal((2, 5))


def check_module(target):
    """The calls, errors and timings that both targets share."""
    mod = runtime.load_module(os.path.join(DIR, target + ".so"))
    print(mod.target, mod.device_name, mod.entry_names)
    assert mod.metadata["version"] == 1
    add, axpy, row_stats = mod["add"], mod["axpy"], mod["row_stats"]

    # Dynamic shapes: the outputs are passed and written in place.
    out = np.full(7, np.nan, np.float32)
    assert add(x, y, out) is None
    np.testing.assert_array_equal(out, x + y)
    # Non-contiguous inputs are copied, non-contiguous outputs written back.
    wide = np.full(14, np.nan, np.float32)
    add(x[::-1], y, wide[::2])
    np.testing.assert_array_equal(wide[::2], x[::-1] + y)
    assert np.isnan(wide[1::2]).all()
    # Static outputs are allocated and returned; a scalar comes first.
    np.testing.assert_array_equal(axpy(2.0, a, b), np.float32(2) * a + b)
    np.testing.assert_array_equal(axpy(np.float32(0.5), a, b), np.float32(0.5) * a + b)
    # Several outputs come back as a tuple; an int64 scalar after an array.
    total, top = row_stats(m, 3)
    np.testing.assert_array_equal(total, 3 * m.sum(axis=1))
    np.testing.assert_array_equal(top, m.max(axis=1))
    print("%s calls: ok" % target)

    expect_error(ValueError, add, x, y)
    expect_error(ValueError, add, x, y.reshape(7, 1), out)
    expect_error(ValueError, axpy, 1.0, a.T, b)
    expect_error(TypeError, axpy, 1.0, a.astype(np.float64), b)
    expect_error(TypeError, axpy, 1.0, a)
    expect_error(TypeError, row_stats, m, 2.5)
    expect_error(OverflowError, row_stats, m, 2 ** 63)
    expect_error(TypeError, row_stats, m, np.ones(2, np.int64))
    expect_error(TypeError, axpy, 1.0, a, b, [0.0] * 12)
    expect_error(ValueError, axpy, 1.0, a, b, np.zeros((4, 3), np.float32)[:, :2])
    readonly = np.zeros((4, 3), np.float32)
    readonly.flags.writeable = False
    expect_error(ValueError, axpy, 1.0, a, b, readonly)
    expect_error(AttributeError, mod.get_function, "sub")

    result = mod.time_evaluator("add", number=20, repeat=3)(x, y, out)
    assert len(result.results) == 3 and result.min > 0, result
    assert result.min <= result.median <= result.max, result
    np.testing.assert_array_equal(out, x + y)
    # A repeat shorter than min_repeat_ms runs again with more calls.
    result = mod.time_evaluator("axpy", number=1, repeat=2, min_repeat_ms=5)(1.0, a, b)
    assert len(result.results) == 2 and result.mean > 0, result
    print(str(result).splitlines()[1].split())
    print("%s time_evaluator: ok" % target)
    return mod


cpu = check_module("cpu")
# CHECK-NEXT: cpu cpu ['add', 'axpy', 'row_stats']
# CHECK-NEXT: cpu calls: ok
# CHECK-NEXT: ValueError: add: output 'out0' has a dynamic shape [?]: pass the outputs, add(x, y, out0)
# CHECK-NEXT: ValueError: add: input 'y' must have shape [?], got [7, 1]
# CHECK-NEXT: ValueError: axpy: input 'x' must have shape [4, 3], got [3, 4]
# CHECK-NEXT: TypeError: axpy: input 'x' must be float32, got float64 (convert with .astype)
# CHECK-NEXT: TypeError: axpy takes 3 inputs (alpha, x, y) and 1 outputs (out0): call axpy(alpha, x, y), or axpy(alpha, x, y, out0) to write the outputs in place; got 2 arguments
# CHECK-NEXT: TypeError: row_stats: scalar 'n' must be an integer (int64), got 2.5
# CHECK-NEXT: OverflowError: row_stats: scalar 'n' = 9223372036854775808 does not fit in int64
# CHECK-NEXT: TypeError: row_stats: scalar 'n' must be a number, got an array of shape [2]
# CHECK-NEXT: TypeError: axpy: output 'out0' must be a numpy array, got list
# CHECK-NEXT: ValueError: axpy: output 'out0' must have shape [4, 3], got [4, 2]
# CHECK-NEXT: ValueError: axpy: output 'out0' is read-only
# CHECK-NEXT: AttributeError: cpu.so has no entry 'sub'; its entries: add, axpy, row_stats
# CHECK-NEXT: ['mean', '(ms)', 'median', '(ms)', 'max', '(ms)', 'min', '(ms)', 'std', '(ms)']
# CHECK-NEXT: cpu time_evaluator: ok
expect_error(TypeError, cpu["add"], FakeCudaArray(x), y, np.empty(7, np.float32))
# CHECK-NEXT: TypeError: add: input 'x' is a CUDA array, but this library's target is cpu

cuda = check_module("cuda")
# CHECK-NEXT: cuda fake GPU (host memory) ['add', 'axpy', 'row_stats', 'fail']
# CHECK-NEXT: cuda calls: ok
# CHECK: TypeError: axpy: output 'out0' must be a numpy array or a CUDA array, got list
# CHECK: AttributeError: cuda.so has no entry 'sub'; its entries: add, axpy, row_stats, fail
# CHECK: cuda time_evaluator: ok

add, axpy = cuda["add"], cuda["axpy"]
live_buffers = cuda._lib.fake_live_buffers
assert live_buffers() == 0, live_buffers()
# __cuda_array_interface__ objects are passed as device pointers, with no
# copies: the output is written into the array behind it.
out = np.full(7, np.nan, np.float32)
add(FakeCudaArray(x), y, FakeCudaArray(out, stream=None))
np.testing.assert_array_equal(out, x + y)
out = np.full(7, np.nan, np.float32)
add(FakeCudaArray(x, strides=(4,), stream=7), FakeCudaArray(y), FakeCudaArray(out))
np.testing.assert_array_equal(out, x + y)
np.testing.assert_array_equal(axpy(3.0, FakeCudaArray(a), b), np.float32(3) * a + b)
print("cuda arrays: ok")
# CHECK-NEXT: cuda arrays: ok
# A view 4 bytes into an allocation: the kernels load 16 bytes at once.
unaligned = np.zeros(8 + 4, np.float32)
unaligned = unaligned[(-unaligned.ctypes.data // 4) % 4 + 1:][:7]
expect_error(ValueError, add, FakeCudaArray(unaligned), y, np.empty(7, np.float32))
# CHECK-NEXT: ValueError: add: input 'x' is not 16-byte aligned (data pointer 0x{{[0-9a-f]+}}); pass a copy (torch: .clone())
expect_error(ValueError, axpy, 1.0, FakeCudaArray(a, strides=(4, 16)), b)
# CHECK-NEXT: ValueError: CUDA arrays must be C-contiguous (strides [4, 16] for shape [4, 3]); make a contiguous copy (torch: .contiguous())
expect_error(TypeError, axpy, 1.0, FakeCudaArray(a.astype(np.float16)), b)
# CHECK-NEXT: TypeError: axpy: input 'x' must be float32, got float16 (convert with .astype)
expect_error(ValueError, axpy, 1.0, a, b,
             FakeCudaArray(np.zeros((4, 3), np.float32), readonly=True))
# CHECK-NEXT: ValueError: axpy: output 'out0' is read-only
# A "kernel" that fails: the runtime's message, and the error is cleared.
expect_error(RuntimeError, cuda["fail"], x)
# CHECK-NEXT: RuntimeError: fail: an illegal memory access was encountered
out = np.empty(7, np.float32)
add(x, y, out)
np.testing.assert_array_equal(out, x + y)
expect_error(RuntimeError, cuda.time_evaluator("fail", number=2), x)
# CHECK-NEXT: RuntimeError: fail: an illegal memory access was encountered
# An error pending before a call (from outside the loader) is raised first.
cuda._lib._mlir_ciface_fail(None)
expect_error(RuntimeError, add, x, y, out)
# CHECK-NEXT: RuntimeError: add: an illegal memory access was encountered
out = np.empty(7, np.float32)
add(x, y, out)
np.testing.assert_array_equal(out, x + y)
assert live_buffers() == 0, live_buffers()
print("device buffers freed: ok")
# CHECK-NEXT: device buffers freed: ok
