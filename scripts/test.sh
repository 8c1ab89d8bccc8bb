#!/usr/bin/env bash
# The test command: sets up the machine, builds mlc and runs every test
# (lit: FileCheck, verify-diagnostics, execution tests against numpy). Ends
# with one "N passed, N failed" line; the exit code is lit's.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"$root/scripts/build.sh" check-mlc 2>&1 | tee "$log" || status=$?
passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(awk '/^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ {
  sub(/.*: */, ""); s += $1 } END { print s + 0 }' "$log")
echo "mlc: ${passed:-0} passed, ${failed} failed"
exit "$status"
