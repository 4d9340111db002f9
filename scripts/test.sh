#!/usr/bin/env bash
# Every test: Rust unit and integration tests, the lit suite (cargo test
# drives lit), the examples, then the host runtime's own suite (kernel
# template against an independent golden, once under ThreadSanitizer).
# Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo test
bash runtime/tests/run.sh
