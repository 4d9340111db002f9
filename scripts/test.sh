#!/usr/bin/env bash
# Every test: Rust unit and integration tests, the lit suite (cargo test
# drives lit; test/Plugin runs stock mlir-opt-22 with the pld plugin and the
# C++ driver built first by scripts/build-plugin.sh), the examples, and the
# host runtime's unit tests (its API, views, device model and rank processes;
# plain and under ThreadSanitizer beside the build, under ASan + UBSan beside
# the sanitizer job). The robustness jobs:
# a fuzz slice (from the end of the build) and the sanitizer job (last).
# Installs what is missing first.
#
#   bash scripts/test.sh           everything (CI's command, .ci/run)
#   bash scripts/test.sh --quick   the edit loop: unit + integration tests and
#                                  lit (test/Plugin skipped), no plugin build,
#                                  runtime suite, fuzz, sanitizers, private-cache
#                                  builds or the 16 x 16 ranks-as-processes timing
#                                  (~1 min warm)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *) echo "usage: bash scripts/test.sh [--quick]" >&2; exit 2 ;;
esac
# Each phase's start, in seconds since the command started (where CI's minutes go).
phase() { echo "test.sh: [${SECONDS} s] $*" >&2; }
bash scripts/setup.sh
phase "setup done"
if ((quick)); then
  PLD_QUICK=1 cargo test
  exit 0
fi
mkdir -p target
# A step that fails ends the command: the background jobs still running end with it. Each runs
# in a session of its own (setsid), so its whole process group goes (its compilers and test
# binaries too); a job that has ended is not signalled (its number may be another process's).
trap 'for p in $(jobs -r -p); do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done' EXIT
# The host runtime's unit tests (g++ only: no cargo, nothing built before it) start first,
# beside the build: it takes the cores the build's serial stretches (build scripts, the pld
# crate, links) leave idle. Its ASan + UBSan run (the sanitizer job's, scripts/sanitize.sh
# --no-runtime below) waits for the last phase, where it does the same for the sanitizer build;
# the build's cores are full without it (a 1-second sampler: 4 idle core-seconds in 200 s).
setsid -w bash runtime/tests/run.sh > target/runtime-suite.log 2>&1 &
runtime=$!
# The device conformance's simpler environment (scripts/simpler-sim.sh, a few minutes, once per
# clone) builds beside them too when the snapshots are given (.ci/run): the conformance test
# waits for it (the script's lock) instead of building it alone in the middle of cargo test.
if [ -n "${PLD_SIMPLER_DIR:-}" ] && [ -d "${PLD_SIMPLER_DIR:-}" ]; then
  setsid -w bash scripts/simpler-sim.sh > target/simpler-sim-bg.log 2>&1 &
fi
# The Rust sources stay rustfmt-clean (when this toolchain has rustfmt).
if cargo fmt --version >/dev/null 2>&1; then
  cargo fmt --check
fi
# Every default member's binaries, among them the from-scratch Rust driver of
# docs/embedding.md (tests/embed.rs runs it): `cargo test` builds binaries only
# for its own package's integration tests.
phase "cargo build"
cargo build
# Robustness: a fixed-seed slice of the mutation fuzzer (seed 1, 4000 cases, every pass, the
# pipeline and pld-translate through the debug binaries). One process on one core, needing no
# cargo: it starts now and fills what the plugin's build and the test binaries leave idle.
# The sanitizer job swaps target/debug's pld-opt / pld-translate while it builds, so the slice
# runs copies of them (as do the kernels' ASan + UBSan launches below, with pld-sim's copy).
bins=target/fuzz-bin
mkdir -p "$bins"
cp target/debug/pld-opt target/debug/pld-translate target/debug/pld-reduce target/debug/pld-sim "$bins/"
setsid -w bash fuzz/run.sh --seed 1 --cases 4000 --bindir "$bins" > target/fuzz-slice.log 2>&1 &
fuzz=$!
# The shared library (stock mlir-opt-22 plugin, C API) and the C++ driver: test/Plugin runs them,
# and must not be skipped here. It builds in target/ after the binaries, whose build scripts and
# proc macros it reuses (it holds target/'s lock: not beside a cargo command).
phase "scripts/build-plugin.sh"
if ! bash scripts/build-plugin.sh > target/build-plugin.log 2>&1; then
  cat target/build-plugin.log
  echo "test.sh: scripts/build-plugin.sh failed (its log is above)" >&2
  exit 1
fi
tail -n 1 target/build-plugin.log
phase "cargo test"
PLD_REQUIRE_PLUGIN=1 cargo test
phase "docs, sanitizer job"
# What is left runs side by side: the runtime's unit tests under ASan + UBSan (g++, no cargo)
# beside the documentation build (rustdoc, mostly one core) and then the sanitizer job (cargo;
# its build's serial stretches, pld and the links, leave a core to them).
# The exchange kernels' raw launches under the same sanitizers follow it (scripts/kernels-asan.sh),
# whatever the first reported: the log has both verdicts.
PLD_RT_BUILD=$PWD/target/sanitize/runtime-tests PLD_RT_SANITIZE=1 setsid -w bash -c \
  'bash runtime/tests/run.sh; a=$?; bash scripts/kernels-asan.sh "$1"; b=$?; [ $a = 0 ] && [ $b = 0 ]' \
  _ "$bins" > target/runtime-sanitize.log 2>&1 &
runtime_san=$!
# wait_for PID LOG WHAT: a background job's verdict (its log on failure).
failed=0
wait_for() {
  if wait "$1"; then
    tail -n 1 "$2"
  else
    cat "$2"
    echo "test.sh: $3 failed (its log is above)" >&2
    failed=1
  fi
}
# The public API's documentation (the crate denies missing docs; a broken or
# private intra-doc link is an error here).
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps || failed=1
# The sanitizer job (ASan + UBSan C++ side: the lit suite and a fuzz slice; the runtime's unit
# tests and the kernels' raw launches under the same sanitizers run beside it, started above).
if [ "$failed" = 0 ]; then
  bash scripts/sanitize.sh --fuzz-cases 600 --no-runtime || failed=1
fi
phase "sanitizer job done"
wait_for "$runtime" target/runtime-suite.log "the runtime suite (runtime/tests/run.sh)"
wait_for "$runtime_san" target/runtime-sanitize.log "the runtime suite and the kernels under ASan + UBSan"
wait_for "$fuzz" target/fuzz-slice.log "the fuzz slice"
phase "done"
exit "$failed"
