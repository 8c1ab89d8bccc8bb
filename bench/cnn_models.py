"""Full-size CNNs for the benchmarks, built here in Relay text with random
weights (batch 1, 224x224), and their float64 numpy references:

    resnet50()     ResNet-50 v1 (conv-bn-relu bottlenecks, 25.6 M weights;
                   batch=N for N images)
    resnet50_nhwc() the same, channels-last (NHWC images, HWIO weights)
    resnet50_v2()  TVM's relay.testing ResNet-50 (pre-activation: bn-relu-conv)
    mobilenet_v2() MobileNet-v2 (inverted residuals, ReLU6 as clip, 3.5 M)

Each returns (relay text, params by name, input "data"); reference_*(params,
data) computes the same network in float64 numpy (examples/models.py's
conv2d and batch norm).
"""

import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples"))
from models import batch_norm, conv2d_nchw, weight, batch_norm_params  # noqa: E402


class RelayBuilder:
    """Relay text of @main, one let per expression, weights as named params."""

    def __init__(self, seed, layout="NCHW"):
        self.rng = np.random.default_rng(seed)
        self.lines, self.args, self.params = [], [], {}
        # NHWC: images channels-last, conv weights HWIO (TensorFlow's).
        self.nhwc = layout == "NHWC"

    def let(self, expr):
        self.lines.append("  %%%d = %s;" % (len(self.lines), expr))
        return "%%%d" % (len(self.lines) - 1)

    def arg(self, name, value):
        self.args.append("%%%s: Tensor[(%s), float32]" % (name, ", ".join(map(str, value.shape))))
        self.params[name] = value
        return "%" + name

    def conv_bn(self, x, name, cin, cout, k, stride, groups=1, act="relu"):
        w = weight(self.rng, cout, cin // groups, k, k)
        layouts = ""
        if self.nhwc:
            w = np.ascontiguousarray(w.transpose(2, 3, 1, 0))
            layouts = ', data_layout="NHWC", kernel_layout="HWIO"'
        w = self.arg(name + "_weight", w)
        pad = k // 2
        y = self.let("nn.conv2d(%s, %s, strides=[%d, %d], padding=[%d, %d, %d, %d], "
                     "groups=%d, channels=%d, kernel_size=[%d, %d]%s)"
                     % (x, w, stride, stride, pad, pad, pad, pad, groups, cout, k, k, layouts))
        bn = batch_norm_params(self.rng, name + "_bn", cout)
        y = self.let("nn.batch_norm(%s, %s%s)" % (y, ", ".join(self.arg(k, v) for k, v in bn.items()),
                                                   ", axis=3" if self.nhwc else ""))
        y = self.let("%s.0" % y)
        if act == "relu":
            return self.let("nn.relu(%s)" % y)
        if act == "relu6":
            return self.let("clip(%s, a_min=0f, a_max=6f)" % y)
        return y

    def classifier(self, x, channels):
        x = self.let("nn.batch_flatten(%s)" % self.let(
            "nn.global_avg_pool2d(%s%s)" % (x, ', layout="NHWC"' if self.nhwc else "")))
        x = self.let("nn.dense(%s, %s, units=1000)"
                     % (x, self.arg("fc_weight", weight(self.rng, 1000, channels))))
        return self.let("nn.bias_add(%s, %s)" % (
            x, self.arg("fc_bias", (self.rng.standard_normal(1000) * 0.1).astype(np.float32))))

    def finish(self, result):
        text = '#[version = "0.0.5"]\ndef @main(%s) {\n%s\n  %s\n}\n' % (
            ", ".join(self.args), "\n".join(self.lines), result)
        return text, self.params


def conv_bn64(p, x, name, stride, groups=1, act="relu"):
    w = p[name + "_weight"]
    y = batch_norm(conv2d_nchw(x, w, w.shape[2] // 2, stride, groups), p, name + "_bn")
    if act == "relu":
        return np.maximum(y, 0)
    if act == "relu6":
        return np.clip(y, 0, 6)
    return y


def max_pool64(x):
    """nn.max_pool2d with a 3x3 window, stride 2, padding 1."""
    x = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    h = (x.shape[2] - 3) // 2 + 1
    return np.max([x[:, :, i:i + 2 * h:2, j:j + 2 * h:2] for i in range(3) for j in range(3)], 0)


def classifier64(p, x):
    return x.mean(axis=(2, 3)) @ p["fc_weight"].T + p["fc_bias"]


RESNET50_STAGES = [(3, 64), (4, 128), (6, 256), (3, 512)]


def resnet50(layout="NCHW", batch=1):
    """(relay text, params, data) of ResNet-50 v1 with random weights; with
    layout "NHWC" the same network (same weights and image) channels-last.
    The weights depend on the batch (drawn after the images)."""
    b = RelayBuilder(50, layout)
    data = b.rng.random((batch, 3, 224, 224)).astype(np.float32)
    if b.nhwc:
        data = np.ascontiguousarray(data.transpose(0, 2, 3, 1))
    b.args.append("%%data: Tensor[(%s), float32]" % ", ".join(map(str, data.shape)))
    x = b.conv_bn("%data", "stem", 3, 64, 7, 2)
    x = b.let("nn.max_pool2d(%s, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]%s)"
              % (x, ', layout="NHWC"' if b.nhwc else ""))
    cin = 64
    for s, (blocks, width) in enumerate(RESNET50_STAGES):
        for i in range(blocks):
            stride = 2 if i == 0 and s > 0 else 1
            name = "s%db%d" % (s, i)
            y = b.conv_bn(x, name + "_c1", cin, width, 1, 1)
            y = b.conv_bn(y, name + "_c2", width, width, 3, stride)
            y = b.conv_bn(y, name + "_c3", width, 4 * width, 1, 1, act=None)
            shortcut = b.conv_bn(x, name + "_down", cin, 4 * width, 1, stride, act=None) \
                if i == 0 else x
            x = b.let("nn.relu(%s)" % b.let("add(%s, %s)" % (y, shortcut)))
            cin = 4 * width
    text, params = b.finish(b.classifier(x, 2048))
    return text, params, data


def resnet50_flops(batch=1):
    """Multiplies and adds of ResNet-50's convolutions and classifier (the
    4.1 G multiply-adds per image usually quoted)."""
    macs, hw, cin = 64 * 3 * 49 * 112 * 112, 56, 64
    for s, (blocks, width) in enumerate(RESNET50_STAGES):
        for i in range(blocks):
            stride = 2 if i == 0 and s > 0 else 1
            out = hw // stride
            macs += cin * width * hw * hw + width * width * 9 * out * out + width * 4 * width * out * out
            if i == 0:
                macs += cin * 4 * width * out * out
            hw, cin = out, 4 * width
    return 2 * batch * (macs + 2048 * 1000)


def reference_resnet50(p, data):
    """ResNet-50 v1 in float64 numpy."""
    p = {k: v.astype(np.float64) for k, v in p.items()}
    x = conv_bn64(p, data.astype(np.float64), "stem", 2)
    x = max_pool64(x)
    for s, (blocks, _) in enumerate(RESNET50_STAGES):
        for i in range(blocks):
            stride = 2 if i == 0 and s > 0 else 1
            name = "s%db%d" % (s, i)
            y = conv_bn64(p, x, name + "_c1", 1)
            y = conv_bn64(p, y, name + "_c2", stride)
            y = conv_bn64(p, y, name + "_c3", 1, act=None)
            shortcut = conv_bn64(p, x, name + "_down", stride, act=None) if i == 0 else x
            x = np.maximum(y + shortcut, 0)
    return classifier64(p, x)


def resnet50_nhwc():
    """ResNet-50 v1 channels-last: NHWC images, HWIO conv weights."""
    return resnet50("NHWC")


def reference_resnet50_nhwc(p, data):
    """reference_resnet50 on the NCHW/OIHW form of the NHWC model's inputs."""
    p = {k: v.transpose(3, 2, 0, 1) if v.ndim == 4 else v for k, v in p.items()}
    return reference_resnet50(p, data.transpose(0, 3, 1, 2))


def resnet50_v2():
    """(relay text, params, data) of TVM's relay.testing ResNet-50: the
    pre-activation residual units (batch norm and ReLU before each
    convolution, so that the norms cannot fold into the convolution weights),
    a batch norm of the input, epsilon 2e-5, softmax at the end."""
    b = RelayBuilder(51)
    data = b.rng.random((1, 3, 224, 224)).astype(np.float32)
    b.args.append("%data: Tensor[(1, 3, 224, 224), float32]")

    def bn(x, name, c):
        p = batch_norm_params(b.rng, name, c)
        y = b.let("nn.batch_norm(%s, %s, epsilon=2e-05f)"
                  % (x, ", ".join(b.arg(k, v) for k, v in p.items())))
        return b.let("%s.0" % y)

    def conv(x, name, cin, cout, k, stride):
        w = b.arg(name + "_weight", weight(b.rng, cout, cin, k, k))
        pad = k // 2
        return b.let("nn.conv2d(%s, %s, strides=[%d, %d], padding=[%d, %d, %d, %d], "
                     "channels=%d, kernel_size=[%d, %d])"
                     % (x, w, stride, stride, pad, pad, pad, pad, cout, k, k))

    x = bn("%data", "bn_data", 3)
    x = b.let("nn.relu(%s)" % bn(conv(x, "conv0", 3, 64, 7, 2), "bn0", 64))
    x = b.let("nn.max_pool2d(%s, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])" % x)
    cin = 64
    for s, (blocks, width) in enumerate(RESNET50_STAGES):
        for i in range(blocks):
            stride = 2 if i == 0 and s > 0 else 1
            name = "stage%d_unit%d" % (s + 1, i + 1)
            act1 = b.let("nn.relu(%s)" % bn(x, name + "_bn1", cin))
            y = conv(act1, name + "_conv1", cin, width, 1, stride)
            y = conv(b.let("nn.relu(%s)" % bn(y, name + "_bn2", width)),
                     name + "_conv2", width, width, 3, 1)
            y = conv(b.let("nn.relu(%s)" % bn(y, name + "_bn3", width)),
                     name + "_conv3", width, 4 * width, 1, 1)
            shortcut = conv(act1, name + "_sc", cin, 4 * width, 1, stride) if i == 0 else x
            x = b.let("add(%s, %s)" % (y, shortcut))
            cin = 4 * width
    x = b.let("nn.relu(%s)" % bn(x, "bn1", cin))
    x = b.let("nn.softmax(%s)" % b.classifier(x, 2048))
    text, params = b.finish(x)
    return text, params, data


def reference_resnet50_v2(p, data):
    """TVM's pre-activation ResNet-50 in float64 numpy."""
    p = {k: v.astype(np.float64) for k, v in p.items()}

    def bn_relu(x, name):
        return np.maximum(batch_norm(x, p, name, eps=2e-5), 0)

    def conv(x, name, stride):
        w = p[name + "_weight"]
        return conv2d_nchw(x, w, w.shape[2] // 2, stride)

    x = batch_norm(data.astype(np.float64), p, "bn_data", eps=2e-5)
    x = bn_relu(conv(x, "conv0", 2), "bn0")
    x = max_pool64(x)
    for s, (blocks, _) in enumerate(RESNET50_STAGES):
        for i in range(blocks):
            stride = 2 if i == 0 and s > 0 else 1
            name = "stage%d_unit%d" % (s + 1, i + 1)
            act1 = bn_relu(x, name + "_bn1")
            y = conv(act1, name + "_conv1", stride)
            y = conv(bn_relu(y, name + "_bn2"), name + "_conv2", 1)
            y = conv(bn_relu(y, name + "_bn3"), name + "_conv3", 1)
            x = y + (conv(act1, name + "_sc", stride) if i == 0 else x)
    logits = classifier64(p, bn_relu(x, "bn1"))
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# (expansion t, output channels c, repeats n, first stride s), torchvision's.
MOBILENET_V2_BLOCKS = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                       (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]


def mobilenet_v2_layers():
    """(name, cin, hidden, cout, stride, residual) per inverted residual."""
    layers, cin = [], 32
    for index, (t, c, n, s) in enumerate(MOBILENET_V2_BLOCKS):
        for i in range(n):
            stride = s if i == 0 else 1
            layers.append(("b%d_%d" % (index, i), cin, cin * t, c, stride,
                           stride == 1 and cin == c))
            cin = c
    return layers


def mobilenet_v2():
    """(relay text, params, data) of MobileNet-v2 with random weights."""
    b = RelayBuilder(2)
    data = b.rng.random((1, 3, 224, 224)).astype(np.float32)
    b.args.append("%data: Tensor[(1, 3, 224, 224), float32]")
    x = b.conv_bn("%data", "stem", 3, 32, 3, 2, act="relu6")
    for name, cin, hidden, cout, stride, residual in mobilenet_v2_layers():
        y = x
        if hidden != cin:
            y = b.conv_bn(y, name + "_expand", cin, hidden, 1, 1, act="relu6")
        y = b.conv_bn(y, name + "_dw", hidden, hidden, 3, stride, groups=hidden, act="relu6")
        y = b.conv_bn(y, name + "_project", hidden, cout, 1, 1, act=None)
        x = b.let("add(%s, %s)" % (y, x)) if residual else y
    x = b.conv_bn(x, "head", 320, 1280, 1, 1, act="relu6")
    text, params = b.finish(b.classifier(x, 1280))
    return text, params, data


def reference_mobilenet_v2(p, data):
    """MobileNet-v2 in float64 numpy."""
    p = {k: v.astype(np.float64) for k, v in p.items()}
    x = conv_bn64(p, data.astype(np.float64), "stem", 2, act="relu6")
    for name, cin, hidden, cout, stride, residual in mobilenet_v2_layers():
        y = x
        if hidden != cin:
            y = conv_bn64(p, y, name + "_expand", 1, act="relu6")
        y = conv_bn64(p, y, name + "_dw", stride, groups=hidden, act="relu6")
        y = conv_bn64(p, y, name + "_project", 1, act=None)
        x = y + x if residual else y
    x = conv_bn64(p, x, "head", 1, act="relu6")
    return classifier64(p, x)


MODELS = {"resnet50": (resnet50, reference_resnet50),
          "resnet50_nhwc": (resnet50_nhwc, reference_resnet50_nhwc),
          "resnet50_v2": (resnet50_v2, reference_resnet50_v2),
          "mobilenet_v2": (mobilenet_v2, reference_mobilenet_v2)}
