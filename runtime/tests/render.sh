#!/usr/bin/env bash
# render.sh TEMPLATE DTYPE_CPP > OUT: the test-harness stand-in for the code generator's renderer.
# `dtype_cpp` is the template's only variable; any other ${...} left over is an error.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: render.sh kernel.cpp.in <float|int8_t>" >&2; exit 2; }
out=$(sed "s/\${dtype_cpp}/$2/g" "$1")
if grep -q '\${' <<<"$out"; then
  echo "render.sh: unsubstituted template variable in $1" >&2
  exit 1
fi
printf '%s\n' "$out"
