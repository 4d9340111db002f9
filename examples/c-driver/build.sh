#!/usr/bin/env bash
# Builds examples/c-driver/main.c into OUT (default target/plugin/pld-c-driver):
# the commands docs/embedding.md shows for a C driver (test/Plugin/c-driver.test
# runs this script). Needs scripts/build-plugin.sh first; PLD_PLUGIN_DIR
# (default target/plugin) is where it put the libraries.
#
#   bash examples/c-driver/build.sh [OUT]
#
# A C driver links three libraries, in this order:
#   -lPldPlugin  pld (pldRegisterDialects, pldRegisterPasses, ...)
#   -lMLIR-C     MLIR's C API (mlirContextCreate, mlirPassManagerRun, ...):
#                Debian ships no libMLIR-C.so, so build-plugin.sh builds it
#                from Debian's libMLIRCAPI*.a into target/plugin/
#   -lMLIR       MLIR itself (Debian's libMLIR.so)
set -euo pipefail
cd "$(dirname "$0")/../.."
PLUGIN=${PLD_PLUGIN_DIR:-$PWD/target/plugin}
OUT=${1:-$PLUGIN/pld-c-driver}
LLVM_LIB=$(llvm-config-22 --libdir)
cc -std=c11 -Wall -Wextra -Werror \
  -I "$(llvm-config-22 --includedir)" -I dialect/include \
  examples/c-driver/main.c -o "$OUT" \
  -L "$PLUGIN" -lPldPlugin -lMLIR-C -L "$LLVM_LIB" -lMLIR \
  -Wl,-rpath,"$PLUGIN:$LLVM_LIB"
echo "c-driver: $OUT"
