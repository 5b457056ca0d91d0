#!/bin/bash
# The memory that WebSocket messages left half-sent hold, and what the server keeps of it once their
# sockets have gone. SOCKETS sockets (four at each of SOCKETS/4 Panjpar computer tables) each send
# BYTES of a text message in 1 KiB fragments and never its last; the server's resident memory
# (VmRSS) is read two seconds after each phase of `tables.py half-sent`: empty; "baseline", the
# tables open and every socket opened and closed once (what the tables and the sockets' coming and
# going leave); "open", the sockets open again; "half", each holding its unfinished message;
# "finished", each message finished by its last fragment (and refused as too long), the sockets still
# open; "closed", every socket closed, read 2 and 12 seconds after. "finished" should come back near
# "open", and the last near the baseline (mimalloc gives memory back a second after it was freed, once
# asked; see src/memory.rs).
# Usage:
#   tests/perf/half-sent-memory.sh [SOCKETS] [BYTES]
set -eu
sockets=${1:-600}
bytes=${2:-31744}
here=$(dirname "$0")
. "$here/unbounded.sh"
port=18098
url=http://127.0.0.1:$port
marks=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null; sleep 0.5; rm -rf "$marks"' EXIT
# Every socket at one of its tables' seat: four a seat, and enough silence allowed for the phases.
CHAIKHANA_LISTEN=127.0.0.1:$port CHAIKHANA_SILENCE_TIMEOUT_SECS=60 "$bin" serve > /dev/null 2>&1 &
server=$!
until curl -sf "$url/healthz" > /dev/null; do sleep 0.1; done
sleep 2
rss() { awk '/VmRSS/ {print $2}' /proc/$server/status; }
echo "empty: $(rss) KiB resident"
python3 "$here/tables.py" half-sent --url "$url" --sockets "$sockets" --bytes "$bytes" --marks "$marks" &
client=$!
for phase in baseline open half finished closed; do
  until [ -e "$marks/$phase" ]; do sleep 0.1; done
  sleep 2
  echo "$phase: $(rss) KiB resident"
done
sleep 10
echo "closed, 12 s after: $(rss) KiB resident"
wait $client
