//===- CUDARuntime.cpp - mlc's CUDA runtime library -------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The mgpu* entry points that MLIR's gpu-to-llvm host code calls, and mlc's C
// API for tools and Python (mlc/ExecutionEngine/CUDARuntime.h).
//
// This file is linked into self-contained model .so files, so it uses only
// libc, libdl and libpthread: no libstdc++ (no new/delete, std::string,
// exceptions, RTTI or guarded function-local statics) and no link-time
// dependency on libcuda, which is opened with dlopen on first use. cuda.h
// provides the types, and its macros the versioned entry-point names.
//
// Design:
// - Errors never abort. The first failure is recorded as a message naming the
//   failing call (and kernel), printed once to stderr, and returned by
//   mlc_cuda_get_last_error. While it is pending, entry points that enqueue
//   work do nothing, so a model call after a failed launch neither crashes
//   nor piles up more errors.
// - All work goes to the legacy default stream (handle 0): it runs in order
//   and is ordered with torch's default stream. mgpuStreamCreate returns it,
//   and MLIR's events between streams become no-ops.
//
//===----------------------------------------------------------------------===//

#include "mlc/ExecutionEngine/CUDARuntime.h"

#include <cuda.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MLC_CUDA_EXPORT __attribute__((visibility("default")))

namespace {

//===----------------------------------------------------------------------===//
// Driver entry points
//===----------------------------------------------------------------------===//

// X-macro lists of the driver functions we use. cuda.h maps many names to
// versioned ones (cuMemAlloc -> cuMemAlloc_v2); macro arguments are expanded
// before substitution, so both the member names and the dlsym strings below
// are the versioned names, matching the prototypes in cuda.h.
#define MLC_CUDA_REQUIRED_FUNCTIONS(X)                                         \
  X(cuInit)                                                                    \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuModuleLoadData)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuStreamSynchronize)                                                       \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuPointerGetAttribute)                                                     \
  X(cuMemAlloc)                                                                \
  X(cuMemAllocManaged)                                                         \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyAsync)                                                             \
  X(cuMemsetD8)                                                                \
  X(cuMemsetD16Async)                                                          \
  X(cuMemsetD32Async)                                                          \
  X(cuMemHostRegister)                                                         \
  X(cuMemHostUnregister)

// Newer than some drivers we still want to run on; we fall back without them.
#define MLC_CUDA_OPTIONAL_FUNCTIONS(X)                                         \
  X(cuMemAllocAsync)                                                           \
  X(cuMemFreeAsync)                                                            \
  X(cuDeviceGetDefaultMemPool)                                                 \
  X(cuMemPoolSetAttribute)                                                     \
  X(cuLaunchKernelEx)                                                          \
  X(cuTensorMapEncodeTiled)

#define MLC_STRINGIFY_IMPL(x) #x
#define MLC_STRINGIFY(x) MLC_STRINGIFY_IMPL(x)

// Pointers to the driver's entry points, named like the functions (and so
// like the versioned names too), so that calls read drv::cuMemAlloc(...).
namespace drv {
#define MLC_DECLARE_DRIVER_FUNCTION(fn) decltype(&::fn) fn;
MLC_CUDA_REQUIRED_FUNCTIONS(MLC_DECLARE_DRIVER_FUNCTION)
MLC_CUDA_OPTIONAL_FUNCTIONS(MLC_DECLARE_DRIVER_FUNCTION)
#undef MLC_DECLARE_DRIVER_FUNCTION
// cuda.h 13 maps cuEventElapsedTime to the _v2 of driver 12.8+; older
// drivers only have the original, which has the same signature.
decltype(&::cuEventElapsedTime) eventElapsedTime;
} // namespace drv

//===----------------------------------------------------------------------===//
// Global state
//===----------------------------------------------------------------------===//

// Everything here is constant-initialized: no static constructors, and no
// guarded statics that would need libstdc++'s __cxa_guard_*.

enum InitState { kUninitialized = 0, kReady = 1, kFailed = 2 };

constexpr size_t kMessageSize = 8192;
constexpr size_t kJitLogSize = 4096;
// cuLaunchKernel refuses more dynamic shared memory than this unless the
// kernel opts in with CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
constexpr int32_t kDefaultSharedMemoryLimit = 48 * 1024;

// gInitMutex serializes initialization and may be held while recording an
// error; gErrorMutex and gTableMutex are leaf locks, never held while taking
// another.
pthread_mutex_t gInitMutex = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t gErrorMutex = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t gTableMutex = PTHREAD_MUTEX_INITIALIZER;

void *gDriverLibrary;
// 0: not tried, 1: loaded, -1: failed with gDriverError.
int gDriverState;
char gDriverError[1024];

int gInitState = kUninitialized;
// Why initialization failed; re-recorded after mlc_cuda_clear_error.
char gInitError[1024];
int32_t gDefaultDevice;
CUdevice gDevice;
CUcontext gContext;
char gDeviceName[256];
int gComputeMajor, gComputeMinor;
// MLC_CUDA_SYNC=1: synchronize after every launch and in
// mgpuStreamSynchronize, so that errors surface at the failing kernel.
bool gSyncMode;
// Stream-ordered allocation (cuMemAllocAsync) is available.
bool gUsePools;

int gHasError;
char gError[kMessageSize];

// Host memory that asynchronous work may still use when host code resumes
// after mgpuStreamSynchronize: live managed allocations and registered host
// ranges, and whether a copy to or from pinned memory was queued since the
// last synchronization.
int gHostVisibleRanges;
int gHostCopyPending;

// A sentinel for mgpuEventCreate: with a single in-order stream, events
// between streams carry no information.
char gEventSentinel;

//===----------------------------------------------------------------------===//
// Error reporting
//===----------------------------------------------------------------------===//

bool hasPendingError() { return __atomic_load_n(&gHasError, __ATOMIC_ACQUIRE); }

__attribute__((format(printf, 1, 2))) void recordError(const char *format,
                                                       ...) {
  pthread_mutex_lock(&gErrorMutex);
  if (!gHasError) {
    va_list args;
    va_start(args, format);
    vsnprintf(gError, sizeof(gError), format, args);
    va_end(args);
    __atomic_store_n(&gHasError, 1, __ATOMIC_RELEASE);
    fprintf(stderr, "mlc cuda runtime: error: %s\n", gError);
  }
  pthread_mutex_unlock(&gErrorMutex);
}

// "CUDA_ERROR_X (description)" for `result`; works before the driver loads.
void describeResult(CUresult result, char *buffer, size_t size) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (drv::cuGetErrorName)
    drv::cuGetErrorName(result, &name);
  if (drv::cuGetErrorString)
    drv::cuGetErrorString(result, &text);
  if (name)
    snprintf(buffer, size, "%s (%s)", name, text ? text : "no description");
  else
    snprintf(buffer, size, "CUDA error %d", static_cast<int>(result));
}

// Records "<what> failed: <CUDA error>" unless `result` is success. `what`
// is formatted only on failure, keeping the success path cheap.
__attribute__((format(printf, 2, 3))) bool check(CUresult result,
                                                 const char *what, ...) {
  if (result == CUDA_SUCCESS)
    return true;
  // Unload and free run from static destructors at exit, after the driver
  // may have shut down; there is nothing left to report then.
  if (result == CUDA_ERROR_DEINITIALIZED)
    return false;
  char call[1024];
  va_list args;
  va_start(args, what);
  vsnprintf(call, sizeof(call), what, args);
  va_end(args);
  char description[512];
  describeResult(result, description, sizeof(description));
  recordError("%s failed: %s", call, description);
  return false;
}

//===----------------------------------------------------------------------===//
// Kernel table
//===----------------------------------------------------------------------===//

// Kernels seen by mgpuModuleGetFunction. Generated code looks each kernel up
// before every launch, passing a constant name string: caching by (module,
// name pointer) saves a driver call per launch, and the reverse index gives
// error messages their kernel name and remembers the shared-memory opt-in.
struct KernelInfo {
  CUmodule module;
  const char *nameKey;
  CUfunction function;
  int32_t dynamicSharedLimit;
  bool nonPortableClusters;
  char *name;
};

KernelInfo *gKernels;
uint32_t gNumKernels;
uint32_t gKernelCapacity;
// Open-addressing indices into gKernels (-1: empty), kept at most half full.
int32_t *gByKey;
int32_t *gByFunction;
uint32_t gIndexCapacity;

uint64_t hashPointers(const void *a, const void *b) {
  uint64_t h = reinterpret_cast<uintptr_t>(a) * 0x9E3779B97F4A7C15ull;
  h ^= reinterpret_cast<uintptr_t>(b) + 0x632BE59BD9B4E019ull + (h << 6) +
       (h >> 2);
  return h ^ (h >> 29);
}

uint64_t keyHash(const KernelInfo &info) {
  return hashPointers(info.module, info.nameKey);
}
uint64_t functionHash(const KernelInfo &info) {
  return hashPointers(info.function, nullptr);
}

void insertIndex(int32_t *index, uint64_t hash, int32_t value) {
  uint32_t mask = gIndexCapacity - 1;
  for (uint32_t slot = hash & mask;; slot = (slot + 1) & mask) {
    if (index[slot] < 0) {
      index[slot] = value;
      return;
    }
  }
}

// Rebuilds both indices for at least `minEntries` kernels. Earlier entries
// win in gByFunction, so a function looked up under two names keeps one
// record of its attributes.
bool rebuildIndices(uint32_t minEntries) {
  uint32_t capacity = gIndexCapacity ? gIndexCapacity : 32;
  while (capacity < 2 * minEntries)
    capacity *= 2;
  if (capacity != gIndexCapacity) {
    auto *byKey = static_cast<int32_t *>(malloc(capacity * sizeof(int32_t)));
    auto *byFunction =
        static_cast<int32_t *>(malloc(capacity * sizeof(int32_t)));
    if (!byKey || !byFunction) {
      free(byKey);
      free(byFunction);
      return false;
    }
    free(gByKey);
    free(gByFunction);
    gByKey = byKey;
    gByFunction = byFunction;
    gIndexCapacity = capacity;
  }
  memset(gByKey, 0xff, gIndexCapacity * sizeof(int32_t));
  memset(gByFunction, 0xff, gIndexCapacity * sizeof(int32_t));
  for (uint32_t i = 0; i < gNumKernels; ++i) {
    insertIndex(gByKey, keyHash(gKernels[i]), i);
    bool known = false;
    uint32_t mask = gIndexCapacity - 1;
    for (uint32_t slot = functionHash(gKernels[i]) & mask;
         gByFunction[slot] >= 0; slot = (slot + 1) & mask)
      known |= gKernels[gByFunction[slot]].function == gKernels[i].function;
    if (!known)
      insertIndex(gByFunction, functionHash(gKernels[i]), i);
  }
  return true;
}

// Callers hold gTableMutex.
KernelInfo *findByKey(CUmodule module, const char *name) {
  if (!gIndexCapacity)
    return nullptr;
  uint32_t mask = gIndexCapacity - 1;
  for (uint32_t slot = hashPointers(module, name) & mask; gByKey[slot] >= 0;
       slot = (slot + 1) & mask) {
    KernelInfo &info = gKernels[gByKey[slot]];
    // The pointer is only a cache key: a caller may reuse a buffer for
    // another name, so the text must match too.
    if (info.module == module && info.nameKey == name &&
        strcmp(info.name, name) == 0)
      return &info;
  }
  return nullptr;
}

KernelInfo *findByFunction(CUfunction function) {
  if (!gIndexCapacity)
    return nullptr;
  uint32_t mask = gIndexCapacity - 1;
  for (uint32_t slot = hashPointers(function, nullptr) & mask;
       gByFunction[slot] >= 0; slot = (slot + 1) & mask) {
    KernelInfo &info = gKernels[gByFunction[slot]];
    if (info.function == function)
      return &info;
  }
  return nullptr;
}

// Best effort: without memory the kernel is simply not cached.
void addKernel(CUmodule module, const char *name, CUfunction function) {
  pthread_mutex_lock(&gTableMutex);
  if (findByKey(module, name)) {
    pthread_mutex_unlock(&gTableMutex);
    return;
  }
  if (gNumKernels == gKernelCapacity) {
    uint32_t capacity = gKernelCapacity ? 2 * gKernelCapacity : 16;
    auto *kernels = static_cast<KernelInfo *>(
        realloc(gKernels, capacity * sizeof(KernelInfo)));
    if (!kernels) {
      pthread_mutex_unlock(&gTableMutex);
      return;
    }
    gKernels = kernels;
    gKernelCapacity = capacity;
  }
  char *copy = strdup(name);
  if (!copy) {
    pthread_mutex_unlock(&gTableMutex);
    return;
  }
  KernelInfo &info = gKernels[gNumKernels++];
  info.module = module;
  info.nameKey = name;
  info.function = function;
  info.dynamicSharedLimit = kDefaultSharedMemoryLimit;
  info.nonPortableClusters = false;
  info.name = copy;
  if (!rebuildIndices(gNumKernels)) {
    free(copy);
    --gNumKernels;
    rebuildIndices(gNumKernels);
  }
  pthread_mutex_unlock(&gTableMutex);
}

// Drops the kernels of an unloaded module: the driver may reuse its handles.
void removeModuleKernels(CUmodule module) {
  pthread_mutex_lock(&gTableMutex);
  uint32_t kept = 0;
  for (uint32_t i = 0; i < gNumKernels; ++i) {
    if (gKernels[i].module == module)
      free(gKernels[i].name);
    else
      gKernels[kept++] = gKernels[i];
  }
  if (kept != gNumKernels) {
    gNumKernels = kept;
    rebuildIndices(gNumKernels);
  }
  pthread_mutex_unlock(&gTableMutex);
}

void getKernelName(CUfunction function, char *buffer, size_t size) {
  pthread_mutex_lock(&gTableMutex);
  KernelInfo *info = findByFunction(function);
  snprintf(buffer, size, "%s", info ? info->name : "<unknown>");
  pthread_mutex_unlock(&gTableMutex);
}

//===----------------------------------------------------------------------===//
// Managed allocations
//===----------------------------------------------------------------------===//

// Pointers from cuMemAllocManaged: they must be freed with cuMemFree, not
// cuMemFreeAsync. Rare (gpu.alloc host_shared), so a plain array will do.
void **gManaged;
size_t gNumManaged;
size_t gManagedCapacity;

bool trackManaged(void *ptr) {
  pthread_mutex_lock(&gTableMutex);
  if (gNumManaged == gManagedCapacity) {
    size_t capacity = gManagedCapacity ? 2 * gManagedCapacity : 16;
    auto *managed =
        static_cast<void **>(realloc(gManaged, capacity * sizeof(void *)));
    if (!managed) {
      pthread_mutex_unlock(&gTableMutex);
      return false;
    }
    gManaged = managed;
    gManagedCapacity = capacity;
  }
  gManaged[gNumManaged++] = ptr;
  __atomic_add_fetch(&gHostVisibleRanges, 1, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&gTableMutex);
  return true;
}

bool untrackManaged(void *ptr) {
  pthread_mutex_lock(&gTableMutex);
  for (size_t i = 0; i < gNumManaged; ++i) {
    if (gManaged[i] != ptr)
      continue;
    gManaged[i] = gManaged[--gNumManaged];
    __atomic_sub_fetch(&gHostVisibleRanges, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&gTableMutex);
    return true;
  }
  pthread_mutex_unlock(&gTableMutex);
  return false;
}

//===----------------------------------------------------------------------===//
// Initialization
//===----------------------------------------------------------------------===//

template <typename T> bool loadSymbol(T &slot, const char *name) {
  void *symbol = dlsym(gDriverLibrary, name);
  // POSIX guarantees dlsym's object pointer converts to a function pointer.
  memcpy(&slot, &symbol, sizeof(symbol));
  return symbol != nullptr;
}

// Opens libcuda.so.1 and resolves every entry point, once. Callers hold
// gInitMutex.
bool loadDriverLocked() {
  if (gDriverState)
    return gDriverState > 0;
  gDriverState = -1;
  gDriverLibrary = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!gDriverLibrary) {
    const char *reason = dlerror();
    snprintf(gDriverError, sizeof(gDriverError),
             "no CUDA device: cannot load libcuda.so.1 (%s)",
             reason ? reason : "unknown reason");
    return false;
  }
#define MLC_LOAD_REQUIRED(fn)                                                  \
  if (!loadSymbol(drv::fn, MLC_STRINGIFY(fn))) {                               \
    snprintf(gDriverError, sizeof(gDriverError),                               \
             "no CUDA device: libcuda.so.1 has no %s (driver too old?)",       \
             MLC_STRINGIFY(fn));                                               \
    return false;                                                              \
  }
  MLC_CUDA_REQUIRED_FUNCTIONS(MLC_LOAD_REQUIRED)
#undef MLC_LOAD_REQUIRED
#define MLC_LOAD_OPTIONAL(fn) loadSymbol(drv::fn, MLC_STRINGIFY(fn));
  MLC_CUDA_OPTIONAL_FUNCTIONS(MLC_LOAD_OPTIONAL)
#undef MLC_LOAD_OPTIONAL
  if (!loadSymbol(drv::eventElapsedTime, MLC_STRINGIFY(cuEventElapsedTime)) &&
      !loadSymbol(drv::eventElapsedTime, "cuEventElapsedTime")) {
    snprintf(gDriverError, sizeof(gDriverError),
             "no CUDA device: libcuda.so.1 has no cuEventElapsedTime");
    return false;
  }
  gDriverState = 1;
  return true;
}

// Records the reason in gInitError; returns false for convenience.
__attribute__((format(printf, 1, 2))) bool initFailed(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(gInitError, sizeof(gInitError), format, args);
  va_end(args);
  return false;
}

bool initFailedWith(CUresult result, const char *what) {
  char description[512];
  describeResult(result, description, sizeof(description));
  return initFailed("%s failed: %s", what, description);
}

// Callers hold gInitMutex.
bool initializeLocked() {
  if (!loadDriverLocked())
    return initFailed("%s", gDriverError);
  CUresult result = drv::cuInit(0);
  if (result != CUDA_SUCCESS) {
    char description[512];
    describeResult(result, description, sizeof(description));
    return initFailed("no CUDA device: cuInit failed: %s", description);
  }
  int count = 0;
  result = drv::cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS)
    return initFailedWith(result, "cuDeviceGetCount");
  if (count == 0)
    return initFailed("no CUDA device: the driver reports no devices");
  if (gDefaultDevice < 0 || gDefaultDevice >= count)
    return initFailed("no CUDA device: device %d requested, %d present",
                      gDefaultDevice, count);
  result = drv::cuDeviceGet(&gDevice, gDefaultDevice);
  if (result != CUDA_SUCCESS)
    return initFailedWith(result, "cuDeviceGet");
  if (drv::cuDeviceGetName(gDeviceName, sizeof(gDeviceName), gDevice) !=
      CUDA_SUCCESS)
    snprintf(gDeviceName, sizeof(gDeviceName), "CUDA device %d",
             gDefaultDevice);
  drv::cuDeviceGetAttribute(
      &gComputeMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, gDevice);
  drv::cuDeviceGetAttribute(
      &gComputeMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, gDevice);
  // The primary context is the one the CUDA runtime (and so torch) uses:
  // pointers and events are shared with it.
  result = drv::cuDevicePrimaryCtxRetain(&gContext, gDevice);
  if (result != CUDA_SUCCESS)
    return initFailedWith(result, "cuDevicePrimaryCtxRetain");
  result = drv::cuCtxSetCurrent(gContext);
  if (result != CUDA_SUCCESS)
    return initFailedWith(result, "cuCtxSetCurrent");

  int poolsSupported = 0;
  drv::cuDeviceGetAttribute(
      &poolsSupported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, gDevice);
  CUmemoryPool pool = nullptr;
  gUsePools = poolsSupported && drv::cuMemAllocAsync && drv::cuMemFreeAsync &&
              drv::cuDeviceGetDefaultMemPool && drv::cuMemPoolSetAttribute &&
              drv::cuDeviceGetDefaultMemPool(&pool, gDevice) == CUDA_SUCCESS;
  if (gUsePools) {
    // By default the pool returns freed memory to the OS at every
    // synchronization, and each model call would map its buffers afresh.
    cuuint64_t keepEverything = UINT64_MAX;
    drv::cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                               &keepEverything);
  }

  const char *sync = getenv("MLC_CUDA_SYNC");
  gSyncMode = sync && strcmp(sync, "1") == 0;
  return true;
}

// Makes the primary context current on the calling thread: the current
// context is per thread, and callers (Python, OpenMP) may switch threads.
bool makeContextCurrent() {
  CUcontext current = nullptr;
  if (drv::cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == gContext)
    return true;
  return check(drv::cuCtxSetCurrent(gContext), "cuCtxSetCurrent");
}

// Initializes on first use. On failure records the reason (again, after
// mlc_cuda_clear_error) and returns false.
bool ensureInit() {
  int state = __atomic_load_n(&gInitState, __ATOMIC_ACQUIRE);
  if (state == kUninitialized) {
    pthread_mutex_lock(&gInitMutex);
    if (gInitState == kUninitialized)
      __atomic_store_n(&gInitState, initializeLocked() ? kReady : kFailed,
                       __ATOMIC_RELEASE);
    state = gInitState;
    pthread_mutex_unlock(&gInitMutex);
  }
  if (state == kReady)
    return makeContextCurrent();
  recordError("%s", gInitError);
  return false;
}

// Whether work may be enqueued: skipping it while an error is pending keeps
// one failure from cascading (a launch reading a buffer that failed to
// allocate, or host code reading results that were never computed).
bool readyForWork() { return !hasPendingError() && ensureInit(); }

// Whether the runtime was initialized, without initializing it: releasing
// something needs no driver if nothing could have been created.
bool isReady() {
  return __atomic_load_n(&gInitState, __ATOMIC_ACQUIRE) == kReady &&
         makeContextCurrent();
}

CUdeviceptr toDevice(const void *ptr) {
  return reinterpret_cast<CUdeviceptr>(ptr);
}

// Host code never reads device memory: it touches memory that asynchronous
// work uses only through managed or registered memory, or through pinned
// buffers passed to mgpuMemcpy. Copies to or from pageable memory, the usual
// case, are complete for the host when they return, and mlc_cuda_memcpy_dtoh
// and mlc_cuda_synchronize synchronize before results are read. So
// mgpuStreamSynchronize waits only in those cases, or when MLC_CUDA_SYNC=1
// asks for errors at the failing kernel; skipping the wait lets the host
// queue the next call while the GPU works.
bool needsHostSynchronization() {
  return gSyncMode ||
         __atomic_load_n(&gHostVisibleRanges, __ATOMIC_RELAXED) > 0 ||
         __atomic_load_n(&gHostCopyPending, __ATOMIC_RELAXED);
}

// Whether the driver knows `ptr` as host memory (page-locked or registered).
// Pageable memory is unknown to it (the query fails), and copies to or from
// it complete, as far as the host is concerned, before they return.
bool isPinnedHostMemory(const void *ptr) {
  unsigned int memoryType = 0;
  return drv::cuPointerGetAttribute(&memoryType,
                                    CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                    toDevice(ptr)) == CUDA_SUCCESS &&
         memoryType != CU_MEMORYTYPE_DEVICE;
}

void synchronizeStream(CUstream stream) {
  __atomic_store_n(&gHostCopyPending, 0, __ATOMIC_RELAXED);
  check(drv::cuStreamSynchronize(stream), "cuStreamSynchronize");
}

bool launchDimensionsValid(const intptr_t (&dims)[6], CUfunction function,
                           bool &empty) {
  empty = false;
  for (intptr_t dim : dims) {
    if (dim < 0 || static_cast<uintptr_t>(dim) > UINT32_MAX) {
      char name[256];
      getKernelName(function, name, sizeof(name));
      recordError("kernel '%s': invalid launch dimensions grid (%ld, %ld, "
                  "%ld) block (%ld, %ld, %ld)",
                  name, static_cast<long>(dims[0]), static_cast<long>(dims[1]),
                  static_cast<long>(dims[2]), static_cast<long>(dims[3]),
                  static_cast<long>(dims[4]), static_cast<long>(dims[5]));
      return false;
    }
    empty |= dim == 0;
  }
  return true;
}

// Opts the kernel in to more than 48 KiB of dynamic shared memory, once per
// kernel and size.
bool configureSharedMemory(CUfunction function, int32_t sharedBytes) {
  if (sharedBytes < 0) {
    char name[256];
    getKernelName(function, name, sizeof(name));
    recordError("kernel '%s': negative dynamic shared memory size %d", name,
                sharedBytes);
    return false;
  }
  if (sharedBytes <= kDefaultSharedMemoryLimit)
    return true;
  pthread_mutex_lock(&gTableMutex);
  KernelInfo *info = findByFunction(function);
  bool done = info && info->dynamicSharedLimit >= sharedBytes;
  pthread_mutex_unlock(&gTableMutex);
  if (done)
    return true;
  CUresult result = drv::cuFuncSetAttribute(
      function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, sharedBytes);
  if (result != CUDA_SUCCESS) {
    char name[256];
    getKernelName(function, name, sizeof(name));
    return check(result,
                 "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES = %d) "
                 "(kernel '%s')",
                 sharedBytes, name);
  }
  pthread_mutex_lock(&gTableMutex);
  if ((info = findByFunction(function)) &&
      info->dynamicSharedLimit < sharedBytes)
    info->dynamicSharedLimit = sharedBytes;
  pthread_mutex_unlock(&gTableMutex);
  return true;
}

// Records a failed launch (or, in MLC_CUDA_SYNC mode, a failed kernel).
void checkLaunch(CUresult result, CUfunction function, const char *call,
                 CUstream stream) {
  char name[256];
  if (result != CUDA_SUCCESS) {
    getKernelName(function, name, sizeof(name));
    check(result, "%s (kernel '%s')", call, name);
    return;
  }
  if (!gSyncMode)
    return;
  result = drv::cuStreamSynchronize(stream);
  if (result != CUDA_SUCCESS) {
    getKernelName(function, name, sizeof(name));
    check(result, "kernel '%s' (MLC_CUDA_SYNC=1)", name);
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// mgpu* entry points called by MLIR 22's generated host code
//===----------------------------------------------------------------------===//

// Signatures follow what MLIR 22's gpu-to-llvm and gpu.binary translation
// emit; index-typed values arrive as intptr_t.

namespace {
// The device copies of host constants (tensor maps, below).
void releaseConstantCopies();
} // namespace

extern "C" {

// Called from the GPU binary's global constructor (at dlopen time for a
// model .so). `size` is unused: the driver recognizes the format.
MLC_CUDA_EXPORT CUmodule mgpuModuleLoad(void *data, size_t size) {
  if (!ensureInit())
    return nullptr;
  CUmodule module = nullptr;
  if (!check(drv::cuModuleLoadData(&module, data),
             "cuModuleLoadData (%zu-byte GPU binary, device %s, sm_%d%d)", size,
             gDeviceName, gComputeMajor, gComputeMinor))
    return nullptr;
  return module;
}

// Loads PTX, compiled by the driver at `optLevel` (CU_JIT_OPTIMIZATION_LEVEL).
MLC_CUDA_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  if (!ensureInit())
    return nullptr;
  char log[kJitLogSize] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof(log))),
                    reinterpret_cast<void *>(uintptr_t(optLevel))};
  // Out-of-range levels get the driver's default (the highest).
  unsigned numOptions = optLevel >= 0 && optLevel <= 4 ? 3 : 2;
  CUmodule module = nullptr;
  CUresult result =
      drv::cuModuleLoadDataEx(&module, data, numOptions, options, values);
  log[sizeof(log) - 1] = '\0';
  if (!check(result,
             "cuModuleLoadDataEx (PTX JIT -O%d, device %s, sm_%d%d)%s%s",
             optLevel, gDeviceName, gComputeMajor, gComputeMinor,
             log[0] ? "; JIT log: " : "", log))
    return nullptr;
  return module;
}

MLC_CUDA_EXPORT void mgpuModuleUnload(CUmodule module) {
  if (!module || !isReady())
    return;
  removeModuleKernels(module);
  check(drv::cuModuleUnload(module), "cuModuleUnload");
  releaseConstantCopies();
}

MLC_CUDA_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                                 const char *name) {
  if (!module) {
    // The module's load already failed and recorded why, unless that error
    // was cleared since.
    recordError("kernel '%s': its GPU module was not loaded",
                name ? name : "<null>");
    return nullptr;
  }
  if (!name || !ensureInit())
    return nullptr;
  pthread_mutex_lock(&gTableMutex);
  KernelInfo *info = findByKey(module, name);
  CUfunction function = info ? info->function : nullptr;
  pthread_mutex_unlock(&gTableMutex);
  if (function)
    return function;
  if (!check(drv::cuModuleGetFunction(&function, module, name),
             "cuModuleGetFunction (kernel '%s')", name))
    return nullptr;
  addKernel(module, name, function);
  return function;
}

// MLIR 22 passes the number of kernel parameters last; the driver does not
// need it.
MLC_CUDA_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                      intptr_t gridY, intptr_t gridZ,
                                      intptr_t blockX, intptr_t blockY,
                                      intptr_t blockZ, int32_t smem,
                                      CUstream stream, void **params,
                                      void **extra, size_t /*paramsCount*/) {
  if (!readyForWork())
    return;
  if (!function) {
    recordError("mgpuLaunchKernel: null kernel handle");
    return;
  }
  const intptr_t dims[6] = {gridX, gridY, gridZ, blockX, blockY, blockZ};
  bool empty;
  if (!launchDimensionsValid(dims, function, empty))
    return;
  // An empty grid (a zero-sized dynamic tensor) has nothing to compute;
  // the driver would reject it.
  if (empty || !configureSharedMemory(function, smem))
    return;
  CUresult result =
      drv::cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                          smem, stream, params, extra);
  checkLaunch(result, function, "cuLaunchKernel", stream);
}

// Thread block clusters (sm_90+). MLIR 22's translation passes no parameter
// count here. The grid is counted in blocks, as for cuLaunchKernelEx.
MLC_CUDA_EXPORT void
mgpuLaunchClusterKernel(CUfunction function, intptr_t clusterX,
                        intptr_t clusterY, intptr_t clusterZ, intptr_t gridX,
                        intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                        intptr_t blockY, intptr_t blockZ, int32_t smem,
                        CUstream stream, void **params, void **extra) {
  if (!readyForWork())
    return;
  if (!function) {
    recordError("mgpuLaunchClusterKernel: null kernel handle");
    return;
  }
  if (!drv::cuLaunchKernelEx) {
    recordError("thread block clusters need a CUDA 12 driver "
                "(libcuda.so.1 has no cuLaunchKernelEx)");
    return;
  }
  const intptr_t dims[6] = {gridX, gridY, gridZ, blockX, blockY, blockZ};
  const intptr_t clusterDims[6] = {clusterX, clusterY, clusterZ, 1, 1, 1};
  bool empty, emptyCluster;
  if (!launchDimensionsValid(dims, function, empty) ||
      !launchDimensionsValid(clusterDims, function, emptyCluster))
    return;
  if (empty || emptyCluster || !configureSharedMemory(function, smem))
    return;

  // Clusters of more than 8 blocks are non-portable; the kernel must opt in.
  if (clusterX * clusterY * clusterZ > 8) {
    pthread_mutex_lock(&gTableMutex);
    KernelInfo *info = findByFunction(function);
    bool done = info && info->nonPortableClusters;
    pthread_mutex_unlock(&gTableMutex);
    if (!done) {
      CUresult result = drv::cuFuncSetAttribute(
          function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
      if (result != CUDA_SUCCESS) {
        char name[256];
        getKernelName(function, name, sizeof(name));
        check(result,
              "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED) "
              "(kernel '%s')",
              name);
        return;
      }
      pthread_mutex_lock(&gTableMutex);
      if ((info = findByFunction(function)))
        info->nonPortableClusters = true;
      pthread_mutex_unlock(&gTableMutex);
    }
  }

  CUlaunchAttribute attribute;
  memset(&attribute, 0, sizeof(attribute));
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = clusterX;
  attribute.value.clusterDim.y = clusterY;
  attribute.value.clusterDim.z = clusterZ;
  CUlaunchConfig config;
  memset(&config, 0, sizeof(config));
  config.gridDimX = gridX;
  config.gridDimY = gridY;
  config.gridDimZ = gridZ;
  config.blockDimX = blockX;
  config.blockDimY = blockY;
  config.blockDimZ = blockZ;
  config.sharedMemBytes = smem;
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  CUresult result = drv::cuLaunchKernelEx(&config, function, params, extra);
  checkLaunch(result, function, "cuLaunchKernelEx", stream);
}

// All host code shares the legacy default stream (see the file comment).
MLC_CUDA_EXPORT CUstream mgpuStreamCreate() {
  ensureInit();
  return nullptr;
}

MLC_CUDA_EXPORT void mgpuStreamDestroy(CUstream /*stream*/) {}

// Normally a no-op: see needsHostSynchronization. mlc_cuda_memcpy_dtoh and
// mlc_cuda_synchronize synchronize before results are read.
MLC_CUDA_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  if (needsHostSynchronization() && readyForWork())
    synchronizeStream(stream);
}

// Events order work between streams, and there is only one in-order stream:
// recording and waiting are no-ops, and waiting for an event on the host is
// waiting for the stream, which covers everything recorded before.
MLC_CUDA_EXPORT CUevent mgpuEventCreate() {
  return reinterpret_cast<CUevent>(&gEventSentinel);
}

MLC_CUDA_EXPORT void mgpuEventDestroy(CUevent /*event*/) {}

MLC_CUDA_EXPORT void mgpuEventRecord(CUevent /*event*/, CUstream /*stream*/) {}

MLC_CUDA_EXPORT void mgpuStreamWaitEvent(CUstream /*stream*/,
                                         CUevent /*event*/) {}

MLC_CUDA_EXPORT void mgpuEventSynchronize(CUevent /*event*/) {
  mgpuStreamSynchronize(nullptr);
}

// Stream-ordered when the device supports memory pools; `isHostShared`
// (gpu.alloc host_shared) gets managed memory the host can read.
MLC_CUDA_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream stream,
                                   bool isHostShared) {
  if (sizeBytes == 0 || !readyForWork())
    return nullptr;
  CUdeviceptr ptr = 0;
  if (isHostShared) {
    if (!check(drv::cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL),
               "cuMemAllocManaged (%llu bytes)",
               static_cast<unsigned long long>(sizeBytes)))
      return nullptr;
    if (!trackManaged(reinterpret_cast<void *>(ptr))) {
      drv::cuMemFree(ptr);
      recordError("out of host memory tracking a managed allocation");
      return nullptr;
    }
  } else if (gUsePools) {
    if (!check(drv::cuMemAllocAsync(&ptr, sizeBytes, stream),
               "cuMemAllocAsync (%llu bytes)",
               static_cast<unsigned long long>(sizeBytes)))
      return nullptr;
  } else if (!check(drv::cuMemAlloc(&ptr, sizeBytes), "cuMemAlloc (%llu bytes)",
                    static_cast<unsigned long long>(sizeBytes))) {
    return nullptr;
  }
  return reinterpret_cast<void *>(ptr);
}

// Frees even while an error is pending, so that failed calls do not leak.
MLC_CUDA_EXPORT void mgpuMemFree(void *ptr, CUstream stream) {
  if (!ptr || !isReady())
    return;
  if (untrackManaged(ptr))
    check(drv::cuMemFree(toDevice(ptr)), "cuMemFree (managed memory)");
  else if (gUsePools)
    check(drv::cuMemFreeAsync(toDevice(ptr), stream), "cuMemFreeAsync");
  else
    check(drv::cuMemFree(toDevice(ptr)), "cuMemFree");
}

MLC_CUDA_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                CUstream stream) {
  if (sizeBytes == 0 || !readyForWork())
    return;
  if (!check(
          drv::cuMemcpyAsync(toDevice(dst), toDevice(src), sizeBytes, stream),
          "cuMemcpyAsync (%zu bytes)", sizeBytes))
    return;
  // A copy to or from pinned memory runs asynchronously, and after the next
  // mgpuStreamSynchronize the host may read its destination or reuse its
  // source: that synchronization must wait.
  if (!needsHostSynchronization() &&
      (isPinnedHostMemory(dst) || isPinnedHostMemory(src)))
    __atomic_store_n(&gHostCopyPending, 1, __ATOMIC_RELAXED);
}

MLC_CUDA_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                  CUstream stream) {
  if (count == 0 || !readyForWork())
    return;
  check(drv::cuMemsetD32Async(toDevice(dst), value, count, stream),
        "cuMemsetD32Async (%zu elements)", count);
}

MLC_CUDA_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                                  CUstream stream) {
  if (count == 0 || !readyForWork())
    return;
  check(drv::cuMemsetD16Async(toDevice(dst), value, count, stream),
        "cuMemsetD16Async (%zu elements)", count);
}

MLC_CUDA_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  if (!ptr || sizeBytes == 0 || !ensureInit())
    return;
  if (check(drv::cuMemHostRegister(ptr, sizeBytes, /*Flags=*/0),
            "cuMemHostRegister (%llu bytes)",
            static_cast<unsigned long long>(sizeBytes)))
    __atomic_add_fetch(&gHostVisibleRanges, 1, __ATOMIC_RELAXED);
}

MLC_CUDA_EXPORT void mgpuMemHostUnregister(void *ptr) {
  if (!ptr || !isReady())
    return;
  if (check(drv::cuMemHostUnregister(ptr), "cuMemHostUnregister"))
    __atomic_sub_fetch(&gHostVisibleRanges, 1, __ATOMIC_RELAXED);
}

} // extern "C"

namespace {
// The layout of a ranked memref descriptor (StridedMemRefType), with sizes
// followed by strides, `rank` of each.
struct MemRefDescriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1];
};

// The start of the memref's data, and its size in bytes if it is contiguous
// (0 for an empty memref, -1 when it is not contiguous).
char *getMemRefData(int64_t rank, const MemRefDescriptor *descriptor,
                    int64_t elementSizeBytes, int64_t &sizeBytes) {
  const int64_t *sizes = descriptor->sizesAndStrides;
  const int64_t *strides = sizes + rank;
  int64_t expectedStride = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    // A dimension of size 1 never steps, whatever its stride.
    if (sizes[i] != 1 && strides[i] != expectedStride)
      expectedStride = -1;
    if (expectedStride > 0)
      expectedStride *= sizes[i];
    if (sizes[i] == 0)
      expectedStride = 0;
  }
  sizeBytes = expectedStride < 0 ? -1 : expectedStride * elementSizeBytes;
  return descriptor->aligned + descriptor->offset * elementSizeBytes;
}
} // namespace

extern "C" {

// Page-locks a contiguous memref (gpu.host_register).
MLC_CUDA_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                               int64_t elementSizeBytes) {
  int64_t sizeBytes = 0;
  char *data =
      getMemRefData(rank, static_cast<const MemRefDescriptor *>(descriptor),
                    elementSizeBytes, sizeBytes);
  if (sizeBytes < 0) {
    recordError("mgpuMemHostRegisterMemRef: only contiguous memrefs can be "
                "registered");
    return;
  }
  mgpuMemHostRegister(data, sizeBytes);
}

MLC_CUDA_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                                 int64_t elementSizeBytes) {
  int64_t sizeBytes = 0;
  char *data =
      getMemRefData(rank, static_cast<const MemRefDescriptor *>(descriptor),
                    elementSizeBytes, sizeBytes);
  if (sizeBytes != 0)
    mgpuMemHostUnregister(data);
}

} // extern "C"

// TMA descriptors (CUtensorMap) in device memory, which kernels read through
// a pointer argument. Encoding is cheap but a launch's descriptor must stay
// alive until the kernel ran, so each distinct one is kept; past the table's
// size the device is synchronized and the table emptied.
namespace {
constexpr size_t kMaxTensorMaps = 256;
struct TensorMapEntry {
  CUtensorMap map;
  CUdeviceptr device;
};
TensorMapEntry gTensorMaps[kMaxTensorMaps];
size_t gNumTensorMaps;

constexpr int64_t kTensorMapElementBytes = 2;

// Device copies of host constants (weights bound at compile time) that
// kernels read: the large ones that mlc-gpu-device-memory keeps out of the
// kernels' binaries, and those that kernels read through TMA (a tensor map
// needs a device address). Uploaded at the first call, kept until a GPU
// module unloads (a JIT'd or dlclose'd module's constants may go with it,
// and another's may take their addresses); later calls upload again.
struct ConstantCopy {
  const char *host;
  int64_t bytes;
  CUdeviceptr device;
};
ConstantCopy *gConstantCopies;
size_t gNumConstantCopies;
size_t gConstantCopyCapacity;

// Callers hold gTableMutex.
CUdeviceptr findConstantCopy(const char *host, int64_t bytes) {
  for (size_t i = 0; i < gNumConstantCopies; ++i)
    if (gConstantCopies[i].host == host && gConstantCopies[i].bytes == bytes)
      return gConstantCopies[i].device;
  return 0;
}

// The device address of the `bytes` at `host` that generated code passes
// as a host constant: its device copy, or the data itself when it is device
// memory already (another call of the same function may pass a buffer
// where this one binds a constant).
char *getConstantOnDevice(char *host, int64_t bytes) {
  if (bytes == 0)
    return host;
  pthread_mutex_lock(&gTableMutex);
  CUdeviceptr device = findConstantCopy(host, bytes);
  pthread_mutex_unlock(&gTableMutex);
  if (device)
    return reinterpret_cast<char *>(device);
  unsigned int memoryType = 0;
  if (drv::cuPointerGetAttribute(&memoryType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                 reinterpret_cast<CUdeviceptr>(host)) ==
          CUDA_SUCCESS &&
      memoryType == CU_MEMORYTYPE_DEVICE)
    return host;
  if (!check(drv::cuMemAlloc(&device, static_cast<size_t>(bytes)),
             "cuMemAlloc (%lld bytes for a constant's device copy)",
             static_cast<long long>(bytes)))
    return nullptr;
  if (!check(drv::cuMemcpyHtoD(device, host, static_cast<size_t>(bytes)),
             "cuMemcpyHtoD (a constant's device copy)")) {
    drv::cuMemFree(device);
    return nullptr;
  }
  // Another thread may have uploaded it meanwhile: then its copy is kept.
  pthread_mutex_lock(&gTableMutex);
  CUdeviceptr existing = findConstantCopy(host, bytes);
  bool stored = existing != 0;
  if (!existing) {
    if (gNumConstantCopies == gConstantCopyCapacity) {
      size_t capacity = gConstantCopyCapacity ? 2 * gConstantCopyCapacity : 64;
      auto *grown = static_cast<ConstantCopy *>(
          realloc(gConstantCopies, capacity * sizeof(ConstantCopy)));
      if (grown) {
        gConstantCopies = grown;
        gConstantCopyCapacity = capacity;
      }
    }
    if (gNumConstantCopies < gConstantCopyCapacity) {
      gConstantCopies[gNumConstantCopies++] = {host, bytes, device};
      stored = true;
    }
  }
  pthread_mutex_unlock(&gTableMutex);
  if (existing || !stored) {
    drv::cuMemFree(device);
    if (!stored) {
      recordError("out of host memory for the table of constants' copies");
      return nullptr;
    }
    device = existing;
  }
  return reinterpret_cast<char *>(device);
}

// Frees the constants' device copies once the kernels that may read them
// have finished.
void releaseConstantCopies() {
  pthread_mutex_lock(&gTableMutex);
  ConstantCopy *copies = gConstantCopies;
  size_t count = gNumConstantCopies;
  gConstantCopies = nullptr;
  gNumConstantCopies = gConstantCopyCapacity = 0;
  pthread_mutex_unlock(&gTableMutex);
  if (count != 0 && check(drv::cuCtxSynchronize(), "cuCtxSynchronize"))
    for (size_t i = 0; i < count; ++i)
      drv::cuMemFree(copies[i].device);
  free(copies);
}

// cuTensorMapEncodeTiled on the memref `descriptor` (rank <= 5, 2-byte
// elements), `box` outermost first; the descriptor's device address. A
// `hostConstant` memref is host memory: the map describes its device copy.
void *encodeTensorMap(int64_t rank, const MemRefDescriptor *descriptor,
                      bool hostConstant, int64_t dataType, int64_t swizzle,
                      int64_t l2Promotion, int64_t oobFill,
                      const int64_t box[5]) {
  constexpr int64_t kElementBytes = kTensorMapElementBytes;
  if (!readyForWork())
    return nullptr;
  if (!drv::cuTensorMapEncodeTiled) {
    recordError("TMA descriptors need cuTensorMapEncodeTiled, which this "
                "CUDA driver lacks (it came with CUDA 12)");
    return nullptr;
  }
  if (rank < 1 || rank > 5) {
    recordError("a TMA descriptor has 1 to 5 dimensions, not %lld",
                static_cast<long long>(rank));
    return nullptr;
  }
  const int64_t *sizes = descriptor->sizesAndStrides;
  const int64_t *strides = sizes + rank;
  cuuint64_t globalDim[5] = {1, 1, 1, 1, 1}, globalStrides[5] = {0};
  cuuint32_t boxDim[5] = {1, 1, 1, 1, 1}, elementStrides[5] = {1, 1, 1, 1, 1};
  // The driver counts dimensions innermost first.
  for (int64_t i = 0; i < rank; ++i) {
    globalDim[i] = static_cast<cuuint64_t>(sizes[rank - 1 - i]);
    boxDim[i] = static_cast<cuuint32_t>(box[rank - 1 - i]);
  }
  for (int64_t i = 0; i + 1 < rank; ++i)
    globalStrides[i] =
        static_cast<cuuint64_t>(strides[rank - 2 - i] * kElementBytes);
  int64_t bytes = 0;
  char *data = getMemRefData(rank, descriptor, kElementBytes, bytes);
  if (hostConstant && bytes < 0) {
    recordError("the tensor map of a constant needs a contiguous constant");
    return nullptr;
  }
  if (hostConstant)
    data = getConstantOnDevice(data, bytes);
  if (!data)
    return nullptr;
  alignas(64) CUtensorMap map;
  if (!check(drv::cuTensorMapEncodeTiled(
                 &map, static_cast<CUtensorMapDataType>(dataType),
                 static_cast<cuuint32_t>(rank), data, globalDim, globalStrides,
                 boxDim, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                 static_cast<CUtensorMapSwizzle>(swizzle),
                 static_cast<CUtensorMapL2promotion>(l2Promotion),
                 static_cast<CUtensorMapFloatOOBfill>(oobFill)),
             "cuTensorMapEncodeTiled (rank %lld)",
             static_cast<long long>(rank)))
    return nullptr;
  pthread_mutex_lock(&gTableMutex);
  for (size_t i = 0; i < gNumTensorMaps; ++i) {
    if (memcmp(&gTensorMaps[i].map, &map, sizeof(map)) == 0) {
      CUdeviceptr found = gTensorMaps[i].device;
      pthread_mutex_unlock(&gTableMutex);
      return reinterpret_cast<void *>(found);
    }
  }
  bool ok = true;
  if (gNumTensorMaps == kMaxTensorMaps) {
    ok = check(drv::cuCtxSynchronize(), "cuCtxSynchronize");
    for (size_t i = 0; ok && i < gNumTensorMaps; ++i)
      drv::cuMemFree(gTensorMaps[i].device);
    if (ok)
      gNumTensorMaps = 0;
  }
  CUdeviceptr device = 0;
  ok = ok && check(drv::cuMemAlloc(&device, sizeof(map)),
                   "cuMemAlloc (TMA descriptor)");
  ok = ok && check(drv::cuMemcpyHtoD(device, &map, sizeof(map)),
                   "cuMemcpyHtoD (TMA descriptor)");
  if (ok) {
    gTensorMaps[gNumTensorMaps].map = map;
    gTensorMaps[gNumTensorMaps++].device = device;
  } else if (device) {
    drv::cuMemFree(device);
    device = 0;
  }
  pthread_mutex_unlock(&gTableMutex);
  return reinterpret_cast<void *>(device);
}
} // namespace

extern "C" {

// The tensor maps of mlc's Hopper Matmul kernels (mlc-gpu-tensorize-wgmma):
// an unranked memref (rank, descriptor), cuTensorMapEncodeTiled's data
// type, swizzle, L2 promotion and out-of-bounds fill, and the box, outermost
// first (unused dimensions 1). One entry point per element type, as the
// compiler declares one function per unranked memref type.
// The `constant_` entry points take a host constant (a bound weight), whose
// map describes a device copy the runtime uploads once and keeps.
#define MLC_TENSOR_MAP_ENCODER(name, hostConstant)                             \
  MLC_CUDA_EXPORT void *name(int64_t rank, void *descriptor, int64_t dataType, \
                             int64_t swizzle, int64_t l2Promotion,             \
                             int64_t oobFill, int64_t box0, int64_t box1,      \
                             int64_t box2, int64_t box3, int64_t box4) {       \
    const int64_t box[5] = {box0, box1, box2, box3, box4};                     \
    return encodeTensorMap(                                                    \
        rank, static_cast<const MemRefDescriptor *>(descriptor), hostConstant, \
        dataType, swizzle, l2Promotion, oobFill, box);                         \
  }
MLC_TENSOR_MAP_ENCODER(mlc_cuda_tensor_map_encode_tiled_f16, false)
MLC_TENSOR_MAP_ENCODER(mlc_cuda_tensor_map_encode_tiled_bf16, false)
MLC_TENSOR_MAP_ENCODER(mlc_cuda_tensor_map_encode_tiled_constant_f16, true)
MLC_TENSOR_MAP_ENCODER(mlc_cuda_tensor_map_encode_tiled_constant_bf16, true)
#undef MLC_TENSOR_MAP_ENCODER

} // extern "C"

namespace {
// A rank-1 memref descriptor (StridedMemRefType<T, 1>), which the C
// interface returns.
struct MemRefDescriptor1D {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};

// The device copy of the contiguous rank-1 `host` constant, as a memref
// descriptor in `result` (null pointers after an error, which the runtime
// records: the launches that would read it are then skipped).
void placeConstantOnDevice(MemRefDescriptor1D *result,
                           const MemRefDescriptor1D *host,
                           int64_t elementBytes) {
  *result = {nullptr, nullptr, 0, host->size, 1};
  if (!readyForWork())
    return;
  int64_t bytes = 0;
  char *data = getMemRefData(
      1, reinterpret_cast<const MemRefDescriptor *>(host), elementBytes, bytes);
  if (bytes < 0) {
    recordError("the device copy of a constant needs a contiguous constant, "
                "not one of stride %lld",
                static_cast<long long>(host->stride));
    return;
  }
  char *device = getConstantOnDevice(data, bytes);
  result->allocated = result->aligned = device;
}
} // namespace

extern "C" {

// The device copies of host constants too large for the kernels' binaries
// (mlc-gpu-device-memory): a rank-1 memref in, its copy out, through MLIR's
// C interface (the result descriptor first). One entry point per element
// type, as the compiler declares one function per memref type.
#define MLC_CONSTANT_ON_DEVICE(type, elementBytes)                             \
  MLC_CUDA_EXPORT void _mlir_ciface_mlc_cuda_constant_on_device_##type(        \
      MemRefDescriptor1D *result, const MemRefDescriptor1D *host) {            \
    placeConstantOnDevice(result, host, elementBytes);                         \
  }
MLC_CONSTANT_ON_DEVICE(f16, 2)
MLC_CONSTANT_ON_DEVICE(bf16, 2)
MLC_CONSTANT_ON_DEVICE(f32, 4)
MLC_CONSTANT_ON_DEVICE(f64, 8)
MLC_CONSTANT_ON_DEVICE(i8, 1)
MLC_CONSTANT_ON_DEVICE(i16, 2)
MLC_CONSTANT_ON_DEVICE(i32, 4)
MLC_CONSTANT_ON_DEVICE(i64, 8)
#undef MLC_CONSTANT_ON_DEVICE

// Takes effect only before the runtime initializes: modules, buffers and
// kernels all live in that device's context.
MLC_CUDA_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  pthread_mutex_lock(&gInitMutex);
  int state = gInitState;
  int32_t current = gDefaultDevice;
  if (state == kUninitialized)
    gDefaultDevice = device;
  pthread_mutex_unlock(&gInitMutex);
  if (state == kReady && device != current)
    recordError("mgpuSetDefaultDevice(%d): the runtime already uses device %d",
                device, current);
}

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

MLC_CUDA_EXPORT int mlc_cuda_init(void) { return ensureInit() ? 0 : -1; }

MLC_CUDA_EXPORT int mlc_cuda_device_count(void) {
  pthread_mutex_lock(&gInitMutex);
  bool loaded = loadDriverLocked();
  pthread_mutex_unlock(&gInitMutex);
  if (!loaded)
    return -1;
  CUresult result = drv::cuInit(0);
  if (result == CUDA_ERROR_NO_DEVICE)
    return 0;
  int count = 0;
  if (result != CUDA_SUCCESS || drv::cuDeviceGetCount(&count) != CUDA_SUCCESS)
    return -1;
  return count;
}

MLC_CUDA_EXPORT const char *mlc_cuda_device_name(void) {
  return ensureInit() ? gDeviceName : nullptr;
}

MLC_CUDA_EXPORT const char *mlc_cuda_get_last_error(void) {
  return hasPendingError() ? gError : nullptr;
}

MLC_CUDA_EXPORT void mlc_cuda_clear_error(void) {
  pthread_mutex_lock(&gErrorMutex);
  __atomic_store_n(&gHasError, 0, __ATOMIC_RELEASE);
  gError[0] = '\0';
  pthread_mutex_unlock(&gErrorMutex);
}

MLC_CUDA_EXPORT void *mlc_cuda_malloc(size_t bytes) {
  if (bytes == 0 || !ensureInit())
    return nullptr;
  CUdeviceptr ptr = 0;
  if (!check(drv::cuMemAlloc(&ptr, bytes), "cuMemAlloc (%zu bytes)", bytes))
    return nullptr;
  return reinterpret_cast<void *>(ptr);
}

MLC_CUDA_EXPORT int mlc_cuda_free(void *ptr) {
  if (!ptr)
    return 0;
  if (!ensureInit())
    return -1;
  return check(drv::cuMemFree(toDevice(ptr)), "cuMemFree") ? 0 : -1;
}

MLC_CUDA_EXPORT int mlc_cuda_memcpy_htod(void *dst, const void *src,
                                         size_t bytes) {
  if (!ensureInit())
    return -1;
  if (bytes == 0)
    return 0;
  return check(drv::cuMemcpyHtoD(toDevice(dst), src, bytes),
               "cuMemcpyHtoD (%zu bytes)", bytes)
             ? 0
             : -1;
}

MLC_CUDA_EXPORT int mlc_cuda_memcpy_dtoh(void *dst, const void *src,
                                         size_t bytes) {
  if (!ensureInit())
    return -1;
  // Surfaces the errors of earlier kernels here rather than as a failed copy.
  if (!check(drv::cuCtxSynchronize(), "cuCtxSynchronize (before a "
                                      "device-to-host copy)"))
    return -1;
  __atomic_store_n(&gHostCopyPending, 0, __ATOMIC_RELAXED);
  if (bytes == 0)
    return 0;
  return check(drv::cuMemcpyDtoH(dst, toDevice(src), bytes),
               "cuMemcpyDtoH (%zu bytes)", bytes)
             ? 0
             : -1;
}

MLC_CUDA_EXPORT int mlc_cuda_memset_zero(void *ptr, size_t bytes) {
  if (!ensureInit())
    return -1;
  if (bytes == 0)
    return 0;
  return check(drv::cuMemsetD8(toDevice(ptr), 0, bytes),
               "cuMemsetD8 (%zu bytes)", bytes)
             ? 0
             : -1;
}

MLC_CUDA_EXPORT int mlc_cuda_synchronize(void) {
  if (!ensureInit())
    return -1;
  __atomic_store_n(&gHostCopyPending, 0, __ATOMIC_RELAXED);
  return check(drv::cuCtxSynchronize(), "cuCtxSynchronize") ? 0 : -1;
}

MLC_CUDA_EXPORT void *mlc_cuda_event_create(void) {
  if (!ensureInit())
    return nullptr;
  CUevent event = nullptr;
  if (!check(drv::cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate"))
    return nullptr;
  return event;
}

MLC_CUDA_EXPORT int mlc_cuda_event_record(void *event) {
  if (!event || !ensureInit())
    return -1;
  return check(drv::cuEventRecord(static_cast<CUevent>(event), nullptr),
               "cuEventRecord")
             ? 0
             : -1;
}

MLC_CUDA_EXPORT int mlc_cuda_event_elapsed_ms(void *start, void *end,
                                              float *ms) {
  if (!start || !end || !ms || !ensureInit())
    return -1;
  // The elapsed time is defined only once `end` has completed.
  if (!check(drv::cuEventSynchronize(static_cast<CUevent>(end)),
             "cuEventSynchronize"))
    return -1;
  return check(drv::eventElapsedTime(ms, static_cast<CUevent>(start),
                                     static_cast<CUevent>(end)),
               "cuEventElapsedTime")
             ? 0
             : -1;
}

MLC_CUDA_EXPORT int mlc_cuda_event_destroy(void *event) {
  if (!event)
    return 0;
  if (!ensureInit())
    return -1;
  return check(drv::cuEventDestroy(static_cast<CUevent>(event)),
               "cuEventDestroy")
             ? 0
             : -1;
}

} // extern "C"
