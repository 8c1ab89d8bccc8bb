#!/usr/bin/env bash
# Installs what a fresh Debian bookworm machine lacks to build and test mlc.
# Idempotent: silent when everything is already present.
set -euo pipefail

APT_PACKAGES=(
  # LLVM/MLIR 22 (find_package(MLIR) needs mlir-22-tools for mlir-tblgen).
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools lld-22
  # OpenMP runtime for parallel loops (scf.parallel -> omp, mlc-run --threads).
  libomp-22-dev
  # Build tools.
  cmake ninja-build g++ ccache zlib1g-dev
  # Tests and benchmarks: numpy references, a threaded OpenBLAS baseline.
  python3 python3-numpy libopenblas0-pthread
  # The ONNX importer (onnx.proto for protobuf 3.21), the python onnx
  # package its tests build models with, and the ONNX backend test data.
  libonnx-dev libprotobuf-dev python3-onnx libonnx-testdata
  # The PyTorch front end's tests (torch.fx, torchvision's models).
  python3-torch python3-torchvision
  # libFuzzer and clang's ASan for utils/fuzz/libfuzzer (test/Tools/fuzz/libfuzzer.test).
  clang-14
  # `pip install ./python` into a venv, offline (test/Examples/pip-install.test).
  python3-venv python3-pip python3-setuptools python3-wheel
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
  else
    echo "setup: missing packages and not root; run as root:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
