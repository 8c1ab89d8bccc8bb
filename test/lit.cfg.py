# -*- Python -*-
# lit configuration for the mlc regression tests (upstream MLIR style).

import os
import subprocess
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MLC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".relay", ".test", ".py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mlc_obj_root, "test")
# Inputs and helper scripts that are not tests themselves.
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py", "lit.local.cfg"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%mlc_src_root", config.mlc_src_root))
# Debian's python3 sees the apt-installed numpy; the pyenv one on PATH does not.
config.substitutions.append(("%python", config.python_with_numpy))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# FileCheck, not, count come from LLVM; mlc's tools from the build tree.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.mlc_tools_dir, config.llvm_tools_dir]
tools = ["mlc-opt", "mlc-translate", "mlc-compile", "mlc-lsp-server", "mlc-reduce",
         "llvm-nm", "llvm-readelf"]
for optional in ["mlc-run"]:
    if os.path.exists(os.path.join(config.mlc_tools_dir, optional)):
        tools.append(optional)
        config.available_features.add(optional)
# The C API's shared library and its C test program (lib/CAPI).
if os.path.exists(os.path.join(config.mlc_tools_dir, "mlc-capi-test")):
    tools.append("mlc-capi-test")
    config.available_features.add("capi")
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Python tests import the mlc package from the source tree and the helpers
# they share from test/Inputs/python, and find the tools of this build
# through MLC_TOOLS_DIR.
config.environment["PYTHONPATH"] = os.pathsep.join([
    os.path.join(config.mlc_src_root, "python"),
    os.path.join(config.mlc_src_root, "test", "Inputs", "python"),
])
config.environment["MLC_TOOLS_DIR"] = config.mlc_tools_dir

# mlc-run's cache of compiled modules (--cache-dir's default location): in
# the build tree and empty at the start of every run of the suite, never the
# user's. Tests of the cache itself use their own --cache-dir.
xdg_cache_home = os.path.join(config.test_exec_root, "xdg-cache")
shutil.rmtree(xdg_cache_home, ignore_errors=True)
config.environment["XDG_CACHE_HOME"] = xdg_cache_home

# mlc-compile's C driver test builds against the generated header.
for cc in ["cc", "gcc", "clang"]:
    cc_path = shutil.which(cc)
    if cc_path:
        config.available_features.add("c-compiler")
        config.substitutions.append(("%cc", cc_path))
        break

# The CUDA runtime library is built when the CUDA toolkit is found; its tests
# take the no-device path on machines without a driver or GPU.
if config.has_cuda:
    config.substitutions.append(("%cuda_toolkit_dir", config.cuda_toolkit_dir))
    cuda_runtime = os.path.join(config.mlc_obj_root, "lib",
                                "libmlc_cuda_runtime.so")
    if os.path.exists(cuda_runtime):
        config.available_features.add("cuda-runtime")
        config.substitutions.append(("%mlc_cuda_runtime", cuda_runtime))

# The ONNX importer is built when Debian's libonnx is found.
if config.has_onnx:
    config.available_features.add("onnx")
if os.path.isdir("/usr/share/libonnx-testdata/data/node"):
    config.available_features.add("onnx-testdata")
config.substitutions.append(("%mlc_obj_root", config.mlc_obj_root))
# MLIR's C headers (mlir-c/), next to LLVM's tools.
config.substitutions.append(("%llvm_include_dir", os.path.join(
    os.path.dirname(config.llvm_tools_dir), "include")))
# The PyTorch front end's tests need Debian's python3-torch (and
# torchvision) under the Python the tests run with.
if subprocess.call([config.python_with_numpy, "-c",
                    "import importlib.util as u, sys; "
                    "sys.exit(not (u.find_spec('torch') and u.find_spec('torchvision')))"]) == 0:
    config.available_features.add("torch")

# libFuzzer targets (utils/fuzz/libfuzzer) need clang and its fuzzer runtime.
for clangxx in ["clang++-14", "clang++"]:
    clangxx_path = shutil.which(clangxx)
    if clangxx_path:
        probe = subprocess.run([clangxx_path, "-print-file-name=libclang_rt.fuzzer-x86_64.a"],
                               capture_output=True, text=True).stdout.strip()
        if os.path.isabs(probe) and os.path.exists(probe):
            config.available_features.add("libfuzzer")
            config.substitutions.append(("%clangxx", clangxx_path))
        break

if os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", "/usr/local/cuda/bin/ptxas"))
if config.enable_sanitizers:
    config.available_features.add("sanitizers")
    # A sanitizer report must fail the test even under `not`: abort (a
    # signal) instead of exiting with 1, which `not` takes as the expected
    # error. allow_user_poisoning=0: mlc is instrumented but Debian's
    # libMLIR/libLLVM are not, and LLVM's allocators (BumpPtrAllocator)
    # poison their slabs in instrumented inline code only, so the library's
    # own writes into a slab that mlc's code started read as
    # use-after-poison (every such report is in libMLIR's memmove into
    # StorageUniquer memory). Heap errors (use-after-free, overflows) are
    # still reported. detect_leaks=0: LeakSanitizer cannot run where ptrace
    # is denied (containers), and upstream leaks on purpose at exit.
    # allocator_may_return_null=1: an allocation that cannot be had returns
    # null, as without ASan, so that the tools' own errors are tested.
    config.environment["ASAN_OPTIONS"] = (
        "abort_on_error=1:allow_user_poisoning=0:detect_leaks=0:"
        "allocator_may_return_null=1")
    config.environment["UBSAN_OPTIONS"] = (
        "halt_on_error=1:abort_on_error=1:print_stacktrace=1")
    # An instrumented libMLC-C.so cannot be loaded into Debian's
    # uninstrumented python3 (the ASan runtime must come first): Python
    # tests take the tools path there; the C API itself is checked by the
    # instrumented test/CAPI program.
    config.environment["MLC_NO_CAPI"] = "1"
