#!/usr/bin/env bash
# The sanitizer job: the C++ side (dialect, bridge) built with ASan + UBSan
# and linked into the Rust binaries (pld's `sanitize` feature: its own OUT_DIR
# and pld units, every dependency shared with the normal build), then the lit
# suite and a fixed-seed fuzz slice through those binaries, and the host
# runtime's unit tests and the exchange kernels' raw launches
# (scripts/kernels-asan.sh) under ASan + UBSan. Rust code itself stays
# uninstrumented (stable Rust has no sanitizers).
#   bash scripts/sanitize.sh [--fuzz-cases N] [--no-runtime]     (default 600)
# --no-runtime leaves those two out (scripts/test.sh runs them itself, beside).
# Recipe and caveats: docs/sanitizers.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cases=600
runtime=1
while [ $# -gt 0 ]; do
  case $1 in
    --fuzz-cases) cases=$2; shift 2 ;;
    --no-runtime) runtime=0; shift ;;
    *) echo "usage: bash scripts/sanitize.sh [--fuzz-cases N] [--no-runtime]" >&2; exit 2 ;;
  esac
done
out=$PWD/target/sanitize
wrap=$out/wrapped
mkdir -p "$wrap"
# Each step's start, in seconds since the job started (where its minutes go).
phase() { echo "sanitize.sh: [${SECONDS} s] $*" >&2; }
phase "the instrumented build"
# Cargo also copies the instrumented binaries to target/debug/: take them from
# where cargo reports them, then put the normal ones back there at once.
cargo build --features pld/sanitize --bin pld-opt --bin pld-translate \
  --message-format=json-render-diagnostics > "$out/cargo.json"
python3 - "$out/cargo.json" "$wrap" <<'PY'
import json, shutil, sys
for line in open(sys.argv[1]):
    msg = json.loads(line) if line.startswith("{") else {}
    if msg.get("reason") == "compiler-artifact" and msg.get("executable") \
            and msg["target"]["name"] in ("pld-opt", "pld-translate"):
        shutil.copy2(msg["executable"], f"{sys.argv[2]}/{msg['target']['name']}.asan")
PY
cargo build --bin pld-opt --bin pld-translate --bin pld-run
# pld-run (uninstrumented: Rust) runs the instrumented tools next to it, so
# test/Codegen's runs lower and render through them too: a copy, not a link
# (it finds its tools by its own path).
cp target/debug/pld-run "$wrap/pld-run"

# The one LLVM prefix variable (melior's; .cargo/config.toml sets it for cargo).
llvm_bin=${MLIR_SYS_220_PREFIX:-$(llvm-config-22 --prefix)}/bin
# The ASan runtime (clang's, which the instrumented C++ was compiled for; it carries UBSan's
# handlers) must come first in the process: preload it for our binaries only (lit also runs
# FileCheck, python and g++).
asan=$("$llvm_bin/clang++" -print-runtime-dir)/libclang_rt.asan-x86_64.so
for tool in pld-opt pld-translate; do
  cat >"$wrap/$tool" <<SH
#!/bin/sh
# allow_user_poisoning=0: the uninstrumented LLVM libraries would report a
# false use-after-poison in mlir::Dialect::addType. Rust's allocations are
# not tracked for leaks that matter here (detect_leaks=0).
LD_PRELOAD='$asan' ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=0:abort_on_error=0 \\
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 exec '$wrap/$tool.asan' "\$@"
SH
  chmod +x "$wrap/$tool"
done

# The fuzz slice runs beside the lit suite (and the runtime's unit tests, unless
# --no-runtime), two runs at a time: on one, it went on alone for a third of its time after lit.
phase "lit and the fuzz slice under the sanitizers"
python3 fuzz/fuzz.py --seed 1 --cases "$cases" --jobs 2 --bindir "$wrap" > "$out/fuzz.log" 2>&1 &
fuzz=$!
PLD_BIN_DIR=$wrap PLD_TEST_EXEC_ROOT=$out/lit "$llvm_bin/lit" -sv test --filter-out 'Plugin/' \
  || { wait "$fuzz"; exit 1; }
if ((runtime)); then
  phase "the runtime's unit tests and the kernels under the sanitizers"
  PLD_RT_BUILD=$out/runtime-tests PLD_RT_SANITIZE=1 bash runtime/tests/run.sh || { wait "$fuzz"; exit 1; }
  cargo build -p pld-sim --bin pld-sim
  bash scripts/kernels-asan.sh || { wait "$fuzz"; exit 1; }
fi
if ! wait "$fuzz"; then
  cat "$out/fuzz.log"
  echo "sanitize.sh: the fuzz slice under the sanitizers found something (its log is above)" >&2
  exit 1
fi
tail -n 1 "$out/fuzz.log"
phase "done"
