//===- CUDADevice.cpp - run JIT-compiled GPU code on host buffers ---------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/ExecutionEngine/CUDADevice.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#ifdef MLC_HAS_CUDA_RUNTIME
#include "mlc/ExecutionEngine/CUDARuntime.h"
#endif

using namespace mlc;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

#ifdef MLC_HAS_CUDA_RUNTIME

/// The runtime's recorded error as an llvm::Error, `what` failing without
/// one.
static llvm::Error getRuntimeError(const llvm::Twine &what) {
  if (const char *message = mlc_cuda_get_last_error())
    return makeError("CUDA error: " + llvm::Twine(message));
  return makeError(what + " failed");
}

llvm::Error mlc::initCUDADevice() {
  // 0 without devices, -1 without a usable driver.
  int count = mlc_cuda_device_count();
  if (mlc_cuda_init() == 0)
    return llvm::Error::success();
  const char *error = mlc_cuda_get_last_error();
  llvm::StringRef reason = error ? error : "";
  // The runtime's message says "no CUDA device: <why>" in these cases.
  if (count <= 0 || reason.starts_with("no CUDA device")) {
    reason.consume_front("no CUDA device");
    reason.consume_front(": ");
    if (reason.empty())
      return makeError("no CUDA device");
    return makeError("no CUDA device: " + reason);
  }
  return makeError(
      "cannot initialize the CUDA device: " +
      (reason.empty() ? llvm::StringRef("unknown error") : reason));
}

llvm::Error mlc::synchronizeCUDADevice() {
  // A failure to synchronize is recorded. The recorded error may also be an
  // earlier one that synchronizing does not report, e.g. of a launch that
  // failed and was skipped.
  (void)mlc_cuda_synchronize();
  if (const char *message = mlc_cuda_get_last_error())
    return makeError("CUDA error: " + llvm::Twine(message));
  return llvm::Error::success();
}

CUDADeviceBuffers::~CUDADeviceBuffers() {
  for (const Buffer &buffer : buffers)
    (void)mlc_cuda_free(buffer.device);
}

llvm::Expected<void *> CUDADeviceBuffers::add(void *host, size_t bytes,
                                              bool copyBack) {
  if (bytes == 0)
    return nullptr;
  void *device = mlc_cuda_malloc(bytes);
  if (!device)
    return getRuntimeError("allocating " + llvm::Twine(bytes) +
                           " bytes of device memory");
  buffers.push_back({host, device, bytes, copyBack});
  if (mlc_cuda_memcpy_htod(device, host, bytes) != 0)
    return getRuntimeError("copying " + llvm::Twine(bytes) +
                           " bytes to the device");
  return device;
}

llvm::Error CUDADeviceBuffers::copyToHost() {
  if (llvm::Error error = synchronizeCUDADevice())
    return error;
  for (const Buffer &buffer : buffers)
    if (buffer.copyBack &&
        mlc_cuda_memcpy_dtoh(buffer.host, buffer.device, buffer.bytes) != 0)
      return getRuntimeError("copying " + llvm::Twine(buffer.bytes) +
                             " bytes from the device");
  return llvm::Error::success();
}

llvm::Expected<llvm::SmallVector<double>>
mlc::timeOnCUDADevice(unsigned runs, llvm::function_ref<llvm::Error()> call) {
  void *start = mlc_cuda_event_create();
  void *end = start ? mlc_cuda_event_create() : nullptr;
  llvm::scope_exit destroyEvents([&] {
    (void)mlc_cuda_event_destroy(start);
    (void)mlc_cuda_event_destroy(end);
  });
  if (!end)
    return getRuntimeError("creating CUDA events");
  llvm::SmallVector<double> millis;
  for (unsigned i = 0; i < runs; ++i) {
    if (mlc_cuda_event_record(start) != 0)
      return getRuntimeError("recording a CUDA event");
    if (llvm::Error error = call())
      return std::move(error);
    float ms = 0;
    if (mlc_cuda_event_record(end) != 0 ||
        mlc_cuda_event_elapsed_ms(start, end, &ms) != 0)
      return getRuntimeError("timing with CUDA events");
    // Launches that failed were recorded and skipped: the time is not theirs.
    if (const char *message = mlc_cuda_get_last_error())
      return makeError("CUDA error: " + llvm::Twine(message));
    millis.push_back(ms);
  }
  if (llvm::Error error = synchronizeCUDADevice())
    return std::move(error);
  return millis;
}

#else // !MLC_HAS_CUDA_RUNTIME

static llvm::Error noCUDASupport() {
  return makeError("mlc was built without CUDA support");
}

llvm::Error mlc::initCUDADevice() { return noCUDASupport(); }

llvm::Error mlc::synchronizeCUDADevice() { return noCUDASupport(); }

CUDADeviceBuffers::~CUDADeviceBuffers() = default;

llvm::Expected<void *> CUDADeviceBuffers::add(void *, size_t, bool) {
  return noCUDASupport();
}

llvm::Error CUDADeviceBuffers::copyToHost() { return noCUDASupport(); }

llvm::Expected<llvm::SmallVector<double>>
mlc::timeOnCUDADevice(unsigned, llvm::function_ref<llvm::Error()>) {
  return noCUDASupport();
}

#endif // MLC_HAS_CUDA_RUNTIME
