#!/bin/sh
# Builds the libFuzzer targets (utils/fuzz/libfuzzer) with clang against
# this build of mlc, installed into a staging prefix.
#
# usage: utils/fuzz/libfuzzer/build.sh [BUILD_DIR] [OUT_DIR]
#   BUILD_DIR  mlc's build directory (default: build); not a sanitizer
#              build (its archives hold gcc's ASan, which clang's clashes with)
#   OUT_DIR    where the fuzzers are built (default: BUILD_DIR/libfuzzer)
# Environment: CLANGXX (default: clang++-14, else clang++).
# Then, e.g.:  OUT_DIR/relay-text-fuzzer -runs=100000 corpus/ test/Target/Relay
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=${2:-$build/libfuzzer}
clangxx=${CLANGXX:-$(command -v clang++-14 || command -v clang++)}
mkdir -p "$out"
cmake --install "$build" --prefix "$out/prefix" > "$out/install.log"
cmake -G Ninja -S "$root/utils/fuzz/libfuzzer" -B "$out" \
  -DCMAKE_CXX_COMPILER="$clangxx" -DMLC_DIR="$out/prefix/lib/cmake/mlc" \
  -DMLC_SOURCE_DIR="$root" > "$out/configure.log"
if ! ninja -C "$out" relay-text-fuzzer tensor-file-fuzzer > "$out/build.log"; then
  cat "$out/build.log" >&2
  exit 1
fi
echo "$out/relay-text-fuzzer"
echo "$out/tensor-file-fuzzer"
