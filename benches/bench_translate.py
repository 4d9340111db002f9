#!/usr/bin/env python3
"""Benchmark of pld-translate --pld-to-ascend-build (not a timed test).

Two shapes, each at two sizes, lowered once by `pld-opt --pld-lower-collectives`
and then rendered by pld-translate (wall time of the whole tool: parse, plan,
emit, write the tree), reported per task so that growth is visible:

  funcs N  : N CHIP orchestration functions, each stage -> collective -> consume
             (3 tasks, one sub-build each: N orchestration sources, 3N kernels);
  loops N  : one CHIP function whose N tasks sit inside scf.for loops
             (N/10 loops of 10 kernel calls each, nested two deep).

    cargo build --release --bin pld-opt --bin pld-translate
    python3 benches/bench_translate.py [--funcs 1000,10000] [--loops 1000,10000] [--repeat 3]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T = "!pld.dtensor<16x4xf32>"
SIG = "!pld.dtensor<2x8xi32>"
CNT = "!pld.dtensor<2xi32>"
KERNELS = f'''func.func private @stage(%x: {T} {{pl.direction = "inout"}}) -> {T}
    attributes {{pl.func_kind = "aiv", pl.kernel_source = "k.cpp"}} {{
  return %x : {T}
}}
func.func private @consume(%x: {T} {{pl.direction = "inout"}}) -> {T}
    attributes {{pl.func_kind = "aiv", pl.kernel_source = "k.cpp"}} {{
  return %x : {T}
}}
'''


def write_funcs(path, n):
    with open(path, "w") as f:
        f.write(KERNELS)
        for i in range(n):
            f.write(f'''func.func @chip{i}(%in: {T}, %t: {T}, %s: {SIG}, %c: {CNT}, %r: {CNT}) -> {T}
    attributes {{pl.func_kind = "orchestration"}} {{
  %a = func.call @stage(%in) : ({T}) -> {T}
  %d = pld.tensor.all_to_all_v %a, %t, %s, %c, %r {{core_num = 2 : i64}} : {T}, {T}, {SIG}, {CNT}, {CNT} -> {T}
  %o = func.call @consume(%d) : ({T}) -> {T}
  return %o : {T}
}}
''')


def write_loops(path, n):
    per_body = 10
    outer = max(1, n // (per_body * 10))
    with open(path, "w") as f:
        f.write(KERNELS)
        f.write(f'''func.func @chip(%x: {T}) attributes {{pl.func_kind = "orchestration"}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
''')
        # `outer` loops, each holding 10 inner loops of `per_body` calls: n tasks in all.
        for o in range(outer):
            f.write(f"  scf.for %o{o} = %c0 to %c2 step %c1 {{\n")
            for k in range(10):
                f.write(f"    scf.for %i{o}_{k} = %c0 to %c2 step %c1 {{\n")
                for j in range(per_body):
                    callee = "stage" if j % 2 == 0 else "consume"
                    f.write(f"      %v{o}_{k}_{j} = func.call @{callee}(%x) : ({T}) -> {T}\n")
                f.write("    }\n")
            f.write("  }\n")
        f.write("  return\n}\n")


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    return r


def bench(kind, n, tmp, repeat):
    src = os.path.join(tmp, f"{kind}{n}.mlir")
    (write_funcs if kind == "funcs" else write_loops)(src, n)
    with open(os.path.join(tmp, "k.cpp"), "w") as f:
        f.write("// kernel\n")
    lowered = os.path.join(tmp, f"{kind}{n}.lowered.mlir")
    bindir = os.path.join(ROOT, "target", "release")
    run([os.path.join(bindir, "pld-opt"), "--pld-lower-collectives", src, "-o", lowered])
    tasks = 3 * n if kind == "funcs" else n
    size = os.path.getsize(lowered)
    best = None
    # The tree goes to tmpfs where there is one: on ext4, creating 50k files right after
    # deleting the previous run's is itself superlinear (the kernel's recently_deleted scan).
    out_root = "/dev/shm" if os.path.isdir("/dev/shm") else tmp
    for _ in range(repeat):
        out = os.path.join(out_root, f"pld-bench-tree-{os.getpid()}")
        shutil.rmtree(out, ignore_errors=True)
        t0 = time.perf_counter()
        run([os.path.join(bindir, "pld-translate"), "--pld-to-ascend-build", "--output-dir", out,
             "--kernel-source-dir", tmp, lowered])
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    files = sum(len(fs) for _, _, fs in os.walk(out))
    shutil.rmtree(out, ignore_errors=True)
    return tasks, best, files, size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--funcs", default="1000,10000")
    ap.add_argument("--loops", default="1000,10000")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print("| shape | N | tasks | input (KiB) | files | pld-translate (s) | µs per task | µs per input KiB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for kind, sizes in (("funcs", args.funcs), ("loops", args.loops)):
            per = []
            for n in [int(s) for s in sizes.split(",") if s]:
                tasks, dt, files, size = bench(kind, n, tmp, args.repeat)
                per.append((dt / tasks, dt / size))
                print(f"| {kind} | {n} | {tasks} | {size // 1024} | {files} | {dt:.3f} | {1e6 * dt / tasks:.2f} | "
                      f"{1e6 * dt / (size / 1024):.2f} |", flush=True)
            if len(per) >= 2:
                print(f"\n{kind}: largest / smallest size: per task {per[-1][0] / per[0][0]:.2f}, "
                      f"per input byte {per[-1][1] / per[0][1]:.2f}\n")


if __name__ == "__main__":
    main()
