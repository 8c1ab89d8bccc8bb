# The relay ops that have no relax op of the same name: nn.prelu (relax
# nn.prelu), nn.upsampling (relax image.resize2d), nn.global_max_pool2d and
# nn.adaptive_max_pool2d (relax max), nn.dropout with its mask; plus
# relax.image.resize2d directly for the coordinate modes and roundings relay
# does not reach. Relay text (or relax MLIR) compiled with --mlc-cpu-pipeline
# and run on random inputs against numpy references computed here.
# The resize reference follows topi.image.resize2d step by step in float32
# (coordinates, rounding, clamping, lerp, cubic weights): nearest-neighbor
# results must match exactly, linear and cubic ones to f32 rtol 1e-5,
# atol 1e-6; prelu against float64 with rtol 1e-5, atol 1e-6; max pools and
# dropout exactly.
# RUN: %python %s | FileCheck %s
# CHECK: nn.prelu 2x3x5x7 axis=1: ok
# CHECK: nn.prelu 7x13 axis=-1: ok
# CHECK: nn.upsampling nearest 2x: ok
# CHECK: nn.upsampling nearest 1.5x2 NHWC: ok
# CHECK: nn.upsampling bilinear 2x: ok
# CHECK: nn.upsampling bilinear align_corners 7x5 -> 14x15: ok
# CHECK: nn.upsampling nearest align_corners 3x: ok
# CHECK: nn.upsampling bicubic 2x3: ok
# CHECK: nn.upsampling bicubic align_corners NHWC: ok
# CHECK: nn.global_max_pool2d NCHW: ok
# CHECK: nn.global_max_pool2d NHWC: ok
# CHECK: nn.adaptive_max_pool2d 1x1: ok
# CHECK: nn.adaptive_max_pool2d same size: ok
# CHECK: nn.dropout output and mask: ok
# CHECK: image.resize2d linear half_pixel 7x9 -> 4x13: ok
# CHECK: image.resize2d nearest half_pixel round 6x6 -> 4x9: ok
# CHECK: image.resize2d nearest tf_half_pixel_for_nn round_prefer_ceil 5x7 -> 8x3: ok
# CHECK: image.resize2d nearest pytorch_half_pixel round_prefer_floor 5x7 -> 1x11: ok
# CHECK: image.resize2d nearest asymmetric ceil 5x4 -> 7x6: ok
# CHECK: image.resize2d linear tf_crop_and_resize NHWC 6x8 -> 5x7: ok
# CHECK: image.resize2d linear asymmetric f32 -> out_dtype f64: ok
# CHECK: image.resize2d cubic half_pixel alpha=-0.75 exclude 6x7 -> 9x4: ok

import numpy as np
import mlc

rng = np.random.default_rng(11)
F32 = np.float32


def tensor_type(shape, dtype="float32"):
    dims = ", ".join(str(d) for d in shape)
    if len(shape) == 1:
        dims += ","
    return "Tensor[(%s), %s]" % (dims, dtype)


def run_relay(body, **inputs):
    params = ", ".join("%%%s: %s" % (n, tensor_type(v.shape)) for n, v in inputs.items())
    text = '#[version = "0.0.5"]\ndef @main(%s) {\n  %s\n}\n' % (params, body)
    return mlc.create_executor(mod=mlc.relay.fromtext(text)).evaluate()(**inputs)


def check(name, got, want, rtol=1e-5, atol=1e-6):
    want = np.asarray(want)
    assert got.shape == want.shape, (name, got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=name)
    print("%s: ok" % name)


def f32(*shape):
    return rng.uniform(-2.0, 2.0, shape).astype(F32)


# --- nn.prelu ---------------------------------------------------------------
x, a = f32(2, 3, 5, 7), f32(3)
check("nn.prelu 2x3x5x7 axis=1", run_relay("nn.prelu(%x, %a)", x=x, a=a),
      np.where(x > 0, x, x.astype(np.float64) * a[None, :, None, None]))
x, a = f32(7, 13), f32(13)
check("nn.prelu 7x13 axis=-1", run_relay("nn.prelu(%x, %a, axis=-1)", x=x, a=a),
      np.where(x > 0, x, x.astype(np.float64) * a))


# --- the topi.image.resize2d reference ----------------------------------------
def input_coordinates(image, target, mode, start=0.0, end=0.0):
    """topi get_inx in float32, in TOPI's operation order."""
    x = np.arange(target, dtype=F32)
    image_f, target_f = F32(image), F32(target)
    scale = image_f / target_f
    if mode == "half_pixel":
        return (x + F32(0.5)) * scale - F32(0.5)
    if mode == "align_corners":
        # TOPI divides by zero for a target of 1; mlc reads coordinate 0.
        if target == 1:
            return np.zeros(1, F32)
        return (image_f - F32(1)) / (target_f - F32(1)) * x
    if mode == "asymmetric":
        return scale * x
    if mode == "pytorch_half_pixel":
        return (x + F32(0.5)) * scale - F32(0.5) if target > 1 else np.zeros(1, F32)
    if mode == "tf_half_pixel_for_nn":
        return (x + F32(0.5)) * scale
    assert mode == "tf_crop_and_resize"
    start, end = F32(start), F32(end)
    if target > 1:
        return start * (image_f - F32(1)) + x * (end - start) * (image_f - F32(1)) / (target_f - F32(1))
    return np.full(1, F32(0.5) * (start + end) * (image_f - F32(1)), F32)


def closest_index(c, rounding):
    """topi get_closest_index."""
    eps, half = F32(1e-5), F32(0.5)
    rounded = {"round": lambda: np.round(c),  # te.round is round-half-even
               "round_prefer_floor": lambda: np.ceil(c - half),
               "round_prefer_ceil": lambda: np.floor(c + half),
               "floor": lambda: np.floor(c + eps),
               "ceil": lambda: np.ceil(c - eps)}[rounding]()
    return rounded.astype(np.int64)


def cubic_weights(t, alpha):
    """topi _get_cubic_spline_weights (python constants fold in double)."""
    t2 = t * t
    t3 = t2 * t
    return [F32(alpha) * (t3 - F32(2) * t2 + t),
            F32(alpha + 2) * t3 - F32(3 + alpha) * t2 + F32(1),
            F32(-(alpha + 2)) * t3 + F32(3 + 2 * alpha) * t2 - F32(alpha) * t,
            F32(-alpha) * t3 + F32(alpha) * t2]


def cubic_nchw(x, cy, cx, alpha, exclude):
    _, _, h, w = x.shape
    fy, fx = np.floor(cy), np.floor(cx)
    y0, x0 = fy.astype(np.int64), fx.astype(np.int64)
    wy, wx = cubic_weights(cy - fy, alpha), cubic_weights(cx - fx, alpha)
    if exclude:
        for ws, base, size in ((wy, y0, h), (wx, x0, w)):
            for i in range(4):
                outside = (base - 1 + i < 0) | (base + i > size)
                ws[i] = np.where(outside, F32(0), ws[i]).astype(F32)
            total = ws[0] + ws[1] + ws[2] + ws[3]
            for i in range(4):
                ws[i] = ws[i] / total
    value = None
    for j in range(4):
        yy = np.clip(y0 + j - 1, 0, h - 1)
        column = None
        for i in range(4):
            xx = np.clip(x0 + i - 1, 0, w - 1)
            term = x[:, :, yy[:, None], xx[None, :]] * wx[i][None, :]
            column = term if column is None else column + term
        term = column * wy[j][:, None]
        value = term if value is None else value + term
    return value


def resize2d_nchw(x, size, method, mode, rounding="", roi=(0.0, 0.0, 0.0, 0.0),
                  extrapolation=0.0, alpha=-0.5, exclude=False):
    _, _, h, w = x.shape
    oh, ow = size
    cy = input_coordinates(h, oh, mode, roi[0], roi[2])
    cx = input_coordinates(w, ow, mode, roi[1], roi[3])
    if method == "nearest_neighbor":
        if rounding == "":
            rounding = "round" if mode == "align_corners" else "floor"
        iy = np.clip(closest_index(cy, rounding), 0, h - 1)
        ix = np.clip(closest_index(cx, rounding), 0, w - 1)
        out = x[:, :, iy[:, None], ix[None, :]]
    elif method == "cubic":
        out = cubic_nchw(x, cy, cx, alpha, exclude)
    else:
        fy, fx = np.floor(cy), np.floor(cx)
        dy, dx = (cy - fy)[:, None], (cx - fx)[None, :]
        y0, x0 = fy.astype(np.int64), fx.astype(np.int64)
        def at(yy, xx):
            return x[:, :, np.clip(yy, 0, h - 1)[:, None], np.clip(xx, 0, w - 1)[None, :]]
        one = F32(1)
        top = at(y0, x0) * (one - dx) + at(y0, x0 + 1) * dx
        bottom = at(y0 + 1, x0) * (one - dx) + at(y0 + 1, x0 + 1) * dx
        out = top * (one - dy) + bottom * dy
    if mode == "tf_crop_and_resize":
        outside = ((cy < 0) | (cy > h - 1))[:, None] | ((cx < 0) | (cx > w - 1))[None, :]
        out = np.where(outside, F32(extrapolation), out)
    return out


def nhwc(fn, x, *args, **kwargs):
    return fn(x.transpose(0, 3, 1, 2), *args, **kwargs).transpose(0, 2, 3, 1)


# --- nn.upsampling (TOPI: asymmetric or align_corners, default rounding) ------
x = f32(1, 3, 4, 5)
check("nn.upsampling nearest 2x",
      run_relay("nn.upsampling(%x, scale_h=2f, scale_w=2f)", x=x),
      resize2d_nchw(x, (8, 10), "nearest_neighbor", "asymmetric"), rtol=0, atol=0)
x = f32(2, 6, 5, 3)
check("nn.upsampling nearest 1.5x2 NHWC",
      run_relay('nn.upsampling(%x, scale_h=1.5f, scale_w=2f, layout="NHWC")', x=x),
      nhwc(resize2d_nchw, x, (9, 10), "nearest_neighbor", "asymmetric"), rtol=0, atol=0)
x = f32(1, 2, 5, 6)
check("nn.upsampling bilinear 2x",
      run_relay('nn.upsampling(%x, scale_h=2f, scale_w=2f, method="bilinear")', x=x),
      resize2d_nchw(x, (10, 12), "linear", "asymmetric"))
x = f32(1, 2, 7, 5)
check("nn.upsampling bilinear align_corners 7x5 -> 14x15",
      run_relay('nn.upsampling(%x, scale_h=2f, scale_w=3f, method="bilinear", '
                'align_corners=True)', x=x),
      resize2d_nchw(x, (14, 15), "linear", "align_corners"))
x = f32(1, 1, 3, 4)
check("nn.upsampling nearest align_corners 3x",
      run_relay("nn.upsampling(%x, scale_h=3f, scale_w=3f, align_corners=True)", x=x),
      resize2d_nchw(x, (9, 12), "nearest_neighbor", "align_corners"), rtol=0, atol=0)

x = f32(1, 2, 5, 4)
check("nn.upsampling bicubic 2x3",
      run_relay('nn.upsampling(%x, scale_h=2f, scale_w=3f, method="bicubic")', x=x),
      resize2d_nchw(x, (10, 12), "cubic", "asymmetric"))
x = f32(2, 4, 6, 3)
check("nn.upsampling bicubic align_corners NHWC",
      run_relay('nn.upsampling(%x, scale_h=2f, scale_w=1.5f, layout="NHWC", '
                'method="bicubic", align_corners=True)', x=x),
      nhwc(resize2d_nchw, x, (8, 9), "cubic", "align_corners"))

# --- max pools -----------------------------------------------------------------
x = f32(2, 3, 7, 5)
check("nn.global_max_pool2d NCHW", run_relay("nn.global_max_pool2d(%x)", x=x),
      x.max(axis=(2, 3), keepdims=True), rtol=0, atol=0)
x = f32(2, 7, 5, 3)
check("nn.global_max_pool2d NHWC",
      run_relay('nn.global_max_pool2d(%x, layout="NHWC")', x=x),
      x.max(axis=(1, 2), keepdims=True), rtol=0, atol=0)
x = f32(1, 4, 6, 5)
check("nn.adaptive_max_pool2d 1x1",
      run_relay("nn.adaptive_max_pool2d(%x, output_size=[1, 1])", x=x),
      x.max(axis=(2, 3), keepdims=True), rtol=0, atol=0)
check("nn.adaptive_max_pool2d same size",
      run_relay("nn.adaptive_max_pool2d(%x, output_size=[6, 5])", x=x), x, rtol=0, atol=0)

# --- dropout at inference: the output is the input, the mask all ones ---------
x = f32(3, 4)
out, mask = run_relay("%0 = nn.dropout(%x, rate=0.3f);\n  (%0.0, %0.1)", x=x)
check("nn.dropout output and mask", np.stack([out, mask]),
      np.stack([x, np.ones_like(x)]), rtol=0, atol=0)


# --- relax.image.resize2d directly ------------------------------------------------
def run_resize(x, size, attrs, out_dtype="f32"):
    in_type = "tensor<%sxf32>" % "x".join(map(str, x.shape))
    layout_nhwc = 'layout = "NHWC"' in attrs
    shape = list(x.shape)
    hw = (1, 2) if layout_nhwc else (2, 3)
    shape[hw[0]], shape[hw[1]] = size
    out_type = "tensor<%sx%s>" % ("x".join(map(str, shape)), out_dtype)
    text = """
func.func @main(%%x: %s {relax.name = "x"}) -> %s {
  %%0 = relax.image.resize2d %%x {size = array<i64: %d, %d>, %s} : (%s) -> %s
  return %%0 : %s
}
""" % (in_type, out_type, size[0], size[1], attrs, in_type, out_type, out_type)
    return mlc.create_executor(mod=mlc.Module(text)).evaluate()(x=x)


x = f32(1, 2, 7, 9)
check("image.resize2d linear half_pixel 7x9 -> 4x13",
      run_resize(x, (4, 13), 'method = "linear"'),
      resize2d_nchw(x, (4, 13), "linear", "half_pixel"))
x = f32(2, 1, 6, 6)
check("image.resize2d nearest half_pixel round 6x6 -> 4x9",
      run_resize(x, (4, 9), 'method = "nearest_neighbor"'),
      resize2d_nchw(x, (4, 9), "nearest_neighbor", "half_pixel", "round"), rtol=0, atol=0)
x = f32(1, 3, 5, 7)
check("image.resize2d nearest tf_half_pixel_for_nn round_prefer_ceil 5x7 -> 8x3",
      run_resize(x, (8, 3), 'method = "nearest_neighbor", coordinate_transformation_mode = '
                 '"tf_half_pixel_for_nn", rounding_method = "round_prefer_ceil"'),
      resize2d_nchw(x, (8, 3), "nearest_neighbor", "tf_half_pixel_for_nn",
                    "round_prefer_ceil"), rtol=0, atol=0)
check("image.resize2d nearest pytorch_half_pixel round_prefer_floor 5x7 -> 1x11",
      run_resize(x, (1, 11), 'method = "nearest_neighbor", coordinate_transformation_mode = '
                 '"pytorch_half_pixel", rounding_method = "round_prefer_floor"'),
      resize2d_nchw(x, (1, 11), "nearest_neighbor", "pytorch_half_pixel",
                    "round_prefer_floor"), rtol=0, atol=0)
x = f32(1, 2, 5, 4)
check("image.resize2d nearest asymmetric ceil 5x4 -> 7x6",
      run_resize(x, (7, 6), 'method = "nearest_neighbor", coordinate_transformation_mode = '
                 '"asymmetric", rounding_method = "ceil"'),
      resize2d_nchw(x, (7, 6), "nearest_neighbor", "asymmetric", "ceil"), rtol=0, atol=0)
x = f32(1, 6, 8, 2)
roi = (-0.2, 0.1, 0.9, 1.3)
check("image.resize2d linear tf_crop_and_resize NHWC 6x8 -> 5x7",
      run_resize(x, (5, 7), 'layout = "NHWC", coordinate_transformation_mode = '
                 '"tf_crop_and_resize", roi = array<f64: %s>, extrapolation_value = 7.5 : f64'
                 % ", ".join(repr(v) for v in roi)),
      nhwc(resize2d_nchw, x, (5, 7), "linear", "tf_crop_and_resize", roi=roi,
           extrapolation=7.5))
x = f32(1, 1, 4, 3)
check("image.resize2d linear asymmetric f32 -> out_dtype f64",
      run_resize(x, (6, 5), 'coordinate_transformation_mode = "asymmetric", out_dtype = f64',
                 out_dtype="f64"),
      resize2d_nchw(x, (6, 5), "linear", "asymmetric").astype(np.float64))
x = f32(1, 2, 6, 7)
check("image.resize2d cubic half_pixel alpha=-0.75 exclude 6x7 -> 9x4",
      run_resize(x, (9, 4), 'method = "cubic", cubic_alpha = -7.500000e-01 : f64, '
                 'cubic_exclude = 1 : i64'),
      resize2d_nchw(x, (9, 4), "cubic", "half_pixel", alpha=-0.75, exclude=True))
