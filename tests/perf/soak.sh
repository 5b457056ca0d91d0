#!/bin/sh
# A soak: one release server, the load generator playing all three games on many friends tables at once
# for MINUTES minutes, the server's resident memory sampled at the start, after a minute of warm-up and at
# the end, and the metrics read once the load has stopped and the tables' time to sleep has passed
# (every table should have left memory for the store, its record kept on disk, and every socket be
# gone: none leaked). The tables are kept in a store of their own, in a new folder, as the one-binary
# default keeps them.
#   CARGO_TARGET_DIR=... tests/perf/soak.sh MINUTES TABLES_PER_GAME
set -eu
minutes=${1:-30}
tables=${2:-10}
bin="${CARGO_TARGET_DIR:-target}/release/chaikhana"
port=18190
data=$(mktemp -d)
CHAIKHANA_LISTEN=127.0.0.1:$port CHAIKHANA_RATE_PER_SECOND=1000000 CHAIKHANA_RATE_BURST=1000000 CHAIKHANA_SOCKETS_PER_ADDRESS=0 CHAIKHANA_HTTP_CONNECTIONS_PER_ADDRESS=0 \
  CHAIKHANA_READ_BYTES_PER_SECOND=1000000000 CHAIKHANA_READ_BYTES_BURST=1000000000 \
  CHAIKHANA_TABLES_PER_MINUTE=0 CHAIKHANA_DATA_DIR="$data" CHAIKHANA_SLEEP_AFTER_SECS=5 \
  CHAIKHANA_LOG_FILTER=warn "$bin" serve > /tmp/soak-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; sleep 0.5; rm -rf "$data"' EXIT
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
echo "tables_slept $(metric chaikhana_tables_slept_total)"
echo "store_commits $(metric chaikhana_store_commits_total)"
echo "store_errors $(metric chaikhana_store_errors_total)"
echo "store_bytes $(stat -c %s "$data/tables.redb")"
echo "matches_finished $(metric chaikhana_matches_finished_total)"
echo "actions_accepted $(metric chaikhana_actions_accepted_total)"
echo "server_alive $(kill -0 $server && echo yes || echo no)"
grep -ci "panic" /tmp/soak-server.log | sed 's/^/server_log_panics /'
for game in panjpar pishe-pasha ganjifa; do echo "$game $(cat /tmp/soak-$game.json)"; done
