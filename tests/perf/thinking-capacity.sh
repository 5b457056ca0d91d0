#!/bin/bash
# How many computer tables one node thinks for: N computer tables of GAME at LEVEL, each with one person
# who answers at once (the most a table can ask of its computers), alone on a fresh server for SECONDS,
# for each N of COUNTS. For each run: the load average at its start; the persons' moves a second; the
# computers' decisions a second (chaikhana_computer_think_seconds_count); the server's CPU over the run
# (cores busy); and on the thinking pool the decisions shortened a second, the p50 and p99 wait for a
# thinking thread and the mean CPU of a decision. The node's capacity at a level is the largest N whose
# p99 wait stays under the alert's second. Usage:
#   tests/perf/thinking-capacity.sh [GAME] [LEVEL] [SECONDS] [COUNTS]
#   (defaults: ganjifa strong 20 "1 2 4 8 16 32")
# Settings of the server can be given as CHAIKHANA_* variables (CHAIKHANA_THINKING_THREADS=2).
set -eu
game=${1:-ganjifa}
level=${2:-strong}
seconds=${3:-20}
counts=${4:-"1 2 4 8 16 32"}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/unbounded.sh"
port=18143
url=http://127.0.0.1:$port
out=$(mktemp)
trap 'kill $(jobs -p) 2> /dev/null; rm -f "$out" "$out.before" "$out.after"' EXIT

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

run() {
  local n=$1
  CHAIKHANA_LISTEN=127.0.0.1:$port "$bin" serve > /dev/null 2>&1 &
  local server=$!
  until curl -sf "$url/healthz" > /dev/null; do sleep 0.1; done
  local load c0 c1 t0 t1
  load=$(cut -d' ' -f1 /proc/loadavg)
  thinking_metrics "$url" > "$out.before"; c0=$(cpu_ticks $server); t0=$(date +%s.%N)
  "$bin-loadgen" run --url "$url" --game "$game" --tables 0 --duration "$seconds" \
    --computer-tables "$n" --computer-game "$game" --computer-level "$level" --json > "$out"
  thinking_metrics "$url" > "$out.after"; c1=$(cpu_ticks $server); t1=$(date +%s.%N)
  kill $server
  wait $server 2> /dev/null || true
  PYTHONPATH="$here" python3 - "$n" "$load" "$c0" "$c1" "$t0" "$t1" "$out" "$out.before" "$out.after" <<'PY'
import json, sys
from thinking_metrics import Between
n, load = int(sys.argv[1]), sys.argv[2]
c0, c1, t0, t1 = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
report = json.loads(open(sys.argv[7]).read().strip().splitlines()[-1])
between = Between(sys.argv[8], sys.argv[9])
delta, quantile = between.delta, between.wait_at
span = t1 - t0
decisions = delta("chaikhana_computer_think_seconds_count")
pooled = delta("chaikhana_thinking_cpu_seconds_count")
cpu_each = delta("chaikhana_thinking_cpu_seconds_sum") / pooled * 1000 if pooled else None
beside = report.get("computer_tables") or {}
cores = (c1 - c0) / 100 / span
print(f"| {n} | {load} | {beside.get('person_actions_per_second', 0):.1f} | {decisions / span:.1f} | "
      f"{cores:.2f} | {delta('chaikhana_thinking_shortened_total') / span:.1f} | {quantile(0.5)} | "
      f"{quantile(0.99)} | {'-' if cpu_each is None else f'{cpu_each:.1f} ms'} | {beside.get('errors', 0)} |")
PY
}

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores; $level $game computer tables, persons answering at once, $seconds s a run"
echo "| tables | load | persons' moves/s | decisions/s | server cores busy | shortened/s | wait p50 | wait p99 | CPU per decision | errors |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in $counts; do
  run "$n"
done
