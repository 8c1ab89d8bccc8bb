"""Writes the tensor files that the meta-constant tests read.

usage: make-tensors.py OUTDIR
"""
import json
import os
import struct
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

w = np.arange(6, dtype=np.float32).reshape(2, 3)
b = np.array([1, -2, 3], dtype=np.int64)
consts = {"0": w, "1": b}

np.savez(os.path.join(out, "stored.npz"), **consts)
np.savez_compressed(os.path.join(out, "compressed.npz"), **consts)

# Every other dtype the reader supports, stored and deflated.
dtypes = {"f2": np.float16, "f8": np.float64, "i1": np.int8, "i2": np.int16,
          "i4": np.int32, "u1": np.uint8, "b1": np.bool_}
many = {str(i): (np.arange(4) % 2).astype(t).reshape(2, 2)
        for i, t in enumerate(dtypes.values())}
np.savez(os.path.join(out, "dtypes.npz"), **many)
np.savez_compressed(os.path.join(out, "dtypes-compressed.npz"), **many)

# Truncated: the end of the archive (central directory) is missing.
data = open(os.path.join(out, "stored.npz"), "rb").read()
open(os.path.join(out, "truncated.npz"), "wb").write(data[: len(data) // 2])
# Corrupt deflate stream: same size, payload bytes overwritten.
data = bytearray(open(os.path.join(out, "compressed.npz"), "rb").read())
for i in range(60, 90):
    data[i] ^= 0x5A
open(os.path.join(out, "corrupt.npz"), "wb").write(bytes(data))

# A central directory claiming a huge uncompressed size (a zip "bomb").
data = bytearray(open(os.path.join(out, "compressed.npz"), "rb").read())
cd = data.index(b"PK\x01\x02")
data[cd + 24:cd + 28] = struct.pack("<I", 0xFFFFFFF0)
open(os.path.join(out, "bomb.npz"), "wb").write(bytes(data))

np.savez(os.path.join(out, "named.npz"), w=w, b=b)
np.savez(os.path.join(out, "fortran.npz"), **{"0": np.asfortranarray(w)})
np.savez(os.path.join(out, "bigendian.npz"), **{"0": w.astype(">f4")})
np.savez(os.path.join(out, "complex.npz"), **{"0": w.astype(np.complex64)})


def safetensors(path, tensors):
    header, blobs, offset = {}, [], 0
    for name, (dtype, arr) in tensors.items():
        raw = arr.tobytes()
        header[name] = {"dtype": dtype, "shape": list(arr.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for raw in blobs:
            f.write(raw)


safetensors(os.path.join(out, "consts.safetensors"),
            {"0": ("F32", w), "1": ("I64", b)})
safetensors(os.path.join(out, "bf16.safetensors"),
            {"0": ("BF16", w.astype(np.float16))})
safetensors(os.path.join(out, "f8.safetensors"),
            {"0": ("F8_E4M3", w.astype(np.uint8))})
