#!/bin/sh
# The long fuzzing campaign (docs/Fuzzing.md): every fuzzer of utils/fuzz,
# one after the other (one process at a time), at least 10,000 inputs each,
# on the tools of one build directory -- preferably a sanitizer build
# (cmake -DMLC_ENABLE_SANITIZERS=ON), where out-of-bounds accesses and
# undefined behaviour abort instead of passing unnoticed.
#
# usage: utils/fuzz/campaign.sh [BUILD_DIR] [RUNS] [SEED] [OUT_DIR]
#   BUILD_DIR  build directory whose bin/ holds the tools (default: build-asan)
#   RUNS       inputs per fuzzer (default: 10000)
#   SEED       random seed (default: 1)
#   OUT_DIR    logs and failing inputs, one directory per fuzzer
#              (default: $TMPDIR/mlc-fuzz-campaign-DATE)
# Environment: PYTHON (default /usr/bin/python3, which sees numpy and onnx),
# MAX_SECONDS per fuzzer (default: no limit), FUZZERS (default: all, e.g.
# FUZZERS="mlc-opt onnx-import").
#
# Prints each fuzzer's summary line ("N runs in Ts (seed S): A ok, B clean
# errors, C crashes, D timeouts, E failures without a diagnostic"); each
# distinct failure is saved once (the smallest input) under OUT_DIR/FUZZER/
# with a repro.sh. Exit status: 0 if no fuzzer found a failure.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-asan}
runs=${2:-10000}
seed=${3:-1}
out=${4:-${TMPDIR:-/tmp}/mlc-fuzz-campaign-$(date +%Y%m%d-%H%M%S)}
python=${PYTHON:-/usr/bin/python3}
max_seconds=${MAX_SECONDS:-31536000}
fuzzers=${FUZZERS:-"relay-import relax-json-import onnx-import mlc-opt mlc-run gpu-pipeline tuning-db"}
bin=$(cd "$build" 2>/dev/null && pwd)/bin
if [ ! -x "$bin/mlc-opt" ] || [ ! -x "$bin/mlc-translate" ]; then
  echo "campaign.sh: no mlc tools in '$build/bin'; build first" >&2
  exit 2
fi
mkdir -p "$out"
echo "fuzzing $bin: $runs inputs per fuzzer, seed $seed; logs and failing inputs in $out"
status=0
for fuzzer in $fuzzers; do
  case $fuzzer in
    onnx-import)
      if ! "$bin/mlc-translate" --help | grep -q -- --import-onnx ||
         ! "$python" -c "import onnx" 2>/dev/null; then
        echo "$fuzzer: skipped (mlc built without the ONNX importer, or no onnx module in $python)"
        continue
      fi ;;
    mlc-run)
      if [ ! -x "$bin/mlc-run" ]; then
        echo "$fuzzer: skipped (no mlc-run in $bin)"
        continue
      fi ;;
  esac
  log=$out/$fuzzer.log
  "$python" "$root/utils/fuzz/fuzz-$fuzzer.py" --bin-dir "$bin" --runs "$runs" --seed "$seed" \
    --max-seconds "$max_seconds" --crash-dir "$out/$fuzzer" > "$log" 2>&1 || status=1
  summary=$(grep ' runs in ' "$log" | tail -n 1)
  echo "$fuzzer: ${summary:-no summary (see $log)}"
  grep '^  [0-9]*x ' "$log" || true
done
exit $status
