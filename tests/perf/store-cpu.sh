#!/bin/bash
# The embedded store's cost under load: the load generator plays Panjpar friends tables against a
# fresh server that keeps its tables on disk (CHAIKHANA_DATA_DIR, a new folder each run) and against one
# that keeps them in memory only (CHAIKHANA_DATA_DIR=""), ROUNDS times each, alternated. For each run:
# the load average at its start, throughput, p50/p99 and the server's CPU per action as the load
# generator reports them, the server's user and system CPU per action over the middle of the run (read
# from /proc) with the store's writer thread's share of it, and from /metrics the store's commits, the
# table changes per commit (chaikhana_store_changes_per_commit) and the commit time, fsync included
# (chaikhana_store_commit_seconds). With a fourth argument `unsynced`, a third server is run each round:
# the same on disk, built with the feature unsynced-store (in target/unsynced), whose commits skip the
# fsync, to split the disk's share of the cost from the CPU's; it is for measuring only. Usage:
#   tests/perf/store-cpu.sh [TABLES] [SECONDS] [ROUNDS] [unsynced]
set -eu
tables=${1:-100}
seconds=${2:-10}
rounds=${3:-3}
unsynced=${4:-}
here=$(dirname "$0")
. "$here/unbounded.sh"
port=18098
url=http://127.0.0.1:$port
out=$(mktemp)
data=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null; rm -rf "$data" "$out"' EXIT
cpu_times() { awk '{printf "%d %d ", $14, $15}' "/proc/$1/stat"; }
# The store's writer thread (named store-writer), if the server has one.
writer_of() {
  for task in /proc/$1/task/*; do
    [ "$(cat "$task/comm")" = store-writer ] && { echo "$1/task/${task##*/}"; return; }
  done
  echo ""
}

if [ "$unsynced" = unsynced ]; then
  CARGO_TARGET_DIR=target/unsynced cargo build -q --release --bin chaikhana --features unsynced-store
fi

run() {
  local mode=$1 dir="" server_bin=$bin
  if [ "$mode" != memory ]; then dir="$data/run-$mode-$2"; fi
  if [ "$mode" = unsynced ]; then server_bin=target/unsynced/release/chaikhana; fi
  CHAIKHANA_LISTEN=127.0.0.1:$port CHAIKHANA_DATA_DIR="$dir" "$server_bin" serve > /dev/null 2>&1 &
  local server=$!
  until curl -sf "$url/healthz" > /dev/null; do sleep 0.1; done
  local load writer before after t0 t1 wb="0 0" wa="0 0"
  load=$(cut -d' ' -f1 /proc/loadavg)
  writer=$(writer_of $server)
  "$bin-loadgen" run --url "$url" --game panjpar --tables "$tables" --duration "$seconds" \
    --server-pid $server --json > "$out" &
  local loadgen=$!
  sleep 2.5
  before=$(cpu_times $server); [ -n "$writer" ] && wb=$(cpu_times "$writer")
  t0=$(date +%s.%N)
  sleep $((seconds - 4))
  after=$(cpu_times $server); [ -n "$writer" ] && wa=$(cpu_times "$writer")
  t1=$(date +%s.%N)
  wait $loadgen
  local commits changes commit
  commits=$(python3 "$here/tables.py" metric --url "$url" chaikhana_store_commits_total | cut -d' ' -f2)
  changes=$(python3 "$here/tables.py" histogram --url "$url" chaikhana_store_changes_per_commit)
  commit=$(python3 "$here/tables.py" histogram --url "$url" chaikhana_store_commit_seconds)
  kill $server
  wait $server 2> /dev/null || true
  python3 - "$mode" "$load" "$before" "$after" "$wb" "$wa" "$t0" "$t1" "$out" "$commits" "$changes" "$commit" <<'PY'
import json, sys
mode, load = sys.argv[1], sys.argv[2]
before, after, wb, wa = (list(map(int, a.split())) for a in sys.argv[3:7])
t0, t1 = float(sys.argv[7]), float(sys.argv[8])
report = json.loads(open(sys.argv[9]).read().strip().splitlines()[-1])
commits, changes, commit = int(sys.argv[10]), json.loads(sys.argv[11]), json.loads(sys.argv[12])
rate = report["actions_per_second"]
per = lambda b, a: (a - b) / 100 / (t1 - t0) / rate * 1e6
user, system = per(before[0], after[0]), per(before[1], after[1])
writer = per(wb[0], wa[0]) + per(wb[1], wa[1])
line = (f"{mode:8} load {load:>5}: {rate:,.0f} actions/s, p50 {report['p50_ms']:.2f} ms, "
        f"p99 {report['p99_ms']:.2f} ms, errors {report['errors']}; server CPU per action "
        f"{report['server_cpu_us_per_action']:.1f} µs (middle: user {user:.1f} + system {system:.1f}"
        f" = {user + system:.1f}, of which the store's writer {writer:.1f})")
if commits:
    line += (f"; {commits:,} commits, {changes['mean']:.1f} changes per commit (p50 {changes['p50']:.1f},"
             f" p99 {changes['p99']:.1f}), commit mean {commit['mean'] * 1e3:.2f} ms, p50 "
             f"{commit['p50'] * 1e3:.2f} ms, p99 {commit['p99'] * 1e3:.2f} ms")
print(line, flush=True)
PY
}

for round in $(seq "$rounds"); do
  run disk "$round"
  run memory "$round"
  if [ "$unsynced" = unsynced ]; then run unsynced "$round"; fi
done
