// Buffers that cannot be allocated are an error naming the buffer, not a
// crash (found by the mlc-run fuzzer, seed 47: a 32 GiB output buffer):
// one of 2^52 bytes, which no allocator gives, and one of more bytes than
// size_t counts.
// RUN: not mlc-run %s --entry=fill 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not mlc-run %s --entry=fill_overflow 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// BIG: mlc-run: error: cannot allocate 4503599627370496 bytes for 'A' (tensor<1125899906842624xf32>)
// OVERFLOW: mlc-run: error: cannot allocate 18446744073709551615 bytes for 'A' (tensor<4294967296x4294967296x4xf32>)

tensorir.prim_func @fill(%A: memref<1125899906842624xf32>) {
  tensorir.for %i = 0 to 1125899906842624 {
    tensorir.block "A"(%vi = spatial(1125899906842624, %i)) {
      %one = arith.constant 1.0 : f32
      memref.store %one, %A[%vi] : memref<1125899906842624xf32>
    }
  }
  tensorir.return
}

tensorir.prim_func @fill_overflow(%A: memref<4294967296x4294967296x4xf32>) {
  tensorir.return
}
