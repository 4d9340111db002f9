#!/usr/bin/env bash
# Every test: Rust unit tests, the lit suite (cargo test drives lit), the
# examples. Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo test --all-targets
