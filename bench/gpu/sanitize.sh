#!/usr/bin/env bash
# Runs cases of bench/gpu/run.py under compute-sanitizer on the GPU machine:
# memcheck (out-of-bounds and misaligned accesses) and racecheck (shared
# memory hazards: a missing barrier of mlc-gpu-thread-sync) on each case,
# correctness only, without torch.
#
#   bench/gpu/sanitize.sh [--dir bench/gpu/build] [--timeout 120]
#                         [--tool memcheck|racecheck] CASE...
#
# Prints each tool's summary per case; exits 1 when any reports an error.
set -u
dir="$(dirname "$0")/build"
limit=120
tools=(memcheck racecheck)
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --dir) dir=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --tool) tools=("$2"); shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
run="$(dirname "$0")/run.py"
status=0
for case in "$@"; do
  for tool in "${tools[@]}"; do
    log=$(timeout "$limit" compute-sanitizer --tool "$tool" --print-limit 5 \
      python3 "$run" --dir "$dir" --cases "$case" --no-timing --no-torch 2>&1)
    rc=$?
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Hazard|Invalid|error" <<<"$log" | head -8)
    echo "== $tool $case: rc $rc"
    echo "$summary"
    if [[ $rc -ne 0 ]] || grep -qE "(ERROR|RACECHECK) SUMMARY: [1-9]" <<<"$log"; then
      status=1
      [[ $rc -eq 124 ]] && echo "(stopped after ${limit}s)"
    fi
  done
done
exit $status
