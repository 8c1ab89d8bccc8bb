"""Writes seed tensor files for the tensor-file libFuzzer target: .npz
(stored and deflated; several dtypes, a 0-d and an empty array) and
.safetensors (F32, BF16, I64) into the directory given as argv[1]."""

import json
import os
import struct
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)
np.savez(os.path.join(out, "a.npz"), x=rng.standard_normal((2, 3)).astype("float32"),
         i=np.arange(4, dtype=np.int64))
np.savez_compressed(os.path.join(out, "b.npz"), h=np.ones((3,), np.float16),
                    b=np.array([True, False]), s=np.float64(2.5))
np.savez(os.path.join(out, "c.npz"), u=np.arange(6, dtype=np.uint8).reshape(2, 3),
         e=np.zeros((0, 4), np.int32))


def safetensors(path, arrays):
    header, data, offset = {}, b"", 0
    for name, (dtype, array) in arrays.items():
        raw = array.tobytes()
        header[name] = {"dtype": dtype, "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        data += raw
        offset += len(raw)
    text = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)


safetensors(os.path.join(out, "d.safetensors"),
            {"w": ("F32", rng.standard_normal((4, 2)).astype("float32")),
             "bf": ("BF16", np.arange(3, dtype=np.uint16)),
             "n": ("I64", np.arange(2, dtype=np.int64))})
