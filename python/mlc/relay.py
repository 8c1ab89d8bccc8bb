"""Relay front end (tvm.relay's entry points)."""

import os
import tempfile

from . import tools
from .ir import Module


def fromtext(text, meta=None):
    """Parses TVM Relay text (`mod.astext()`) into a Module of the relay
    dialect. `meta` maps `meta[relay.Constant][N]` indices (or their string
    form) to numpy arrays."""
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "model.relay")
        with open(source, "w") as f:
            f.write(text)
        args = ["--import-relay", source]
        if meta:
            meta_path = os.path.join(tmp, "meta.npz")
            tools.save_npz(meta_path, meta)
            args.append("--relay-meta=" + meta_path)
        return Module(tools.run("mlc-translate", args))


parse = fromtext
