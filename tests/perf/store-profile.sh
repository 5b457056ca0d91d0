#!/bin/bash
# Where a move's CPU goes, on disk against in memory: the load generator plays Panjpar friends tables
# against a fresh server of each mode, and while it plays, perf samples the server with call graphs,
# perf counts its system calls, and /proc counts its context switches. For each mode it prints the
# throughput, the CPU per action, the share of the store's writer thread, the functions that cost the
# most per action (self time, µs), the system calls per action and the wake-ups (context switches) per
# action. Needs perf (apt install linux-perf). Usage:
#   tests/perf/store-profile.sh [TABLES] [MODES...]     (modes: disk memory unsynced; default disk memory)
set -eu
tables=${1:-100}
shift || true
modes=${*:-disk memory}
here=$(dirname "$0")
. "$here/unbounded.sh"
port=18099
url=http://127.0.0.1:$port
work=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null; rm -rf "$work"' EXIT
switches() { cat /proc/"$1"/task/*/status | awk '/ctxt_switches/ {s += $2} END {print s}'; }

for mode in $modes; do
  dir="" server_bin=$bin
  [ "$mode" != memory ] && dir="$work/data-$mode"
  if [ "$mode" = unsynced ]; then
    CARGO_TARGET_DIR=target/unsynced cargo build -q --release --bin chaikhana --features unsynced-store
    server_bin=target/unsynced/release/chaikhana
  fi
  CHAIKHANA_LISTEN=127.0.0.1:$port CHAIKHANA_DATA_DIR="$dir" "$server_bin" serve > /dev/null 2>&1 &
  server=$!
  until curl -sf "$url/healthz" > /dev/null; do sleep 0.1; done
  "$bin-loadgen" run --url "$url" --game panjpar --tables "$tables" --duration 14 --server-pid $server \
    --json > "$work/report" &
  loadgen=$!
  sleep 2
  s0=$(switches $server)
  perf record -q -F 999 -g -p $server -o "$work/perf.data" -- sleep 4 2> /dev/null
  s1=$(switches $server)
  calls=raw_syscalls:sys_enter
  for call in sendto recvfrom epoll_wait futex write pwrite64 fdatasync; do
    calls="$calls,syscalls:sys_enter_$call"
  done
  perf stat -x, -e "$calls" -p $server -o "$work/calls" -- sleep 3 2> /dev/null
  wait $loadgen
  kill $server; wait $server 2> /dev/null || true
  perf report -i "$work/perf.data" --no-children --sort comm,sym -q -g none --stdio -n 2> /dev/null \
    > "$work/symbols"
  python3 - "$mode" "$work/report" "$work/symbols" "$work/calls" "$s0" "$s1" <<'PY'
import json, sys
mode, report, symbols, trace = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
s0, s1 = int(sys.argv[5]), int(sys.argv[6])
r = json.loads(open(report).read().strip().splitlines()[-1])
rate = r["actions_per_second"]
# perf samples at 999 Hz for 4 s: one sample is about a millisecond of CPU.
per_action = lambda samples: samples / 999 / 4 / rate * 1e6
rows, writer = [], 0.0
for line in open(symbols):
    parts = line.split()
    if len(parts) < 4 or not parts[1].isdigit():
        continue
    samples, thread, symbol = int(parts[1]), parts[2], " ".join(parts[3:])
    if thread == "store-writer":
        writer += per_action(samples)
    rows.append((per_action(samples), thread, symbol[:110]))
total = sum(r[0] for r in rows)
print(f"== {mode}: {rate:,.0f} actions/s, p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms; "
      f"CPU per action {total:.1f} µs sampled ({r['server_cpu_us_per_action']:.1f} µs from /proc), "
      f"the store's writer {writer:.1f} µs; {(s1 - s0) / 4 / rate:.2f} context switches per action")
print("   µs/action  thread           function (self time)")
for cost, thread, symbol in sorted(rows, reverse=True)[:25]:
    print(f"   {cost:9.2f}  {thread:15.15}  {symbol}")
calls = []
for line in open(trace):
    parts = line.strip().split(",")
    if len(parts) > 2 and parts[0].isdigit():
        name = parts[2].split(":")[-1].removeprefix("sys_enter_").replace("sys_enter", "all")
        calls.append((int(parts[0]), name))
print("   system calls per action: " + ", ".join(f"{name} {n / 3 / rate:.2f}" for n, name in calls))
PY
done
