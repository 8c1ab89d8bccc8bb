# Large heap buffers reused across calls (mlc-heap-buffer-cache): a Relay
# model whose kernels allocate buffers above the cache's 1 MiB (the padded
# images of two 3x3 convolutions, 1.3 MiB and 1.6 MiB, and the arena of the
# intermediate results), compiled by mlc-compile and called through
# mlc.runtime from one thread and then from 4 threads at once (ctypes
# releases the GIL, so the calls overlap and share the cache's slots), each
# call on its own random input, against a float64 numpy reference
# (rtol 1e-5, atol 1e-5 * sqrt(K) for the reduction length K).
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %s %t | FileCheck %s
# CHECK: sequential: 12 calls ok
# CHECK: 4 threads: 48 calls ok

import os
import sys
import threading

import numpy as np
from mlc import runtime, tools

OUT = sys.argv[1]
rng = np.random.default_rng(3)
w1 = (rng.standard_normal((40, 32, 3, 3)) * 0.1).astype(np.float32)
w2 = (rng.standard_normal((24, 40, 3, 3)) * 0.1).astype(np.float32)
relay = '''#[version = "0.0.5"]
def @main(%x: Tensor[(1, 32, 100, 100), float32], %w1: Tensor[(40, 32, 3, 3), float32],
          %w2: Tensor[(24, 40, 3, 3), float32]) {
  %0 = nn.conv2d(%x, %w1, padding=[1, 1, 1, 1], channels=40, kernel_size=[3, 3]);
  %1 = nn.relu(%0);
  nn.conv2d(%1, %w2, padding=[1, 1, 1, 1], channels=24, kernel_size=[3, 3])
}
'''
with open(os.path.join(OUT, "model.relay"), "w") as f:
    f.write(relay)
tools.run("mlc-translate", ["--import-relay", os.path.join(OUT, "model.relay"),
                            "-o", os.path.join(OUT, "model.mlir")])
tools.run("mlc-compile", [os.path.join(OUT, "model.mlir"), "-o", os.path.join(OUT, "model.so")])
main = runtime.load_module(os.path.join(OUT, "model.so"))["main"]


def conv3x3(x, w):
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    h, wd = x.shape[2:]
    return sum(np.einsum("nchw,fc->nfhw", xp[:, :, ky:ky + h, kx:kx + wd], w[:, :, ky, kx])
               for ky in range(3) for kx in range(3))


def check(x):
    want = conv3x3(np.maximum(conv3x3(x.astype(np.float64), w1), 0), w2)
    np.testing.assert_allclose(main(x, w1, w2), want, rtol=1e-5, atol=1e-5 * np.sqrt(40 * 9))


inputs = [rng.standard_normal((1, 32, 100, 100)).astype(np.float32) for _ in range(12)]
for x in inputs:
    check(x)
print("sequential: %d calls ok" % len(inputs))

errors = []


def worker():
    try:
        for x in inputs:
            check(x)
    except Exception as error:  # reported below, after the threads end
        errors.append(error)


threads = [threading.Thread(target=worker) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
if errors:
    raise errors[0]
print("4 threads: %d calls ok" % (4 * len(inputs)))
