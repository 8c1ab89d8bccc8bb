"""Makes inputs for examples/mm_relu.mlir, or checks its output against numpy.

    check_mm_relu.py make ab.npz        # random A, B
    check_mm_relu.py check ab.npz c.npz # C == relu(A @ B)?
"""

import sys

import numpy as np

if sys.argv[1] == "make":
    rng = np.random.default_rng(0)
    np.savez(sys.argv[2], A=rng.standard_normal((128, 128)).astype(np.float32),
             B=rng.standard_normal((128, 128)).astype(np.float32))
else:
    ab = np.load(sys.argv[2])
    c = np.load(sys.argv[3])["C"]
    expected = np.maximum(ab["A"].astype(np.float64) @ ab["B"], 0)
    error = np.abs(c - expected).max()
    print("max |C - relu(A @ B)| vs numpy float64: %.3g" % error)
    sys.exit(0 if np.allclose(c, expected, rtol=1e-5, atol=1e-4) else 1)
