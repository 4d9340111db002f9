#!/usr/bin/env bash
# Builds pld as one shared library over the host's libMLIR.so, and the C++
# example that links it (the test command, scripts/test.sh, runs this):
#
#   target/plugin/libPldPlugin.so  dialect + pass plugin for stock mlir-opt-22,
#                                  and the C API of dialect/include/pld-c/Registration.h
#   target/plugin/libMLIR-C.so     the MLIR C API melior links, built by cmake/
#                                  from Debian's libMLIRCAPI*.a archives
#   target/plugin/pld-cpp-driver   examples/cpp-driver
#
# melior links the shared MLIR (MLIR_SYS_LINK_SHARED=1) in a build for the host
# triple named as a --target (target/<host>/debug): its crates are units of their
# own, apart from the binaries' (target/debug), so neither build rebuilds the
# other's mlir-sys (whose build script does not rerun when that variable
# changes), while the build scripts and proc macros, compiled for the host, are
# the binaries' build's (the plugin's build compiles only its 16 target crates).
# It shares target/'s lock with cargo build and cargo test: run it between them,
# not beside them. A plugin with a static MLIR crashes mlir-opt.
# Incremental: a second run with nothing changed takes a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The one LLVM prefix variable (melior's; .cargo/config.toml sets it for cargo).
LLVM_PREFIX=${MLIR_SYS_220_PREFIX:-$(llvm-config-22 --prefix)}
root=$PWD
out=$root/target/plugin
mkdir -p "$out"
started=$(date +%s.%N)

# 1. The cdylib (pld, melior and the cmake-built libMLIR-C.so, all shared MLIR).
# No Rust debug info: nothing debugs the plugin build, and it links faster.
host=$(rustc -vV | sed -n "s/^host: //p")
MLIR_SYS_LINK_SHARED=1 CARGO_PROFILE_DEV_DEBUG=0 \
  cargo build -p pld-plugin --target "$host" --message-format=json-render-diagnostics > "$out/cargo.json"
# Where cargo put the plugin, and the pld build script's CMake tree (libMLIR-C.so),
# found by the manifest path and target name cargo states (scripts/plugin-artifacts.py).
paths=$(python3 scripts/plugin-artifacts.py "$out/cargo.json" "$root/Cargo.toml")
read -r plugin capi <<< "$paths"
# A plugin with a static MLIR crashes mlir-opt: refuse one (an mlir-sys built for the host
# --target without the variable, and the same profile, would be reused as it is).
if ! grep -q 'NEEDED.*\[libMLIR\.so' <(readelf -d "$plugin"); then
  echo "build-plugin: $plugin does not link libMLIR.so; run: cargo clean -p mlir-sys --target $host" >&2
  exit 1
fi
# Replace only what changed (a test may be running the old copy).
install -C -m 755 "$capi" "$out/libMLIR-C.so"
install -C -m 755 "$plugin" "$out/libPldPlugin.so"

# 2. examples/cpp-driver, with CMake against the installed MLIR and the plugin.
cmake -G Ninja -S examples/cpp-driver -B "$out/cpp-driver-build" \
  -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" -DPLD_PLUGIN_DIR="$out" \
  -DCMAKE_CXX_COMPILER="$LLVM_PREFIX/bin/clang++" > "$out/cpp-driver-cmake.log" 2>&1 \
  || { cat "$out/cpp-driver-cmake.log"; exit 1; }
cmake --build "$out/cpp-driver-build"
install -C -m 755 "$out/cpp-driver-build/pld-cpp-driver" "$out/pld-cpp-driver"
# test/Plugin runs only if no source is newer than this build's start.
touch -d "@$started" "$out/built-from-sources-at"
echo "build-plugin: $out/{libPldPlugin.so,libMLIR-C.so,pld-cpp-driver}"
