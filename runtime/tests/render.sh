#!/usr/bin/env bash
# render.sh TEMPLATE DTYPE_CPP > OUT
# render.sh TEMPLATE name=value [name=value...] > OUT
# The test-harness stand-in for the code generator's renderer. The 2-argument form substitutes
# `dtype_cpp` only (the all_to_all_v templates' one variable). The name=value form substitutes each
# `${name}`; every given variable must occur in the template and any ${...} left over is an error
# (a template uses every variable it is given, and nothing else).
set -euo pipefail
usage() { echo "usage: render.sh kernel.cpp.in <dtype_cpp | name=value...>" >&2; exit 2; }
[ $# -ge 2 ] || usage
tmpl=$1; shift
# The device prelude line becomes the prelude (as pld-translate's renderer splices it).
prelude=$(dirname "$tmpl")/../device_prelude.inc
out=$(awk -v p="$prelude" '$0 == "// @pld-device-prelude" { while ((getline l < p) > 0) print l; next } { print }' "$tmpl")
if [ $# -eq 1 ] && [[ $1 != *=* ]]; then set -- "dtype_cpp=$1"; fi
for kv in "$@"; do
  [[ $kv == *=* ]] || usage
  name=${kv%%=*} value=${kv#*=}
  # (`:` and `,` for permute's pairs list, `0:1,1:2`.)
  [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ && $value =~ ^[A-Za-z0-9_:,]+$ ]] || {
    echo "render.sh: bad substitution '$kv'" >&2; exit 2; }
  if ! grep -qF "\${$name}" <<<"$out"; then
    echo "render.sh: $tmpl does not use the variable '$name'" >&2
    exit 1
  fi
  out=$(sed "s/\${$name}/$value/g" <<<"$out")
done
if grep -q '\${' <<<"$out"; then
  echo "render.sh: unsubstituted template variable in $tmpl" >&2
  exit 1
fi
printf '%s\n' "$out"
