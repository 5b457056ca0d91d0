#!/bin/bash
# The memory of sleeping tables against awake ones, and the store's bytes per table. TABLES Panjpar
# computer tables, MOVES of their seat's moves played at each (left mid-deal), their sockets closed;
# the server's resident memory (VmRSS) is read once /readyz counts what is expected and two seconds
# have passed:
#   1. a server keeping its tables on disk, CHAIKHANA_SLEEP_AFTER_SECS=3600: empty, then with every
#      table awake in memory; stopped with SIGTERM, the store file's size / TABLES;
#   2. a fresh server on that same store (the tables asleep in it, never loaded); then every table
#      woken by its seat (and left awake);
#   3. a server keeping tables in memory only (CHAIKHANA_DATA_DIR=""): empty, then with every table;
#   4. a server on a new store with CHAIKHANA_SLEEP_AFTER_SECS=1: the tables opened, then once all
#      have slept (what the process keeps of tables that went to sleep in it).
# Usage:
#   tests/perf/sleeping-memory.sh [TABLES] [MOVES]
set -eu
tables=${1:-10000}
moves=${2:-10}
here=$(dirname "$0")
. "$here/unbounded.sh"
port=18099
url=http://127.0.0.1:$port
data=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null; sleep 0.5; rm -rf "$data"' EXIT
tool() { python3 "$here/tables.py" "$@"; }
rss() { awk '/VmRSS/ {print $2}' /proc/$server/status; }
in_memory() { curl -s "$url/readyz" | python3 -c 'import json, sys; print(json.load(sys.stdin)["tables"])'; }
start() {
  CHAIKHANA_LISTEN=127.0.0.1:$port CHAIKHANA_BOT_DELAY_MS=0 "$@" "$bin" serve > /dev/null 2>&1 &
  server=$!
  until curl -sf "$url/healthz" > /dev/null; do sleep 0.1; done
  sleep 2
}
stop() { kill $server; wait $server 2> /dev/null || true; }
say() { echo "$1: $(rss) KiB resident, $(in_memory) tables in memory, $(tool metric --url "$url" chaikhana_tables_asleep | cut -d' ' -f2) asleep (load average $(cut -d' ' -f1 /proc/loadavg))"; }

echo "1. on disk, awake"
start env CHAIKHANA_DATA_DIR="$data/kept" CHAIKHANA_SLEEP_AFTER_SECS=3600
say "  empty"
tool open --url "$url" --tables "$tables" --moves "$moves" --out "$data/tokens"
sleep 2
say "  $tables tables awake"
stop
echo "  store: $(stat -c %s "$data/kept/tables.redb") bytes, $(($(stat -c %s "$data/kept/tables.redb") / tables)) per table"

echo "2. the same store in a fresh process"
start env CHAIKHANA_DATA_DIR="$data/kept" CHAIKHANA_SLEEP_AFTER_SECS=3600
say "  $tables tables asleep, never loaded"
tool wake --url "$url" --file "$data/tokens" --concurrency 20 > "$data/woken"
sleep 2
say "  every table woken ($(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["errors"], "errors")' "$data/woken"))"
stop

echo "3. in memory only"
start env CHAIKHANA_DATA_DIR=""
say "  empty"
tool open --url "$url" --tables "$tables" --moves "$moves" --out "$data/tokens-memory"
sleep 2
say "  $tables tables"
stop

echo "4. on disk, the tables going to sleep in the process"
start env CHAIKHANA_DATA_DIR="$data/slept" CHAIKHANA_SLEEP_AFTER_SECS=1
say "  empty"
tool open --url "$url" --tables "$tables" --moves "$moves" --out "$data/tokens-slept"
tool wait-asleep --url "$url" --slept "$tables" --timeout 600
sleep 2
say "  $tables tables slept"
stop
