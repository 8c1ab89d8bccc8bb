# from_fx on BERT, GPT-2 and LLaMA-style blocks written with torch.nn
# (test/Inputs/python/torch_models.py): attention with an additive padding
# mask or a causal mask, erf and tanh GELU, RMSNorm, rotary embeddings,
# SiLU-gated MLP. The batch size is symbolic ("b"), and BERT's sequence
# length too ("t"): one import runs at two sizes each. Compared with torch
# (rtol 1e-4, atol 1e-4 times the largest output magnitude).
# RUN: %python %s | FileCheck %s
# CHECK: bert: ok
# CHECK: gpt2: ok
# CHECK: llama: ok

import numpy as np
import torch

from torch_models import BLOCKS, block_inputs, check

torch.manual_seed(0)
rng = np.random.default_rng(0)
for name, block in BLOCKS.items():
    model = block().eval()
    sets = []
    for batch, seq in ((1, 16), (3, 16 if name != "bert" else 9)):
        inputs, info = block_inputs(name, rng, batch, seq)
        sets.append(inputs)
    check(name, model, info, sets)
