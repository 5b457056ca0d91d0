#!/bin/bash
# Issue 42's table: what strong computers thinking on a node cost the friends tables beside them. The
# load generator plays FRIENDS Panjpar friends tables as fast as the server answers, beside N computer
# tables of COMPUTER_GAME at the strong level whose one person answers at once (so their computers play,
# and think, all the time at the default move delay and budget), for each N of COUNTS; against the
# server built before the thinking pool and against this one, a fresh server each run, ROUNDS times,
# alternated. For each run: the load average at its start; the friends tables' actions a second, p50
# and p99 round trip, and the server's CPU per friends action (all of its CPU, the computers' thinking
# included, over the friends' actions); the computers' decisions a second (from
# chaikhana_computer_think_seconds_count, which both builds count); and on this build the decisions
# shortened a second, the p99 wait for a thinking thread and the queue at the end (from /metrics).
# Usage:
#   tests/perf/thinking-beside-friends.sh [FRIENDS] [SECONDS] [ROUNDS] [COUNTS] [COMPUTER_GAME]
#   (defaults: 50 10 1 "0 8 30" ganjifa)
# The build before: BEFORE_BIN=path/to/chaikhana, or else BEFORE_COMMIT (default: the parent of the
# commit that brought the thinking pool) is checked out in a worktree beside the repository and built
# there, in its own target folder. The load generator is this build's for both (it is a client; the
# computer tables need its --computer-tables). BUILDS="after" (or "before") runs one build alone; the
# settings of the server under test can be given as CHAIKHANA_* variables (CHAIKHANA_THINKING_NICE=5).
set -eu
builds=${BUILDS:-"before after"}
# COMPUTER_LEVEL=standard puts standard computers at the computer tables instead (they decide at once,
# on the tables' threads): what the tables and sockets themselves cost, without any thinking.
level=${COMPUTER_LEVEL:-strong}
friends=${1:-50}
seconds=${2:-10}
rounds=${3:-1}
counts=${4:-"0 8 30"}
computer_game=${5:-ganjifa}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/unbounded.sh"
after="$bin"
loadgen="$bin-loadgen"

if [ -z "${BEFORE_BIN-}" ] && [[ " $builds " == *" before "* ]]; then
  pool=$(git log --format=%H -1 --grep='The computers think on a pool of their own')
  commit=${BEFORE_COMMIT:-$(git rev-parse "$pool^")}
  tree="$(git rev-parse --show-toplevel)/../chaikhana-before-${commit:0:7}"
  [ -d "$tree" ] || git worktree add --detach "$tree" "$commit" > /dev/null
  (cd "$tree" && CARGO_TARGET_DIR="${BEFORE_TARGET_DIR:-$tree/target}" cargo build -q --release --bin chaikhana)
  BEFORE_BIN="${BEFORE_TARGET_DIR:-$tree/target}/release/chaikhana"
  echo "before: $commit ($BEFORE_BIN)"
fi

port=18142
url=http://127.0.0.1:$port
out=$(mktemp)
trap 'kill $(jobs -p) 2> /dev/null; rm -f "$out" "$out.before" "$out.after"' EXIT


run() {
  local build=$1 server_bin=$2 n=$3
  CHAIKHANA_LISTEN=127.0.0.1:$port "$server_bin" serve > /dev/null 2>&1 &
  local server=$!
  until curl -sf "$url/healthz" > /dev/null; do sleep 0.1; done
  local load t0 t1
  load=$(cut -d' ' -f1 /proc/loadavg)
  thinking_metrics "$url" > "$out.before"
  t0=$(date +%s.%N)
  "$loadgen" run --url "$url" --game panjpar --tables "$friends" --duration "$seconds" \
    --computer-tables "$n" --computer-game "$computer_game" --computer-level "$level" \
    --server-pid $server --json > "$out"
  t1=$(date +%s.%N)
  thinking_metrics "$url" > "$out.after"
  kill $server
  wait $server 2> /dev/null || true
  python3 - "$build" "$n" "$load" "$t0" "$t1" "$out" "$out.before" "$out.after" <<'PY'
import json, sys
build, n, load = sys.argv[1], int(sys.argv[2]), sys.argv[3]
t0, t1 = float(sys.argv[4]), float(sys.argv[5])
report = json.loads(open(sys.argv[6]).read().strip().splitlines()[-1])
before, after = (json.load(open(p)) for p in sys.argv[7:9])
span = t1 - t0
count = lambda m, name: m["sums"].get(name)
decisions = (count(after, "chaikhana_computer_think_seconds_count") or 0.0) - (
    count(before, "chaikhana_computer_think_seconds_count") or 0.0)
decisions /= span
def ms(v):
    return "-" if v is None else f"{v:.2f} ms"
shortened = wait_p99 = queue = "-"
if count(after, "chaikhana_thinking_shortened_total") is not None:
    shortened = count(after, "chaikhana_thinking_shortened_total") - count(
        before, "chaikhana_thinking_shortened_total")
    shortened = f"{shortened / span:.1f}"
    queue = f"{count(after, 'chaikhana_thinking_queue'):.0f}"
    # The p99 of the waits in this run, read from the buckets as histogram_quantile does.
    buckets = sorted(((float(le), after["wait"][le] - before["wait"].get(le, 0.0))
                      for le in after["wait"]), key=lambda b: b[0])
    total = buckets[-1][1] if buckets else 0
    if total > 0:
        rank, low, below = 0.99 * total, 0.0, 0.0
        for le, count in buckets:
            if count >= rank:
                if le == float("inf"):
                    wait_p99 = f"> {low:g} s"
                else:
                    wait_p99 = f"{(low + (le - low) * (rank - below) / max(count - below, 1e-9)) * 1000:.0f} ms"
                break
            low, below = le, count
beside = report.get("computer_tables") or {}
errors = report["errors"]
computer_errors = beside.get("errors", 0)
print(f"| {build} | {n} | {load} | {report['actions_per_second']:,.0f} | {ms(report['p50_ms'])} | "
      f"{ms(report['p99_ms'])} | {report['server_cpu_us_per_action']:.1f} µs | {decisions:.1f} | "
      f"{shortened} | {wait_p99} | {queue} | {errors} / {computer_errors} |")
PY
}

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores; $friends Panjpar friends tables, $seconds s a run, $level $computer_game computer tables beside them"
echo "| build | $level tables | load | friends actions/s | p50 | p99 | server CPU per friends action | decisions/s | shortened/s | wait p99 | queue at the end | errors (friends / computer tables) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for round in $(seq "$rounds"); do
  for n in $counts; do
    for build in $builds; do
      if [ "$build" = before ]; then run before "$BEFORE_BIN" "$n"; else run after "$after" "$n"; fi
    done
  done
done
