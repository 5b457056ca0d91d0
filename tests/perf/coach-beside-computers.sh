#!/bin/bash
# The coach's benchmark: analyses of finished deals queued while strong computer tables play. For each
# game of GAMES, on a fresh release server each time (tables in memory, the default 800 ms move delay
# and 200 ms budget), the load generator plays COMPUTERS strong computer tables of that game, whose one
# person answers at once, for SECONDS: once alone, and once with ANALYSES analyses queued as play
# starts (standard computer tables of the same game, the shortest match, each played to the end of its
# first deal during the set-up, before the strong tables open; then every one asks `analyse` at once
# and is timed until its `analysis` frame). ROUNDS times, alone and with analyses alternated.
#
# Printed side by side for each run: the computers' moves at the strong tables as their persons saw
# them (p50 and p99, each from the view before it: the move delay, 800 ms when nothing held the
# computer back), the persons' moves a second and their round trips (p50 and p99, the person's move
# until the view of it, the computers' moves not included), the pool's wait before thinking a computer's move (p50 and p99, read from
# chaikhana_thinking_wait_seconds's buckets over the run), the strong computers' decisions a second,
# the pool's CPU time spent on them and on the coach (chaikhana_thinking_cpu_seconds by level), the
# studies thought (chaikhana_coach_studies_total), and for the analyses: how many finished, the
# first, p50, p99 and last time to finish, the decisions judged, and the errors.
#
# Usage:
#   tests/perf/coach-beside-computers.sh [COMPUTERS] [ANALYSES] [SECONDS] [GAMES] [ROUNDS]
#   (defaults: 30 100 60 "panjpar ganjifa" 1)
# An analysis not finished within ANALYSIS_TIMEOUT seconds (default: SECONDS) of its asking is
# counted as not finished (not an error): the strong tables play only SECONDS, so an analysis timed
# after them would no longer be one made beside them. Settings of the server under test can be given as CHAIKHANA_*
# variables.
set -eu
computers=${1:-30}
analyses=${2:-100}
seconds=${3:-60}
games=${4:-"panjpar ganjifa"}
rounds=${5:-1}
timeout=${ANALYSIS_TIMEOUT:-$seconds}
# The computers' level (LEVEL=clever: the strong computer held to a few sampled deals a move).
level=${LEVEL:-strong}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/unbounded.sh"
loadgen="$bin-loadgen"

port=18143
url=http://127.0.0.1:$port
out=$(mktemp)
trap 'kill $(jobs -p) 2> /dev/null || true; rm -f "$out" "$out.before" "$out.after"' EXIT

run() {
  local game=$1 with=$2
  CHAIKHANA_LISTEN=127.0.0.1:$port "$bin" serve > /dev/null 2>&1 &
  local server=$!
  until curl -sf "$url/healthz" > /dev/null; do sleep 0.1; done
  local load extra=()
  load=$(cut -d' ' -f1 /proc/loadavg)
  if [ "$with" -gt 0 ]; then
    extra=(--analyses "$with" --analyse-game "$game" --analysis-timeout "$timeout")
  fi
  # The metrics are read before the load generator starts: the deals to analyse are played with
  # standard computers, which think on the tables' threads and never on the pool, and the strong
  # tables open only once those deals have ended.
  thinking_metrics "$url" > "$out.before"
  "$loadgen" run --url "$url" --game "$game" --tables 0 --duration "$seconds" \
    --computer-tables "$computers" --computer-game "$game" --computer-level "$level" \
    "${extra[@]}" --server-pid $server --json > "$out"
  thinking_metrics "$url" > "$out.after"
  kill $server
  wait $server 2> /dev/null || true
  PYTHONPATH="$here" python3 - "$game" "$with" "$load" "$seconds" "$out" "$out.before" "$out.after" "$level" <<'PY'
import json, sys
from thinking_metrics import Between
game, with_, load, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
level = sys.argv[8]
report = json.loads(open(sys.argv[5]).read().strip().splitlines()[-1])
between = Between(sys.argv[6], sys.argv[7])
delta, wait_at = between.delta, between.wait_at
def ms(v):
    return "-" if v is None else f"{v:,.1f} ms"
def s(v):
    return "-" if v is None else f"{v:.1f} s"
beside = report.get("computer_tables") or {}
decisions = delta(f"chaikhana_thinking_cpu_seconds_count/{level}")
strong_cpu = delta(f"chaikhana_thinking_cpu_seconds_sum/{level}")
coach_cpu = delta("chaikhana_thinking_cpu_seconds_sum/coach")
studies = delta("chaikhana_coach_studies_total")
a = report.get("analyses")
if a:
    analysed = (f"{a['finished']} of {a['asked']} ({a['unfinished']} not by the timeout; prepared in {a['prepare_s']:.0f} s) | {s(a['first_s'])} | "
                f"{s(a['p50_s'])} | {s(a['p99_s'])} | {s(a['last_s'])} | {a['judged']:,} | {a['errors']}")
else:
    analysed = "- | - | - | - | - | - | -"
problems = "; ".join(p for p in (beside.get("first_problem"), a and a.get("first_problem")) if p)
print(f"| {game} | {with_} | {load} | {beside.get('computer_moves', 0):,} | "
      f"{ms(beside.get('computer_move_p50_ms'))} | {ms(beside.get('computer_move_p99_ms'))} | "
      f"{beside.get('person_actions_per_second', 0):.1f} | "
      f"{ms(beside.get('person_p50_ms'))} | {ms(beside.get('person_p99_ms'))} | {wait_at(0.5)} | "
      f"{wait_at(0.99)} | {decisions / seconds:.1f} | {strong_cpu:.1f} s / {coach_cpu:.1f} s | {studies:,.0f} | {beside.get('errors', 0)} | "
      f"{analysed} |" + (f" {problems}" if problems else ""))
PY
}

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores; $computers $level computer tables of each game, $seconds s a run; analyses of $analyses deals of the same game queued as play starts (timeout $timeout s)"
echo "| game | analyses | load | computers' moves timed | computer move p50 | p99 | persons' moves/s | person round trip p50 | p99 | pool wait p50 | p99 | strong decisions/s | pool CPU, strong / coach | studies | errors (strong tables) | analyses finished | first | p50 | p99 | last | decisions judged | errors (analyses) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for round in $(seq "$rounds"); do
  for game in $games; do
    for with in 0 "$analyses"; do
      run "$game" "$with"
    done
  done
done
