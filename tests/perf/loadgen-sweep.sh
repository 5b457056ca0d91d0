#!/bin/bash
# Throughput and p99 as tables grow: starts a release server, runs `chaikhana-loadgen run` at each
# table count and prints one line per run: tables, then the load generator's JSON. The tables are kept
# in memory only unless CHAIKHANA_DATA_DIR names a folder (see unbounded.sh). Usage:
#   tests/perf/loadgen-sweep.sh panjpar 10 20 50 100 200 400 > sweep.txt
#   python3 tests/perf/loadgen-graph.py sweep.txt > tests/perf/loadgen-panjpar.svg
set -eu
game=$1
shift
cargo build -q --release
bin="${CARGO_TARGET_DIR:-target}/release/chaikhana"
CHAIKHANA_LISTEN=127.0.0.1:18090 CHAIKHANA_RATE_PER_SECOND=1000000 CHAIKHANA_RATE_BURST=1000000 CHAIKHANA_SOCKETS_PER_ADDRESS=0 CHAIKHANA_HTTP_CONNECTIONS_PER_ADDRESS=0 \
  CHAIKHANA_READ_BYTES_PER_SECOND=1000000000 CHAIKHANA_READ_BYTES_BURST=1000000000 CHAIKHANA_TABLES_PER_MINUTE=0 \
  CHAIKHANA_DATA_DIR="${CHAIKHANA_DATA_DIR-}" CHAIKHANA_LOG_FILTER=warn "$bin" serve > /dev/null 2>&1 &
server=$!
trap 'kill $server' EXIT
sleep 1
for tables in "$@"; do
  echo "$tables $("$bin-loadgen" run --url http://127.0.0.1:18090 --game "$game" --tables "$tables" \
    --duration 5 --server-pid "$server" --json)"
done
