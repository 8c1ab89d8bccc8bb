// mlc-run --cache-dir: the second run of a module takes its object code from
// the cache (no pipeline, no LLVM) and computes the same results; a changed
// module (other weights), other options or --no-cache compile again; an
// entry that does not verify (truncated, a flipped byte) is never run: it
// is removed, the module compiled and the entry written again. Concurrent
// runs share the cache.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.savez('%t/in.npz', x=np.arange(6, dtype=np.float32).reshape(2, 3)); np.savez('%t/w1.npz', w=np.full((3,), 2, np.float32)); np.savez('%t/w2.npz', w=np.full((3,), 3, np.float32))"
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w1.npz --cache-dir=%t/cache --bench=1 --outputs=%t/cold.npz | FileCheck %s --check-prefix=COLD
// RUN: ls %t/cache | count 1
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w1.npz --cache-dir=%t/cache --bench=1 --outputs=%t/warm.npz | FileCheck %s --check-prefix=WARM
// RUN: %python -c "import numpy as np; a = np.load('%t/cold.npz')['out0']; b = np.load('%t/warm.npz')['out0']; x = np.arange(6, dtype=np.float32).reshape(2, 3); assert (a == b).all() and (b == np.maximum(x * 2 - 3, 0)).all(), (a, b); print('same')" | FileCheck %s --check-prefix=SAME
// Other weights, other pipeline options, --threads (run time only), --no-cache.
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w2.npz --cache-dir=%t/cache --bench=1 | FileCheck %s --check-prefixes=COLD,W2
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w1.npz --cache-dir=%t/cache --bench=1 --pipeline-options="fuse-opt-level=0" | FileCheck %s --check-prefix=COLD
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w1.npz --cache-dir=%t/cache --bench=1 --threads=2 | FileCheck %s --check-prefix=WARM
// RUN: ls %t/cache | count 3
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w1.npz --cache-dir=%t/nocache --no-cache --bench=1 | FileCheck %s --check-prefix=COLD
// RUN: not ls %t/nocache
// A corrupted entry: compiled again, rewritten, then served.
// RUN: rm -rf %t/cache && mlc-run %s --inputs=%t/in.npz --params=%t/w1.npz --cache-dir=%t/cache --quiet
// RUN: %python -c "import glob; p = glob.glob('%t/cache/*.o')[0]; b = bytearray(open(p, 'rb').read()); b[100] ^= 1; open(p, 'wb').write(b)"
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w1.npz --cache-dir=%t/cache --bench=1 | FileCheck %s --check-prefixes=COLD,W1
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w1.npz --cache-dir=%t/cache --bench=1 | FileCheck %s --check-prefixes=WARM,W1
// RUN: %python -c "import glob; p = glob.glob('%t/cache/*.o')[0]; b = open(p, 'rb').read(); open(p, 'wb').write(b[:len(b) // 2])"
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w1.npz --cache-dir=%t/cache --bench=1 | FileCheck %s --check-prefixes=COLD,W1
// Four runs at once into an empty cache.
// RUN: rm -rf %t/cache
// RUN: sh -c 'for i in 1 2 3 4; do mlc-run %s --inputs=%t/in.npz --params=%t/w1.npz --cache-dir=%t/cache --outputs=%t/par$i.npz --quiet & done; wait'
// RUN: %python -c "import numpy as np; x = np.arange(6, dtype=np.float32).reshape(2, 3); assert all((np.load('%t/par%%d.npz' %% i)['out0'] == np.maximum(x * 2 - 3, 0)).all() for i in range(1, 5)); print('same')" | FileCheck %s --check-prefix=SAME
// RUN: ls %t/cache | count 1

// W1: out0: tensor<2x3xf32> min 0 max 7
// W2: out0: tensor<2x3xf32> min 0 max 12
// COLD: compile time: {{[0-9.]+}} ms (MLIR pipeline {{[0-9.]+}} ms, LLVM {{[0-9.]+}} ms)
// WARM: compile time: {{[0-9.]+}} ms (from the cache)
// SAME: same

func.func @main(%x: tensor<2x3xf32> {relay.name = "x"}, %w: tensor<3xf32> {relay.name = "w"}) -> tensor<2x3xf32> {
  %0 = relay.multiply %x, %w : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %c = relay.constant dense<3.0> : tensor<f32>
  %1 = relay.subtract %0, %c : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %2 = relay.nn.relu %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
