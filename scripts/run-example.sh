#!/usr/bin/env bash
# The main job: lower the seed's CHIP pipeline (examples/chip_pipeline.mlir)
# with the CHIP rail and print the result.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --quiet --bin pld-opt
./target/debug/pld-opt --pld-lower-collectives examples/chip_pipeline.mlir
