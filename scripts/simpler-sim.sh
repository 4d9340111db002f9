#!/usr/bin/env bash
# Builds simpler's Python package with its a2a3sim platform (a CPU simulation of whole chips)
# from the snapshot at $PLD_SIMPLER_DIR into a virtual environment under target/simpler-sim, with
# PyPI packages only, once (a stamp names the snapshot built); prints the environment's python.
# simpler's sim compiles kernels with a command named g++-15: a shim runs clang++-22 (pto-isa's
# CPU headers need C++20; Debian's g++ 12 cannot). Used by tests/device_conformance.rs
# (docs/device.md, "Conformance 2"); the log is target/simpler-sim/build.log.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=${PLD_SIMPLER_DIR:?set PLD_SIMPLER_DIR to an extracted simpler snapshot}
out=$root/target/simpler-sim
python=$out/venv/bin/python
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$src" ] && [ -x "$python" ]; then
  echo "$python"
  exit 0
fi
rm -rf "$out"
mkdir -p "$out/shims"
ln -s "$(command -v clang++-22)" "$out/shims/g++-15"
ln -s "$(command -v clang-22)" "$out/shims/gcc-15"
# The editable install builds inside its tree: build a copy, leave the snapshot as extracted.
cp -a "$src" "$out/simpler"
{
  python3 -m venv "$out/venv"
  "$out/venv/bin/pip" install --quiet scikit-build-core nanobind cmake ninja cloudpickle PyYAML
  PATH="$out/shims:$PATH" "$out/venv/bin/pip" install --quiet --no-build-isolation -e "$out/simpler" \
    --config-settings=build.targets="_task_interface;build_runtimes_a2a3sim"
} >"$out/build.log" 2>&1 || { tail -n 30 "$out/build.log" >&2; exit 1; }
echo "$src" >"$out/stamp"
echo "$python"
