#!/bin/sh
# A soak: one release server, the load generator playing all three games on many friends tables at once
# for MINUTES minutes, the server's resident memory sampled at the start, after a minute of warm-up and at
# the end, and the metrics read once the load has stopped and the tables' idle time has passed (every
# table and socket should be gone: none leaked).
#   CARGO_TARGET_DIR=... tests/perf/soak.sh MINUTES TABLES_PER_GAME
set -eu
minutes=${1:-30}
tables=${2:-10}
bin="${CARGO_TARGET_DIR:-target}/release/chaikhana"
port=18190
CHAIKHANA_LISTEN=127.0.0.1:$port CHAIKHANA_RATE_PER_SECOND=1000000 CHAIKHANA_RATE_BURST=1000000 CHAIKHANA_SOCKETS_PER_ADDRESS=0 \
  CHAIKHANA_READ_BYTES_PER_SECOND=1000000000 CHAIKHANA_READ_BYTES_BURST=1000000000 \
  CHAIKHANA_TABLES_PER_MINUTE=0 CHAIKHANA_IDLE_EXPIRY_SECS=5 CHAIKHANA_SEAT_HOLD_SECS=2 \
  CHAIKHANA_LOG_FILTER=warn "$bin" serve > /tmp/soak-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
sleep 1
rss() { awk '/VmRSS/ {print $2}' /proc/$server/status; }
metric() { curl -s http://127.0.0.1:$port/metrics | awk -v m="$1" '$1 ~ "^"m"($|[{])" {s += $2} END {print s + 0}'; }
echo "rss_start_kib $(rss)"
seconds=$((minutes * 60))
for game in panjpar pishe-pasha ganjifa; do
  nice -n 5 "$bin-loadgen" run --url http://127.0.0.1:$port --game $game --tables "$tables" --threads 1 \
    --duration $seconds --seed 7 --json > /tmp/soak-$game.json 2>/tmp/soak-$game.err &
done
sleep 60
echo "rss_warm_kib $(rss)"
echo "tables_active_warm $(metric chaikhana_tables_active)"
echo "connections_open_warm $(metric chaikhana_ws_connections_open)"
wait_for_loadgen() { while pgrep -P $$ -f "chaikhana-loadgen" > /dev/null; do sleep 5; done; }
wait_for_loadgen
echo "rss_end_of_load_kib $(rss)"
sleep 15
echo "rss_after_idle_kib $(rss)"
echo "tables_active_after $(metric chaikhana_tables_active)"
echo "connections_open_after $(metric chaikhana_ws_connections_open)"
echo "matches_finished $(metric chaikhana_matches_finished_total)"
echo "actions_accepted $(metric chaikhana_actions_accepted_total)"
echo "server_alive $(kill -0 $server && echo yes || echo no)"
grep -ci "panic" /tmp/soak-server.log | sed 's/^/server_log_panics /'
for game in panjpar pishe-pasha ganjifa; do echo "$game $(cat /tmp/soak-$game.json)"; done
