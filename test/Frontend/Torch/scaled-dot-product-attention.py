# from_fx converts torch's scaled_dot_product_attention (public in torch
# 2.x, F._scaled_dot_product_attention in Debian's torch 1.13: the same
# converter) to one relax.nn.attention: (B, N, L, E) inputs transposed to
# attention's (B, L, N, E) and back, (B, L, E) inputs with a unit head
# dimension, a boolean mask as the bias where(mask, 0, -inf), is_causal as
# "TopLeft". Each case is compared with torch on random inputs (rtol and
# atol 1e-5); dropout is refused.
# RUN: %python %s | FileCheck %s
# CHECK: plain: 1 attention, 0 softmax: ok
# CHECK-NEXT: causal: 1 attention, 0 softmax: ok
# CHECK-NEXT: bool mask: 1 attention, 0 softmax: ok
# CHECK-NEXT: cross, 12 queries 20 keys: 1 attention, 0 softmax: ok
# CHECK-NEXT: rank 3, bool mask: 1 attention, 0 softmax: ok
# CHECK-NEXT: dropout: error: {{.*}}scaled_dot_product_attention with dropout_p=0.5

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

import mlc
from mlc.relax.frontend.torch import from_fx

if hasattr(F, "scaled_dot_product_attention"):
    sdpa = F.scaled_dot_product_attention
else:
    def sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False):
        return F._scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, False,
                                               is_causal)[0]


class Attention(nn.Module):
    def __init__(self, causal=False, dropout=0.0):
        super().__init__()
        self.causal, self.dropout = causal, dropout

    def forward(self, q, k, v):
        return sdpa(q, k, v, dropout_p=self.dropout, is_causal=self.causal)


class MaskedAttention(nn.Module):
    def forward(self, q, k, v, mask):
        return sdpa(q, k, v, attn_mask=mask)


rng = np.random.default_rng(5)


def check(label, q_shape, kv_shape, mask_shape=None, causal=False):
    inputs = [rng.standard_normal(s).astype("float32") for s in (q_shape, kv_shape, kv_shape)]
    if mask_shape:
        mask = rng.random(mask_shape) > 0.3
        mask[..., 0] = True  # no row without keys (torch gives NaN there)
        inputs.append(mask)
    model = (MaskedAttention() if mask_shape else Attention(causal)).eval()
    info = [(x.shape, "bool" if x.dtype == np.bool_ else "float32") for x in inputs]
    mod = from_fx(torch.fx.symbolic_trace(model), info)
    text = mod.text.split("{-#")[0]
    out = mlc.create_executor(mod=mod).evaluate()(*inputs)
    with torch.no_grad():
        ref = model(*[torch.from_numpy(x) for x in inputs]).numpy()
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5, err_msg=label)
    print("%s: %d attention, %d softmax: ok" % (label, text.count("relax.nn.attention"),
                                                text.count("relax.nn.softmax")))


check("plain", (2, 3, 16, 8), (2, 3, 16, 8))
check("causal", (2, 3, 16, 8), (2, 3, 16, 8), causal=True)
check("bool mask", (2, 3, 16, 8), (2, 3, 16, 8), mask_shape=(2, 1, 16, 16))
check("cross, 12 queries 20 keys", (1, 2, 12, 16), (1, 2, 20, 16))
check("rank 3, bool mask", (4, 10, 8), (4, 10, 8), mask_shape=(4, 10, 10))

try:
    shape = (1, 2, 4, 8)
    from_fx(torch.fx.symbolic_trace(Attention(dropout=0.5)), [(shape, "float32")] * 3)
    print("dropout: converted")
except NotImplementedError as e:
    print("dropout: error: %s" % str(e).splitlines()[-1].strip())
