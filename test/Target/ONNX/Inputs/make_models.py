"""Writes the small ONNX models the importer's lit tests read into the
directory given as argv[1] (built with python3-onnx's helper, so the tests
need no binary files)."""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)


def save(name, nodes, inputs, outputs, initializers=(), opset=13):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


def tensor(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


# Gemm (transB) + Relu with initializers: a large weight (dense_resource)
# and a small bias (inline).
save("mlp", [helper.make_node("Gemm", ["x", "w", "b"], ["h"], transB=1, name="fc"),
             helper.make_node("Relu", ["h"], ["y"], name="relu")],
     [tensor("x", ["batch", 8])], [tensor("y", ["batch", 16])],
     [init("w", rng.standard_normal((16, 8)).astype(np.float32)),
      init("b", rng.standard_normal(16).astype(np.float32))])

# A shape sub-graph (Shape -> Gather -> Unsqueeze -> Concat -> Reshape) on a
# static input: it folds to the constant target shape.
save("shape_subgraph",
     [helper.make_node("Shape", ["x"], ["s"]),
      helper.make_node("Gather", ["s", "i0"], ["d0"], axis=0),
      helper.make_node("Unsqueeze", ["d0", "axes"], ["d0u"]),
      helper.make_node("Concat", ["d0u", "minus1"], ["target"], axis=0),
      helper.make_node("Reshape", ["x", "target"], ["y"])],
     [tensor("x", [2, 3, 4])], [tensor("y", [2, 12])],
     [init("i0", np.array(0, np.int64)), init("axes", np.array([0], np.int64)),
      init("minus1", np.array([-1], np.int64))])

# The same on symbolic dimensions (b, t): the shape stays symbolic, Mul and
# Div compute on it, and the reshape copies b (0) and infers one (-1):
# x.view(b, t * 2, 4 // 2). shape_symbolic_indivisible asks for
# x.view(b, t // 2, 8), whose size relax cannot infer symbolically.
save("shape_symbolic",
     [helper.make_node("Shape", ["x"], ["s"]),
      helper.make_node("Gather", ["s", "i0"], ["d0"], axis=0),
      helper.make_node("Gather", ["s", "i1"], ["d1"], axis=0),
      helper.make_node("Mul", ["d1", "two"], ["twice"]),
      helper.make_node("Div", ["four", "two"], ["half"]),
      helper.make_node("Unsqueeze", ["d0", "axes"], ["d0u"]),
      helper.make_node("Unsqueeze", ["twice", "axes"], ["twiceu"]),
      helper.make_node("Unsqueeze", ["half", "axes"], ["halfu"]),
      helper.make_node("Concat", ["d0u", "twiceu", "halfu"], ["target"], axis=0),
      helper.make_node("Reshape", ["x", "target"], ["y"])],
     [tensor("x", ["b", "t", 4])], [tensor("y", ["b", None, 2])],
     [init("i0", np.array(0, np.int64)), init("i1", np.array(1, np.int64)),
      init("two", np.array(2, np.int64)), init("four", np.array(4, np.int64)),
      init("axes", np.array([0], np.int64))])
save("shape_symbolic_indivisible",
     [helper.make_node("Shape", ["x"], ["s"]),
      helper.make_node("Gather", ["s", "i0"], ["d0"], axis=0),
      helper.make_node("Gather", ["s", "i1"], ["d1"], axis=0),
      helper.make_node("Div", ["d1", "two"], ["half"]),
      helper.make_node("Unsqueeze", ["d0", "axes"], ["d0u"]),
      helper.make_node("Unsqueeze", ["half", "axes"], ["halfu"]),
      helper.make_node("Concat", ["d0u", "halfu", "eight"], ["target"], axis=0),
      helper.make_node("Reshape", ["x", "target"], ["y"])],
     [tensor("x", ["b", "t", 4])], [tensor("y", ["b", None, 8])],
     [init("i0", np.array(0, np.int64)), init("i1", np.array(1, np.int64)),
      init("two", np.array(2, np.int64)), init("eight", np.array([8], np.int64)),
      init("axes", np.array([0], np.int64))])
# A symbolic shape used as data (Expand's shape), and as a graph output.
save("shape_symbolic_expand",
     [helper.make_node("Shape", ["x"], ["s"]),
      helper.make_node("Expand", ["one", "s"], ["y"])],
     [tensor("x", ["b", 4])], [tensor("y", ["b", 4])],
     [init("one", np.ones((1, 1), np.float32))])
save("shape_symbolic_output", [helper.make_node("Shape", ["x"], ["y"])],
     [tensor("x", ["b", 4])], [tensor("y", [2], TensorProto.INT64)])
# Two dimensions to infer: [b * 2, t] from [b, t, 2] needs b * 2 (a product
# of a symbol and a constant is fine) but t // 3 cannot be checked.
save("shape_symbolic_two_inferred",
     [helper.make_node("Shape", ["x"], ["s"]),
      helper.make_node("Gather", ["s", "i1"], ["d1"], axis=0),
      helper.make_node("Gather", ["s", "i0"], ["d0"], axis=0),
      helper.make_node("Unsqueeze", ["d1", "axes"], ["d1u"]),
      helper.make_node("Unsqueeze", ["d0", "axes"], ["d0u"]),
      helper.make_node("Concat", ["d1u", "d0u", "minus1"], ["target"], axis=0),
      helper.make_node("Reshape", ["x", "target"], ["y"])],
     [tensor("x", ["b", "t", 2])], [tensor("y", ["t", "b", 2])],
     [init("i0", np.array(0, np.int64)), init("i1", np.array(1, np.int64)),
      init("axes", np.array([0], np.int64)), init("minus1", np.array([-1], np.int64))])

# A Range too large to be a constant (2^62 elements; limit - start does not
# fit in 64 bits), and a Hann window of 5 (a constant).
save("range_huge", [helper.make_node("Range", ["start", "limit", "delta"], ["y"])],
     [], [tensor("y", [None], TensorProto.INT64)],
     [init("start", np.array(-2**62, np.int64)), init("limit", np.array(2**63 - 1, np.int64)),
      init("delta", np.array(2, np.int64))], opset=11)
save("hann", [helper.make_node("HannWindow", ["n"], ["y"], periodic=0)],
     [], [tensor("y", [5])], [init("n", np.array(5, np.int64))], opset=17)

# Resize by scales 0.6 (4 -> 2 columns, 2 -> 1 row): ONNX maps with the
# scale, not the size ratio.
save("resize_scales", [helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear")],
     [tensor("x", [1, 1, 2, 4])], [tensor("y", [1, 1, 1, 2])],
     [init("scales", np.array([1, 1, 0.6, 0.6], np.float32))], opset=13)

# Clip changed in opset 11 (bounds: attributes -> inputs).
save("clip_v6", [helper.make_node("Clip", ["x"], ["y"], min=-1.0, max=2.0)],
     [tensor("x", [4])], [tensor("y", [4])], opset=6)
save("clip_v11", [helper.make_node("Clip", ["x", "lo", "hi"], ["y"])],
     [tensor("x", [4])], [tensor("y", [4])],
     [init("lo", np.array(-1.0, np.float32)), init("hi", np.array(2.0, np.float32))],
     opset=11)

# Errors: unsupported ops (listed together), a missing input, an opset that
# is too new, a Reshape whose shape is only known at run time.
save("unsupported", [helper.make_node("Relu", ["x"], ["a"]),
                     helper.make_node("NonZero", ["a"], ["b"], name="nz"),
                     helper.make_node("Einsum", ["a", "a"], ["c"], equation="i,i->", name="e1"),
                     helper.make_node("NonZero", ["a"], ["d"], name="nz2")],
     [tensor("x", [4])], [tensor("b", [1, None], TensorProto.INT64)])
save("undefined_input", [helper.make_node("Add", ["x", "ghost"], ["y"], name="add")],
     [tensor("x", [4])], [tensor("y", [4])])
save("opset_too_new", [helper.make_node("Relu", ["x"], ["y"])],
     [tensor("x", [4])], [tensor("y", [4])], opset=99)
save("dynamic_reshape", [helper.make_node("Reshape", ["x", "shape"], ["y"], name="r")],
     [tensor("x", [2, 6]), tensor("shape", [2], TensorProto.INT64)],
     [tensor("y", [3, 4])])
save("wrong_output_type", [helper.make_node("Relu", ["x"], ["y"])],
     [tensor("x", [4])], [tensor("y", [4], TensorProto.INT32)])
bad = init("w", np.zeros(4, np.float32))
bad.raw_data = b"\0" * 3
save("bad_initializer", [helper.make_node("Add", ["x", "w"], ["y"])],
     [tensor("x", [4])], [tensor("y", [4])], [bad])

with open(os.path.join(out, "garbage.onnx"), "wb") as f:
    f.write(b"\x0a\xff\xff\xff\xff\x0fnot a model")
