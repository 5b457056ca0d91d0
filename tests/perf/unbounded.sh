# Sourced by the measuring scripts: builds the release binaries and names them ($bin, and
# $bin-loadgen), lifts every limit of the server that a load run would hit, and ends every process the
# script started in the background when it ends. The servers keep their tables in memory only
# (CHAIKHANA_DATA_DIR empty), as every figure before 5 December was measured, unless the caller sets
# CHAIKHANA_DATA_DIR to a folder (the default, chaikhana-data, would be shared by every server the
# scripts start); tests/perf/store-cpu.sh measures what keeping them on disk costs.
cargo build -q --release
bin="${CARGO_TARGET_DIR:-target}/release/chaikhana"
export CHAIKHANA_RATE_PER_SECOND=1000000 CHAIKHANA_RATE_BURST=1000000 CHAIKHANA_SOCKETS_PER_ADDRESS=0 CHAIKHANA_HTTP_CONNECTIONS_PER_ADDRESS=0 \
  CHAIKHANA_READ_BYTES_PER_SECOND=1000000000 CHAIKHANA_READ_BYTES_BURST=1000000000 CHAIKHANA_TABLES_PER_MINUTE=0 CHAIKHANA_JOINS_PER_MINUTE=0 \
  CHAIKHANA_LOG_FILTER=warn CHAIKHANA_DATA_DIR="${CHAIKHANA_DATA_DIR-}"
trap 'kill $(jobs -p) 2> /dev/null' EXIT

# The thinking pool's figures from a server's /metrics at URL, as one line of JSON: every metric summed
# over its labels ("sums"; the CPU of its decisions also by level, as "name/level", the coach's level
# being "coach"), and the buckets of the wait before thinking ("wait", by their `le`); thinking_metrics.py
# reads it, and compares two readings for the scripts.
thinking_metrics() {
  curl -sf "$1/metrics" | python3 "$(dirname "${BASH_SOURCE[0]}")/thinking_metrics.py"
}
