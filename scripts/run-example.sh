#!/usr/bin/env bash
# The main job: sets up the machine, builds mlc, then
#  1. imports a small CNN and the MLC course's MLP from TVM Relay text,
#  2. compiles each with --mlc-cpu-pipeline (relay -> relax -> tensorir
#     kernels -> LLVM), runs it on a random input with generated weights
#     bound by name, prints the output and latency, and checks it against a
#     numpy reference,
#  3. compiles and runs the course's hand-written TensorIR mm_relu.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MLC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh" mlc-opt mlc-translate mlc-run
out="$build/examples"
mkdir -p "$out"
bin="$build/bin"
py=/usr/bin/python3

for model in cnn mlp; do
  echo "== $model: import examples/$model.relay (TVM Relay text) =="
  "$bin/mlc-translate" --import-relay "$root/examples/$model.relay" \
    -o "$out/$model.mlir"
  head -c 600 "$out/$model.mlir"; echo " ..."
  "$py" "$root/examples/models.py" make "$model" \
    "$out/$model-params.npz" "$out/$model-inputs.npz"
  echo "== $model: compile, bind weights by name, run 20 times =="
  "$bin/mlc-run" "$out/$model.mlir" --params="$out/$model-params.npz" \
    --inputs="$out/$model-inputs.npz" --outputs="$out/$model-outputs.npz" \
    --bench=20
  "$py" "$root/examples/models.py" check "$model" "$out/$model-params.npz" \
    "$out/$model-inputs.npz" "$out/$model-outputs.npz"
done

echo "== mm_relu: compile and run examples/mm_relu.mlir (TensorIR) =="
"$py" "$root/examples/check_mm_relu.py" make "$out/ab.npz"
"$bin/mlc-run" "$root/examples/mm_relu.mlir" --entry=mm_relu \
  --inputs="$out/ab.npz" --outputs="$out/c.npz" --bench=20
"$py" "$root/examples/check_mm_relu.py" check "$out/ab.npz" "$out/c.npz"
