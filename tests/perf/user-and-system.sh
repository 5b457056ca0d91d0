#!/bin/bash
# The user and system CPU of one round trip, for the server and for the load generator apart: the
# load generator plays Panjpar against the server, then echoes frames off `chaikhana-loadgen echo`, and
# each process's utime and stime are read from /proc over the middle of each run and divided by the
# round trips made then. What the kernel spends on an action beside an echo's is where the echo
# ratio's floor lies. Usage:
#   tests/perf/user-and-system.sh [TABLES] [SECONDS]
set -eu
tables=${1:-100}
seconds=${2:-10}
. "$(dirname "$0")/unbounded.sh"
cpu_times() { for pid in "$@"; do awk '{printf "%d %d ", $14, $15}' "/proc/$pid/stat"; done; }
out=$(mktemp)

# Plays $3 against the server at $2 (process $1) and prints each side's CPU per round trip.
measure() {
  "$bin-loadgen" run --url "$2" --game "$3" --tables "$tables" --duration "$seconds" --json > "$out" &
  local load=$!
  sleep 2.5
  local before after t0 t1
  before=$(cpu_times "$1" $load); t0=$(date +%s.%N)
  sleep $((seconds - 4))
  after=$(cpu_times "$1" $load); t1=$(date +%s.%N)
  wait $load
  python3 - "$3" "$before" "$after" "$t0" "$t1" "$out" <<'PY'
import json, sys
name, t0, t1 = sys.argv[1], float(sys.argv[4]), float(sys.argv[5])
before, after = (list(map(int, a.split())) for a in sys.argv[2:4])
report = json.loads(open(sys.argv[6]).read().strip().splitlines()[-1])
rate = report["actions_per_second"]
us = [(a - b) / 100 / (t1 - t0) / rate * 1e6 for b, a in zip(before, after)]
print(f"{name}: {rate:,.0f} round trips a second, {report['errors']} errors; µs per round trip: "
      f"server user {us[0]:.1f} system {us[1]:.1f}, loadgen user {us[2]:.1f} system {us[3]:.1f}, "
      f"all {sum(us):.1f}")
PY
}

CHAIKHANA_LISTEN=127.0.0.1:18094 "$bin" serve > /dev/null 2>&1 &
server=$!
"$bin-loadgen" echo --listen 127.0.0.1:18095 > /dev/null 2>&1 &
echo_server=$!
sleep 1.5
measure $server http://127.0.0.1:18094 panjpar
measure $echo_server http://127.0.0.1:18095 echo
rm -f "$out"
