/* A stand-in for a library written by mlc-compile, to test
 * python/mlc/runtime.py without MLIR: it exports mlc_module_metadata and
 * _mlir_ciface_ entries over strided memref descriptors. Built with
 * -DMLC_TARGET_CUDA it is a --target=cuda library whose "device" is host
 * memory: mlc_cuda_* are malloc/memcpy, events read a clock, the entry
 * `fail` reports an error as a failed kernel launch would, and
 * MLC_FAKE_NO_DEVICE=1 makes mlc_cuda_init fail as without a GPU. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MEMREF(rank, type)                                                     \
  struct {                                                                     \
    type *allocated, *aligned;                                                 \
    int64_t offset, sizes[rank], strides[rank];                                \
  }
typedef MEMREF(1, float) memref_1d_f32;
typedef MEMREF(2, float) memref_2d_f32;
typedef MEMREF(1, double) memref_1d_f64;
typedef MEMREF(2, double) memref_2d_f64;

#define AT1(m, i) ((m)->aligned[(m)->offset + (i) * (m)->strides[0]])
#define AT2(m, i, j)                                                           \
  ((m)->aligned[(m)->offset + (i) * (m)->strides[0] + (j) * (m)->strides[1]])

#ifdef MLC_TARGET_CUDA
#define TARGET "cuda"
#define FAIL_ENTRY                                                             \
  ",{\"name\": \"fail\", \"symbol\": \"_mlir_ciface_fail\", \"args\": ["       \
  "{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [-1], \"kind\": \"input\"}]}"
#else
#define TARGET "cpu"
#define FAIL_ENTRY ""
#endif

const char *mlc_module_metadata(void) {
  return "{\"version\": 1, \"target\": \"" TARGET "\", \"entries\": ["
         "{\"name\": \"add\", \"symbol\": \"_mlir_ciface_add\", \"args\": ["
         "{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [-1], \"kind\": \"input\"},"
         "{\"name\": \"y\", \"dtype\": \"float32\", \"shape\": [-1], \"kind\": \"input\"},"
         "{\"name\": \"out0\", \"dtype\": \"float32\", \"shape\": [-1], \"kind\": \"output\"}]},"
         "{\"name\": \"axpy\", \"symbol\": \"_mlir_ciface_axpy\", \"args\": ["
         "{\"name\": \"alpha\", \"dtype\": \"float32\", \"shape\": null, \"kind\": \"scalar\"},"
         "{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [4, 3], \"kind\": \"input\"},"
         "{\"name\": \"y\", \"dtype\": \"float32\", \"shape\": [4, 3], \"kind\": \"input\"},"
         "{\"name\": \"out0\", \"dtype\": \"float32\", \"shape\": [4, 3], \"kind\": \"output\"}]},"
         "{\"name\": \"row_stats\", \"symbol\": \"_mlir_ciface_row_stats\", \"args\": ["
         "{\"name\": \"x\", \"dtype\": \"float64\", \"shape\": [2, 5], \"kind\": \"input\"},"
         "{\"name\": \"n\", \"dtype\": \"int64\", \"shape\": null, \"kind\": \"scalar\"},"
         "{\"name\": \"sum\", \"dtype\": \"float64\", \"shape\": [2], \"kind\": \"output\"},"
         "{\"name\": \"max\", \"dtype\": \"float64\", \"shape\": [2], \"kind\": \"output\"}]}"
         FAIL_ENTRY "]}";
}

/* out0 = x + y */
void _mlir_ciface_add(memref_1d_f32 *x, memref_1d_f32 *y, memref_1d_f32 *out) {
  for (int64_t i = 0; i < x->sizes[0]; ++i)
    AT1(out, i) = AT1(x, i) + AT1(y, i);
}

/* out0 = alpha * x + y */
void _mlir_ciface_axpy(float alpha, memref_2d_f32 *x, memref_2d_f32 *y,
                       memref_2d_f32 *out) {
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 3; ++j)
      AT2(out, i, j) = alpha * AT2(x, i, j) + AT2(y, i, j);
}

/* sum = n * (sum of each row), max = maximum of each row */
void _mlir_ciface_row_stats(memref_2d_f64 *x, int64_t n, memref_1d_f64 *sum,
                            memref_1d_f64 *max) {
  for (int64_t i = 0; i < 2; ++i) {
    double s = 0, m = AT2(x, i, 0);
    for (int64_t j = 0; j < 5; ++j) {
      s += AT2(x, i, j);
      m = AT2(x, i, j) > m ? AT2(x, i, j) : m;
    }
    AT1(sum, i) = (double)n * s;
    AT1(max, i) = m;
  }
}

#ifdef MLC_TARGET_CUDA
static const char *last_error;
static int live_buffers;

/* Device buffers not yet freed: the test checks that calls free theirs. */
int fake_live_buffers(void) { return live_buffers; }

void _mlir_ciface_fail(memref_1d_f32 *x) {
  (void)x;
  last_error = "an illegal memory access was encountered";
}

int mlc_cuda_init(void) {
  const char *no_device = getenv("MLC_FAKE_NO_DEVICE");
  if (no_device && strcmp(no_device, "1") == 0) {
    last_error = "no CUDA device";
    return -1;
  }
  return 0;
}
int mlc_cuda_device_count(void) { return 1; }
const char *mlc_cuda_get_last_error(void) { return last_error; }
void mlc_cuda_clear_error(void) { last_error = NULL; }
const char *mlc_cuda_device_name(void) { return "fake GPU (host memory)"; }

void *mlc_cuda_malloc(size_t size) {
  void *p = malloc(size);
  if (!p)
    last_error = "out of memory";
  else
    ++live_buffers;
  return p;
}
int mlc_cuda_free(void *p) {
  free(p);
  --live_buffers;
  return 0;
}
int mlc_cuda_memcpy_htod(void *dst, const void *src, size_t size) {
  memcpy(dst, src, size);
  return 0;
}
int mlc_cuda_memcpy_dtoh(void *dst, const void *src, size_t size) {
  memcpy(dst, src, size);
  return 0;
}
int mlc_cuda_memset_zero(void *p, size_t size) {
  memset(p, 0, size);
  return 0;
}
int mlc_cuda_synchronize(void) { return 0; }

void *mlc_cuda_event_create(void) { return calloc(1, sizeof(struct timespec)); }
int mlc_cuda_event_record(void *event) {
  return clock_gettime(CLOCK_MONOTONIC, (struct timespec *)event);
}
int mlc_cuda_event_elapsed_ms(void *start, void *end, float *ms) {
  const struct timespec *a = start, *b = end;
  *ms = (float)((b->tv_sec - a->tv_sec) * 1e3 + (b->tv_nsec - a->tv_nsec) / 1e6);
  return 0;
}
int mlc_cuda_event_destroy(void *event) {
  free(event);
  return 0;
}
#endif
