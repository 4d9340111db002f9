#!/usr/bin/env bash
# Benchmark (not a test): all_to_all_v exchange throughput of the generated kernel and
# orchestration on the host runtime, at 64 MiB per rank for P = 4 and 8, as a ratio to this
# machine's single-thread memcpy bandwidth measured in the same run (docs/sim-performance.md).
#
#   benches/sim_exchange.sh [pld-sim --bench options, e.g. --ranks 4,8 --mib 64 --core-num 16 --iters 9]
#   benches/sim_exchange.sh --indexed [options]   # the indexed op (random index) / the plain op
#
# The simulator binary is always built with g++ -O2 (target/pld-sim-cache); the Rust tools only
# generate it, so their debug builds are used.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --bin pld-opt --bin pld-translate --bin pld-sim
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ $# -eq 0 ]; then
  set -- --ranks 4,8 --mib 64 --iters 9
elif [ $# -eq 1 ] && [ "$1" = --indexed ]; then
  set -- --indexed --ranks 4,8 --mib 64 --iters 5
fi
exec target/debug/pld-sim --bench "$@"
