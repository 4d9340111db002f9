#!/usr/bin/env python3
"""Benchmark of --lower-l2-tensor-collectives (not a timed test).

For each size N it generates a module with N collectives spread over N/10
CHIP orchestration functions (each function chains 10 collectives through
their targets, so the contiguity trace walks collective results), runs
`pld-opt --lower-l2-tensor-collectives --mlir-timing` once, and reports the
pass's own wall time as a ratio to the parse time of the same run, plus peak
RSS. It also times 10k- and 100k-deep reshape chains feeding one collective.

    cargo build --release --bin pld-opt
    python3 benches/bench_lower_l2.py [--sizes 1000,10000,100000,1000000] [--chains 10000,100000]
"""
import argparse
import os
import sys
import tempfile

from mlir_timing import run_timed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T = "!pld.dtensor<16x4xf32>"
SIG = "!pld.dtensor<2x8xi32>"
CNT = "!pld.dtensor<2xi32>"
PER_FUNC = 10


def collective(res, inp, tgt, in_ty=T):
    return (f"  {res} = pld.tensor.all_to_all_v {inp}, {tgt}, %s, %c, %r {{core_num = 2 : i64}}"
            f" : {in_ty}, {T}, {SIG}, {CNT}, {CNT} -> {T}\n")


def write_collectives(path, n):
    with open(path, "w") as f:
        for fn in range(max(1, n // PER_FUNC)):
            f.write(f"func.func @chip{fn}(%in: {T}, %t: {T}, %s: {SIG}, %c: {CNT}, %r: {CNT}) -> {T}"
                    ' attributes {pl.func_kind = "orchestration"} {\n')
            prev = "%t"
            for i in range(PER_FUNC):
                f.write(collective(f"%v{i}", "%in", prev))
                prev = f"%v{i}"
            f.write(f"  return {prev} : {T}\n}}\n")


def write_chain(path, depth):
    flat, tiled = "!pl.tensor<64xf32>", "!pl.tensor<16x4xf32>"
    with open(path, "w") as f:
        f.write(f"func.func @deep(%x: {tiled}, %t: {T}, %s: {SIG}, %c: {CNT}, %r: {CNT}) -> {T}"
                ' attributes {pl.func_kind = "orchestration"} {\n')
        prev, ty = "%x", tiled
        for i in range(depth):
            nty = flat if ty == tiled else tiled
            f.write(f"  %a{i} = pl.tensor.reshape {prev} : {ty} -> {nty}\n")
            prev, ty = f"%a{i}", nty
        if ty != tiled:
            f.write(f"  %last = pl.tensor.reshape {prev} : {ty} -> {tiled}\n")
            prev = "%last"
        f.write(collective("%out", prev, "%t", in_ty=tiled))
        f.write(f"  return %out : {T}\n}}\n")




def run(pld_opt, path):
    times, rss, _ = run_timed(pld_opt, path, ["--lower-l2-tensor-collectives"])
    return times, rss

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000,1000000")
    ap.add_argument("--chains", default="10000,100000")
    ap.add_argument("--pld-opt", default=os.path.join(ROOT, "target", "release", "pld-opt"))
    args = ap.parse_args()
    if not os.path.exists(args.pld_opt):
        sys.exit("build first: cargo build --release --bin pld-opt")

    with tempfile.TemporaryDirectory() as tmp:
        print("| collectives | parse (s) | pass (s) | pass / parse | pass µs per collective | peak RSS (MiB) |")
        print("|---:|---:|---:|---:|---:|---:|")
        per_op = {}
        for n in [int(s) for s in args.sizes.split(",") if s]:
            path = os.path.join(tmp, f"n{n}.mlir")
            write_collectives(path, n)
            times, rss = run(args.pld_opt, path)
            parse, lower = times.get("Parser", 0.0), times.get("LowerL2TensorCollectives", 0.0)
            per_op[n] = lower / n
            print(f"| {n} | {parse:.3f} | {lower:.3f} | {lower / parse:.2f} | {1e6 * lower / n:.2f} | {rss:.0f} |")
            os.remove(path)
        sizes = sorted(per_op)
        if len(sizes) >= 2 and sizes[0] >= 10000:
            pass
        big = [n for n in sizes if n >= 10000]
        if len(big) >= 2:
            print(f"\ngrowth {big[0]} -> {big[-1]}: {per_op[big[-1]] / per_op[big[0]]:.2f}x linear")

        print("\n| chain depth | parse (s) | pass (s) | pass µs per link | peak RSS (MiB) |")
        print("|---:|---:|---:|---:|---:|")
        for d in [int(s) for s in args.chains.split(",") if s]:
            path = os.path.join(tmp, f"chain{d}.mlir")
            write_chain(path, d)
            times, rss = run(args.pld_opt, path)
            lower = times.get("LowerL2TensorCollectives", 0.0)
            print(f"| {d} | {times.get('Parser', 0.0):.3f} | {lower:.4f} | {1e6 * lower / d:.3f} | {rss:.0f} |")


if __name__ == "__main__":
    main()
