"""Writes ONNX models that once crashed the importer (found by
utils/fuzz/fuzz-onnx-import.py) into the directory given as argv[1]."""
import os
import sys

import onnx
from onnx import TensorProto as TP, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


x = [helper.make_tensor_value_info("x", TP.FLOAT, [4])]
y = [helper.make_tensor_value_info("y", TP.FLOAT, [4])]
# A required input left out ('' is ONNX's "optional input not given").
save("empty_input", [helper.make_node("Relu", [""], ["y"])], x, y)
# Fewer inputs than the operator takes.
save("missing_input", [helper.make_node("Add", ["x"], ["y"])], x, y)
# blocksize^2 overflows int64.
save("depth_to_space_blocksize",
     [helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2**62)],
     [helper.make_tensor_value_info("x", TP.FLOAT, [1, 8, 2, 3])],
     [helper.make_tensor_value_info("y", TP.FLOAT, [1, 2, 4, 6])])
# An initializer whose shape claims 2^32 elements and which holds none.
k = onnx.TensorProto(name="k", data_type=TP.INT64, dims=[2**32])
save("huge_initializer", [helper.make_node("Trilu", ["x", "k"], ["y"])],
     [helper.make_tensor_value_info("x", TP.FLOAT, [4, 4])],
     [helper.make_tensor_value_info("y", TP.FLOAT, [4, 4])], [k], opset=14)
# The flattened size overflows int64.
save("flatten_overflow", [helper.make_node("Flatten", ["a"], ["b"], axis=0)],
     [helper.make_tensor_value_info("a", TP.FLOAT, [4, 2**62])],
     [helper.make_tensor_value_info("b", TP.FLOAT, [1, 0])])
# A pooling window of -2^63 (fuzz-onnx-import.py, seed 47: a signed overflow
# computing the padding).
save("pool_window_range",
     [helper.make_node("AveragePool", ["p"], ["q"], kernel_shape=[-2**63, 232], strides=[2, 2])],
     [helper.make_tensor_value_info("p", TP.FLOAT, [1, 1, 8, 8])],
     [helper.make_tensor_value_info("q", TP.FLOAT, [1, 1, 4, 4])])
# Trilu on 2^62 x 4 data: its mask constant was built element by element
# (fuzz-onnx-import.py, seed 61: a hang).
save("trilu_huge_mask", [helper.make_node("Trilu", ["t"], ["u"])],
     [helper.make_tensor_value_info("t", TP.FLOAT, [2**62, 4])],
     [helper.make_tensor_value_info("u", TP.FLOAT, [2**62, 4])], opset=14)
# A 3-D convolution of 2^62 channels: gathering its depth taps next to the
# channels (3 * 2^62) overflowed (fuzz-onnx-import.py, seed 67).
save("conv3d_channels_overflow", [helper.make_node("Conv", ["d", "w"], ["e"])],
     [helper.make_tensor_value_info("d", TP.FLOAT, [1, 2**62, 4, 4, 4]),
      helper.make_tensor_value_info("w", TP.FLOAT, [1, 2**62, 3, 3, 3])],
     [helper.make_tensor_value_info("e", TP.FLOAT, [1, 1, 2, 2, 2])])
# MaxPool's indices of 2^40 x 2^40 planes: one constant per (n, c).
save("max_pool_indices_huge",
     [helper.make_node("MaxPool", ["m"], ["o", "i"], kernel_shape=[2, 2])],
     [helper.make_tensor_value_info("m", TP.FLOAT, [2**40, 2**40, 4, 4])],
     [helper.make_tensor_value_info("o", TP.FLOAT, [2**40, 2**40, 3, 3]),
      helper.make_tensor_value_info("i", TP.INT64, [2**40, 2**40, 3, 3])])
