//===- CUDADevice.h - run JIT-compiled GPU code on host buffers -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// What a host program needs around calls of code from the GPU pipeline,
// whose entries take device pointers (mlc-run --target=cuda): initializing
// mlc's CUDA runtime, mirroring host buffers in device memory, and timing
// calls with CUDA events. Errors the runtime records (a failed launch, a
// faulting kernel) come back as llvm::Errors naming them.
//
// In a build without the CUDA toolkit every function fails with "mlc was
// built without CUDA support", so that callers need no #ifdef.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_EXECUTIONENGINE_CUDADEVICE_H
#define MLC_EXECUTIONENGINE_CUDADEVICE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstddef>

namespace mlc {

/// Loads the CUDA driver and initializes mlc's CUDA runtime on its device.
/// Fails with "no CUDA device[: reason]" when there is no driver or no
/// device.
llvm::Error initCUDADevice();

/// Waits for all work on the device, then fails with the first error mlc's
/// CUDA runtime recorded, if any ("CUDA error: <message>"). The error stays
/// recorded, so that later work is skipped rather than failing again.
llvm::Error synchronizeCUDADevice();

/// Host buffers mirrored in device memory for calls that take device
/// pointers. The device memory is freed when this object is destroyed.
class CUDADeviceBuffers {
public:
  CUDADeviceBuffers() = default;
  CUDADeviceBuffers(const CUDADeviceBuffers &) = delete;
  CUDADeviceBuffers &operator=(const CUDADeviceBuffers &) = delete;
  ~CUDADeviceBuffers();

  /// Allocates `bytes` of device memory holding a copy of the `bytes` at
  /// `host`, and returns its device address (null for 0 bytes). With
  /// `copyBack`, copyToHost copies it back to `host`.
  llvm::Expected<void *> add(void *host, size_t bytes, bool copyBack);

  /// Waits for the device, fails with any CUDA error (synchronizeCUDADevice),
  /// else copies the buffers added with `copyBack` to their host memory.
  llvm::Error copyToHost();

private:
  struct Buffer {
    void *host;
    void *device;
    size_t bytes;
    bool copyBack;
  };
  llvm::SmallVector<Buffer> buffers;
};

/// Calls `call` `runs` times and returns the time of each run in
/// milliseconds, measured on the device with CUDA events recorded before and
/// after it on the runtime's stream. Fails with the first error of `call` or
/// of the device.
llvm::Expected<llvm::SmallVector<double>>
timeOnCUDADevice(unsigned runs, llvm::function_ref<llvm::Error()> call);

} // namespace mlc

#endif // MLC_EXECUTIONENGINE_CUDADEVICE_H
