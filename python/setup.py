"""Builds the native part of the mlc package with mlc's CMake build.

`pip install ./python` runs this from a clone of mlc: it builds the C API
library and the tools in the clone's build directory ($MLC_BUILD_DIR, else
build/, configured by scripts/build.sh when it is not configured yet),
installs them into a staging prefix (`cmake --install`, which gives them
$ORIGIN-relative run paths) and copies into the package, as mlc/_native/
(with $MLC_PREFIX, from that installed prefix instead, building nothing):

    lib/libMLC-C.so, lib/libMLCMLIRCAPI.so  (ctypes loads the first)
    lib/libmlc_cuda_runtime.so              (when CUDA was found)
    bin/mlc-opt, mlc-run, mlc-compile, mlc-translate, ...

They link Debian's libMLIR.so/libLLVM.so (llvm-22) where the build found
them, so the package runs where those are installed.
"""

import glob
import os
import shutil
import subprocess
import tempfile

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOOLS = ["mlc-opt", "mlc-run", "mlc-compile", "mlc-translate", "mlc-reduce",
         "mlc-lsp-server"]
LIBRARIES = ["libMLC-C.so", "libMLCMLIRCAPI.so", "libmlc_cuda_runtime.so"]


def copy_native(prefix, destination):
    for sub, names in (("lib", LIBRARIES), ("bin", TOOLS)):
        os.makedirs(os.path.join(destination, sub), exist_ok=True)
        for name in names:
            for path in glob.glob(os.path.join(prefix, sub, name)):
                shutil.copy2(path, os.path.join(destination, sub, name))


def build_native(destination):
    if os.environ.get("MLC_PREFIX"):
        copy_native(os.environ["MLC_PREFIX"], destination)
    else:
        build_dir = os.environ.get("MLC_BUILD_DIR") or os.path.join(ROOT, "build")
        if not os.path.exists(os.path.join(build_dir, "build.ninja")):
            subprocess.check_call([os.path.join(ROOT, "scripts", "build.sh")])
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "MLC-C"]
                              + TOOLS)
        with tempfile.TemporaryDirectory() as prefix:
            subprocess.check_call(["cmake", "--install", build_dir, "--prefix", prefix],
                                  stdout=subprocess.DEVNULL)
            copy_native(prefix, destination)
    if not os.path.exists(os.path.join(destination, "lib", "libMLC-C.so")):
        raise RuntimeError("the build made no libMLC-C.so (configure with "
                           "MLC_LINK_MLIR_DYLIB=ON, the default)")


class BuildPyWithNative(build_py):
    def run(self):
        super().run()
        build_native(os.path.join(self.build_lib, "mlc", "_native"))


class BinaryDistribution(Distribution):
    """The wheel holds native code: it is not pure Python."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPyWithNative}, distclass=BinaryDistribution)
