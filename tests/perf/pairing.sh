#!/bin/bash
# Quick pairing under a minute of arrivals (issue 59): VISITORS visitors arriving over SECONDS, each
# entering "Play a person now" and asking every 500 ms until seated (tests/perf/pairing.py, which
# checks that nobody was paired twice, lost, or left waiting beside a partner). Each setup on fresh
# processes on free ports: "redis", two nodes sharing a redis-server of their own (no persistence),
# the visitors arriving through each in turn; "alone", one node without Redis (its lobby in its own
# memory, its tables in its store on disk, in a fresh folder, as a node alone keeps them by default).
# unbounded.sh builds the release binaries (under $CARGO_TARGET_DIR if set) and lifts the limits per
# client address, which every visitor shares here (tables_per_minute, which entering the queue counts
# against, and http_connections_per_address among them). Prints the load average before each setup,
# pairing.py's summary, the CPU each process spent, and the nodes' warnings. Usage:
#   tests/perf/pairing.sh [VISITORS] [SECONDS] [SETUPS] [MIX...]
#   tests/perf/pairing.sh 2000 60 "redis alone" panjpar:1=4 ganjifa:3=1
set -eu
visitors=${1:-2000}
seconds=${2:-60}
setups=${3:-redis alone}
shift $(($# < 3 ? $# : 3))
mix=("${@:-panjpar:1=1}")
here=$(dirname "$0")
. "$here/unbounded.sh"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null || true; wait; rm -rf "$work"' EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# Waits up to 10 s for the command to succeed; otherwise says what did not start and stops.
ready() {
  for _ in $(seq 100); do
    if "$@" > /dev/null 2>&1; then return; fi
    sleep 0.1
  done
  echo "did not start: $names" >&2
  tail "$log" "$work/redis-server.log" >&2 2> /dev/null || true
  exit 1
}
# Starts a node on a free port with the settings given as NAME=value, its log in $log; sets $url once
# it answers /healthz, and adds it to $pids and $names.
node() {
  local port
  port=$(free_port)
  env "$@" CHAIKHANA_LISTEN="127.0.0.1:$port" "$bin" serve >> "$log" 2>&1 &
  pids="$pids $!" names="${names:+$names }node:$port" url="http://127.0.0.1:$port"
  ready curl -sf "$url/healthz"
}

failed=0
for setup in $setups; do
  pids="" names="" log="$work/$setup.log"
  : > "$log"
  case $setup in
    redis)
      port=$(free_port)
      redis-server --port "$port" --save "" --appendonly no > "$work/redis-server.log" &
      pids=$! names="redis:$port"
      ready redis-cli -p "$port" ping
      node CHAIKHANA_REDIS_URL="redis://127.0.0.1:$port"
      nodes=$url
      node CHAIKHANA_REDIS_URL="redis://127.0.0.1:$port"
      nodes="$nodes $url"
      ;;
    alone)
      node CHAIKHANA_DATA_DIR="$work/data"
      nodes=$url
      ;;
    *)
      echo "a setup is \"redis\" or \"alone\", not \"$setup\"" >&2
      exit 2
      ;;
  esac
  echo "== $setup: $names; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  # shellcheck disable=SC2086
  python3 "$here/pairing.py" --nodes $nodes --visitors "$visitors" --duration "$seconds" \
    --mix "${mix[@]}" || failed=1
  echo -n "CPU (user + system):"
  for pid in $pids; do
    awk '{printf " %.2f s", ($14 + $15) / 100}' "/proc/$pid/stat" 2> /dev/null || echo -n " (ended)"
  done
  echo " ($names); load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "the nodes' warnings: $(grep -c . "$log" || true)"
  head -n 5 "$log"
  # shellcheck disable=SC2086
  kill $pids 2> /dev/null || true
  # shellcheck disable=SC2086
  wait $pids 2> /dev/null || true
done
exit $failed
