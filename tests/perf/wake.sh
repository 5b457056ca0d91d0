#!/bin/bash
# How long a sleeping table takes to wake. A server keeping its tables on disk (a new folder) with
# CHAIKHANA_SLEEP_AFTER_SECS=1 and the computers answering at once (CHAIKHANA_BOT_DELAY_MS=0); TABLES
# Panjpar computer tables are opened, MOVES of their seat's moves played at each (the tables are left
# mid-deal, their records holding the deal's actions), their sockets closed; once every table has
# slept (chaikhana_tables_slept_total, and /readyz counting none in memory), each is woken by its seat
# connecting again, one at a time, then, once they have all slept again, CONCURRENCY at a time. Each
# round prints the client's time to the upgrade (the server finds the table, waking it) and to the
# first view, and the server's own chaikhana_wake_seconds over the round (record read and table
# rebuilt). Usage:
#   tests/perf/wake.sh [TABLES] [MOVES] [CONCURRENCY]
set -eu
tables=${1:-1000}
moves=${2:-10}
concurrency=${3:-50}
here=$(dirname "$0")
. "$here/unbounded.sh"
port=18097
url=http://127.0.0.1:$port
data=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null; sleep 0.5; rm -rf "$data"' EXIT
CHAIKHANA_LISTEN=127.0.0.1:$port CHAIKHANA_DATA_DIR="$data/store" CHAIKHANA_SLEEP_AFTER_SECS=1 \
  CHAIKHANA_BOT_DELAY_MS=0 "$bin" serve > /dev/null 2>&1 &
server=$!
until curl -sf "$url/healthz" > /dev/null; do sleep 0.1; done
tool() { python3 "$here/tables.py" "$@"; }
echo "opening $tables tables, $moves moves each (load average $(cut -d' ' -f1-3 /proc/loadavg))"
tool open --url "$url" --tables "$tables" --moves "$moves" --out "$data/tokens"
tool wait-asleep --url "$url" --slept "$tables"
echo "store: $(stat -c %s "$data/store/tables.redb") bytes for $tables tables"
echo "server resident memory with every table asleep: $(awk '/VmRSS/ {print $2}' /proc/$server/status) KiB"
echo "one at a time (load average $(cut -d' ' -f1-3 /proc/loadavg)):"
tool wake --url "$url" --file "$data/tokens" --concurrency 1
tool wait-asleep --url "$url" --slept $((2 * tables))
echo "$concurrency at a time (load average $(cut -d' ' -f1-3 /proc/loadavg)):"
tool wake --url "$url" --file "$data/tokens" --concurrency "$concurrency"
tool wait-asleep --url "$url" --slept $((3 * tables))
echo "server: $(tool metric --url "$url" chaikhana_tables_woken_total chaikhana_store_errors_total | tr '\n' ' ')"
