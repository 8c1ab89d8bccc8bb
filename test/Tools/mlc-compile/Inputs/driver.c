/* Calls the entries of c-driver.mlir through the generated model.h and
 * compares them with plain C loops in double precision. */
#include "model.h"

#include <math.h>
#include <stdio.h>

static unsigned long long state = 12345;

/* Uniform in [-1, 1): a fixed LCG, so that runs are reproducible. */
static double next_random(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(state >> 11) / (double)(1ULL << 53) * 2.0 - 1.0;
}

static int close_enough(double actual, double expected) {
  return fabs(actual - expected) <= 1e-6 + 1e-5 * fabs(expected);
}

enum { M = 16, K = 32, N = 8, L = 100 };

int main(void) {
  static float x[M][K], w[K][N], b[N], out[M][N];
  static double v[L];
  int failures = 0;
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      x[i][k] = (float)next_random();
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      w[k][j] = (float)next_random();
  for (int j = 0; j < N; ++j)
    b[j] = (float)next_random();

  mlc_memref_2d_f32 dx = {&x[0][0], &x[0][0], 0, {M, K}, {K, 1}};
  mlc_memref_2d_f32 dw = {&w[0][0], &w[0][0], 0, {K, N}, {N, 1}};
  mlc_memref_1d_f32 db = {b, b, 0, {N}, {1}};
  mlc_memref_2d_f32 dout = {&out[0][0], &out[0][0], 0, {M, N}, {N, 1}};
  _mlir_ciface_dense_relu(&dx, &dw, &db, &dout);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double expected = b[j];
      for (int k = 0; k < K; ++k)
        expected += (double)x[i][k] * w[k][j];
      expected = expected > 0 ? expected : 0;
      if (!close_enough(out[i][j], expected)) {
        printf("dense_relu[%d][%d] = %g, expected %g\n", i, j, out[i][j],
               expected);
        ++failures;
      }
    }
  if (!failures)
    printf("dense_relu %dx%dx%d: ok\n", M, K, N);

  double expected = 0, total = -1;
  for (int i = 0; i < L; ++i) {
    v[i] = next_random();
    expected += v[i] * 0.75;
  }
  mlc_memref_1d_f64 dv = {v, v, 0, {L}, {1}};
  mlc_memref_0d_f64 dtotal = {&total, &total, 0};
  _mlir_ciface_scaled_sum(&dv, 0.75, &dtotal);
  if (close_enough(total, expected)) {
    printf("scaled_sum: ok\n");
  } else {
    printf("scaled_sum = %g, expected %g\n", total, expected);
    ++failures;
  }
  return failures != 0;
}
