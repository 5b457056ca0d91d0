# Sourced by the measuring scripts: builds the release binaries and names them ($bin, and
# $bin-loadgen), lifts every limit of the server that a load run would hit, and ends every process the
# script started in the background when it ends.
cargo build -q --release
bin="${CARGO_TARGET_DIR:-target}/release/chaikhana"
export CHAIKHANA_RATE_PER_SECOND=1000000 CHAIKHANA_RATE_BURST=1000000 CHAIKHANA_SOCKETS_PER_ADDRESS=0 \
  CHAIKHANA_READ_BYTES_PER_SECOND=1000000000 CHAIKHANA_READ_BYTES_BURST=1000000000 CHAIKHANA_TABLES_PER_MINUTE=0 \
  CHAIKHANA_LOG_FILTER=warn
trap 'kill $(jobs -p) 2> /dev/null' EXIT
