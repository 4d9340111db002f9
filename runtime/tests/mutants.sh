#!/usr/bin/env bash
# mutants.sh: evidence that the suite can fail. Each mutant breaks one rule of the all_to_all_v,
# the indexed_all_to_all_v or a collective-family protocol in a copy of that kernel template; the
# suite (run.sh, release + TSan) must fail on every one. An all_to_all_v / indexed mutant runs the
# suite without the family (PLD_RT_FAMILY=skip, ~20 s on 2 cores); a family mutant runs only
# family_test's quick slice on the mutated package's kernels (PLD_RT_FAMILY=<package>, --quick,
# ~10-25 s). Exit 0 iff every mutant was caught. `mutants.sh indexed` (or `plain`, or `family`)
# runs only those mutants.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
plain=templates/pypto/runtime/builtins/collectives/all_to_all_v/kernel.cpp.in
indexed=templates/pypto/runtime/builtins/collectives/indexed_all_to_all_v/kernel.cpp.in
plain_mutants=(
  's/return count > max_recv ? max_recv : count;/return count > max_recv + 1 ? max_recv + 1 : count;/'   # clamp above MAX_RECV
  's/  if (count <= 0) return 0;/  if (count <= 0) return count == 0 ? 0 : 1;/'                            # negative count sends a row
  's/    if (lane == 0) {/    if (true) {/'                                                               # every lane stores recv_counts
  's/unit \* kAlign;/unit * kAlign \/ 2;/'                                                                # slices not 32-byte aligned
  's/  const int64_t active = blocks < stride ? blocks : stride;/  const int64_t active = blocks;/'      # ignores S
  's/  if (!wait_peers(ctx, sig, stride, b, 1)) return;/  (void)0;/'                                      # no barrier-A wait
  's/  if (!wait_peers(ctx, sig, stride, b, 2)) return;/  (void)0;/'                                      # no barrier-B wait
  's/signal_add(sig + p \* stride + b, -2)/signal_add(sig + p * stride + b, -1)/'                         # epilogue leaves credit
  's/nranks > kMaxRanks || //'                                                                            # runs with rankNum > 16
  's/pld::copy(pld::peer_ptr(ctx, tgt + me \* chunk + s.begin/pld::copy(pld::peer_ptr(ctx, tgt + me * chunk + s.begin + (s.begin > 0)/'  # off-by-one slice
)
indexed_mutants=(
  's/    const int64_t r = pld::load_gm(index + pos);/    const int64_t r = pos;/'                                     # drops the index (plain layout)
  's/    const int64_t end = begin + per < rows ? begin + per : rows;/    const int64_t end = begin + per + 1 < rows ? begin + per + 1 : rows;/'  # off-by-one local split
  's/    if (p != me) pld::signal_add(sig + p \* stride + b, -2);/    (void)p;/'                                    # skips the epilogue
  's/    return r >= 0 \&\& r < input_rows ? r : -1;/    return r >= 0 \&\& r <= input_rows ? r : -1;/'   # reads one row past the input
  's/          pld::copy(dst + k \* row_elems + done, kZeros, piece);/          (void)dst;/'                       # out-of-range rows not zeroed
  's/  for (int64_t s = b; s < nranks; s += active) {/  for (int64_t s = 0; s < nranks; ++s) {/'                  # every block stores recv_counts
  's/    if (d == me) continue;/    if (d == me \&\& false) continue;/'                                            # local chunk also written by its "writer"
  's/  if (!wait_peers(ctx, sig, stride, b, 1)) return;/  (void)0;/'                                          # no barrier-A wait
)
fam=templates/pypto/runtime/builtins/collectives
family_mutants=(
  "$fam/allreduce/kernel.cpp.in|s/pld::copy(tile, pld::peer_ptr(ctx, tgt + off, static_cast<uint32_t>(q)), len);/pld::copy(tile, pld::peer_ptr(ctx, tgt + off, static_cast<uint32_t>(nranks - 1 - q)), len);/"  # rank order reversed
  "$fam/reduce_scatter/kernel.cpp.in|s/  if (!wait_peers(ctx, sig, stride, b, 2)) return;/  (void)0;/"  # no final barrier (B)
  "$fam/allreduce_ring/kernel.cpp.in|s/  if (!wait(last, right) || !wait(last, left)) return;/  (void)0;/"  # ring: no final barrier
  "$fam/allgather/kernel.cpp.in|s/signal_add(sig + p \* stride + b, -2)/signal_add(sig + p * stride + b, -1)/"  # signal left non-zero
  "$fam/allreduce_ring/kernel.cpp.in|s/const int64_t c = (me - s - 1 + 2 \* nranks) % nranks;/const int64_t c = (me - s + 2 * nranks) % nranks;/"  # ring step off by one
  "$fam/allgather/kernel.cpp.in|s/tgt + me \* chunk + s.begin/tgt + q * chunk + s.begin/"  # row written to the wrong slot
  "$fam/broadcast/kernel.cpp.in|s/    if (!pld::signal_wait_ge(sig + kRoot \* stride + b, 1, static_cast<int32_t>(kRoot),/    if (false \&\& !pld::signal_wait_ge(sig + kRoot * stride + b, 1, static_cast<int32_t>(kRoot),/"  # non-root: missing wait
  "$fam/all_to_all/kernel.cpp.in|s/  if (!wait_peers(ctx, sig, stride, b, 1)) return;/  (void)0;/"  # no barrier-A wait
  "$fam/barrier/kernel.cpp.in|s/if (!pld::signal_wait_ge(sig + p \* stride, 1, static_cast<int32_t>(p), 0)) return;/if (me != 0 \&\& !pld::signal_wait_ge(sig + p * stride, 1, static_cast<int32_t>(p), 0)) return;/"  # rank 0 through early
)
mutants=()
case "${1:-all}" in
  plain) for m in "${plain_mutants[@]}"; do mutants+=("$plain|$m"); done ;;
  indexed) for m in "${indexed_mutants[@]}"; do mutants+=("$indexed|$m"); done ;;
  family) mutants=("${family_mutants[@]}") ;;
  all) for m in "${plain_mutants[@]}"; do mutants+=("$plain|$m"); done
       for m in "${indexed_mutants[@]}"; do mutants+=("$indexed|$m"); done
       mutants+=("${family_mutants[@]}") ;;
  *) echo "usage: mutants.sh [all|plain|indexed|family]" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
caught=0
for entry in "${mutants[@]}"; do
  tmpl=${entry%%|*} m=${entry#*|}
  rm -rf "$work/tree" && mkdir -p "$work/tree"
  cp -r "$root/runtime" "$root/templates" "$work/tree/"
  sed "$m" "$root/$tmpl" >"$work/tree/$tmpl"
  if cmp -s "$root/$tmpl" "$work/tree/$tmpl"; then echo "NOT APPLIED  $m"; continue; fi
  pkg=${tmpl#"$fam"/}; pkg=${pkg%%/*}
  case "$pkg" in
    allreduce | allreduce_ring | reduce_scatter | allgather | broadcast | all_to_all | barrier)
      mode=$pkg; args=(--quick) ;;
    *) mode=skip; args=() ;;  # all_to_all_v, indexed_all_to_all_v
  esac
  if PLD_RT_FAMILY=$mode PLD_WAIT_TIMEOUT_MS=3000 PLD_RT_BUILD="$work/build" \
       "$work/tree/runtime/tests/run.sh" "${args[@]}" >"$work/log" 2>&1; then
    echo "SURVIVED     $m"
  else
    echo "caught ($(tail -1 "$work/log"))  $m"
    caught=$((caught + 1))
  fi
done
echo "$caught of ${#mutants[@]} mutants caught"
[ "$caught" -eq "${#mutants[@]}" ]
