"""Writes the parameter files used by bind-params.mlir into the directory
given as argv[1]: good .npz (stored and deflated) and .safetensors files and
broken ones (unknown name, duplicate name, wrong shape or dtype, truncated)."""
import json
import os
import struct
import sys
import warnings
import zipfile

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
w0 = (np.arange(12, dtype=np.float32) * 0.5).reshape(4, 3)
b0 = np.array([1.0, 2.0, 3.0], dtype=np.float32)


def path(name):
    return os.path.join(out, name)


def safetensors(name, tensors, header_override=None):
    dtypes = {np.float32: "F32", np.float64: "F64", np.int32: "I32"}
    header, blobs, offset = {}, [], 0
    for key, arr in tensors:
        data = np.ascontiguousarray(arr).tobytes()
        header[key] = {"dtype": dtypes[arr.dtype.type], "shape": list(arr.shape),
                       "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = header_override if header_override is not None else json.dumps(header)
    raw = text.encode()
    raw += b" " * (-len(raw) % 8)
    with open(path(name), "wb") as f:
        f.write(struct.pack("<Q", len(raw)) + raw + b"".join(blobs))


np.savez(path("mlp.npz"), w0=w0, b0=b0)
np.savez_compressed(path("mlp_compressed.npz"), w0=w0, b0=b0)
safetensors("mlp.safetensors", [("w0", w0), ("b0", b0)])
np.savez(path("unknown.npz"), w0=w0, b0=b0, w9=b0)
np.savez(path("shape.npz"), w0=w0.T.copy())
np.savez(path("dtype.npz"), w0=w0.astype(np.float64))
np.savez(path("b0.npz"), b0=b0)
np.savez(path("empty.npz"))

# The same name twice in a zip archive (zipfile warns, and allows it).
warnings.simplefilter("ignore")
with zipfile.ZipFile(path("dup.npz"), "w") as z:
    for _ in range(2):
        with z.open("w0.npy", "w", force_zip64=False) as f:
            np.save(f, w0)
# ... and in a safetensors header (JSON with a repeated key).
entry = '{"dtype": "F32", "shape": [3], "data_offsets": [0, 12]}'
safetensors("dup.safetensors", [("b0", b0)],
            header_override='{"b0": %s, "b0": %s}' % (entry, entry))

with open(path("mlp.npz"), "rb") as f:
    data = f.read()
with open(path("truncated.npz"), "wb") as f:
    f.write(data[: len(data) // 2])
with open(path("mlp.safetensors"), "rb") as f:
    data = f.read()
with open(path("truncated.safetensors"), "wb") as f:
    f.write(data[:-8])
with open(path("garbage.bin"), "wb") as f:
    f.write(b"this is not a tensor file")
