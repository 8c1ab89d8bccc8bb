#!/usr/bin/env bash
# The main job: sets up the machine, builds mlc and compiles the built-in
# example model.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MLC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh" mlc-opt mlc-translate
"$build/bin/mlc-opt" "$root/examples/mlp.mlir" "$@"
