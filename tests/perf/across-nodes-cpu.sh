#!/bin/bash
# Where the CPU goes per action, one node against across nodes: the same play as across-nodes.sh, each
# half in its own run, with every process's CPU time (utime + stime from /proc) read over the middle
# of the run and divided by the actions played then. Usage:
#   tests/perf/across-nodes-cpu.sh [TABLES] [SECONDS]
set -eu
tables=${1:-50}
seconds=${2:-10}
. "$(dirname "$0")/unbounded.sh"
ticks() { for pid in "$@"; do awk '{printf "%d ", $14 + $15}' "/proc/$pid/stat"; done; }

# Runs the load generator against $1 and prints the CPU per action of the processes named in $names
# ($pids).
measure() {
  "$bin-loadgen" run --url "$1" --game panjpar --tables "$tables" --duration "$seconds" > "$out" &
  local load=$!
  sleep 2
  local before after t0 t1
  before=$(ticks $pids $load); t0=$(date +%s.%N)
  sleep $((seconds - 3))
  after=$(ticks $pids $load); t1=$(date +%s.%N)
  wait $load
  grep -E 'round trip' "$out"
  python3 - "$before" "$after" "$t0" "$t1" "$(sed -n 's/.*(\([0-9]*\) per second.*/\1/p' "$out")" \
    $names loadgen <<'PY'
import sys
before, after = (list(map(int, a.split())) for a in sys.argv[1:3])
elapsed, rate, names = float(sys.argv[4]) - float(sys.argv[3]), int(sys.argv[5]), sys.argv[6:]
total = 0.0
for name, b, a in zip(names, before, after):
    cores = (a - b) / 100 / elapsed
    total += cores
    print(f"  {name:8} {cores:4.2f} cores  {cores / rate * 1e6:5.1f} µs per action")
print(f"  {'all':8} {total:4.2f} cores  {total / rate * 1e6:5.1f} µs per action")
PY
}

out=$(mktemp)
CHAIKHANA_LISTEN=127.0.0.1:18091 "$bin" serve > /dev/null 2>&1 &
alone=$!
sleep 1
echo "one node, $tables tables:"
pids=$alone names=node measure http://127.0.0.1:18091
kill $alone
redis-server --port 16399 --save "" --appendonly no > /dev/null &
redis=$!
sleep 0.5
CHAIKHANA_LISTEN=127.0.0.1:18093 CHAIKHANA_REDIS_URL=redis://127.0.0.1:16399 CHAIKHANA_ROLE=tables \
  "$bin" serve > /dev/null 2>&1 &
tables_node=$!
CHAIKHANA_LISTEN=127.0.0.1:18092 CHAIKHANA_REDIS_URL=redis://127.0.0.1:16399 CHAIKHANA_ROLE=edge \
  "$bin" serve > /dev/null 2>&1 &
edge=$!
sleep 1.5
echo "across nodes, $tables tables:"
pids="$tables_node $edge $redis" names="tables edge redis" measure http://127.0.0.1:18092
rm -f "$out"
