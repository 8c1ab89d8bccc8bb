# libmlc_cuda_runtime through ctypes: the mlc_cuda_* C API and the mgpu*
# entry points that MLIR's GPU host code calls.
# - Without a driver or device (this machine, usually): mlc_cuda_init fails
#   with "no CUDA device: ...", printed once to stderr, and every other call
#   returns NULL/-1 or does nothing, without crashing.
# - With a device: buffers round-trip through malloc/htod/dtoh, a PTX kernel
#   loads through the JIT and runs, events time, and a failed launch is
#   recorded with the kernel's name, skips later launches until cleared.
# The second run takes the device path on a fake libcuda.so.1 over host
# memory (Inputs/fake-libcuda.c), so that it runs on machines without a GPU.
# REQUIRES: cuda-runtime
# RUN: %python %s %mlc_cuda_runtime | FileCheck %s
# RUN: rm -rf %t && mkdir -p %t
# RUN: %if c-compiler %{ %cc -std=c99 -Wall -Wextra -Werror -shared -fPIC -I%cuda_toolkit_dir/include %S/Inputs/fake-libcuda.c -o %t/libcuda.so.1 %}
# RUN: %if c-compiler %{ env LD_LIBRARY_PATH=%t %python %s %mlc_cuda_runtime --expect-device | FileCheck %s --check-prefixes=CHECK,DEVICE %}
# CHECK: cuda runtime: ok
# DEVICE-SAME: (device)

import ctypes
import os
import sys
import tempfile

LIBRARY = sys.argv[1]
EXPECT_DEVICE = "--expect-device" in sys.argv[2:]
# The fake driver (Inputs/fake-libcuda.c) reads its TMA descriptors back.
FAKE_DRIVER = EXPECT_DEVICE

# A kernel adding one to each of `n` ints, as the driver's JIT takes it.
ADD_ONE_PTX = b"""
.version 6.0
.target sm_50
.address_size 64

.visible .entry mlc_add_one(.param .u64 data, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;

  ld.param.u64 %rd1, [data];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r6, [%rd4];
  add.s32 %r7, %r6, 1;
  st.global.u32 [%rd4], %r7;
DONE:
  ret;
}
\x00"""

P = ctypes.c_void_p
SIZE = ctypes.c_size_t
INT = ctypes.c_int
INTPTR = ctypes.c_ssize_t
SIGNATURES = {
    "mlc_cuda_init": (INT, []),
    "mlc_cuda_device_count": (INT, []),
    "mlc_cuda_device_name": (ctypes.c_char_p, []),
    "mlc_cuda_get_last_error": (ctypes.c_char_p, []),
    "mlc_cuda_clear_error": (None, []),
    "mlc_cuda_malloc": (P, [SIZE]),
    "mlc_cuda_free": (INT, [P]),
    "mlc_cuda_memcpy_htod": (INT, [P, P, SIZE]),
    "mlc_cuda_memcpy_dtoh": (INT, [P, P, SIZE]),
    "mlc_cuda_memset_zero": (INT, [P, SIZE]),
    "mlc_cuda_synchronize": (INT, []),
    "mlc_cuda_event_create": (P, []),
    "mlc_cuda_event_record": (INT, [P]),
    "mlc_cuda_event_elapsed_ms": (INT, [P, P, ctypes.POINTER(ctypes.c_float)]),
    "mlc_cuda_event_destroy": (INT, [P]),
    "mgpuModuleLoad": (P, [P, SIZE]),
    "mgpuModuleLoadJIT": (P, [P, INT]),
    "mgpuModuleUnload": (None, [P]),
    "mgpuModuleGetFunction": (P, [P, ctypes.c_char_p]),
    "mgpuLaunchKernel": (None, [P] + [INTPTR] * 6 +
                         [ctypes.c_int32, P, P, P, SIZE]),
    "mgpuStreamCreate": (P, []),
    "mgpuStreamDestroy": (None, [P]),
    "mgpuStreamSynchronize": (None, [P]),
    "mgpuEventCreate": (P, []),
    "mgpuEventRecord": (None, [P, P]),
    "mgpuStreamWaitEvent": (None, [P, P]),
    "mgpuEventDestroy": (None, [P]),
    "mgpuMemAlloc": (P, [ctypes.c_uint64, P, ctypes.c_bool]),
    "mgpuMemFree": (None, [P, P]),
    "mgpuMemcpy": (None, [P, P, SIZE, P]),
    "mgpuMemset32": (None, [P, ctypes.c_uint32, SIZE, P]),
    "mlc_cuda_tensor_map_encode_tiled_f16": (P, [ctypes.c_int64, P] +
                                             [ctypes.c_int64] * 9),
    "mlc_cuda_tensor_map_encode_tiled_constant_f16": (
        P, [ctypes.c_int64, P] + [ctypes.c_int64] * 9),
}


class MemRef3(ctypes.Structure):
    """A rank-3 memref descriptor as MLIR passes it (StridedMemRefType)."""
    _fields_ = [("allocated", P), ("aligned", P), ("offset", ctypes.c_int64),
                ("sizes", ctypes.c_int64 * 3), ("strides", ctypes.c_int64 * 3)]


def encode_tensor_map(data, sizes, offset=0, constant=False):
    """The TMA descriptor of the Hopper Matmul rule's A: f16 (6), 128-byte
    swizzle (3), 256-byte L2 promotion (3), zero fill (0), boxes of
    1 x 128 x 64. A `constant` is host memory (a bound weight)."""
    strides = (sizes[1] * sizes[2], sizes[2], 1)
    desc = MemRef3(data, data, offset, sizes, strides)
    encode = (lib.mlc_cuda_tensor_map_encode_tiled_constant_f16 if constant
              else lib.mlc_cuda_tensor_map_encode_tiled_f16)
    return encode(3, ctypes.byref(desc), 6, 3, 3, 0, 1, 128, 64, 1, 1)

lib = ctypes.CDLL(LIBRARY)
for name, (restype, argtypes) in SIGNATURES.items():
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = argtypes


class StderrCapture:
    """Collects what the C library writes to file descriptor 2."""

    def __enter__(self):
        self.file = tempfile.TemporaryFile()
        self.saved = os.dup(2)
        os.dup2(self.file.fileno(), 2)
        return self

    def __exit__(self, *args):
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.file.seek(0)
        self.text = self.file.read().decode()
        self.file.close()
        sys.stderr.write(self.text)


def last_error():
    message = lib.mlc_cuda_get_last_error()
    return message.decode() if message else None


def error_lines(text):
    return [line for line in text.splitlines()
            if line.startswith("mlc cuda runtime: error: ")]


def check_no_device():
    count = lib.mlc_cuda_device_count()
    assert count in (-1, 0), count
    with StderrCapture() as capture:
        assert lib.mlc_cuda_init() == -1
        message = last_error()
        assert message.startswith("no CUDA device"), message
        # Idempotent, and the error is printed once.
        assert lib.mlc_cuda_init() == -1
        assert last_error() == message
        assert lib.mlc_cuda_device_name() is None
        assert lib.mlc_cuda_malloc(16) is None
        buffer = ctypes.create_string_buffer(16)
        assert lib.mlc_cuda_memcpy_htod(None, buffer, 16) == -1
        assert lib.mlc_cuda_memcpy_dtoh(buffer, None, 16) == -1
        assert lib.mlc_cuda_memset_zero(None, 16) == -1
        assert lib.mlc_cuda_synchronize() == -1
        assert lib.mlc_cuda_event_create() is None
        assert lib.mlc_cuda_free(None) == 0
        # What generated host code would do, down to a model .so's global
        # constructors loading its GPU binary.
        module = lib.mgpuModuleLoad(ADD_ONE_PTX, len(ADD_ONE_PTX))
        assert module is None
        assert lib.mgpuModuleLoadJIT(ADD_ONE_PTX, 2) is None
        function = lib.mgpuModuleGetFunction(module, b"mlc_add_one")
        assert function is None
        stream = lib.mgpuStreamCreate()
        data = lib.mgpuMemAlloc(64, stream, False)
        assert data is None
        lib.mgpuMemcpy(data, buffer, 16, stream)
        lib.mgpuMemset32(data, 0, 4, stream)
        lib.mgpuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, stream, None, None,
                             0)
        event = lib.mgpuEventCreate()
        lib.mgpuEventRecord(event, stream)
        lib.mgpuStreamWaitEvent(stream, event)
        lib.mgpuEventDestroy(event)
        lib.mgpuStreamSynchronize(stream)
        lib.mgpuMemFree(data, stream)
        lib.mgpuStreamDestroy(stream)
        lib.mgpuModuleUnload(module)
        assert encode_tensor_map(None, (2, 200, 256)) is None
        assert last_error() == message
        # Cleared, the failure is recorded (and printed) again on next use.
        lib.mlc_cuda_clear_error()
        assert last_error() is None
        assert lib.mlc_cuda_malloc(16) is None
        assert last_error() == message
    assert error_lines(capture.text) == ["mlc cuda runtime: error: " + message] * 2
    print("no device:", message.split(":")[0])
    print("cuda runtime: ok")


def check_device():
    count = lib.mlc_cuda_device_count()
    assert count > 0, count
    assert lib.mlc_cuda_init() == 0, last_error()
    assert lib.mlc_cuda_init() == 0
    assert last_error() is None
    assert lib.mlc_cuda_device_name()

    # Round trips through the C API.
    n = 1000
    size = 4 * n
    host = (ctypes.c_int32 * n)(*range(n))
    back = (ctypes.c_int32 * n)()
    device = lib.mlc_cuda_malloc(size)
    assert device, last_error()
    assert lib.mlc_cuda_memcpy_htod(device, host, size) == 0
    assert lib.mlc_cuda_memcpy_dtoh(back, device, size) == 0
    assert list(back) == list(host)
    assert lib.mlc_cuda_memset_zero(device, size) == 0
    assert lib.mlc_cuda_memcpy_dtoh(back, device, size) == 0
    assert not any(back)

    # The mgpu* calls of generated host code: one stream, the default one.
    stream = lib.mgpuStreamCreate()
    assert stream is None
    module = lib.mgpuModuleLoadJIT(ADD_ONE_PTX, 3)
    assert module, last_error()
    function = lib.mgpuModuleGetFunction(module, b"mlc_add_one")
    assert function, last_error()
    # Later lookups come from the cache.
    assert lib.mgpuModuleGetFunction(module, b"mlc_add_one") == function
    data = lib.mgpuMemAlloc(size, stream, False)
    assert data, last_error()
    lib.mgpuMemcpy(data, host, size, stream)
    data_arg = ctypes.c_void_p(data)
    n_arg = ctypes.c_uint32(n)
    params = (ctypes.c_void_p * 2)(ctypes.addressof(data_arg),
                                   ctypes.addressof(n_arg))

    def launch(block):
        grid = (n + block - 1) // block
        lib.mgpuLaunchKernel(function, grid, 1, 1, block, 1, 1, 0, stream,
                             params, None, 2)

    launch(128)
    event = lib.mgpuEventCreate()
    lib.mgpuEventRecord(event, stream)
    lib.mgpuStreamWaitEvent(stream, event)
    lib.mgpuEventDestroy(event)
    lib.mgpuMemcpy(back, data, size, stream)
    lib.mgpuStreamSynchronize(stream)
    assert last_error() is None, last_error()
    assert list(back) == [i + 1 for i in range(n)]

    # A launch the driver rejects: recorded with the kernel's name, and later
    # launches are skipped until the error is cleared.
    with StderrCapture() as capture:
        launch(4096)
        message = last_error()
        assert message and "mlc_add_one" in message, message
        assert "CUDA_ERROR_INVALID_VALUE" in message, message
        launch(128)
        assert last_error() == message
    assert error_lines(capture.text) == ["mlc cuda runtime: error: " + message]
    assert lib.mlc_cuda_memcpy_dtoh(back, data, size) == 0
    assert list(back) == [i + 1 for i in range(n)]
    lib.mlc_cuda_clear_error()
    assert last_error() is None
    launch(256)
    assert lib.mlc_cuda_memcpy_dtoh(back, data, size) == 0
    assert list(back) == [i + 2 for i in range(n)]

    # Timing events on the same stream.
    start, end = lib.mlc_cuda_event_create(), lib.mlc_cuda_event_create()
    assert start and end, last_error()
    assert lib.mlc_cuda_event_record(start) == 0
    launch(128)
    assert lib.mlc_cuda_event_record(end) == 0
    ms = ctypes.c_float(-1.0)
    assert lib.mlc_cuda_event_elapsed_ms(start, end, ctypes.byref(ms)) == 0
    assert ms.value >= 0.0, ms.value
    assert lib.mlc_cuda_event_destroy(start) == 0
    assert lib.mlc_cuda_event_destroy(end) == 0
    assert lib.mlc_cuda_synchronize() == 0

    # TMA descriptors: encoded into device memory, dimensions innermost
    # first, strides in bytes; the same one twice is one allocation.
    if FAKE_DRIVER:
        tensor = lib.mlc_cuda_malloc(2 * 200 * 256 * 2)
        assert tensor, last_error()
        tensor_map = encode_tensor_map(tensor, (2, 200, 256))
        assert tensor_map, last_error()
        assert encode_tensor_map(tensor, (2, 200, 256)) == tensor_map
        words = (ctypes.c_uint64 * 16)()
        assert lib.mlc_cuda_memcpy_dtoh(words, tensor_map, 128) == 0
        assert list(words[:10]) == [3, 6, tensor, 256, 200, 2, 512,
                                    200 * 256 * 2, 64 | 1 << 32,
                                    3 | 3 << 16], list(words[:10])
        at_offset = encode_tensor_map(tensor, (2, 200, 256), offset=8)
        assert at_offset and at_offset != tensor_map, last_error()
        assert lib.mlc_cuda_memcpy_dtoh(words, at_offset, 128) == 0
        assert words[2] == tensor + 16, words[2]
        # Rows of 100 f16 (200 bytes) are no whole 16-byte pieces.
        with StderrCapture() as capture:
            assert encode_tensor_map(tensor, (2, 200, 100)) is None
            message = last_error()
            assert "cuTensorMapEncodeTiled" in message, message
        assert error_lines(capture.text) == ["mlc cuda runtime: error: " +
                                             message]
        lib.mlc_cuda_clear_error()

        # A host constant's map describes a device copy holding its data,
        # uploaded at the first call and kept (later changes to the host
        # bytes are not seen) until a module unloads; device memory passed
        # where a constant may be is used as it is.
        count = 2 * 128 * 64
        weight = (ctypes.c_uint16 * count)(*[i % 65521 for i in range(count)])
        address = ctypes.addressof(weight)
        constant_map = encode_tensor_map(address, (2, 128, 64), constant=True)
        assert constant_map, last_error()
        assert lib.mlc_cuda_memcpy_dtoh(words, constant_map, 128) == 0
        copy = words[2]
        assert copy != address and list(words[3:6]) == [64, 128, 2], \
            list(words[:10])
        uploaded = (ctypes.c_uint16 * count)()
        assert lib.mlc_cuda_memcpy_dtoh(uploaded, copy, 2 * count) == 0
        assert list(uploaded) == list(weight)
        weight[0] = 7
        assert encode_tensor_map(address, (2, 128, 64),
                                 constant=True) == constant_map
        other = lib.mgpuModuleLoadJIT(ADD_ONE_PTX, 3)
        assert other, last_error()
        lib.mgpuModuleUnload(other)
        assert last_error() is None, last_error()
        reloaded = encode_tensor_map(address, (2, 128, 64), constant=True)
        assert reloaded, last_error()
        assert lib.mlc_cuda_memcpy_dtoh(words, reloaded, 128) == 0
        assert lib.mlc_cuda_memcpy_dtoh(uploaded, words[2], 2 * count) == 0
        assert uploaded[0] == 7 and list(uploaded) == list(weight)
        on_device = encode_tensor_map(tensor, (2, 200, 256), constant=True)
        assert on_device == tensor_map, last_error()
        assert lib.mlc_cuda_free(tensor) == 0

    lib.mgpuMemFree(data, stream)
    lib.mgpuModuleUnload(module)
    assert lib.mlc_cuda_free(device) == 0
    assert last_error() is None, last_error()
    print("cuda runtime: ok (device)")


if EXPECT_DEVICE or lib.mlc_cuda_device_count() > 0:
    check_device()
else:
    check_no_device()
