#!/usr/bin/env bash
# Builds simpler's Python package with its a2a3sim platform (a CPU simulation of whole chips)
# from the snapshot at $PLD_SIMPLER_DIR into a virtual environment under target/simpler-sim, with
# PyPI packages only, once (a stamp names the snapshot built); prints the environment's python.
# simpler's sim compiles kernels with a command named g++-15: a shim runs clang++-22 (pto-isa's
# CPU headers need C++20; Debian's g++ 12 cannot). Used by tests/device_conformance.rs
# (docs/device.md, "Conformance 2"), which scripts/test.sh starts early in the background; the
# log is target/simpler-sim/build.log. One build at a time: a second caller waits for the first
# (a lock beside the folder) and then finds its stamp. The PyPI packages are pinned. Only the
# a2a3 runtime the sub-builds use is built.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=${PLD_SIMPLER_DIR:?set PLD_SIMPLER_DIR to an extracted simpler snapshot}
out=$root/target/simpler-sim
python=$out/venv/bin/python
mkdir -p "$root/target"
exec 9>"$root/target/simpler-sim.lock"
flock 9
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
# Only the runtime pld's sub-builds name (kernel_config.py: tensormap_and_ringbuffer) is built:
# simpler builds every runtime folder of the platform, and the other is half the build.
for rt in "$out/simpler/src/a2a3/runtime/"*/; do
  [ "$(basename "$rt")" = tensormap_and_ringbuffer ] || rm -rf "$rt"
done
{
  python3 -m venv "$out/venv"
  "$out/venv/bin/pip" install --quiet scikit-build-core==1.1.2 nanobind==3.1.0 cmake==4.4.5 ninja==1.13.2 \
    cloudpickle==3.1.3 PyYAML==6.0.4
  PATH="$out/shims:$PATH" "$out/venv/bin/pip" install --quiet --no-build-isolation -e "$out/simpler" \
    --config-settings=build.targets="_task_interface;build_runtimes_a2a3sim"
} >"$out/build.log" 2>&1 || { tail -n 30 "$out/build.log" >&2; exit 1; }
echo "$src" >"$out/stamp"
echo "$python"
