#!/usr/bin/env bash
# Benchmark (not a test): the collective family's kernels (allreduce mesh and ring, reduce_scatter,
# allgather, all_to_all, barrier, and reduce, gather, scatter, a ring-shift permute) on the host runtime, as NCCL bus bandwidth over this machine's
# single-thread memcpy bandwidth measured in the same process, and latency in µs
# (docs/sim-performance.md, "The collective family").
#
#   benches/sim_family.sh [family_bench options, e.g. --ranks 4,8 --sizes-kib 1,1024,65536 --lanes 2P -v]
#
# Renders the f32 / sum kernels (and the barrier) with runtime/tests/render.sh, builds
# runtime/bench/family_bench.cpp with the runtime at g++ -O2 into $PLD_BENCH_BUILD
# (default target/pld-family-bench) and runs it: Markdown tables on stdout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${PLD_BENCH_BUILD:-$root/target/pld-family-bench}
cxx=${CXX:-g++}
ctmpl=$root/templates/pypto/runtime/builtins/collectives
render=$root/runtime/tests/render.sh
export PLD_DMA_EARLIEST=${PLD_DMA_EARLIEST:-1}  # transfers move at issue (docs/device.md)
flags=(-std=c++17 -O2 -pthread -Wall -Wextra -Werror -I"$root/runtime/include" -I"$root/runtime/include/device")
mkdir -p "$out"
"$render" "$ctmpl/allreduce/kernel.cpp.in" dtype_cpp=float reduce=sum >"$out/allreduce.cpp"
"$render" "$ctmpl/allreduce_ring/kernel.cpp.in" dtype_cpp=float reduce=sum >"$out/ring.cpp"
"$render" "$ctmpl/reduce_scatter/kernel.cpp.in" dtype_cpp=float reduce=sum >"$out/reduce_scatter.cpp"
"$render" "$ctmpl/allgather/kernel.cpp.in" dtype_cpp=float >"$out/allgather.cpp"
"$render" "$ctmpl/all_to_all/kernel.cpp.in" dtype_cpp=float >"$out/all_to_all.cpp"
"$render" "$ctmpl/barrier/kernel.cpp.in" dtype_cpp=int32_t >"$out/barrier.cpp"
# The vocabulary: root 0; permute as the ring shift r -> r + 1 mod P, one kernel per P in 2..16
# (its pairs name the ranks; entry pld_b_permute_p<P>).
"$render" "$ctmpl/reduce/kernel.cpp.in" dtype_cpp=float reduce=sum root=0 >"$out/reduce.cpp"
"$render" "$ctmpl/gather/kernel.cpp.in" dtype_cpp=float root=0 >"$out/gather.cpp"
"$render" "$ctmpl/scatter/kernel.cpp.in" dtype_cpp=float root=0 >"$out/scatter.cpp"
for p in $(seq 2 16); do
  pairs=$(for r in $(seq 0 $((p - 1))); do printf '%s%d:%d' "$([ "$r" -gt 0 ] && echo ,)" "$r" $(((r + 1) % p)); done)
  "$render" "$ctmpl/permute/kernel.cpp.in" dtype_cpp=float "pairs=$pairs" >"$out/permute_p$p.cpp"
done
pids=()
for k in allreduce ring reduce_scatter allgather all_to_all barrier reduce gather scatter $(seq -f 'permute_p%g' 2 16); do
  "$cxx" "${flags[@]}" -c "$out/$k.cpp" "-Dkernel_entry=pld_b_$k" -o "$out/$k.o" & pids+=($!)
done
"$cxx" "${flags[@]}" -c "$root/runtime/host/runtime.cpp" -o "$out/runtime.o" & pids+=($!)
"$cxx" "${flags[@]}" -c "$root/runtime/host/device.cpp" -o "$out/device.o" & pids+=($!)
"$cxx" "${flags[@]}" -c "$root/runtime/host/orchestration_api.cpp" -o "$out/orchestration_api.o" & pids+=($!)
"$cxx" "${flags[@]}" -c "$root/runtime/bench/family_bench.cpp" -o "$out/family_bench.o" & pids+=($!)
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
[ $rc -eq 0 ] || { echo "sim_family.sh: build failed" >&2; exit 1; }
"$cxx" "${flags[@]}" "$out"/*.o -o "$out/family_bench"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$out/family_bench" "$@"
echo "# done, load average $(cut -d' ' -f1-3 /proc/loadavg)"
