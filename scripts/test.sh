#!/usr/bin/env bash
# The test command: sets up the machine, builds mlc and runs every test
# (lit: FileCheck, verify-diagnostics, execution tests against numpy, fuzz
# smoke runs). Then the sanitizer tier: the same suite on an ASan+UBSan
# build in build-sanitizers/ (see docs/Fuzzing.md), within a time budget so
# that the whole command stays well inside CI's 90 minutes. Ends with one
# "N passed, N failed" line per tier; the exit code is non-zero if any test
# of either tier failed.
#   MLC_SANITIZER_TIER=off   skips the sanitizer tier
#   MLC_TEST_BUDGET_MIN=75   minutes the whole command may take (default)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
start=$(date +%s)
"$root/scripts/setup.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Runs `check-mlc` in $MLC_BUILD_DIR (default build/), printing
# "<label>: N passed, N failed"; returns ninja's status.
run_suite() {
  local label=$1 status=0
  shift
  "$@" "$root/scripts/build.sh" check-mlc 2>&1 | tee "$log" || status=$?
  local passed failed
  passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
  failed=$(awk '/^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ {
    sub(/.*: */, ""); s += $1 } END { print s + 0 }' "$log")
  echo "$label: ${passed:-0} passed, ${failed} failed"
  return "$status"
}

status=0
run_suite mlc env || status=$?

if [ "${MLC_SANITIZER_TIER:-on}" = off ]; then
  echo "mlc (ASan+UBSan): skipped (MLC_SANITIZER_TIER=off)"
  exit "$status"
fi
budget=$(( ${MLC_TEST_BUDGET_MIN:-75} * 60 - ($(date +%s) - start) ))
if [ "$budget" -lt 600 ]; then
  echo "mlc (ASan+UBSan): skipped, $((budget / 60)) of ${MLC_TEST_BUDGET_MIN:-75} minutes left"
  exit "$status"
fi
tier=0
run_suite "mlc (ASan+UBSan)" timeout "$budget" env \
  MLC_BUILD_DIR="$root/build-sanitizers" \
  MLC_CMAKE_ARGS="-DMLC_ENABLE_SANITIZERS=ON" \
  || tier=$?
if [ "$tier" -eq 124 ]; then
  # Out of time is not a failure of mlc; the next run continues from ccache.
  echo "mlc (ASan+UBSan): not finished within the $((budget / 60)) minutes left"
elif [ "$tier" -ne 0 ]; then
  status=$tier
fi
exit "$status"
