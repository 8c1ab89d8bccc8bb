"""Weights, inputs and numpy references for the example models.

    models.py make  MODEL params.npz inputs.npz   # random weights + input
    models.py check MODEL params.npz inputs.npz outputs.npz

MODEL: mlp, cnn (examples/*.relay, the README's examples), resnet (a
ResNet-style CNN), mobilenet (depthwise separable + inverted residual
blocks), transformer (a pre-norm encoder block).

Weights are keyed by the Relay parameter names (what BindParamsByName and
`mlc-run --params` bind by). `check` recomputes the model in float64 numpy and
compares mlc's `out0` with rtol 1e-5 and atol 1e-6 for the classifiers
(softmax outputs are in [0, 1]), atol 1e-5 for the transformer block (its
hidden states are O(1) sums of 256-long dot products).
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


def weight(rng, *shape):
    fan_in = np.prod(shape[1:])
    return (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32)


def vector(rng, n, scale=0.1, offset=0.0):
    return (offset + rng.standard_normal(n) * scale).astype(np.float32)


def batch_norm_params(rng, prefix, c):
    return {prefix + "_gamma": vector(rng, c, 0.1, 1.0),
            prefix + "_beta": vector(rng, c),
            prefix + "_mean": vector(rng, c),
            prefix + "_var": (0.5 + rng.random(c)).astype(np.float32)}


def make_resnet(rng):
    params = {"stem_weight": weight(rng, 16, 3, 3, 3)}
    params.update(batch_norm_params(rng, "stem_bn", 16))
    for name, shape in [("b1_conv1", (16, 16, 3, 3)), ("b1_conv2", (16, 16, 3, 3)),
                        ("b2_conv1", (32, 16, 3, 3)), ("b2_conv2", (32, 32, 3, 3)),
                        ("b2_down", (32, 16, 1, 1))]:
        params[name + "_weight"] = weight(rng, *shape)
        bn = name.replace("conv", "bn") if "conv" in name else name + "_bn"
        params.update(batch_norm_params(rng, bn, shape[0]))
    params["fc_weight"] = weight(rng, 10, 32)
    params["fc_bias"] = vector(rng, 10)
    return params, {"data": rng.random((1, 3, 32, 32)).astype(np.float32)}


def make_mobilenet(rng):
    params = {}
    for name, shape in [("stem", (16, 3, 3, 3)), ("dw1", (16, 1, 3, 3)),
                        ("pw1", (32, 16, 1, 1)), ("dw2", (32, 1, 3, 3)),
                        ("pw2", (64, 32, 1, 1)), ("ir_expand", (128, 64, 1, 1)),
                        ("ir_dw", (128, 1, 3, 3)), ("ir_project", (64, 128, 1, 1))]:
        params[name + "_weight"] = weight(rng, *shape)
        params[name + "_bias"] = vector(rng, shape[0])
    params["fc_weight"] = weight(rng, 10, 64)
    params["fc_bias"] = vector(rng, 10)
    return params, {"data": rng.random((1, 3, 32, 32)).astype(np.float32)}


def make_transformer(rng):
    params = {}
    for name in ("ln1", "ln2"):
        params[name + "_gamma"] = vector(rng, 64, 0.1, 1.0)
        params[name + "_beta"] = vector(rng, 64)
    for name, shape in [("qkv", (192, 64)), ("proj", (64, 64)),
                        ("fc1", (256, 64)), ("fc2", (64, 256))]:
        params[name + "_weight"] = weight(rng, *shape)
        params[name + "_bias"] = vector(rng, shape[0])
    return params, {"data": rng.standard_normal((1, 32, 64)).astype(np.float32)}


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def conv2d_nchw(x, w, pad, stride=1, groups=1):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for g in range(groups):
        xg = xp[:, g * cg:(g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                patch = xg[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
                out[:, g * og:(g + 1) * og] += np.einsum(
                    "nchw,oc->nohw", patch, w[g * og:(g + 1) * og, :, i, j],
                    optimize=True)
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


def batch_norm(x, p, prefix, eps=1e-5):
    scale = p[prefix + "_gamma"] / np.sqrt(p[prefix + "_var"] + eps)
    shift = p[prefix + "_beta"] - p[prefix + "_mean"] * scale
    return x * scale[:, None, None] + shift[:, None, None]


def reference_resnet(p, data):
    def conv_bn(x, name, bn, pad, stride=1):
        return batch_norm(conv2d_nchw(x, p[name + "_weight"], pad, stride), p, bn)

    x = np.maximum(conv_bn(data, "stem", "stem_bn", 1), 0)
    y = np.maximum(conv_bn(x, "b1_conv1", "b1_bn1", 1), 0)
    x = np.maximum(conv_bn(y, "b1_conv2", "b1_bn2", 1) + x, 0)
    y = np.maximum(conv_bn(x, "b2_conv1", "b2_bn1", 1, 2), 0)
    y = conv_bn(y, "b2_conv2", "b2_bn2", 1)
    x = np.maximum(y + conv_bn(x, "b2_down", "b2_down_bn", 0, 2), 0)
    x = x.mean(axis=(2, 3))
    return softmax(x @ p["fc_weight"].T + p["fc_bias"])


def reference_mobilenet(p, data):
    def conv(x, name, pad, stride=1, groups=1, relu6=True):
        y = conv2d_nchw(x, p[name + "_weight"], pad, stride, groups)
        y = y + p[name + "_bias"][:, None, None]
        return np.clip(y, 0, 6) if relu6 else y

    x = conv(data, "stem", 1, 2)
    x = conv(conv(x, "dw1", 1, groups=16), "pw1", 0)
    x = conv(conv(x, "dw2", 1, 2, groups=32), "pw2", 0)
    y = conv(conv(x, "ir_expand", 0), "ir_dw", 1, groups=128)
    x = conv(y, "ir_project", 0, relu6=False) + x
    x = x.mean(axis=(2, 3))
    return softmax(x @ p["fc_weight"].T + p["fc_bias"])


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def erf(x):
    # math.erf elementwise (numpy has no erf; scipy is not required).
    import math
    return np.vectorize(math.erf)(x)


def reference_transformer(p, data):
    def linear(x, name):
        return x @ p[name + "_weight"].T + p[name + "_bias"]

    x = data[0]
    qkv = linear(layer_norm(x, p["ln1_gamma"], p["ln1_beta"]), "qkv")
    q, k, v = qkv.reshape(32, 3, 4, 16).transpose(1, 2, 0, 3)
    attention = softmax(q @ k.transpose(0, 2, 1) * 0.25) @ v
    x = linear(attention.transpose(1, 0, 2).reshape(32, 64), "proj") + x
    h = linear(layer_norm(x, p["ln2_gamma"], p["ln2_beta"]), "fc1")
    h = h * (1 + erf(h * 0.707107)) * 0.5
    return (linear(h, "fc2") + x)[None]


# name: (make, reference, atol)
MODELS = {"mlp": (make_mlp, reference_mlp, 1e-6),
          "cnn": (make_cnn, reference_cnn, 1e-6),
          "resnet": (make_resnet, reference_resnet, 1e-6),
          "mobilenet": (make_mobilenet, reference_mobilenet, 1e-6),
          "transformer": (make_transformer, reference_transformer, 1e-5)}


def main(argv):
    command, model = argv[1], argv[2]
    make, reference, atol = MODELS[model]
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
    ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=atol)
    print("%s: max |mlc - numpy float64| = %.3g, argmax %d vs %d: %s"
          % (model, error, got.argmax(), want.argmax(), "ok" if ok else "MISMATCH"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
