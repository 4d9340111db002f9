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
# melior links the shared MLIR (MLIR_SYS_LINK_SHARED=1) in its own target dir,
# target/plugin-build: mlir-sys's build script does not rerun when that
# variable changes, and a plugin with a static MLIR crashes mlir-opt.
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
MLIR_SYS_LINK_SHARED=1 CARGO_TARGET_DIR=$root/target/plugin-build CARGO_PROFILE_DEV_DEBUG=0 \
  cargo build -p pld-plugin --message-format=json-render-diagnostics > "$out/cargo.json"
# Where cargo put the plugin, and the pld build script's CMake tree (libMLIR-C.so),
# found by the manifest path and target name cargo states (scripts/plugin-artifacts.py).
paths=$(python3 scripts/plugin-artifacts.py "$out/cargo.json" "$root/Cargo.toml")
read -r plugin capi <<< "$paths"
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
