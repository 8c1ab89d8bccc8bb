#!/usr/bin/env python3
"""Runs the ONNX backend test data Debian ships (libonnx-testdata) through
mlc: mlc-translate --import-onnx, then mlc-run on the shipped inputs, checked
against the shipped outputs.

    /usr/bin/python3 scripts/onnx-conformance.py            # everything
    /usr/bin/python3 scripts/onnx-conformance.py --subset   # the test command's part
    /usr/bin/python3 scripts/onnx-conformance.py --write-doc docs/ONNX.md

Each test is `passed`, `failed` (import error, run error, wrong values) or
`unsupported` (the model uses an op type the importer does not convert). The
pass rate is over the tests that are not `unsupported`, i.e. over the tests
of the op types mlc claims. Tolerances: float results within
|actual - expected| <= atol + rtol * |expected| (rtol 1e-3, atol 1e-5;
ONNX's backend tests use rtol 1e-3, atol 1e-7), integer and boolean results
exactly, and shapes and element types exactly.

ONNX's node tests feed shape-like operands (Reshape's shape, Slice's
bounds, ...) as graph inputs; mlc needs them at compile time (as TVM's
relax importer does), so those inputs, and the inputs they are computed
from (a window's size that reaches Range through Cast and Sub, not a tensor
whose Shape is taken), are bound as initializers from the test's own data
before importing. Every other input is a run-time input.
"""

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

try:
    import onnx
    from onnx import numpy_helper
except ImportError:  # pragma: no cover
    sys.exit("onnx-conformance: needs python3-onnx (scripts/setup.sh installs it)")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
from mlc.tools import save_npz  # noqa: E402
DATA = "/usr/share/libonnx-testdata/data"
RTOL, ATOL = 1e-3, 1e-5

# Inputs (by position) that ONNX ops need as compile-time constants in mlc.
CONSTANT_OPERANDS = {
    "Reshape": [1], "Expand": [1], "Tile": [1], "Slice": [1, 2, 3, 4],
    "Squeeze": [1], "Unsqueeze": [1], "Pad": [1, 2], "ReduceSum": [1],
    "Split": [1], "ConstantOfShape": [0], "Range": [0, 1, 2],
    "Resize": [1, 2, 3], "Trilu": [1], "Dropout": [1, 2], "HannWindow": [0],
    "HammingWindow": [0], "BlackmanWindow": [0], "CastLike": [1],
}

# The test command's part: one or a few tests per claimed op family.
SUBSET = [
    "test_abs", "test_add_bcast", "test_and_bcast4v3d", "test_argmax_keepdims_example",
    "test_averagepool_2d_pads_count_include_pad", "test_averagepool_1d_default",
    "test_batchnorm_epsilon", "test_cast_FLOAT_to_DOUBLE", "test_clip_default_inbounds",
    "test_concat_3d_axis_negative_1", "test_constant", "test_constantofshape_int_zeros",
    "test_conv_with_autopad_same", "test_convtranspose_pads", "test_depthtospace_crd_mode_example",
    "test_div_bcast", "test_elu", "test_equal_bcast", "test_erf", "test_expand_dim_changed",
    "test_flatten_negative_axis1", "test_gather_negative_indices",
    "test_gemm_all_attributes", "test_globalaveragepool", "test_greater_equal_bcast",
    "test_hardswish", "test_instancenorm_epsilon", "test_layer_normalization_3d_axis1_epsilon",
    "test_leakyrelu", "test_logsoftmax_axis_0", "test_matmul_4d", "test_max_example",
    "test_maxpool_2d_ceil", "test_maxpool_2d_same_upper", "test_mean_example",
    "test_constant_pad", "test_reflect_pad", "test_pow_bcast_array", "test_prelu_broadcast", "test_range_float_type_positive_delta",
    "test_reduce_l2_keep_dims_random", "test_reduce_log_sum_exp_default_axes_keepdims_random",
    "test_reduce_mean_negative_axes_keepdims_random", "test_reduce_sum_keepdims_random",
    "test_relu", "test_reshape_negative_extended_dims", "test_resize_upsample_scales_linear",
    "test_resize_downsample_sizes_nearest", "test_selu", "test_shape_start_1_end_negative_1",
    "test_sigmoid", "test_slice_neg_steps", "test_softmax_axis_1", "test_softmax_default_axis",
    "test_split_variable_parts_2d", "test_sqrt", "test_squeeze_negative_axes",
    "test_sub_bcast", "test_sum_example", "test_tanh", "test_tile", "test_transpose_all_permutations_3",
    "test_tril", "test_triu_one_row", "test_unsqueeze_two_axes", "test_where_long_example",
    "test_xor_bcast3v1d", "test_floor", "test_round", "test_sin", "test_acosh", "test_atan",
    "test_isinf_negative", "test_isnan", "test_mod_mixed_sign_int32", "test_mod_mixed_sign_float32",
    "test_slice_start_out_of_bounds", "test_split_zero_size_splits", "test_tril_zero",
    "test_reshape_allowzero_reordered", "test_layer_normalization_2d_axis0_expanded",
    "test_training_dropout_zero_ratio_mask", "test_gather_elements_negative_indices",
    "test_scatter_elements_with_negative_indices", "test_scatternd_multiply",
    "test_batchnorm_epsilon_training_mode", "test_maxpool_3d_default", "test_averagepool_3d_default",
    "test_resize_downsample_scales_linear", "test_resize_downsample_scales_cubic_align_corners",
    "test_hannwindow_symmetric", "test_maxpool_with_argmax_2d_precomputed_strides",
    "test_convtranspose_output_shape", "test_convtranspose_3d",
]


def find_tool(name, bin_dir):
    path = os.path.join(bin_dir, name)
    if not os.access(path, os.X_OK):
        sys.exit("onnx-conformance: no %s in %s (build mlc first)" % (name, bin_dir))
    return path


def load_data_set(test_dir, model):
    """The first data set's inputs (by graph input name) and outputs."""
    data_dir = os.path.join(test_dir, "test_data_set_0")
    initializers = {t.name for t in model.graph.initializer}
    input_names = [i.name for i in model.graph.input if i.name not in initializers]
    inputs, outputs = {}, []
    for i, name in enumerate(input_names):
        path = os.path.join(data_dir, "input_%d.pb" % i)
        if not os.path.exists(path):
            break  # optional inputs left out
        tensor = onnx.TensorProto()
        with open(path, "rb") as f:
            tensor.ParseFromString(f.read())
        inputs[name] = numpy_helper.to_array(tensor)
    i = 0
    while os.path.exists(os.path.join(data_dir, "output_%d.pb" % i)):
        tensor = onnx.TensorProto()
        with open(os.path.join(data_dir, "output_%d.pb" % i), "rb") as f:
            tensor.ParseFromString(f.read())
        outputs.append(numpy_helper.to_array(tensor))
        i += 1
    return inputs, outputs


def bind_constant_operands(model, inputs):
    """Moves graph inputs that feed CONSTANT_OPERANDS positions, directly or
    through the nodes that compute them (not through Shape or Size, which
    read only a shape), into initializers; returns their names."""
    producer = {out: node for node in model.graph.node for out in node.output}
    wanted, seen = set(), set()
    pending = [node.input[index] for node in model.graph.node
               for index in CONSTANT_OPERANDS.get(node.op_type, [])
               if index < len(node.input) and node.input[index]]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in inputs:
            wanted.add(name)
        elif name in producer and producer[name].op_type not in ("Shape", "Size"):
            pending.extend(i for i in producer[name].input if i)
    declared = {i.name: i.type.tensor_type.elem_type for i in model.graph.input}
    for name in wanted:
        array = inputs.pop(name)
        if declared.get(name) == onnx.TensorProto.BFLOAT16:
            # numpy_helper reads bfloat16 as uint16 bit patterns; keep the type.
            tensor = onnx.helper.make_tensor(name, onnx.TensorProto.BFLOAT16, array.shape,
                                             array.astype("<u2").tobytes(), raw=True)
        else:
            tensor = numpy_helper.from_array(array, name)
        model.graph.initializer.append(tensor)
    kept = [i for i in model.graph.input if i.name not in wanted]
    del model.graph.input[:]
    model.graph.input.extend(kept)
    return sorted(wanted)


def compare(actual, expected):
    """None when `actual` matches `expected`, else what differs."""
    if actual.shape != expected.shape:
        return "shape %s, expected %s" % (actual.shape, expected.shape)
    if actual.dtype != expected.dtype:
        return "dtype %s, expected %s" % (actual.dtype, expected.dtype)
    if expected.dtype.kind == "f":
        ok = np.isclose(actual, expected, rtol=RTOL, atol=ATOL, equal_nan=True)
        if not ok.all():
            bad = np.argwhere(~ok)[0]
            err = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
            return "%d of %d values differ (max abs error %.3g; at %s: %r vs %r)" % (
                (~ok).sum(), ok.size, np.nanmax(err), tuple(bad), actual[tuple(bad)],
                expected[tuple(bad)])
        return None
    if not np.array_equal(actual, expected):
        return "%d of %d values differ" % ((actual != expected).sum(), actual.size)
    return None


def run_test(test_dir, tools, timeout):
    """(status, op types, detail) of one test."""
    name = os.path.basename(test_dir)
    try:
        model = onnx.load(os.path.join(test_dir, "model.onnx"))
    except Exception as e:  # noqa: BLE001 - a broken test file
        return "failed", [], "cannot load the model: %s" % e
    op_types = sorted({n.op_type for n in model.graph.node})
    for value in list(model.graph.input) + list(model.graph.output):
        if not value.type.HasField("tensor_type"):
            return "unsupported", op_types, "non-tensor graph input or output '%s'" % value.name
    try:
        inputs, outputs = load_data_set(test_dir, model)
    except Exception as e:  # noqa: BLE001 - data the numpy helper cannot read
        return "unsupported", op_types, "cannot read the test data: %s" % e
    bind_constant_operands(model, inputs)
    with tempfile.TemporaryDirectory(prefix="mlc-onnx-") as tmp:
        model_path = os.path.join(tmp, name + ".onnx")
        onnx.save(model, model_path)
        mlir_path = os.path.join(tmp, "model.mlir")
        proc = subprocess.run([tools["mlc-translate"], "--import-onnx", model_path,
                               "-o", mlir_path], capture_output=True, text=True,
                              timeout=timeout)
        if proc.returncode != 0:
            message = proc.stderr.strip().splitlines()[0] if proc.stderr.strip() else "crash"
            message = re.sub(r"^\S+\.onnx:0:0: ", "", message)
            if proc.returncode < 0 or proc.returncode > 1:
                return "failed", op_types, "import crashed (exit %d)" % proc.returncode
            if "unsupported ONNX operator" in message:
                return "unsupported", op_types, message
            return "failed", op_types, "import: " + message
        inputs_path = os.path.join(tmp, "inputs.npz")
        save_npz(inputs_path, inputs)
        outputs_path = os.path.join(tmp, "outputs.npz")
        try:
            proc = subprocess.run([tools["mlc-run"], mlir_path, "--quiet",
                                   "--inputs=" + inputs_path,
                                   "--outputs=" + outputs_path],
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "failed", op_types, "run: timed out after %d s" % timeout
        if proc.returncode != 0:
            lines = [l for l in proc.stderr.splitlines() if "error" in l] or \
                proc.stderr.splitlines() or ["exit %d" % proc.returncode]
            return "failed", op_types, "run: " + lines[0][:300]
        results = np.load(outputs_path)
        if len(results.files) != len(outputs):
            return "failed", op_types, "%d outputs, expected %d" % (len(results.files),
                                                                  len(outputs))
        for i, expected in enumerate(outputs):
            problem = compare(results["out%d" % i], expected)
            if problem:
                return "failed", op_types, "output %d: %s" % (i, problem)
    return "passed", op_types, ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=DATA)
    parser.add_argument("--suites", default="node",
                        help="comma-separated: node, pytorch-converted, "
                             "pytorch-operator, simple")
    parser.add_argument("--bin-dir", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--filter", default="", help="regex on test names")
    parser.add_argument("--subset", action="store_true",
                        help="only the proportionate subset the test command runs")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--verbose", action="store_true",
                        help="print every failure's reason")
    parser.add_argument("--write-doc", help="write the conformance table (Markdown) here")
    parser.add_argument("--min-pass-rate", type=float, default=0.0,
                        help="exit 1 when the pass rate (over supported tests) is lower")
    args = parser.parse_args()

    tools = {t: find_tool(t, args.bin_dir) for t in ("mlc-translate", "mlc-run")}
    tests = []
    for suite in args.suites.split(","):
        suite_dir = os.path.join(args.data_dir, suite)
        if not os.path.isdir(suite_dir):
            sys.exit("onnx-conformance: no test data in %s (apt install libonnx-testdata)"
                     % suite_dir)
        for name in sorted(os.listdir(suite_dir)):
            if args.subset and name not in SUBSET:
                continue
            if args.filter and not re.search(args.filter, name):
                continue
            if os.path.exists(os.path.join(suite_dir, name, "model.onnx")):
                tests.append((suite, os.path.join(suite_dir, name)))
    if args.subset:
        found = {os.path.basename(d) for _, d in tests}
        missing = sorted(set(SUBSET) - found)
        if missing:
            sys.exit("onnx-conformance: subset tests missing from the data: %s" % missing)

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_test, d, tools, args.timeout): (s, d) for s, d in tests}
        for future in concurrent.futures.as_completed(futures):
            suite, test_dir = futures[future]
            status, op_types, detail = future.result()
            results.append((suite, os.path.basename(test_dir), status, op_types, detail))
    results.sort()

    counts = collections.Counter(r[2] for r in results)
    # Per op type: a test counts for each op type it uses.
    per_op = collections.defaultdict(collections.Counter)
    for suite, name, status, op_types, _ in results:
        for op in op_types or ["(none)"]:
            per_op[op][status] += 1
    for suite, name, status, _, detail in results:
        if status == "failed" or (args.verbose and status == "unsupported"):
            print("%-11s %s/%s: %s" % (status.upper(), suite, name, detail))
    supported = counts["passed"] + counts["failed"]
    rate = counts["passed"] / supported if supported else 0.0
    print("\nop type                       passed  failed  unsupported")
    for op in sorted(per_op):
        c = per_op[op]
        print("%-28s %7d %7d %12d" % (op, c["passed"], c["failed"], c["unsupported"]))
    print("\nonnx-conformance: %d tests: %d passed, %d failed, %d unsupported; "
          "pass rate over supported tests %.1f%%" % (
              len(results), counts["passed"], counts["failed"], counts["unsupported"],
              100 * rate))

    if args.write_doc:
        write_doc(args, results, per_op, counts, rate)
    if supported == 0 or rate < args.min_pass_rate:
        return 1
    return 0


def write_doc(args, results, per_op, counts, rate):
    with open(args.write_doc, "w") as f:
        f.write("# ONNX conformance\n\n")
        f.write("Generated by `/usr/bin/python3 scripts/onnx-conformance.py --suites %s "
                "--write-doc %s`; do not edit by hand.\n\n" % (args.suites, args.write_doc))
        f.write("The ONNX backend tests Debian ships (`libonnx-testdata` 1.12, "
                "`/usr/share/libonnx-testdata/data`), each imported with "
                "`mlc-translate --import-onnx`, run with `mlc-run` on its input data and "
                "compared with its output data (floats: rtol %g, atol %g; integers and "
                "booleans exactly). `unsupported`: the model uses an op type the importer "
                "does not convert. Shape-like operands that the tests feed as inputs "
                "(Reshape's shape, Slice's bounds, ...) are bound as initializers first, "
                "since mlc needs them at compile time.\n\n" % (RTOL, ATOL))
        f.write("**%d tests: %d passed, %d failed, %d unsupported; %.1f%% of the tests "
                "of supported op types pass.**\n\n" % (
                    len(results), counts["passed"], counts["failed"],
                    counts["unsupported"], 100 * rate))
        f.write("| op type | passed | failed | unsupported |\n| --- | --- | --- | --- |\n")
        for op in sorted(per_op):
            c = per_op[op]
            f.write("| %s | %d | %d | %d |\n" % (op, c["passed"], c["failed"],
                                                c["unsupported"]))
        failed = [r for r in results if r[2] == "failed"]
        if failed:
            f.write("\n## Failing tests\n\n")
            for suite, name, _, _, detail in failed:
                f.write("- `%s/%s`: %s\n" % (suite, name, detail.replace("|", "\\|")))


if __name__ == "__main__":
    sys.exit(main())
