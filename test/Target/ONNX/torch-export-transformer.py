# BERT, GPT-2 and LLaMA-style blocks (test/Inputs/python/torch_models.py)
# exported with torch.onnx.export at opset 17 (LayerNormalization as one op)
# and at opset 13 (layer norm spelled out in ReduceMean/Sub/Pow/Sqrt),
# imported with from_onnx, run with mlc and compared with torch (rtol 1e-4,
# atol 1e-4 times the largest output magnitude). The batch is exported as a
# symbolic dimension ("b"), and BERT's sequence length too ("t"): the
# exporter's Shape -> Gather -> Unsqueeze -> Concat -> Reshape sub-graphs
# stay symbolic, and one import runs at two sizes.
# REQUIRES: torch
# RUN: %python %s | FileCheck %s
# CHECK: bert opset 17: ok
# CHECK: bert opset 13: ok
# CHECK: gpt2 opset 17: ok
# CHECK: gpt2 opset 13: ok
# CHECK: llama opset 17: ok
# CHECK: llama opset 13: ok

import numpy as np
import torch

from torch_models import BLOCKS, block_inputs, check_onnx

torch.manual_seed(0)
rng = np.random.default_rng(0)
for name, block in BLOCKS.items():
    model = block().eval()
    sets = [block_inputs(name, rng, batch, seq)[0]
            for batch, seq in ((2, 16), (3, 16 if name != "bert" else 9))]
    dynamic = ({0: {0: "b", 1: "t"}, 1: {0: "b", 1: "t"}} if name == "bert"
               else {0: {0: "b"}})
    for opset in (17, 13):
        check_onnx("%s opset %d" % (name, opset), model, sets, opset, dynamic)
