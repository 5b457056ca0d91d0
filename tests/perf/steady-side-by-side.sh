#!/bin/bash
# Colyseus and this server under the peers' Node client, as `side_by_side.sh` runs them (100 tables,
# PAD=700), but with each server's user and system CPU read from /proc over the middle 6 s of a 10 s
# run, so neither the set-up nor the play before and after the client's timed window is counted, and
# the kernel's part of an action shows apart. PEERS is a copy of ../shared/peers with its npm packages
# installed and its client asking for the next deal from every seat (see "Side by side with Colyseus"
# in README.md). Usage:
#   tests/perf/steady-side-by-side.sh PEERS [ROUNDS] [TABLES]
set -eu
peers=$1/colyseus
rounds=${2:-3}
tables=${3:-100}
. "$(dirname "$0")/unbounded.sh"
export CHAIKHANA_SHUFFLE_WAIT_MS=0
cpu_times() { awk '{printf "%d %d", $14, $15}' "/proc/$1/stat"; }
out=$(mktemp)

# Runs the client $2 against the server $1 (named $3) and prints its steady state.
measure() {
  node "$peers/$2" "$4" "$tables" 10 > "$out" 2> /dev/null &
  local load=$!
  sleep 3
  local before after t0 t1
  before=$(cpu_times "$1"); t0=$(date +%s.%N)
  sleep 6
  after=$(cpu_times "$1"); t1=$(date +%s.%N)
  wait $load
  python3 - "$3" "$before" "$after" "$t0" "$t1" "$out" <<'PY'
import json, sys
name, t0, t1 = sys.argv[1], float(sys.argv[4]), float(sys.argv[5])
(user0, sys0), (user1, sys1) = (map(int, a.split()) for a in sys.argv[2:4])
report = next(json.loads(l) for l in open(sys.argv[6]) if l.startswith("{"))
rate = report["actions_per_second"]
per = lambda ticks: ticks / 100 / (t1 - t0) / rate * 1e6
user, system = per(user1 - user0), per(sys1 - sys0)
print(f"{name:9} {rate:6,} actions/s, p99 {report['p99_ms']:.2f} ms, {report['errors']} errors; "
      f"µs per action: user {user:.1f}, system {system:.1f}, all {user + system:.1f}")
PY
}

PAD=700 node "$peers/server.js" 18096 > /dev/null 2>&1 &
colyseus=$!
CHAIKHANA_LISTEN=127.0.0.1:18097 "$bin" serve > /dev/null 2>&1 &
server=$!
sleep 2
for _ in $(seq "$rounds"); do
  measure $colyseus load.js colyseus ws://127.0.0.1:18096
  measure $server chaikhana_load.js chaikhana http://127.0.0.1:18097
done
rm -f "$out"
