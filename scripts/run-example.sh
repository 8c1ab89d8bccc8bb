#!/usr/bin/env bash
# The main job: sets up the machine, builds mlc, then
#  1. imports the MLC course's MLP from TVM Relay text, binds generated weights
#     by name and converts it to Relax;
#  2. compiles the course's TensorIR mm_relu for the CPU, runs it on random
#     inputs, checks the result against numpy and prints the latency.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MLC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh" mlc-opt mlc-translate mlc-run
out="$build/examples"
mkdir -p "$out"
bin="$build/bin"
py=/usr/bin/python3

echo "== 1. import examples/mlp.relay (TVM Relay text) =="
"$bin/mlc-translate" --import-relay "$root/examples/mlp.relay" -o "$out/mlp.mlir"
cat "$out/mlp.mlir"

echo "== bind weights by name, convert to relax =="
"$py" "$root/examples/make_params.py" "$out/mlp-params.npz"
"$bin/mlc-opt" "$out/mlp.mlir" \
  --relay-bind-params="params=$out/mlp-params.npz" \
  --relay-to-relax --canonicalize \
  --mlir-elide-resource-strings-if-larger=16

echo "== 2. compile and run examples/mm_relu.mlir (TensorIR) =="
"$py" "$root/examples/check_mm_relu.py" make "$out/ab.npz"
"$bin/mlc-run" "$root/examples/mm_relu.mlir" --entry=mm_relu \
  --inputs="$out/ab.npz" --outputs="$out/c.npz" --bench=20
"$py" "$root/examples/check_mm_relu.py" check "$out/ab.npz" "$out/c.npz"
