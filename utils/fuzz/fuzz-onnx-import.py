#!/usr/bin/python3
"""Mutation fuzzer for `mlc-translate --import-onnx` (needs python3-onnx).

Seeds are small ONNX models built with onnx.helper, as the importer's tests
build them: the models of test/Target/ONNX/Inputs/make_models.py, one small
graph per op type the importer converts (elementwise, reductions, shape
ops, NN ops, with their attributes and constant operands) and, with
--testdata (the default when Debian's libonnx-testdata is installed), the
backend node tests of those op types. Each run mutates a seed either
structurally (attribute values and types, dims 0/negative/huge/symbolic,
element types, op types and domains, opset versions, ir_version, removed
initializers/inputs/outputs, duplicate or empty names, nodes out of order,
initializers whose raw_data is too short or too long or whose typed data
has the wrong count, external data pointing to missing, short or odd
files) or as raw bytes of the serialized protobuf, sometimes with
--onnx-keep-params-as-input, --onnx-input-shape or --onnx-opset. Every run
must import or fail with a diagnostic (docs/Fuzzing.md).

usage (from the repository root, after building):
  /usr/bin/python3 utils/fuzz/fuzz-onnx-import.py --runs 2000 --seed 1

Exit status: 0 if no run crashed, hung or failed silently, 1 otherwise.
"""

import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzlib  # noqa: E402
from fuzzlib import ROOT  # noqa: E402

TESTDATA = "/usr/share/libonnx-testdata/data/node"


def build_seeds():
    """(name, ModelProto) of one small graph per op type."""
    import numpy as np
    from onnx import TensorProto as TP, helper, numpy_helper

    F, I64, B = TP.FLOAT, TP.INT64, TP.BOOL

    def vi(name, shape, dtype=F):
        return helper.make_tensor_value_info(name, dtype, shape)

    def init(name, value, dtype=None):
        return numpy_helper.from_array(np.asarray(value, dtype=dtype), name)

    def model(name, nodes, inputs, outputs, inits=(), opset=13):
        graph = helper.make_graph(nodes, name, inputs, outputs, list(inits))
        return name, helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])

    def node(op, ins, outs, **attrs):
        return helper.make_node(op, ins, outs, name=op.lower(), **attrs)

    x234 = [vi("x", [2, 3, 4])]
    y234 = [vi("y", [2, 3, 4])]
    seeds = []
    for op, attrs in [("Abs", {}), ("Neg", {}), ("Exp", {}), ("Log", {}), ("Sqrt", {}), ("Relu", {}),
                      ("Sigmoid", {}), ("Tanh", {}), ("Erf", {}), ("Reciprocal", {}), ("Sign", {}),
                      ("Softplus", {}), ("Softsign", {}), ("HardSwish", {}), ("Identity", {}),
                      ("Elu", {"alpha": 0.5}), ("Selu", {"alpha": 1.5, "gamma": 1.1}),
                      ("Celu", {"alpha": 2.0}), ("LeakyRelu", {"alpha": 0.1}),
                      ("HardSigmoid", {"alpha": 0.3, "beta": 0.4}), ("ThresholdedRelu", {"alpha": 0.5}),
                      ("Softmax", {"axis": 1}), ("LogSoftmax", {"axis": -1}), ("Dropout", {})]:
        seeds.append(model(op.lower(), [node(op, ["x"], ["y"], **attrs)], x234, y234))
    for op in ["Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Mean", "Sum"]:
        seeds.append(model(op.lower(), [node(op, ["x", "b"], ["y"])], x234 + [vi("b", [3, 1])], y234))
    for op in ["Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual"]:
        seeds.append(model(op.lower(), [node(op, ["x", "b"], ["y"])], x234 + [vi("b", [4])],
                           [vi("y", [2, 3, 4], B)], opset=16))
    for op in ["And", "Or", "Xor"]:
        seeds.append(model(op.lower(), [node(op, ["p", "q"], ["y"])], [vi("p", [2, 3], B), vi("q", [3], B)],
                           [vi("y", [2, 3], B)]))
    seeds.append(model("not", [node("Not", ["p"], ["y"])], [vi("p", [5], B)], [vi("y", [5], B)]))
    seeds.append(model("where", [node("Where", ["c", "x", "b"], ["y"])],
                       [vi("c", [3, 4], B)] + x234 + [vi("b", [1])], y234, opset=16))
    seeds.append(model("prelu", [node("PRelu", ["x", "s"], ["y"])], x234, y234, [init("s", np.full(4, 0.2, np.float32))]))
    seeds.append(model("matmul", [node("MatMul", ["x", "w"], ["y"])], x234, [vi("y", [2, 3, 5])],
                       [init("w", np.ones((4, 5), np.float32))]))
    seeds.append(model("gemm", [node("Gemm", ["a", "w", "c"], ["y"], transA=1, alpha=0.5, beta=2.0)],
                       [vi("a", [4, 3])], [vi("y", [3, 5])],
                       [init("w", np.ones((4, 5), np.float32)), init("c", np.ones(5, np.float32))]))
    for op in ["ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSumSquare", "ReduceLogSum",
               "ReduceLogSumExp"]:
        seeds.append(model(op.lower(), [node(op, ["x"], ["y"], axes=[1], keepdims=0)], x234, [vi("y", [2, 4])]))
    seeds.append(model("reducesum", [node("ReduceSum", ["x", "axes"], ["y"], keepdims=1)], x234,
                       [vi("y", [2, 1, 4])], [init("axes", [1], np.int64)]))
    for op in ["ArgMax", "ArgMin"]:
        seeds.append(model(op.lower(), [node(op, ["x"], ["y"], axis=2, keepdims=0, select_last_index=1)],
                           x234, [vi("y", [2, 3], I64)]))
    seeds.append(model("reshape", [node("Reshape", ["x", "s"], ["y"])], x234, [vi("y", [6, 4])],
                       [init("s", [-1, 4], np.int64)]))
    seeds.append(model("transpose", [node("Transpose", ["x"], ["y"], perm=[2, 0, 1])], x234, [vi("y", [4, 2, 3])]))
    seeds.append(model("flatten", [node("Flatten", ["x"], ["y"], axis=2)], x234, [vi("y", [6, 4])]))
    seeds.append(model("squeeze", [node("Squeeze", ["x", "a"], ["y"])], [vi("x", [2, 1, 4])], [vi("y", [2, 4])],
                       [init("a", [1], np.int64)]))
    seeds.append(model("unsqueeze", [node("Unsqueeze", ["x", "a"], ["y"])], x234, [vi("y", [2, 1, 3, 4])],
                       [init("a", [1], np.int64)]))
    seeds.append(model("concat", [node("Concat", ["x", "x"], ["y"], axis=-1)], x234, [vi("y", [2, 3, 8])]))
    seeds.append(model("split", [node("Split", ["x", "s"], ["y", "z"], axis=2)], x234,
                       [vi("y", [2, 3, 1]), vi("z", [2, 3, 3])], [init("s", [1, 3], np.int64)]))
    seeds.append(model("slice", [node("Slice", ["x", "st", "en", "ax", "sp"], ["y"])], x234, [vi("y", [2, 3, 2])],
                       [init("st", [0], np.int64), init("en", [4], np.int64), init("ax", [2], np.int64),
                        init("sp", [2], np.int64)]))
    seeds.append(model("gather", [node("Gather", ["x", "i"], ["y"], axis=1)], x234, [vi("y", [2, 2, 4])],
                       [init("i", [0, -1], np.int64)]))
    seeds.append(model("expand", [node("Expand", ["b", "s"], ["y"])], [vi("b", [3, 1])], [vi("y", [2, 3, 4])],
                       [init("s", [2, 3, 4], np.int64)]))
    seeds.append(model("tile", [node("Tile", ["x", "r"], ["y"])], x234, [vi("y", [2, 6, 4])],
                       [init("r", [1, 2, 1], np.int64)]))
    seeds.append(model("pad", [node("Pad", ["x", "p", "v"], ["y"], mode="constant")], x234, [vi("y", [2, 5, 4])],
                       [init("p", [0, 1, 0, 0, 1, 0], np.int64), init("v", 1.5, np.float32)]))
    seeds.append(model("pad_reflect", [node("Pad", ["x", "p"], ["y"], mode="reflect")], x234, [vi("y", [2, 3, 6])],
                       [init("p", [0, 0, 1, 0, 0, 1], np.int64)]))
    seeds.append(model("shape", [node("Shape", ["x"], ["y"], start=1)], x234, [vi("y", [2], I64)], opset=15))
    seeds.append(model("size", [node("Size", ["x"], ["y"])], x234, [vi("y", [], I64)]))
    seeds.append(model("constantofshape", [node("ConstantOfShape", ["s"], ["y"],
                                                value=helper.make_tensor("v", F, [1], [2.5]))],
                       [], [vi("y", [2, 3])], [init("s", [2, 3], np.int64)]))
    seeds.append(model("range", [node("Range", ["a", "b", "d"], ["y"])], [], [vi("y", [5])],
                       [init("a", 0.0, np.float32), init("b", 5.0, np.float32), init("d", 1.0, np.float32)], opset=11))
    seeds.append(model("trilu", [node("Trilu", ["m", "k"], ["y"], upper=0)], [vi("m", [4, 4])], [vi("y", [4, 4])],
                       [init("k", 1, np.int64)], opset=14))
    seeds.append(model("cast", [node("Cast", ["x"], ["y"], to=TP.INT32)], x234, [vi("y", [2, 3, 4], TP.INT32)]))
    seeds.append(model("castlike", [node("CastLike", ["x", "t"], ["y"])], x234, [vi("y", [2, 3, 4], TP.FLOAT16)],
                       [init("t", np.zeros(1, np.float16))], opset=15))
    seeds.append(model("depthtospace", [node("DepthToSpace", ["x"], ["y"], blocksize=2, mode="CRD")],
                       [vi("x", [1, 8, 2, 3])], [vi("y", [1, 2, 4, 6])]))
    seeds.append(model("spacetodepth", [node("SpaceToDepth", ["x"], ["y"], blocksize=2)],
                       [vi("x", [1, 2, 4, 6])], [vi("y", [1, 8, 2, 3])]))
    seeds.append(model("constant", [node("Constant", [], ["c"], value=helper.make_tensor("v", F, [2], [1.0, 2.0])),
                                    node("Add", ["x", "c"], ["y"])], [vi("x", [3, 2])], [vi("y", [3, 2])]))
    seeds.append(model("resize", [node("Resize", ["x", "roi", "sc"], ["y"], mode="linear",
                                       coordinate_transformation_mode="half_pixel")],
                       [vi("x", [1, 2, 4, 4])], [vi("y", [1, 2, 8, 8])],
                       [init("roi", np.zeros(0, np.float32)), init("sc", [1, 1, 2, 2], np.float32)]))
    seeds.append(model("conv", [node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1], strides=[2, 2],
                                     dilations=[1, 1], group=1, kernel_shape=[3, 3])],
                       [vi("x", [1, 2, 5, 5])], [vi("y", [1, 4, 3, 3])],
                       [init("w", np.ones((4, 2, 3, 3), np.float32)), init("b", np.zeros(4, np.float32))]))
    seeds.append(model("conv_group", [node("Conv", ["x", "w"], ["y"], group=2, auto_pad="SAME_UPPER")],
                       [vi("x", [1, 4, 5, 5])], [vi("y", [1, 4, 5, 5])], [init("w", np.ones((4, 2, 3, 3), np.float32))]))
    seeds.append(model("convtranspose", [node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], output_padding=[1, 1])],
                       [vi("x", [1, 2, 3, 3])], [vi("y", [1, 3, 8, 8])], [init("w", np.ones((2, 3, 3, 3), np.float32))]))
    seeds.append(model("maxpool", [node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 2], pads=[0, 0, 1, 1],
                                        ceil_mode=1)],
                       [vi("x", [1, 2, 5, 5])], [vi("y", [1, 2, 3, 3])], opset=12))
    seeds.append(model("averagepool", [node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], count_include_pad=1,
                                            pads=[1, 1, 1, 1])],
                       [vi("x", [1, 2, 5, 5])], [vi("y", [1, 2, 5, 5])]))
    for op in ["GlobalAveragePool", "GlobalMaxPool"]:
        seeds.append(model(op.lower(), [node(op, ["x"], ["y"])], [vi("x", [1, 2, 5, 5])], [vi("y", [1, 2, 1, 1])]))
    seeds.append(model("batchnorm", [node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], epsilon=1e-3)],
                       [vi("x", [2, 3, 4, 4])], [vi("y", [2, 3, 4, 4])],
                       [init(n, np.ones(3, np.float32)) for n in "sbmv"], opset=15))
    seeds.append(model("instancenorm", [node("InstanceNormalization", ["x", "s", "b"], ["y"])],
                       [vi("x", [2, 3, 4, 4])], [vi("y", [2, 3, 4, 4])], [init(n, np.ones(3, np.float32)) for n in "sb"]))
    seeds.append(model("layernorm", [node("LayerNormalization", ["x", "s", "b"], ["y"], axis=-1, epsilon=1e-5)],
                       x234, y234, [init(n, np.ones(4, np.float32)) for n in "sb"], opset=17))
    seeds.append(model("clip6", [node("Clip", ["x"], ["y"], min=-1.0, max=1.0)], x234, y234, opset=6))
    seeds.append(model("clip11", [node("Clip", ["x", "lo", "hi"], ["y"])], x234, y234,
                       [init("lo", -1.0, np.float32), init("hi", 1.0, np.float32)], opset=11))
    # A few chains, with a symbolic batch.
    seeds.append(model("chain", [
        node("MatMul", ["x", "w"], ["h"]), node("Add", ["h", "b"], ["h2"]), node("Relu", ["h2"], ["h3"]),
        helper.make_node("Softmax", ["h3"], ["y"], axis=-1, name="sm")],
        [vi("x", ["batch", 8])], [vi("y", ["batch", 4])],
        [init("w", np.ones((8, 4), np.float32)), init("b", np.zeros(4, np.float32))]))
    seeds.append(model("cnn", [
        node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]), node("Relu", ["c"], ["r"]),
        node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        node("Flatten", ["p"], ["f"]), node("Gemm", ["f", "fw"], ["y"], transB=1)],
        [vi("x", ["n", 1, 4, 4])], [vi("y", ["n", 3])],
        [init("w", np.ones((2, 1, 3, 3), np.float32)), init("fw", np.ones((3, 8), np.float32))]))
    return seeds


class ONNXImportFuzzer(fuzzlib.Fuzzer):
    tools = ["mlc-translate"]
    work_prefix = "fuzz-onnx-"

    def add_arguments(self, parser):
        parser.add_argument("--testdata", dest="testdata", action="store_true",
                            default=os.path.isdir(TESTDATA),
                            help="also use the ONNX backend node tests of supported op types as seeds "
                                 "(default when %s exists)" % TESTDATA)
        parser.add_argument("--no-testdata", dest="testdata", action="store_false")
        parser.add_argument("--raw-fraction", type=float, default=0.25,
                            help="share of runs that damage the serialized bytes instead of the protobuf")

    def setup(self, args, runner, rng):
        import onnx
        self.onnx = onnx
        help_text = subprocess.run([runner.tools["mlc-translate"], "--help"], capture_output=True).stdout
        if b"--import-onnx" not in help_text:
            sys.exit("error: this mlc-translate has no --import-onnx (mlc was built without libonnx)")
        self.raw_fraction = args.raw_fraction
        self.seeds = build_seeds()
        out = os.path.join(runner.work, "onnx-seeds")
        maker = os.path.join(ROOT, "test", "Target", "ONNX", "Inputs", "make_models.py")
        if os.path.exists(maker):
            subprocess.run([sys.executable, maker, out], check=True)
            for path in sorted(glob.glob(os.path.join(out, "*.onnx"))):
                try:
                    self.seeds.append((os.path.basename(path), onnx.load(path)))
                except Exception:
                    pass   # garbage.onnx: used as bytes below
        self.raw_seeds = [(n, m.SerializeToString()) for n, m in self.seeds]
        supported = {m.graph.node[0].op_type for _, m in self.seeds if m.graph.node}
        if args.testdata:
            for path in sorted(glob.glob(os.path.join(TESTDATA, "*", "model.onnx"))):
                try:
                    m = onnx.load(path)
                except Exception:
                    continue
                if m.graph.node and all(n.op_type in supported for n in m.graph.node):
                    self.seeds.append((os.path.basename(os.path.dirname(path)), m))
        self.op_types = sorted(supported) + ["NonZero", "Einsum", "If", "Loop", "Scan", "Frobnicate", ""]

    # -- structured mutations ---------------------------------------------------

    def mutate_attribute(self, rng, model):
        AP = self.onnx.AttributeProto
        nodes = [n for n in model.graph.node]
        if not nodes:
            return
        n = rng.choice(nodes)
        if not n.attribute or rng.random() < 0.15:
            a = n.attribute.add()
            a.name = rng.choice(["axis", "axes", "perm", "keepdims", "to", "mode", "pads", "strides",
                                 "kernel_shape", "group", "epsilon", "alpha", "value", "unknown", ""])
            a.type = rng.choice([AP.INT, AP.INTS, AP.FLOAT, AP.STRING, AP.TENSOR])
            a.i = fuzzlib.boundary_int(rng) % 2**63
            return
        a = rng.choice(list(n.attribute))
        kind = rng.choice(["value", "value", "value", "type", "remove", "dup"])
        if kind == "remove":
            n.attribute.remove(a)
        elif kind == "dup":
            n.attribute.add().CopyFrom(a)
        elif kind == "type":
            a.type = rng.choice([AP.UNDEFINED, AP.INT, AP.INTS, AP.FLOAT, AP.FLOATS, AP.STRING,
                                 AP.STRINGS, AP.TENSOR, AP.GRAPH, AP.SPARSE_TENSOR, AP.TYPE_PROTO, 99])
        elif a.type == AP.INT:
            a.i = max(min(fuzzlib.boundary_int(rng), 2**63 - 1), -2**63)
        elif a.type == AP.INTS:
            del a.ints[:]
            a.ints.extend(max(min(fuzzlib.boundary_int(rng), 2**63 - 1), -2**63)
                          for _ in range(rng.choice([0, 1, 2, 3, 4, 6, 9])))
        elif a.type == AP.FLOAT:
            a.f = rng.choice([0.0, -0.0, float("nan"), float("inf"), -float("inf"), 1e30, -1.0, 1e-40])
        elif a.type == AP.FLOATS:
            del a.floats[:]
            a.floats.extend(rng.choice([0.0, float("nan"), 1e30]) for _ in range(rng.randint(0, 4)))
        elif a.type == AP.STRING:
            a.s = rng.choice([b"", b"constant", b"reflect", b"edge", b"wrap", b"nearest", b"linear", b"cubic",
                              b"DCR", b"CRD", b"NOTSET", b"SAME_UPPER", b"SAME_LOWER", b"VALID", b"\xff", b"x" * 300])
        elif a.type == AP.TENSOR:
            self.mutate_tensor(rng, a.t)
        else:
            a.i = 1

    def mutate_tensor(self, rng, t):
        TP = self.onnx.TensorProto
        kind = rng.choice(["dims", "dims", "dtype", "raw_short", "raw_long", "typed", "clear", "external",
                           "external", "segment"])
        if kind == "dims":
            if t.dims and rng.random() < 0.7:
                t.dims[rng.randrange(len(t.dims))] = rng.choice([0, 1, 2, 3, 7, 2**31, 2**40, 2**62, -1, -2**63])
            elif rng.random() < 0.5 and t.dims:
                del t.dims[rng.randrange(len(t.dims))]
            else:
                t.dims.append(rng.choice([1, 2, 0, 2**32]))
        elif kind == "dtype":
            t.data_type = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 21, 23, 99])
        elif kind == "raw_short" and t.raw_data:
            t.raw_data = t.raw_data[:rng.randrange(len(t.raw_data))]
        elif kind == "raw_long":
            t.raw_data = t.raw_data + b"\x00" * rng.choice([1, 3, 4, 8, 1000])
        elif kind == "typed":
            raw = t.raw_data
            t.ClearField("raw_data")
            if t.data_type in (TP.INT64,):
                t.int64_data.extend([fuzzlib.boundary_int(rng) % 2**63 for _ in range(rng.randint(0, 5))])
            elif t.data_type in (TP.DOUBLE,):
                t.double_data.extend([1.0] * rng.randint(0, 5))
            elif rng.random() < 0.5:
                t.float_data.extend([1.0] * rng.randint(0, 5))
            else:
                t.int32_data.extend([1] * rng.randint(0, 5))
            if rng.random() < 0.3:
                t.raw_data = raw   # both
        elif kind == "clear":
            t.ClearField("raw_data")
        elif kind == "external":
            t.data_location = TP.EXTERNAL
            del t.external_data[:]
            entries = {}
            if rng.random() < 0.9:
                entries["location"] = rng.choice(["w.bin"] * 4 + ["short.bin", "missing.bin", "dir", "", "../w.bin",
                                                                  "/dev/null", "w.bin\x00x", "sub/w.bin", "/nonexistent"])
            if rng.random() < 0.5:
                entries["offset"] = str(rng.choice([0, 1, 4, 7, 64, 2**40, -1, 2**63])) if rng.random() < 0.9 else "x"
            if rng.random() < 0.5:
                entries["length"] = str(rng.choice([0, 4, 16, 64, 2**40, -1, 2**64])) if rng.random() < 0.9 else ""
            if rng.random() < 0.1:
                entries[rng.choice(["checksum", "bogus", "location"])] = "1"
            for k, v in entries.items():
                e = t.external_data.add()
                e.key, e.value = k, v
            if rng.random() < 0.7:
                t.ClearField("raw_data")
        elif kind == "segment":
            t.segment.begin, t.segment.end = rng.choice([(0, 1), (1, 0), (0, 2**40)])

    def mutate_value_info(self, rng, model):
        g = model.graph
        infos = list(g.input) + list(g.output) + list(g.value_info)
        if not infos:
            return
        v = rng.choice(infos)
        tt = v.type.tensor_type
        kind = rng.choice(["dim", "dim", "dim", "dtype", "rank", "clear", "name"])
        if kind == "dim" and tt.shape.dim:
            d = tt.shape.dim[rng.randrange(len(tt.shape.dim))]
            r = rng.random()
            if r < 0.6:
                d.dim_value = rng.choice([0, 1, 2, 3, 5, 1000, 2**31, 2**40, 2**62, 2**63 - 1, -1, -2**63])
            elif r < 0.9:
                d.dim_param = rng.choice(["batch", "n", "", "2n", "n+1", "x y", "?", "\xe9", "N" * 200])
            else:
                d.Clear()
        elif kind == "dtype":
            tt.elem_type = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 21, 99])
        elif kind == "rank":
            if tt.shape.dim and rng.random() < 0.5:
                del tt.shape.dim[rng.randrange(len(tt.shape.dim))]
            else:
                for _ in range(rng.choice([1, 1, 2, 40])):
                    tt.shape.dim.add().dim_value = rng.choice([1, 2])
        elif kind == "clear":
            rng.choice([lambda: v.type.Clear(), lambda: tt.ClearField("shape"),
                        lambda: v.type.sequence_type.elem_type.tensor_type.SetInParent()])()
        elif kind == "name":
            v.name = rng.choice(["", "x", "y", "w", v.name + "_", "a" * 500])

    def mutate_graph(self, rng, model):
        g = model.graph
        kind = rng.choice(["op_type", "domain", "remove_init", "remove_input", "remove_output", "dup_name",
                           "empty_input", "extra_io", "reorder", "remove_node", "dup_node", "cycle"])
        nodes = list(g.node)
        if kind == "op_type" and nodes:
            rng.choice(nodes).op_type = rng.choice(self.op_types)
        elif kind == "domain" and nodes:
            rng.choice(nodes).domain = rng.choice(["ai.onnx.ml", "com.microsoft", "ai.onnx", "x", ""])
        elif kind == "remove_init" and g.initializer:
            del g.initializer[rng.randrange(len(g.initializer))]
        elif kind == "remove_input" and g.input:
            del g.input[rng.randrange(len(g.input))]
        elif kind == "remove_output" and g.output:
            del g.output[rng.randrange(len(g.output))]
        elif kind == "dup_name" and nodes:
            names = [o for n in nodes for o in n.output] + [i.name for i in g.input] + [t.name for t in g.initializer]
            n = rng.choice(nodes)
            if n.output and names:
                n.output[rng.randrange(len(n.output))] = rng.choice(names)
            if rng.random() < 0.3 and g.initializer and g.input:
                g.initializer[0].name = g.input[0].name
        elif kind == "empty_input" and nodes:
            n = rng.choice(nodes)
            if n.input:
                n.input[rng.randrange(len(n.input))] = ""
        elif kind == "extra_io" and nodes:
            n = rng.choice(nodes)
            (n.input if rng.random() < 0.5 else n.output).append(rng.choice(["", "x", "extra", n.input[0] if n.input else "q"]))
        elif kind == "reorder" and len(nodes) > 1:
            i, j = rng.sample(range(len(nodes)), 2)
            a, b = type(nodes[i])(), type(nodes[j])()
            a.CopyFrom(nodes[i])
            b.CopyFrom(nodes[j])
            g.node[i].CopyFrom(b)
            g.node[j].CopyFrom(a)
        elif kind == "remove_node" and nodes:
            del g.node[rng.randrange(len(nodes))]
        elif kind == "dup_node" and nodes:
            g.node.add().CopyFrom(rng.choice(nodes))
        elif kind == "cycle" and nodes:
            n = nodes[0]
            if n.input and nodes[-1].output:
                n.input[0] = nodes[-1].output[0]

    def mutate_model(self, rng, model):
        kind = rng.choices(["attribute", "initializer", "value_info", "graph", "opset", "ir"],
                           weights=[30, 20, 20, 20, 7, 3])[0]
        if kind == "attribute":
            self.mutate_attribute(rng, model)
        elif kind == "initializer":
            if model.graph.initializer:
                self.mutate_tensor(rng, rng.choice(list(model.graph.initializer)))
            else:
                self.mutate_attribute(rng, model)
        elif kind == "value_info":
            self.mutate_value_info(rng, model)
        elif kind == "graph":
            self.mutate_graph(rng, model)
        elif kind == "opset":
            r = rng.random()
            if r < 0.6 and model.opset_import:
                model.opset_import[0].version = rng.choice([0, 1, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
                                                            19, 21, 99, -1, 2**62])
            elif r < 0.8:
                o = model.opset_import.add()
                o.domain, o.version = rng.choice([("", 11), ("", 17), ("ai.onnx.ml", 3), ("com.x", 1)])
            else:
                del model.opset_import[:]
        else:
            model.ir_version = rng.choice([0, 1, 3, 7, 8, 9, 10, 99, -1])

    # -- one run ---------------------------------------------------------------

    def generate(self, rng, index):
        files = {}
        if rng.random() < self.raw_fraction:
            origin, data = rng.choice(self.raw_seeds)
            data = fuzzlib.mutate_binary(data, rng, edits=(1, 4))
        else:
            origin, seed = rng.choice(self.seeds)
            model = self.onnx.ModelProto()
            model.CopyFrom(seed)
            for _ in range(rng.choices([1, 2, 3], weights=[6, 3, 1])[0]):
                try:
                    self.mutate_model(rng, model)
                except (ValueError, TypeError, OverflowError):
                    pass
            data = model.SerializeToString()
            if b"w.bin" in data:
                files["w.bin"] = bytes(range(256)) * rng.choice([0, 1, 4, 64])
                files["sub/w.bin"] = files["w.bin"]
            if b"short.bin" in data:
                files["short.bin"] = b"\x01\x02\x03"
            files["dir"] = None
        files["model.onnx"] = data
        args = ["--import-onnx", "model.onnx", "-o", os.devnull]
        if rng.random() < 0.15:
            args.append("--onnx-keep-params-as-input")
        if rng.random() < 0.1:
            args.append("--onnx-input-shape=" + rng.choice(
                ["x:4x8", "x:2x3x4", "x:scalar", "x:0x8", "x:-1", "x:", "x", ":4", "x:4x", "x:99999999999999999999",
                 "nope:2", "x:1x1x1x1x1x1x1x1x1", "b:3x1", "x:?x8"]))
        if rng.random() < 0.05:
            args.append("--onnx-opset=" + str(rng.choice([0, 1, 6, 11, 13, 17, 18, 99, -1, 2**40])))
        return fuzzlib.Case("mlc-translate", args, files, origin=origin, label="mlc-translate --import-onnx")


if __name__ == "__main__":
    sys.exit(fuzzlib.main(ONNXImportFuzzer(), __doc__))
