#!/usr/bin/env bash
# Configures (once) and builds mlc incrementally in $MLC_BUILD_DIR (default:
# build/). Extra arguments are passed to ninja (e.g. a target name).
# Set MLC_CMAKE_ARGS for extra configure flags, e.g. -DMLC_ENABLE_SANITIZERS=ON.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MLC_BUILD_DIR:-$root/build}
# Paths relative to the checkout let ccache share objects between checkouts.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}

if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  # shellcheck disable=SC2086
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "${launcher[@]}" ${MLC_CMAKE_ARGS:-} >/dev/null
fi
ninja -C "$build" "$@"
