#!/usr/bin/env bash
# The main job, end to end on examples/chip_pipeline.mlir (the seed's CHIP pipeline):
#   1. pld-opt lowers it (the collective becomes a call of the synthesized AIV kernel) and prints it;
#   2. pld-translate renders the Ascend build tree (target/example/build);
#   3. pld-sim runs the same pipeline for 4 ranks x 8 blocks on the CPU.
# The lowered IR goes to stdout; progress and summaries to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --quiet --bins
out=target/example
rm -rf "$out" && mkdir -p "$out"

echo "== pld-opt --pld-lower-collectives examples/chip_pipeline.mlir" >&2
./target/debug/pld-opt --pld-lower-collectives examples/chip_pipeline.mlir | tee "$out/chip_pipeline.lowered.mlir"

echo "== pld-translate --pld-to-ascend-build --output-dir $out/build" >&2
./target/debug/pld-translate --pld-to-ascend-build --output-dir "$out/build" \
  --kernel-source-dir runtime/examples "$out/chip_pipeline.lowered.mlir"
(cd "$out/build" && find . -type f | sort) >&2

echo "== pld-sim: 4 ranks, core_num = 8, f32, uneven and over-capacity counts" >&2
cat > "$out/case.json" <<'CASE'
{"ranks": 4, "core_num": 8, "dtype": "f32", "max_recv": 3, "row_elems": 5,
 "send_counts": [[1, 2, 3, 0], [3, 3, 3, 3], [0, 1, 0, 1], [6, -2, 2, 1]]}
CASE
./target/debug/pld-sim "$out/case.json" -o "$out/result.json"
python3 - "$out/result.json" >&2 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"status {r['status']} (code {r['code']}), B = {r['blocks']}: {r['message']}")
for i, rank in enumerate(r["ranks"]):
    print(f"  rank {i}: recv_counts {rank['recv_counts']}")
PY
