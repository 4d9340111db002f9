#!/usr/bin/env bash
# pld-reduce's interestingness test for tests/reduce/rejected.mlir
# (docs/reducing.md). mlir-reduce's convention: exit 1 = interesting (keep
# reducing from this candidate), exit 0 = not. The candidate file is the last
# argument. Interesting while --lower-l2-tensor-collectives still rejects it
# with the same error. PLD_OPT names pld-opt when it is not on PATH.
errors=$("${PLD_OPT:-pld-opt}" --lower-l2-tensor-collectives "${@: -1}" 2>&1 >/dev/null) && exit 0
grep -q "error: 'pld.tensor.all_to_all_v' op operand 'input' is not provably contiguous" <<<"$errors" && exit 1
exit 0
