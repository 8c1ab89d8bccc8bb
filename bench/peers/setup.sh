#!/usr/bin/env bash
# Creates bench/peers/.venv (ignored by git) with the peer runtimes that the
# benchmarks under bench/peers/ compare mlc with: ONNX Runtime (CPU) and the
# onnx package to build its models; apache-tvm (its MetaSchedule, with
# xgboost for its default cost model) for tuning_tvm.py. Needs PyPI; not part
# of the README's commands. Idempotent.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ ! -x "$here/.venv/bin/python" ]]; then
  /usr/bin/python3 -m venv "$here/.venv"
fi
"$here/.venv/bin/pip" install -q --upgrade onnxruntime onnx numpy apache-tvm xgboost
"$here/.venv/bin/python" -c 'import onnxruntime, onnx, tvm; print("onnxruntime", onnxruntime.__version__, "onnx", onnx.__version__, "tvm", tvm.__version__)'
