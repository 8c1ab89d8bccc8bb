#!/usr/bin/env bash
# Where a case's time goes, on the GPU machine: every kernel of one call of
# each case under Nsight Compute, with its duration, DRAM and SM
# throughput and achieved occupancy (correctness run only, without torch).
# The sum of the durations against the case's time per call (run.py) says
# how much of it is launch and host overhead.
#
#   bench/gpu/profile.sh [--dir bench/gpu/build] [--timeout 60]
#                        [--sections] CASE...
#
# --sections adds Nsight Compute's SpeedOfLight, Occupancy and
# WarpStateStats and MemoryWorkloadAnalysis sections, as ncu prints them
# (slower: each kernel is replayed per section).
# Prints one table per case; with OUT set, each case's CSV goes to
# $OUT/profile-CASE.csv.
set -u
dir="$(dirname "$0")/build"
limit=60
sections=()
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --dir) dir=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --sections) sections=(--section SpeedOfLight --section Occupancy --section WarpStateStats
                          --section MemoryWorkloadAnalysis); shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
run="$(dirname "$0")/run.py"
# Metrics every chip since Volta has (an unknown one makes ncu profile
# nothing: Hopper has no sm__pipe_tensor_op_hmma_* for wgmma kernels).
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,launch__registers_per_thread,launch__grid_size
status=0
for case in "$@"; do
  echo "== profile $case"
  if [[ ${#sections[@]} -gt 0 ]]; then
    # The sections' own report, without the launch statistics' noise.
    timeout "$limit" ncu "${sections[@]}" python3 "$run" --dir "$dir" --cases "$case" \
      --no-timing --no-torch 2>&1 | grep -vE "^==PROF==|^ +-+ +-+|^ *$" | head -${NCU_LINES:-200}
    [[ ${PIPESTATUS[0]} -ne 0 ]] && status=1
    continue
  fi
  csv=$(timeout "$limit" ncu --csv --metrics "$metrics" "${sections[@]}" \
    python3 "$run" --dir "$dir" --cases "$case" --no-timing --no-torch 2>"${TMPDIR:-/tmp}/ncu.err")
  rc=$?
  [[ -n "${OUT:-}" ]] && printf '%s\n' "$csv" >"$OUT/profile-$case.csv"
  if [[ $rc -ne 0 ]]; then
    echo "(ncu exited with $rc)"
    status=1
  fi
  # One line per kernel: name, then each metric (the CSV has one row per
  # kernel and metric).
  printf '%s\n' "$csv" >"${TMPDIR:-/tmp}/ncu.csv"
  python3 - "${TMPDIR:-/tmp}/ncu.csv" <<'EOF'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    print("(no kernels profiled; ncu said:)"); sys.stdout.flush()
    import os; os.system("head -5 ${TMPDIR:-/tmp}/ncu.err")
    sys.exit()
head = rows[0]
try:
    ik, iname, iunit, ival = (head.index(c) for c in ("Kernel Name", "Metric Name", "Metric Unit", "Metric Value"))
    iid = head.index("ID")
except ValueError:
    print("(unexpected ncu CSV)"); sys.exit()
kernels = {}
for r in rows[1:]:
    k = kernels.setdefault(r[iid], {"name": r[ik]})
    k[r[iname]] = (r[ival], r[iunit])
total = 0.0
for k in kernels.values():
    t, unit = k.get("gpu__time_duration.sum", ("0", "ns"))
    t = float(t.replace(",", "")) * {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1, "us": 1,
                                     "msecond": 1e3, "ms": 1e3}.get(unit, 1e-3)
    total += t
    extra = "  ".join(f"{m.split('__')[1].split('.')[0]}={v[0]}" for m, v in k.items()
                      if m not in ("name", "gpu__time_duration.sum"))
    print(f"{t:9.2f} us  {k['name'][:60]:60s} {extra}")
print(f"{total:9.2f} us  total over {len(kernels)} kernels")
EOF
done
exit $status
