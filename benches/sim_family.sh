#!/usr/bin/env bash
# Benchmark (not a test): the collective family's kernels (allreduce mesh and ring, reduce_scatter,
# allgather, all_to_all, barrier, and reduce, gather, scatter, a ring-shift permute), each op's
# generated family program built and run by the engine as a pld-sim case is (`pld-sim --bench
# --family`), as NCCL bus bandwidth over this machine's single-thread memcpy bandwidth measured by
# the engine before each run, and latency in µs (docs/sim-performance.md, "The collective family").
#
#   benches/sim_family.sh [pld-sim --bench --family options, e.g. --ranks 4,8 --sizes-kib 1,1024,65536 --lanes 2P -v]
#
# Every run is restaged as the first; the last run of each configuration must match the family
# golden (exit 1 otherwise). The engine is built with g++ -O2 (target/pld-sim-cache); the Rust
# tools only generate it and check the result, so their debug builds are used.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLD_DMA_EARLIEST=${PLD_DMA_EARLIEST:-1}  # transfers move at issue (docs/device.md)
cargo build --quiet --bin pld-opt --bin pld-translate --bin pld-sim
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), load average $(cut -d' ' -f1-3 /proc/loadavg)"
# Ranks as threads, as the C++ harness that measured the older tables ran them
# (PLD_SIM_RANKS_AS=processes for pld-sim's default).
PLD_SIM_RANKS_AS=${PLD_SIM_RANKS_AS:-threads} target/debug/pld-sim --bench --family "$@"
echo "# done, load average $(cut -d' ' -f1-3 /proc/loadavg)"
