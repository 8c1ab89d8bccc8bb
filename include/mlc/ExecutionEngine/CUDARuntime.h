/*===- CUDARuntime.h - mlc's CUDA runtime C API -------------------*- C -*-===*\
|*                                                                            *|
|* The C API of libmlc_cuda_runtime (and of every self-contained model .so    *|
|* that mlc-compile --target=cuda links it into). The same library also       *|
|* exports the mgpu* entry points that MLIR's gpu-to-llvm host code calls.    *|
|*                                                                            *|
|* The library has no link-time dependency on the CUDA driver: it opens       *|
|* libcuda.so.1 on first use. All work goes to the legacy default stream, so  *|
|* it is ordered with itself and with torch's default stream.                 *|
|*                                                                            *|
|* Errors never abort: the first failure is recorded (and printed once to     *|
|* stderr), later work that would rely on it is skipped, and the calls below  *|
|* return -1 or NULL. Without a driver or a device the message starts with    *|
|* "no CUDA device".                                                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MLC_EXECUTIONENGINE_CUDARUNTIME_H
#define MLC_EXECUTIONENGINE_CUDARUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the driver, retains the primary context of device 0 (or the one set
 * by mgpuSetDefaultDevice) and makes it current. Returns 0 or -1.
 * Idempotent; every other call initializes on demand. */
int mlc_cuda_init(void);

/* Number of CUDA devices: 0 when the driver reports none, -1 when the driver
 * cannot be loaded or initialized. Records no error. */
int mlc_cuda_device_count(void);

/* Name of the device in use, or NULL when initialization fails. */
const char *mlc_cuda_device_name(void);

/* The first recorded error, or NULL when none. Valid until the next call to
 * mlc_cuda_clear_error. */
const char *mlc_cuda_get_last_error(void);
void mlc_cuda_clear_error(void);

/* Device memory. mlc_cuda_malloc returns NULL on failure (and for 0 bytes). */
void *mlc_cuda_malloc(size_t bytes);
int mlc_cuda_free(void *ptr);
int mlc_cuda_memcpy_htod(void *dst, const void *src, size_t bytes);
/* Waits for all previously launched work first. */
int mlc_cuda_memcpy_dtoh(void *dst, const void *src, size_t bytes);
int mlc_cuda_memset_zero(void *ptr, size_t bytes);

/* Waits for all work of the context; reports asynchronous kernel errors. */
int mlc_cuda_synchronize(void);

/* Timing events on the runtime's stream. mlc_cuda_event_elapsed_ms waits
 * for `end` to complete. */
void *mlc_cuda_event_create(void);
int mlc_cuda_event_record(void *event);
int mlc_cuda_event_elapsed_ms(void *start, void *end, float *ms);
int mlc_cuda_event_destroy(void *event);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MLC_EXECUTIONENGINE_CUDARUNTIME_H */
