"""Relay front end (tvm.relay's entry points)."""

import os
import tempfile

from .. import tools
from ..ir import Module


def fromtext(text, meta=None):
    """Parses TVM Relay text (`mod.astext()`) into a Module of the relay
    dialect. `meta` maps `meta[relay.Constant][N]` indices (or their string
    form) to numpy arrays. In process through the C API
    (mlcImportRelayFromString), else with mlc-translate."""
    from .. import _capi
    with tempfile.TemporaryDirectory() as tmp:
        meta_path = ""
        if meta:
            meta_path = os.path.join(tmp, "meta.npz")
            tools.save_npz(meta_path, meta)
        if _capi.available():
            try:
                return Module(_capi.import_relay(text, meta_path, "model.relay"))
            except _capi.CAPIError as e:
                raise tools.ToolError("mlc-translate", 1, str(e)) from None
        source = os.path.join(tmp, "model.relay")
        with open(source, "w") as f:
            f.write(text)
        args = ["--import-relay", source]
        if meta_path:
            args.append("--relay-meta=" + meta_path)
        return Module(tools.run("mlc-translate", args))


parse = fromtext
