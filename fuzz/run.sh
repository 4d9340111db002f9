#!/usr/bin/env bash
# Runs the structured mutation fuzzer (fuzz/fuzz.py) against the debug binaries.
#   bash fuzz/run.sh                      # the CI slice: seed 1, 4000 cases (deterministic)
#   bash fuzz/run.sh --minutes 60 --seed 7
# Builds pld-opt / pld-translate first if they are missing. Exit 1 when it
# found something (the minimized inputs are in fuzz/findings/).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x target/debug/pld-opt ] || [ ! -x target/debug/pld-translate ]; then
  cargo build --bin pld-opt --bin pld-translate
fi
args=("$@")
[[ " ${args[*]-} " == *" --seed "* ]] || args+=(--seed 1)
[[ " ${args[*]-} " == *" --minutes "* || " ${args[*]-} " == *" --cases "* ]] || args+=(--cases 4000)
exec python3 fuzz/fuzz.py "${args[@]}"
