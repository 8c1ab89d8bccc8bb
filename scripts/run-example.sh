#!/usr/bin/env bash
# The main job: sets up the machine, builds mlc, and compiles the built-in
# example model: the MLC course's MLP as TVM Relay text is imported, its
# weights are bound by name, and it is converted to Relax.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MLC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh" mlc-opt mlc-translate mlc-run
out="$build/examples"
mkdir -p "$out"
bin="$build/bin"

echo "== import examples/mlp.relay (TVM Relay text) =="
"$bin/mlc-translate" --import-relay "$root/examples/mlp.relay" -o "$out/mlp.mlir"
cat "$out/mlp.mlir"

echo "== bind weights by name, convert to relax =="
/usr/bin/python3 "$root/examples/make_params.py" "$out/mlp-params.npz"
"$bin/mlc-opt" "$out/mlp.mlir" \
  --relay-bind-params="params=$out/mlp-params.npz" \
  --relay-to-relax --canonicalize \
  --mlir-elide-resource-strings-if-larger=16 "$@"
