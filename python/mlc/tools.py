"""Locating and running mlc's command-line tools."""

import os
import shutil
import subprocess
import zipfile

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))


class ToolError(RuntimeError):
    """A tool exited with an error; `stderr` holds its diagnostics."""

    def __init__(self, tool, returncode, stderr):
        super().__init__("%s failed (exit code %d):\n%s" % (tool, returncode, stderr))
        self.tool = tool
        self.returncode = returncode
        self.stderr = stderr


def find_tool(name):
    """Returns the path of tool `name`: $MLC_TOOLS_DIR, the package's own
    (pip install), the source tree's build/bin, then PATH."""
    candidates = []
    if os.environ.get("MLC_TOOLS_DIR"):
        candidates.append(os.path.join(os.environ["MLC_TOOLS_DIR"], name))
    candidates.append(os.path.join(_HERE, "_native", "bin", name))
    candidates.append(os.path.join(_HERE, "..", "..", "build", "bin", name))
    for path in candidates:
        if os.access(path, os.X_OK):
            return os.path.abspath(path)
    found = shutil.which(name)
    if found:
        return found
    raise FileNotFoundError(
        "cannot find %s: build mlc (scripts/build.sh) or set MLC_TOOLS_DIR" % name)


def run(name, args, input_text=None):
    """Runs tool `name` with `args`; returns its stdout or raises ToolError."""
    proc = subprocess.run([find_tool(name)] + list(args), input=input_text,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise ToolError(name, proc.returncode, proc.stderr)
    return proc.stdout


def run_passes(text, passes):
    """Runs the module-level pass pipeline `passes` (`a,b{opt=1}`, as inside
    `builtin.module(...)`) on the module `text` and returns the result: in
    process through the C API, else with mlc-opt."""
    from . import _capi
    pipeline = "builtin.module(%s)" % passes
    if _capi.available():
        try:
            return _capi.transform_module(text, pipeline=pipeline)
        except _capi.CAPIError as e:
            raise ToolError("mlc-opt", 1, str(e)) from None
    return run("mlc-opt", ["--pass-pipeline=" + pipeline], input_text=text)


def save_npz(path, arrays):
    """Writes `arrays` (name -> array) as an .npz file, like np.savez but
    without taking any name as one of np.savez's own keywords (numpy drops
    an array named `like`)."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, array in arrays.items():
            with archive.open(str(name) + ".npy", "w") as f:
                np.lib.format.write_array(f, np.asarray(array))
