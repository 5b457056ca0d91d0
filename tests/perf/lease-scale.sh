#!/bin/bash
# Many tables on one node, its Redis behind a proxy that holds every byte DELAY_MS each way: opens
# TABLES friends tables (nobody connects to them; CHAIKHANA_SLEEP_AFTER_SECS keeps them awake, holding
# their leases, for the whole run), waits SECONDS, and reports whether any lease was lost or any table
# rebuilt, with the lease round's time (chaikhana_lease_refresh_seconds). Usage:
#   tests/perf/lease-scale.sh [TABLES] [SECONDS] [DELAY_MS]
set -eu
tables=${1:-10000}
seconds=${2:-30}
delay=${3:-2}
here=$(dirname "$0")
cargo build -q --release
bin="${CARGO_TARGET_DIR:-target}/release/chaikhana"
trap 'kill $(jobs -p) 2> /dev/null' EXIT
redis-server --port 16389 --save "" --appendonly no > /dev/null &
python3 "$here/delay-proxy.py" 16388 16389 "$delay" &
sleep 0.5
CHAIKHANA_LISTEN=127.0.0.1:18089 CHAIKHANA_REDIS_URL=redis://127.0.0.1:16388 CHAIKHANA_TABLES_PER_MINUTE=0 \
  CHAIKHANA_SLEEP_AFTER_SECS=3600 CHAIKHANA_LOG_FILTER=warn \
  "$bin" serve > /dev/null 2>&1 &
sleep 1
python3 - "$tables" <<'PY'
import http.client, json, sys
from concurrent.futures import ThreadPoolExecutor
def open_some(n):
    conn = http.client.HTTPConnection("127.0.0.1", 18089)
    for _ in range(n):
        conn.request("POST", "/api/tables", json.dumps({"game": "panjpar", "opponents": "friends"}),
                     {"Content-Type": "application/json"})
        answer = conn.getresponse()
        answer.read()
        assert answer.status == 201, answer.status
tables = int(sys.argv[1])
with ThreadPoolExecutor(16) as pool:
    list(pool.map(open_some, [tables // 16 + (i < tables % 16) for i in range(16)]))
PY
echo "opened $tables tables; holding them ${seconds}s behind ${delay} ms each way"
before=$(curl -s http://127.0.0.1:18089/metrics)
sleep "$seconds"
after=$(curl -s http://127.0.0.1:18089/metrics)
metric() { echo "$1" | awk -v m="$2" '$1 == m { print $2 }'; }
for m in chaikhana_tables_lost_total chaikhana_tables_recovered_total chaikhana_redis_errors_total; do
  echo "$m: $(metric "$before" $m) -> $(metric "$after" $m)"
done
rounds=$(( $(metric "$after" chaikhana_lease_refresh_seconds_count) - $(metric "$before" chaikhana_lease_refresh_seconds_count) ))
spent=$(echo "$(metric "$after" chaikhana_lease_refresh_seconds_sum) - $(metric "$before" chaikhana_lease_refresh_seconds_sum)" | bc -l)
echo "lease rounds in ${seconds}s: $rounds, mean $(echo "$spent / $rounds * 1000" | bc -l | cut -c1-6) ms"
echo "$after" | grep '^chaikhana_lease_refresh_seconds_bucket'
echo "leases held in Redis: $(redis-cli -p 16389 eval "return #redis.call('KEYS', 'chaikhana:lease:*')" 0)"
