#!/usr/bin/env bash
# mutants.sh: evidence that the suite can fail. Each mutant breaks one rule of the all_to_all_v,
# the indexed_all_to_all_v or a collective-family protocol in a copy of that kernel template; the
# suite must fail on every one. Every mutant runs the simulator's CI slice of its op
# (target/debug/pld-sim, needs `cargo build`, rendering the mutated template through
# PLD_DEV_TEMPLATE_DIR; the all_to_all_v ops with their copy trace, docs/sim.md), whose raw
# launches reach what no program pld-opt accepts can (more than 16 ranks, S < B, other widths and
# layouts). Exit 0 iff every mutant was caught. `mutants.sh indexed` (or `plain`, `family`, `order`) runs only those mutants; `order`
# are the device-order mutants, each dropping a barrier, a dsb or a flag (a prelude mutant runs
# against the slices of every op named `all...`, folding and pushing kernels alike).
# A second argument keeps only the mutants whose entry contains it (`mutants.sh order 'void end'`).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
plain=templates/pypto/runtime/builtins/collectives/all_to_all_v/kernel.cpp.in
indexed=templates/pypto/runtime/builtins/collectives/indexed_all_to_all_v/kernel.cpp.in
plain_mutants=(
  's/return count > max_recv ? max_recv : count;/return count > max_recv + 1 ? max_recv + 1 : count;/'   # clamp above MAX_RECV
  's/  if (count <= 0) return 0;/  if (count <= 0) return count == 0 ? 0 : 1;/'                            # negative count sends a row
  's/    if (lane == 0) {/    if (true) {/'                                                               # every lane stores recv_counts
  's/  const int64_t active = blocks < stride ? blocks : stride;/  const int64_t active = blocks;/'      # ignores S
  's/^  pld_dev::wait_peers(ctx, sig, stride, b, 1);/  (void)0;/'                                         # no barrier-A wait
  's/^  pld_dev::wait_peers(ctx, sig, stride, b, 2);/  (void)0;/'                                         # no barrier-B wait
  's/pld_dev::notify(sig + p \* stride + b, -2)/pld_dev::notify(sig + p * stride + b, -1)/'               # epilogue leaves credit
  's/nranks > kMaxRanks || //'                                                                            # runs with rankNum > 16
  's/pld_dev::put(pld_dev::peer(ctx, tgt + me \* chunk + s.begin/pld_dev::put(pld_dev::peer(ctx, tgt + me * chunk + s.begin + (s.begin > 0)/'  # off-by-one slice
)
indexed_mutants=(
  's/    const int64_t r = index\[pos\];/    const int64_t r = pos;/'                                               # drops the index (plain layout)
  's/    const int64_t end = begin + per < rows ? begin + per : rows;/    const int64_t end = begin + per + 1 < rows ? begin + per + 1 : rows;/'  # off-by-one local split
  's/    if (p != me) pld_dev::notify(sig + p \* stride + b, p % active == b ? -3 : -2);/    (void)p;/'          # skips the epilogue
  's/    return r >= 0 \&\& r < input_rows ? r : -1;/    return r >= 0 \&\& r <= input_rows ? r : -1;/'   # reads one row past the input
  's/^    TSTORE(g, \*zeros);/    (void)g;/'                                                                  # out-of-range rows not zeroed
  's/  if (b == z) {/  if (true) {/'                                                                          # every block receives (counts, zeros, A')
  's/^    pld_dev::wait_ge(sig + d \* stride + b, 2);/    (void)0;/'                                              # writes before the receiver zeroed
  's/d \* max_recv, 0, rows, false);/d * max_recv, 0, rows, true);/'                                              # stores zeros into a peer
  's/    if (d == me) continue;/    if (d == me \&\& false) continue;/'                                            # local chunk also written by its "writer"
  's/^  pld_dev::wait_peers(ctx, sig, stride, b, 1);/  (void)0;/'                                              # no barrier-A wait
)
fam=templates/pypto/runtime/builtins/collectives
prelude=$fam/device_prelude.inc
# The device's order (docs/device.md): each drops a barrier, a dsb or a flag that guards a
# transfer; pld's runtime must report the violation (or the data must come out wrong).
order_mutants=(
  "$plain|s/^  pld_dev::publish();/  (void)0;/"                       # no barrier before barrier B
  "$plain|s/^      pipe_barrier(PIPE_ALL);/      (void)0;/"           # count read before its TGET completed
  "$indexed|s/^  pld_dev::publish();/  (void)0;/"                     # no barrier before barrier B
  "$indexed|s/^  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);/  (void)0;/"  # zero tile stored before it is filled
  "$prelude|/^__aicore__ inline void publish() {/,/^}/s/^  pipe_barrier(PIPE_ALL);/  (void)0;/"  # publish completes nothing
  "$prelude|/^__aicore__ inline void publish() {/,/^}/s/^  dsb(DSB_DDR);/  (void)0;/"              # publish orders nothing
  "$prelude|s/^  __aicore__ void end() { pipe_barrier(PIPE_ALL); }/  __aicore__ void end() {}/"       # fold tiles reused in flight
  "$prelude|/^  __aicore__ void next(/,/^  }/s/^    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);/    (void)0;/"  # folds a tile before its TLOAD completed
  "$prelude|/^__aicore__ inline void fetch(/,/^}/s/^  pipe_barrier(PIPE_ALL);/  (void)0;/"  # loads a fetched tile before its TGET landed
  "$prelude|/^  __aicore__ void hold(/,/^  }/s/^    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);/    (void)0;/"  # a fetch lands over the own tile before it is held
  "$prelude|/^  __aicore__ void store_everywhere(/,/^  }/s/^    pipe_barrier(PIPE_ALL);/    (void)0;/"  # pushes the result before its TSTORE landed
)
family_mutants=(
  "$fam/allreduce/kernel.cpp.in|s/fold.store_everywhere(ctx, tgt + off);/fold.store(tgt + off);/"  # the result stays on its owner
  "$prelude|/^  __aicore__ void pull(/,/^  }/s/fetch(local, peer(ctx, local, q), len);/fetch(local, peer(ctx, local, (q + 1) % nranks), len);/"  # folds the wrong ranks
  "$fam/reduce_scatter/kernel.cpp.in|s/^  pld_dev::wait_peers(ctx, sig, stride, b, 2);/  (void)0;/"  # no final barrier (B)
  "$fam/allreduce_ring/kernel.cpp.in|s/^  wait(last, \(left\|right\));/  (void)0;/"  # ring: no final barrier
  "$fam/allgather/kernel.cpp.in|s/pld_dev::notify(sig + p \* stride + b, -2)/pld_dev::notify(sig + p * stride + b, -1)/"  # signal left non-zero
  "$fam/allreduce_ring/kernel.cpp.in|s/const int64_t c = (me - s - 1 + 2 \* nranks) % nranks;/const int64_t c = (me - s + 2 * nranks) % nranks;/"  # ring step off by one
  "$fam/allgather/kernel.cpp.in|s/tgt + me \* chunk + s.begin/tgt + q * chunk + s.begin/"  # row written to the wrong slot
  "$fam/broadcast/kernel.cpp.in|s/^    pld_dev::wait_ge(sig + kRoot \* stride + b, 1);/    (void)0;/"  # non-root: missing wait
  "$fam/all_to_all/kernel.cpp.in|s/^  pld_dev::wait_peers(ctx, sig, stride, b, 1);/  (void)0;/"  # no barrier-A wait
  "$fam/barrier/kernel.cpp.in|s/^    pld_dev::wait_ge(sig + p \* stride, 1);/    if (me != 0) pld_dev::wait_ge(sig + p * stride, 1);/"  # rank 0 through early
)
# Device order: every family kernel that publishes transfers, without the barrier before its notify.
for pkg in allreduce reduce_scatter allreduce_ring allgather broadcast all_to_all reduce gather scatter permute; do
  order_mutants+=("$fam/$pkg/kernel.cpp.in|s/^ *pld_dev::publish();/(void)0;/")
done
mutants=()
case "${1:-all}" in
  plain) for m in "${plain_mutants[@]}"; do mutants+=("$plain|$m"); done ;;
  indexed) for m in "${indexed_mutants[@]}"; do mutants+=("$indexed|$m"); done ;;
  family) mutants=("${family_mutants[@]}") ;;
  order) mutants=("${order_mutants[@]}") ;;
  all) for m in "${plain_mutants[@]}"; do mutants+=("$plain|$m"); done
       for m in "${indexed_mutants[@]}"; do mutants+=("$indexed|$m"); done
       mutants+=("${family_mutants[@]}" "${order_mutants[@]}") ;;
  *) echo "usage: mutants.sh [all|plain|indexed|family|order]" >&2; exit 2 ;;
esac
# An optional second argument keeps only the mutants whose entry contains it.
if [ -n "${2:-}" ]; then
  kept=()
  for m in "${mutants[@]}"; do [[ $m == *"$2"* ]] && kept+=("$m"); done
  mutants=("${kept[@]}")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A mutant counts as caught only when its suite ran and failed cases (the tally's failed count
# above 0), not when the suite could not run at all; and the unmutated slices must pass first.
sim_bin=$root/target/debug/pld-sim
[ -x "$sim_bin" ] || { echo "mutants.sh: $sim_bin is missing (cargo build)" >&2; exit 2; }
failed_cases() { grep -qE '^[0-9]+ passed, [1-9][0-9]* failed' "$1"; }
for matrix in ci family-ci; do
  if ! "$sim_bin" --matrix "$matrix" >"$work/log" 2>&1; then
    cat "$work/log"; echo "mutants.sh: the unmutated $matrix slice fails" >&2; exit 2
  fi
done
caught=0
for entry in "${mutants[@]}"; do
  tmpl=${entry%%|*} m=${entry#*|}
  rm -rf "$work/tree" && mkdir -p "$work/tree"
  cp -r "$root/templates" "$work/tree/"
  sed "$m" "$root/$tmpl" >"$work/tree/$tmpl"
  if cmp -s "$root/$tmpl" "$work/tree/$tmpl"; then echo "NOT APPLIED  $m"; continue; fi
  pkg=${tmpl#"$fam"/}; pkg=${pkg%%/*}
  # A family kernel is checked by the simulator's family matrix: its CI slice of the op, the
  # mutated templates rendered through PLD_DEV_TEMPLATE_DIR (needs `cargo build`); a prelude
  # mutant by the slice of every op whose name has `all` (folding and pushing kernels alike).
  # The all_to_all_v slice is every ci entry (the plain op's have no common name), the indexed
  # op's its `indexed` entries.
  case "$pkg" in
    all_to_all_v) matrix=ci; filter= ;;
    indexed_all_to_all_v) matrix=ci; filter=indexed ;;
    device_prelude.inc) matrix=family-ci; filter=all ;;
    *) matrix=family-ci; filter=$pkg ;;
  esac
  sim=(env PLD_DEV_TEMPLATE_DIR="$work/tree/$fam" "$sim_bin" --matrix "$matrix" --filter "$filter")
  if ! PLD_WAIT_TIMEOUT_MS=3000 "${sim[@]}" >"$work/log" 2>&1 && failed_cases "$work/log"; then
    echo "caught by pld-sim ($(tail -1 "$work/log"))  $m"
    caught=$((caught + 1))
  else
    echo "SURVIVED     $m"
  fi
done
echo "$caught of ${#mutants[@]} mutants caught"
[ "$caught" -eq "${#mutants[@]}" ]
