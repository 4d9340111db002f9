#!/usr/bin/env bash
# The exchange kernels under ASan + UBSan: pld-sim's raw launches of both kernels (docs/sim.md
# "Raw launches", the CI slice's `raw:` entries) with the kernels, the host runtime and the engine
# compiled with -fsanitize=address,undefined at -O0 (cache entries of their own); ranks as
# processes, leak detection on. The sanitizer job runs it after the runtime's own unit tests.
#   bash scripts/kernels-asan.sh [BIN_DIR]   pld-sim, pld-opt and pld-translate from BIN_DIR
#                                            (default target/debug; scripts/test.sh passes the
#                                            copies its fuzz slice runs, which the sanitizer
#                                            build does not swap)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug}
[ -x "$bin/pld-sim" ] || { echo "kernels-asan.sh: $bin/pld-sim is missing (cargo build)" >&2; exit 2; }
PLD_SIM_CXXFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -g -O0" \
  ASAN_OPTIONS="detect_leaks=1 ${ASAN_OPTIONS:-}" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
  "$bin/pld-sim" --matrix ci --filter raw: --jobs 2
