#!/usr/bin/env bash
# mutants.sh: evidence that the suite can fail. Each mutant breaks one rule of the all_to_all_v
# protocol in a copy of the kernel template; the suite (run.sh, release + TSan) must fail on every
# one. Takes ~20 s per mutant on 2 cores. Exit 0 iff every mutant was caught.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmpl=templates/pypto/runtime/builtins/collectives/all_to_all_v/kernel.cpp.in
mutants=(
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
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
caught=0
for m in "${mutants[@]}"; do
  rm -rf "$work/tree" && mkdir -p "$work/tree/$(dirname "$tmpl")"
  cp -r "$root/runtime" "$work/tree/"
  sed "$m" "$root/$tmpl" >"$work/tree/$tmpl"
  if cmp -s "$root/$tmpl" "$work/tree/$tmpl"; then echo "NOT APPLIED  $m"; continue; fi
  if PLD_WAIT_TIMEOUT_MS=3000 PLD_RT_BUILD="$work/build" "$work/tree/runtime/tests/run.sh" >"$work/log" 2>&1; then
    echo "SURVIVED     $m"
  else
    echo "caught ($(tail -1 "$work/log"))  $m"
    caught=$((caught + 1))
  fi
done
echo "$caught of ${#mutants[@]} mutants caught"
[ "$caught" -eq "${#mutants[@]}" ]
