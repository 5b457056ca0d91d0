#!/bin/bash
# A move's round trip on one node against across two nodes through Redis, in one load run: a node
# alone (no Redis) on :18091; a redis-server of its own on :16399; an `edge` node on :18092 whose tables
# live on a `tables` node on :18093. Every seat of the second half plays through the edge node, so every
# action and every view crosses Redis twice. Usage:
#   tests/perf/across-nodes.sh [GAME] [TABLES] [SECONDS]
set -eu
game=${1:-panjpar}
tables=${2:-50}
seconds=${3:-10}
. "$(dirname "$0")/unbounded.sh"
redis-server --port 16399 --save "" --appendonly no > /dev/null &
CHAIKHANA_LISTEN=127.0.0.1:18091 "$bin" serve > /dev/null 2>&1 &
sleep 0.5
CHAIKHANA_LISTEN=127.0.0.1:18093 CHAIKHANA_REDIS_URL=redis://127.0.0.1:16399 CHAIKHANA_ROLE=tables \
  "$bin" serve > /dev/null 2>&1 &
CHAIKHANA_LISTEN=127.0.0.1:18092 CHAIKHANA_REDIS_URL=redis://127.0.0.1:16399 CHAIKHANA_ROLE=edge \
  "$bin" serve > /dev/null 2>&1 &
sleep 1.5
"$bin-loadgen" run --url http://127.0.0.1:18091 --across http://127.0.0.1:18092 --game "$game" \
  --tables "$tables" --duration "$seconds"
