#!/usr/bin/env bash
# Builds the host runtime's unit tests: renders the all_to_all_v and indexed_all_to_all_v kernels
# for float and int8_t (checking the renderings differ only where the dtype is named), builds the
# runtime's test main (runtime_tests: main.cpp over harness.h, one suite per *_test.cpp) and runs
# its suites: api (submit rejections, contiguity, a lone rank, the runtime-api.md example over the
# float all_to_all_v kernel), views (chip_views.inc, scalar.h, create_tensor / AllocScope, the
# orchestration API), device (the device ordering model, docs/device.md) and procs (ranks as
# processes: shared windows, faults; not under ThreadSanitizer) -- at -O2, then under
# ThreadSanitizer. The kernels' own contract (both exchange kernels at every width and layout, the
# collective family) is checked by the simulator's matrices (docs/sim.md: raw launches).
# Env: CXX (default g++), PLD_RT_BUILD (build dir, default <repo>/target/pld-runtime-tests),
#      PLD_RT_NO_TSAN=1 to skip the TSan run; PLD_RT_SANITIZE=1 to run the suites under ASan +
#      UBSan only (scripts/sanitize.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${PLD_RT_BUILD:-$root/target/pld-runtime-tests}
cxx=${CXX:-g++}
tmpl=$root/templates/pypto/runtime/builtins/collectives/all_to_all_v/kernel.cpp.in
itmpl=$root/templates/pypto/runtime/builtins/collectives/indexed_all_to_all_v/kernel.cpp.in
mkdir -p "$out"

"$here/render.sh" "$tmpl" float >"$out/all_to_all_v__fp32.cpp"
"$here/render.sh" "$tmpl" int8_t >"$out/all_to_all_v__int8.cpp"
# The two renderings differ only where the dtype is named (outside the shared device prelude).
body() { sed '/---- The device prelude/,/---- end of the device prelude/d' "$1"; }
if diff <(body "$out/all_to_all_v__fp32.cpp" | sed 's/float/DT/g') \
        <(body "$out/all_to_all_v__int8.cpp" | sed 's/int8_t/DT/g') >/dev/null; then :; else
  echo "run.sh: renderings differ beyond dtype_cpp" >&2; exit 1
fi
"$here/render.sh" "$itmpl" float >"$out/indexed_all_to_all_v__fp32.cpp"
"$here/render.sh" "$itmpl" int8_t >"$out/indexed_all_to_all_v__int8.cpp"
if diff <(body "$out/indexed_all_to_all_v__fp32.cpp" | sed 's/float/DT/g') \
        <(body "$out/indexed_all_to_all_v__int8.cpp" | sed 's/int8_t/DT/g') >/dev/null; then :; else
  echo "run.sh: indexed renderings differ beyond dtype_cpp" >&2; exit 1
fi

# build VARIANT EXTRA_FLAGS...: compiles every unit in parallel and links $out/VARIANT/runtime_tests.
build() {
  local v=$1; shift
  local d=$out/$v flags=(-std=c++17 -pthread -Wall -Wextra -Werror -I"$root/runtime/include" -I"$root/runtime/include/device" "$@")
  rm -rf "$d" && mkdir -p "$d"
  local pids=()
  unit() { local o=$1; shift; "$cxx" "${flags[@]}" -c "$@" -o "$d/$o.o" & pids+=($!); }
  unit runtime "$root/runtime/host/runtime.cpp"
  unit device "$root/runtime/host/device.cpp"
  unit orch_api "$root/runtime/host/orchestration_api.cpp"
  unit a2a_fp32 "$out/all_to_all_v__fp32.cpp" -Dkernel_entry=pld_a2a_f32
  unit stage_step "$root/runtime/examples/kernels/stage_step.cpp" -Dkernel_entry=pld_k_stage_step
  unit consume_step "$root/runtime/examples/kernels/consume_step.cpp" -Dkernel_entry=pld_k_consume_step
  unit chip_pipeline "$root/runtime/examples/chip_pipeline.cpp" \
    -Daicpu_orchestration_entry=chip_pipeline_entry -Daicpu_orchestration_config=chip_pipeline_config
  local t
  for t in main api_test views_test device_test procs_test; do unit "$t" "$here/$t.cpp"; done
  local rc=0
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  [ $rc -eq 0 ] || { echo "run.sh: $v build failed" >&2; exit 1; }
  "$cxx" "${flags[@]}" "$d"/*.o -o "$d/runtime_tests"
}

# run LOG CMD...: runs one suite, keeping its output in LOG; a crash counts as one failure.
passed=0 failed=0
run() {
  local log=$1; shift
  local rc
  set +e
  "$@" 2>&1 | tee "$log" | grep -v '^pld-runtime: signal wait timeout'
  rc=${PIPESTATUS[0]}
  set -e
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1 || true)
  if [ -n "$line" ]; then
    passed=$((passed + $(cut -d' ' -f1 <<<"$line")))
    failed=$((failed + $(cut -d' ' -f3 <<<"$line")))
  fi
  if [ -z "$line" ] || { [ "$rc" -ne 0 ] && [ "$(cut -d' ' -f3 <<<"$line")" = 0 ]; }; then
    echo "run.sh: $* exited with $rc" >&2
    failed=$((failed + 1))
  fi
}

# suites BUILD: runs every suite with $out/BUILD/runtime_tests, writing $out/BUILD-*.log.
suites() {
  local b=$1
  local bin=$out/$b/runtime_tests
  run "$out/$b.log" "$bin" --suite api
  run "$out/$b-views.log" "$bin" --suite views
  # The device ordering model: at the latest completion points, then at seeded random ones.
  run "$out/$b-device.log" "$bin" --suite device
  PLD_DMA_SEED=7 run "$out/$b-device-seeded.log" "$bin" --suite device --seeded
  # Forked rank processes: not under ThreadSanitizer (it does not follow a multi-threaded fork).
  [ "$b" = tsan ] || run "$out/$b-procs.log" "$bin" --suite procs
}

if [ "${PLD_RT_SANITIZE:-0}" = 1 ]; then
  # scripts/sanitize.sh: the runtime (and the api suite's kernel) under ASan + UBSan. The
  # sanitizer builds are -O0: every access the source makes is checked, and they compile about
  # three times faster than at -O1 (docs/sanitizers.md).
  build asan -O0 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
  export ASAN_OPTIONS="detect_leaks=1 ${ASAN_OPTIONS:-}" UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1"
  suites asan
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
fi

build release -O2
suites release
if [ "${PLD_RT_NO_TSAN:-0}" != 1 ]; then
  build tsan -O0 -g -fsanitize=thread
  TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" suites tsan
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
