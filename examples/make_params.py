"""Writes random weights for examples/mlp.relay as an .npz keyed by parameter
name, the way TVM users hold `params` for BindParamsByName."""

import sys

import numpy as np

rng = np.random.default_rng(0)
params = {
    "w0": (rng.standard_normal((128, 784)) * 0.05).astype(np.float32),
    "b0": np.zeros(128, np.float32),
    "w1": (rng.standard_normal((10, 128)) * 0.05).astype(np.float32),
    "b1": np.zeros(10, np.float32),
}
np.savez(sys.argv[1], **params)
