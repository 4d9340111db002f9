#!/usr/bin/env bash
# Installs what building and testing pld needs on Debian 12, as root; safe to
# re-run (installs only what is missing). Rust (cargo) must already be present.
set -euo pipefail

PACKAGES=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libpolly-22-dev clang-22
          libclang-rt-22-dev cmake ninja-build libzstd-dev libz3-dev libxml2-dev zlib1g-dev g++ python3
          python3-psutil python3-venv)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

command -v cargo >/dev/null || { echo "setup: cargo not found (install Rust with rustup)"; exit 1; }
command -v llvm-config-22 >/dev/null || { echo "setup: llvm-config-22 missing after install"; exit 1; }
[ -x "$(llvm-config-22 --bindir)/lit" ] || { echo "setup: lit missing (llvm-22-tools)"; exit 1; }
