"""Weights, inputs and numpy references for the example models.

    models.py make  mlp|cnn params.npz inputs.npz   # random weights + input
    models.py check mlp|cnn params.npz inputs.npz outputs.npz

Weights are keyed by the Relay parameter names (what BindParamsByName and
`mlc-run --params` bind by). `check` recomputes the model in float64 numpy and
compares mlc's `out0` with rtol 1e-5, atol 1e-6 (softmax outputs are in
[0, 1]).
"""

import sys

import numpy as np


def make_mlp(rng):
    params = {
        "w0": (rng.standard_normal((128, 784)) * 0.05).astype(np.float32),
        "b0": (rng.standard_normal(128) * 0.1).astype(np.float32),
        "w1": (rng.standard_normal((10, 128)) * 0.05).astype(np.float32),
        "b1": (rng.standard_normal(10) * 0.1).astype(np.float32),
    }
    inputs = {"data": rng.random((1, 784)).astype(np.float32)}
    return params, inputs


def make_cnn(rng):
    def weight(*shape):
        fan_in = np.prod(shape[1:])
        return (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32)

    params = {
        "conv1_weight": weight(8, 1, 3, 3),
        "conv1_bias": (rng.standard_normal(8) * 0.1).astype(np.float32),
        "conv2_weight": weight(16, 8, 3, 3),
        "conv2_bias": (rng.standard_normal(16) * 0.1).astype(np.float32),
        "dense_weight": weight(10, 784),
        "dense_bias": (rng.standard_normal(10) * 0.1).astype(np.float32),
    }
    inputs = {"data": rng.random((1, 1, 28, 28)).astype(np.float32)}
    return params, inputs


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def conv2d_nchw(x, w, pad):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    out = np.zeros((n, o, h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i:i + out.shape[2], j:j + out.shape[3]]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    return out


def max_pool2x2(x):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))


def reference_mlp(p, data):
    hidden = np.maximum(data @ p["w0"].T + p["b0"], 0)
    return softmax(hidden @ p["w1"].T + p["b1"])


def reference_cnn(p, data):
    x = conv2d_nchw(data, p["conv1_weight"], 1) + p["conv1_bias"][:, None, None]
    x = max_pool2x2(np.maximum(x, 0))
    x = conv2d_nchw(x, p["conv2_weight"], 1) + p["conv2_bias"][:, None, None]
    x = max_pool2x2(np.maximum(x, 0))
    x = x.reshape(x.shape[0], -1)
    return softmax(x @ p["dense_weight"].T + p["dense_bias"])


MODELS = {"mlp": (make_mlp, reference_mlp), "cnn": (make_cnn, reference_cnn)}


def main(argv):
    command, model = argv[1], argv[2]
    make, reference = MODELS[model]
    if command == "make":
        params, inputs = make(np.random.default_rng(0))
        np.savez(argv[3], **params)
        np.savez(argv[4], **inputs)
        return 0
    params = {k: v.astype(np.float64) for k, v in np.load(argv[3]).items()}
    data = np.load(argv[4])["data"].astype(np.float64)
    got = np.load(argv[5])["out0"]
    want = reference(params, data)
    error = np.abs(got - want).max()
    ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6)
    print("%s: max |mlc - numpy float64| = %.3g, argmax %d vs %d: %s"
          % (model, error, got.argmax(), want.argmax(), "ok" if ok else "MISMATCH"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
