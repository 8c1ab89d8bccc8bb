/* A fake libcuda.so.1 over host memory, so that cuda-runtime.py and
 * mlc-run's tests can take libmlc_cuda_runtime's device path on machines
 * without a GPU. It exports the entry points the runtime resolves (under the
 * names cuda.h maps to) and knows two kernels, which it runs on the CPU:
 * - mlc_add_one(int *data, unsigned n) adds one to data[0, n);
 * - mlc_add_one_memref(memref<?xi32>) does the same to a 1-d memref, taking
 *   its descriptor as MLIR's GPU lowering passes it (allocated and aligned
 *   pointers, offset, size, stride); its data must be device memory
 *   allocated here (CUDA_ERROR_ILLEGAL_ADDRESS otherwise);
 * - mlc_add_constant_memref(memref<?xi32> data, memref<?x?xi32> c) adds
 *   c's elements, row-major, to data[0, n), both device memory allocated
 *   here (a constant must arrive as the device copy the runtime keeps).
 * Each thread of the grid handles one element. Like the real driver it fails
 * calls made without a current context, rejects blocks of more than 1024
 * threads and frees only what it allocated. It has only the pre-12.8
 * cuEventElapsedTime, as older drivers do.
 *
 * Built with -DMLC_FAKE_CUDA_NO_DEVICE it is a driver without devices:
 * cuInit fails with CUDA_ERROR_NO_DEVICE. */

#define _POSIX_C_SOURCE 200809L

#include <cuda.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int primaryContext;
static __thread CUcontext current;
static int memoryPool;
static int addOneKernel;
static int addOneMemRefKernel;
static int addConstantMemRefKernel;

#define REQUIRE_CONTEXT()                                                      \
  do {                                                                         \
    if (current != (CUcontext)&primaryContext)                                 \
      return CUDA_ERROR_INVALID_CONTEXT;                                       \
  } while (0)

/* Live allocations, to check frees and answer pointer queries. */
static void *allocations[1024];

static CUresult allocate(CUdeviceptr *ptr, size_t size) {
  REQUIRE_CONTEXT();
  for (int i = 0; i < 1024; ++i) {
    if (allocations[i])
      continue;
    allocations[i] = malloc(size ? size : 1);
    if (!allocations[i])
      return CUDA_ERROR_OUT_OF_MEMORY;
    *ptr = (CUdeviceptr)(uintptr_t)allocations[i];
    return CUDA_SUCCESS;
  }
  return CUDA_ERROR_OUT_OF_MEMORY;
}

static int findAllocation(CUdeviceptr ptr) {
  for (int i = 0; i < 1024; ++i)
    if (allocations[i] && (CUdeviceptr)(uintptr_t)allocations[i] == ptr)
      return i;
  return -1;
}

static CUresult release(CUdeviceptr ptr) {
  REQUIRE_CONTEXT();
  int i = findAllocation(ptr);
  if (i < 0)
    return CUDA_ERROR_INVALID_VALUE;
  free(allocations[i]);
  allocations[i] = NULL;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case CUDA_SUCCESS:
    *name = "CUDA_SUCCESS";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_VALUE:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_CONTEXT:
    *name = "CUDA_ERROR_INVALID_CONTEXT";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_IMAGE:
    *name = "CUDA_ERROR_INVALID_IMAGE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_FOUND:
    *name = "CUDA_ERROR_NOT_FOUND";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NO_DEVICE:
    *name = "CUDA_ERROR_NO_DEVICE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *name = "CUDA_ERROR_ILLEGAL_ADDRESS";
    return CUDA_SUCCESS;
  default:
    *name = NULL;
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  const char *name = NULL;
  CUresult result = cuGetErrorName(error, &name);
  *text = name ? "fake driver error" : NULL;
  return result;
}

#ifdef MLC_FAKE_CUDA_NO_DEVICE
enum { kNumDevices = 0 };
#else
enum { kNumDevices = 1 };
#endif

CUresult cuInit(unsigned int flags) {
  if (flags)
    return CUDA_ERROR_INVALID_VALUE;
  return kNumDevices ? CUDA_SUCCESS : CUDA_ERROR_NO_DEVICE;
}

CUresult cuDeviceGetCount(int *count) {
  *count = kNumDevices;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal < 0 || ordinal >= kNumDevices)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int length, CUdevice device) {
  (void)device;
  strncpy(name, "fake CUDA device", length);
  name[length - 1] = '\0';
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                              CUdevice device) {
  (void)device;
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
    *value = 1;
    break;
  default:
    *value = 0;
  }
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  (void)device;
  *context = (CUcontext)&primaryContext;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *context) {
  *context = current;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext context) {
  current = context;
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void) {
  REQUIRE_CONTEXT();
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream stream) {
  (void)stream;
  REQUIRE_CONTEXT();
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  REQUIRE_CONTEXT();
  if (!strstr((const char *)image, ".entry mlc_add_"))
    return CUDA_ERROR_INVALID_IMAGE;
  *module = (CUmodule)malloc(1);
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned int numOptions, CUjit_option *options,
                            void **values) {
  CUresult result = cuModuleLoadData(module, image);
  for (unsigned i = 0; result == CUDA_ERROR_INVALID_IMAGE && i < numOptions;
       ++i)
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
      strcpy((char *)values[i], "fake JIT: no kernel in this image");
  return result;
}

CUresult cuModuleUnload(CUmodule module) {
  REQUIRE_CONTEXT();
  free(module);
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  REQUIRE_CONTEXT();
  if (!module)
    return CUDA_ERROR_NOT_FOUND;
  if (strcmp(name, "mlc_add_one") == 0)
    *function = (CUfunction)&addOneKernel;
  else if (strcmp(name, "mlc_add_one_memref") == 0)
    *function = (CUfunction)&addOneMemRefKernel;
  else if (strcmp(name, "mlc_add_constant_memref") == 0)
    *function = (CUfunction)&addConstantMemRefKernel;
  else
    return CUDA_ERROR_NOT_FOUND;
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction function, CUfunction_attribute attribute,
                            int value) {
  (void)attribute;
  (void)value;
  REQUIRE_CONTEXT();
  return function ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuLaunchKernel(CUfunction function, unsigned int gridX,
                        unsigned int gridY, unsigned int gridZ,
                        unsigned int blockX, unsigned int blockY,
                        unsigned int blockZ, unsigned int sharedBytes,
                        CUstream stream, void **params, void **extra) {
  (void)sharedBytes;
  (void)stream;
  (void)extra;
  REQUIRE_CONTEXT();
  if ((function != (CUfunction)&addOneKernel &&
       function != (CUfunction)&addOneMemRefKernel &&
       function != (CUfunction)&addConstantMemRefKernel) ||
      !params || blockX * blockY * blockZ > 1024 || !gridX || !gridY || !gridZ)
    return CUDA_ERROR_INVALID_VALUE;
  unsigned threads = gridX * blockX;
  if (function == (CUfunction)&addOneKernel) {
    int *data = *(int **)params[0];
    unsigned n = *(unsigned *)params[1];
    for (unsigned i = 0; i < n && i < threads; ++i)
      ++data[i];
    return CUDA_SUCCESS;
  }
  /* params: allocated, aligned, offset, size, stride. */
  int *allocated = *(int **)params[0];
  int *aligned = *(int **)params[1];
  int64_t offset = *(int64_t *)params[2];
  int64_t size = *(int64_t *)params[3];
  int64_t stride = *(int64_t *)params[4];
  if (findAllocation((CUdeviceptr)(uintptr_t)allocated) < 0 ||
      aligned != allocated)
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (function == (CUfunction)&addOneMemRefKernel) {
    for (int64_t i = 0; i < size && i < (int64_t)threads; ++i)
      ++aligned[offset + i * stride];
    return CUDA_SUCCESS;
  }
  /* params 5 to 11: c's allocated and aligned pointers, offset, sizes and
   * strides. */
  int *cAllocated = *(int **)params[5];
  int *c = *(int **)params[6];
  int64_t cOffset = *(int64_t *)params[7];
  int64_t rows = *(int64_t *)params[8], columns = *(int64_t *)params[9];
  int64_t rowStride = *(int64_t *)params[10];
  int64_t columnStride = *(int64_t *)params[11];
  if (findAllocation((CUdeviceptr)(uintptr_t)cAllocated) < 0)
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  for (int64_t i = 0; i < size && i < (int64_t)threads && i < rows * columns;
       ++i)
    aligned[offset + i * stride] +=
        c[cOffset + (i / columns) * rowStride + (i % columns) * columnStride];
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *event, unsigned int flags) {
  (void)flags;
  REQUIRE_CONTEXT();
  *event = (CUevent)calloc(1, sizeof(struct timespec));
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent event) {
  REQUIRE_CONTEXT();
  free(event);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  (void)stream;
  REQUIRE_CONTEXT();
  clock_gettime(CLOCK_MONOTONIC, (struct timespec *)event);
  return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent event) {
  (void)event;
  REQUIRE_CONTEXT();
  return CUDA_SUCCESS;
}

#undef cuEventElapsedTime
CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
  REQUIRE_CONTEXT();
  const struct timespec *a = (const struct timespec *)start;
  const struct timespec *b = (const struct timespec *)end;
  *ms = (b->tv_sec - a->tv_sec) * 1e3f + (b->tv_nsec - a->tv_nsec) / 1e6f;
  return CUDA_SUCCESS;
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute,
                               CUdeviceptr ptr) {
  REQUIRE_CONTEXT();
  if (attribute != CU_POINTER_ATTRIBUTE_MEMORY_TYPE || findAllocation(ptr) < 0)
    return CUDA_ERROR_INVALID_VALUE;
  *(unsigned int *)data = CU_MEMORYTYPE_DEVICE;
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *ptr, size_t size) {
  return allocate(ptr, size);
}

CUresult cuMemAllocManaged(CUdeviceptr *ptr, size_t size, unsigned int flags) {
  (void)flags;
  return allocate(ptr, size);
}

CUresult cuMemAllocAsync(CUdeviceptr *ptr, size_t size, CUstream stream) {
  (void)stream;
  return allocate(ptr, size);
}

CUresult cuMemFree(CUdeviceptr ptr) { return release(ptr); }

CUresult cuMemFreeAsync(CUdeviceptr ptr, CUstream stream) {
  (void)stream;
  return release(ptr);
}

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice device) {
  (void)device;
  *pool = (CUmemoryPool)&memoryPool;
  return CUDA_SUCCESS;
}

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attribute,
                               void *value) {
  (void)attribute;
  (void)value;
  return pool == (CUmemoryPool)&memoryPool ? CUDA_SUCCESS
                                           : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t size) {
  REQUIRE_CONTEXT();
  memcpy((void *)(uintptr_t)dst, src, size);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t size) {
  REQUIRE_CONTEXT();
  memcpy(dst, (const void *)(uintptr_t)src, size);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t size,
                       CUstream stream) {
  (void)stream;
  REQUIRE_CONTEXT();
  memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, size);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t count) {
  REQUIRE_CONTEXT();
  memset((void *)(uintptr_t)dst, value, count);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                          CUstream stream) {
  (void)stream;
  REQUIRE_CONTEXT();
  for (size_t i = 0; i < count; ++i)
    ((unsigned short *)(uintptr_t)dst)[i] = value;
  return CUDA_SUCCESS;
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t count,
                          CUstream stream) {
  (void)stream;
  REQUIRE_CONTEXT();
  for (size_t i = 0; i < count; ++i)
    ((unsigned int *)(uintptr_t)dst)[i] = value;
  return CUDA_SUCCESS;
}

CUresult cuMemHostRegister(void *ptr, size_t size, unsigned int flags) {
  (void)ptr;
  (void)size;
  (void)flags;
  REQUIRE_CONTEXT();
  return CUDA_SUCCESS;
}

CUresult cuMemHostUnregister(void *ptr) {
  (void)ptr;
  REQUIRE_CONTEXT();
  return CUDA_SUCCESS;
}

/* TMA descriptors: checks what the real driver documents (rank 1 to 5,
 * 16-byte aligned address and strides, boxes of at most 256 per dimension
 * and, with a swizzle, inner box rows of at most the swizzle's width), then
 * writes the arguments into the opaque map as 64-bit words for the test to
 * read back: rank, data type, address, the dims, the strides (rank - 1), the
 * box, swizzle, L2 promotion, out-of-bounds fill. */
CUresult cuTensorMapEncodeTiled(
    CUtensorMap *map, CUtensorMapDataType dataType, cuuint32_t rank,
    void *address, const cuuint64_t *dims, const cuuint64_t *strides,
    const cuuint32_t *box, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
  (void)elementStrides;
  (void)interleave;
  if (rank < 1 || rank > 5 || (uintptr_t)address % 16 != 0)
    return CUDA_ERROR_INVALID_VALUE;
  for (cuuint32_t i = 0; i + 1 < rank; ++i)
    if (strides[i] % 16 != 0)
      return CUDA_ERROR_INVALID_VALUE;
  for (cuuint32_t i = 0; i < rank; ++i)
    if (box[i] == 0 || box[i] > 256)
      return CUDA_ERROR_INVALID_VALUE;
  if (swizzle == CU_TENSOR_MAP_SWIZZLE_128B && box[0] * 2 > 128)
    return CUDA_ERROR_INVALID_VALUE;
  uint64_t words[16] = {0};
  int n = 0;
  words[n++] = rank;
  words[n++] = (uint64_t)dataType;
  words[n++] = (uint64_t)(uintptr_t)address;
  for (cuuint32_t i = 0; i < rank; ++i)
    words[n++] = dims[i];
  for (cuuint32_t i = 0; i + 1 < rank; ++i)
    words[n++] = strides[i];
  words[n++] = (uint64_t)box[0] | (uint64_t)box[rank - 1] << 32;
  words[n++] = (uint64_t)swizzle | (uint64_t)l2Promotion << 16 |
               (uint64_t)oobFill << 32;
  memcpy(map, words, sizeof(words));
  return CUDA_SUCCESS;
}
