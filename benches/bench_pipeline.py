#!/usr/bin/env python3
"""Benchmark of the whole --pld-lower-collectives pipeline (not a timed test).

Every number is a ratio inside one run (or two runs of the same input), so the
machine's speed cancels out:

  pipeline N : N collectives in the seed's shape (stage call, collective,
               consume call), 10 per CHIP orchestration function, in
               pld-opt's printed form. One `pld-opt --pld-lower-collectives
               --mlir-timing` run gives the parse time, each pass's time and
               the peak RSS; one `pld-opt` run without passes (parse + print)
               gives the RSS baseline.
      targets: lower-l2 <= 0.5x parse, all passes <= 1.5x parse (100k, 1M);
               peak RSS of the pipeline <= 1.5x that of parse + print.
               Also shown: the RSS of parse + print of the pipeline's
               output (2.6x the input's bytes), and from it the floor any
               tool needs to read this input and print this output: parse +
               print of the output with the input's file mapped instead
               of the output's (see pipeline_rows).

  mixed N    : N collectives of every variant of the table (all_to_all_v,
               indexed_all_to_all_v, allreduce mesh and ring, reduce_scatter,
               allgather, broadcast, all_to_all, barrier), 10 per function;
               the same columns and targets as pipeline N.

  if / for / while / nest / cf N : one function of N tasks, each under its
               own scf.if, in its own scf.for (a nest of two every 4th task),
               in its own scf.while, in groups of three in an scf.for whose
               iter_args carry the tensor (one under scf.if, one in an
               scf.while), or one per cf block (with a back edge every 8th
               block). All but cf run the whole pipeline on a CHIP
               orchestration body; cf runs --auto-derive-task-dependencies
               alone on a graph body (legalize refuses cf in CHIP bodies).
      targets: time per task at the largest N within 1.3x of that at the
               smallest; output bytes per task likewise (linear output).

    cargo build --release --bin pld-opt
    python3 benches/bench_pipeline.py [--pipeline 100000,1000000] [--cf 500,1000,2000,4000,8000]
        [--pipeline-repeat 3] [--repeat 5] [--no-verify] [--instructions]

The pass times include MLIR's verifier after every pass that changed the IR
(pld-opt's default); --no-verify runs the pipeline with --verify-each=0 to
show the passes' own share.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

from mlir_timing import run_timed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T = "!pld.dtensor<16x4xf32>"
SIG = "!pld.dtensor<2x8xi32>"
CNT = "!pld.dtensor<2xi32>"
L = "!pl.tensor<16x4xf32>"
PER_FUNC = 10
PASSES = ["LowerCompositeOps", "LowerL2TensorCollectives", "LegalizeSpmdLaunches", "DeriveCallDirections",
          "AutoDeriveTaskDependencies", "LowerHostTensorCollectives", "MaterializeDistTensorCtx"]

KERNELS = f'''func.func private @stage_step(%inp: {L} {{pl.direction = "in"}}, %stage: {T} {{pl.direction = "out"}},
    %counts: {CNT} {{pl.direction = "out"}}) -> ({T}, {CNT}) attributes {{pl.func_kind = "aiv", pl.kernel_source = "k.cpp"}} {{
  return %stage, %counts : {T}, {CNT}
}}
func.func private @consume_step(%data: {T} {{pl.direction = "in"}}, %recv: {CNT} {{pl.direction = "in"}},
    %out: {L} {{pl.direction = "out"}}) -> {L} attributes {{pl.func_kind = "aiv", pl.kernel_source = "k.cpp"}} {{
  return %out : {L}
}}
'''


def write_pipeline(path, n):
    with open(path, "w") as f:
        f.write(KERNELS)
        for fn in range(max(1, n // PER_FUNC)):
            f.write(f"func.func @chip{fn}(%inp: {L}, %out: {L}, %stage: {T}, %data: {T}, %signal: {SIG}, "
                    f"%counts: {CNT}, %recv: {CNT}) -> {L} attributes {{pl.func_kind = \"orchestration\"}} {{\n")
            for i in range(PER_FUNC):
                f.write(f"  %s{i}, %c{i} = func.call @stage_step(%inp, %stage, %counts) : ({L}, {T}, {CNT}) -> ({T}, {CNT})\n"
                        f"  %d{i} = pld.tensor.all_to_all_v %s{i}, %data, %signal, %c{i}, %recv {{core_num = 4 : i64}}"
                        f" : {T}, {T}, {SIG}, {CNT}, {CNT} -> {T}\n"
                        f"  %r{i} = func.call @consume_step(%d{i}, %recv, %out) : ({T}, {CNT}, {L}) -> {L}\n")
            f.write(f"  return %r{PER_FUNC - 1} : {L}\n}}\n")


# The mixed shape: every variant of the table in one module (pl.arch = "a5"
# for the indexed op), in per-function groups of ten collectives: the plain
# and indexed all_to_all_v and the whole family (allreduce mesh and ring,
# reduce_scatter, allgather, broadcast, all_to_all, barrier), each on its own
# signal so the task graph is not one chain.
MIX_T = "!pld.dtensor<16x4xf32>"
MIX_H = "!pld.dtensor<16x4xf16>"
MIX_S = "!pld.dtensor<4x2xi32>"
MIX_RING = "!pld.dtensor<7x4xi32>"
MIX_IN = "!pl.tensor<4x4xf32>"
MIX_A2A_IN = "!pl.tensor<16x4xf32>"
MIX_SIG2 = "!pld.dtensor<2x8xi32>"
MIX_CNT = "!pld.dtensor<2xi32>"
MIX_IDX = "!pl.tensor<16xi32>"
MIX_LCNT = "!pl.tensor<2xi32>"


def mixed_ops(i):
    """The ten collectives of group i (fresh result names)."""
    return [
        f"%ra{i} = pld.tensor.all_to_all_v %x, %t0, %g, %c, %r {{core_num = 4 : i64}} : {MIX_T}, {MIX_T}, {MIX_SIG2}, {MIX_CNT}, {MIX_CNT} -> {MIX_T}",
        f"%rb{i} = pld.tensor.indexed_all_to_all_v %xl, %t1, %g2, %c2, %rl, %idx {{core_num = 2 : i64}} : {MIX_A2A_IN}, {MIX_T}, {MIX_SIG2}, {MIX_CNT}, {MIX_LCNT}, {MIX_IDX} -> {MIX_T}",
        f"%rc{i} = pld.tensor.allreduce %t2, %s0 {{reduce = \"sum\", core_num = 2 : i64}} : {MIX_T}, {MIX_S} -> {MIX_T}",
        f"%rd{i} = pld.tensor.allreduce %h0, %ring {{reduce = \"max\", mode = \"ring\"}} : {MIX_H}, {MIX_RING} -> {MIX_H}",
        f"%re{i} = pld.tensor.reduce_scatter %t3, %s1 {{reduce = \"prod\"}} : {MIX_T}, {MIX_S} -> {MIX_T}",
        f"%rf{i} = pld.tensor.allgather %in, %t4, %s2 {{core_num = 2 : i64}} : {MIX_IN}, {MIX_T}, {MIX_S} -> {MIX_T}",
        f"%rg{i} = pld.tensor.broadcast %t5, %s3 {{root = 1 : i64}} : {MIX_T}, {MIX_S} -> {MIX_T}",
        f"%rh{i} = pld.tensor.all_to_all %xl, %t6, %s4 : {MIX_A2A_IN}, {MIX_T}, {MIX_S} -> {MIX_T}",
        f"%rk{i} = pld.tensor.barrier %s5 : {MIX_S} -> {MIX_S}",
        f"%rm{i} = pld.tensor.allreduce %h1, %s6 {{reduce = \"min\"}} : {MIX_H}, {MIX_S} -> {MIX_H}",
    ]


def write_mixed(path, n):
    params = (f"%x: {MIX_T}, %xl: {MIX_A2A_IN}, %in: {MIX_IN}, %g: {MIX_SIG2}, %g2: {MIX_SIG2}, %c: {MIX_CNT}, "
              f"%c2: {MIX_CNT}, %r: {MIX_CNT}, %rl: {MIX_LCNT}, %idx: {MIX_IDX}, %ring: {MIX_RING}, "
              + ", ".join(f"%t{k}: {MIX_T}" for k in range(7)) + ", "
              + ", ".join(f"%h{k}: {MIX_H}" for k in range(2)) + ", "
              + ", ".join(f"%s{k}: {MIX_S}" for k in range(7)))
    with open(path, "w") as f:
        f.write("module attributes {pl.arch = \"a5\"} {\n")
        for fn in range(max(1, n // PER_FUNC)):
            f.write(f"func.func @chip{fn}({params}) attributes {{pl.func_kind = \"orchestration\"}} {{\n")
            for op in mixed_ops(fn):
                f.write(f"  {op}\n")
            f.write("  return\n}\n")
        f.write("}\n")


# The control-flow shapes: tasks over two tensors x, y so that a task has
# edges of several classes (RAW, WAR, WAW, across tensors).
CF_KERNELS = f'''func.func private @upd(%a: {L} {{pl.direction = "inout"}}, %b: {L} {{pl.direction = "in"}})
    attributes {{pl.func_kind = "aiv", pl.kernel_source = "k.cpp"}} {{
  return
}}
func.func private @rd(%a: {L} {{pl.direction = "in"}}) attributes {{pl.func_kind = "aiv", pl.kernel_source = "k.cpp"}} {{
  return
}}
'''


def task(i, x="%x", y="%y"):
    k = i % 3
    if k == 0:
        return f"func.call @upd({x}, {y}) : ({L}, {L}) -> ()"
    if k == 1:
        return f"func.call @upd({y}, {x}) : ({L}, {L}) -> ()"
    return f"func.call @rd({x}) : ({L}) -> ()"


def write_cf_shape(path, kind, n):
    with open(path, "w") as f:
        f.write(CF_KERNELS)
        fk = "graph" if kind == "cf" else "orchestration"
        f.write(f"func.func @body(%x: {L}, %y: {L}, %c: i1, %n: index) attributes {{pl.func_kind = \"{fk}\"}} {{\n")
        if kind == "if":
            for i in range(n):
                f.write(f"  scf.if %c {{\n    {task(i)}\n  }}\n")
        elif kind == "while":
            for i in range(n):
                f.write(f"  scf.while : () -> () {{\n    scf.condition(%c)\n  }} do {{\n    {task(i)}\n    scf.yield\n  }}\n")
        elif kind == "nest":
            # Groups of three tasks on a loop-carried x (aliases through
            # iter_args): one under scf.if, one in an scf.while, one plain.
            f.write("  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n")
            for g in range((n + 2) // 3):
                a = f"%a{g}"
                f.write(f"  %r{g} = scf.for %i{g} = %c0 to %n step %c1 iter_args({a} = %x) -> ({L}) {{\n"
                        f"    scf.if %c {{\n      {task(0, x=a)}\n    }}\n"
                        f"    scf.while : () -> () {{\n      scf.condition(%c)\n    }} do {{\n      {task(1, x=a)}\n"
                        f"      scf.yield\n    }}\n"
                        f"    {task(2, x=a)}\n    scf.yield {a} : {L}\n  }}\n")
        elif kind == "for":
            f.write("  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n")
            i = 0
            while i < n:
                if i % 4 == 3 and i + 1 < n:
                    f.write(f"  scf.for %i{i} = %c0 to %n step %c1 {{\n    {task(i)}\n"
                            f"    scf.for %j{i} = %c0 to %n step %c1 {{\n      {task(i + 1)}\n    }}\n  }}\n")
                    i += 2
                else:
                    f.write(f"  scf.for %i{i} = %c0 to %n step %c1 {{\n    {task(i)}\n  }}\n")
                    i += 1
        else:
            f.write("  cf.br ^bb0\n")
            for i in range(n):
                f.write(f"^bb{i}:\n  {task(i)}\n")
                nxt = f"^bb{i + 1}" if i + 1 < n else "^exit"
                if i % 8 == 7:
                    f.write(f"  cf.cond_br %c, ^bb{i - 7}, {nxt}\n")
                else:
                    f.write(f"  cf.br {nxt}\n")
            f.write("^exit:\n")
        f.write("  return\n}\n")


VERIFY = []
OUTPUT_RSS_MAX = [100000]


def run(pld_opt, path, args, out=os.devnull):
    times, rss, _ = run_timed(pld_opt, path, args, out)
    return times, rss

def printed_form(pld_opt, raw, path):
    subprocess.run([pld_opt, raw, "-o", path], check=True)
    os.remove(raw)


def pipeline_rows(pld_opt, tmp, sizes, repeat, writer=None):
    writer = writer or write_pipeline
    print("| collectives | parse (s) | lower-l2 (s) | lower-l2 / parse | all passes (s) | passes / parse "
          "| peak RSS pipeline (MiB) | peak RSS parse+print (MiB) | RSS ratio | output / input bytes "
          "| peak RSS parse+print of the output (MiB) | floor (MiB) | floor / parse+print | RSS / floor |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    detail = []
    for n in sizes:
        raw, path = os.path.join(tmp, f"p{n}.raw.mlir"), os.path.join(tmp, f"p{n}.mlir")
        writer(raw, n)
        printed_form(pld_opt, raw, path)
        _, rss_base = run(pld_opt, path, [])
        # Each ratio is one run's; with --repeat, the run with the best
        # all-passes ratio is shown (the machine's noise is one-sided).
        runs = [run(pld_opt, path, ["--pld-lower-collectives", *VERIFY]) for _ in range(repeat)]
        ratio = lambda t: sum(t[0].get(p, 0.0) for p in PASSES) / t[0].get("Parser", 1.0)
        times, rss = min(runs, key=ratio)
        parse = times.get("Parser", 0.0)
        l2 = times.get("LowerL2TensorCollectives", 0.0)
        total = sum(times.get(p, 0.0) for p in PASSES)
        # The lowered module is larger than its input (each collective
        # becomes casts, a call and a cast back, every call gains attributes
        # and context arguments): parse + print of the *output* is the floor
        # any tool holding that module needs.
        # (Minutes at 1M: only up to --output-rss-max collectives.)
        # The floor: parse + print of the output with the input's file
        # mapped instead of the output's (the tool reads the input and
        # prints the output it holds; the file's pages are part of RSS).
        # An over-estimate by the parsed output's one location per op (the
        # lowered ops share their collective's).
        out_cols = "| | | | |"
        if n <= OUTPUT_RSS_MAX[0]:
            out = os.path.join(tmp, f"p{n}.out.mlir")
            run(pld_opt, path, ["--pld-lower-collectives", *VERIFY], out)
            _, rss_out = run(pld_opt, out, [])
            mib = 1024.0 * 1024.0
            growth = os.path.getsize(out) / os.path.getsize(path)
            floor = rss_out - os.path.getsize(out) / mib + os.path.getsize(path) / mib
            os.remove(out)
            out_cols = f"{growth:.2f} | {rss_out:.0f} | {floor:.0f} | {floor / rss_base:.2f} | **{rss / floor:.2f}** |"
        print(f"| {n} | {parse:.3f} | {l2:.3f} | **{l2 / parse:.2f}** | {total:.3f} | **{total / parse:.2f}** | "
              f"{rss:.0f} | {rss_base:.0f} | **{rss / rss_base:.2f}** | {out_cols}", flush=True)
        detail.append((n, parse, times))
        os.remove(path)
    print("\nper pass / parse:\n")
    print("| collectives | " + " | ".join(PASSES) + " |")
    print("|---:|" + "---:|" * len(PASSES))
    for n, parse, times in detail:
        print(f"| {n} | " + " | ".join(f"{times.get(p, 0.0) / parse:.2f}" for p in PASSES) + " |")


def cf_rows(pld_opt, tmp, sizes, repeat):
    print("\n| shape | tasks | parse (s) | passes (s) | µs per task | output bytes per task |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in ("if", "for", "while", "nest", "cf"):
        per = []
        for n in sizes:
            raw, path = os.path.join(tmp, f"{kind}{n}.raw.mlir"), os.path.join(tmp, f"{kind}{n}.mlir")
            write_cf_shape(raw, kind, n)
            printed_form(pld_opt, raw, path)
            out = os.path.join(tmp, f"{kind}{n}.out.mlir")
            args = ["--auto-derive-task-dependencies"] if kind == "cf" else ["--pld-lower-collectives"]
            args += VERIFY
            # Milliseconds at the small end: the best of `repeat` runs.
            runs = [run(pld_opt, path, args, out)[0] for _ in range(repeat)]
            times = min(runs, key=lambda t: sum(t.get(p, 0.0) for p in PASSES))
            passes = sum(times.get(p, 0.0) for p in PASSES)
            size = os.path.getsize(out)
            per.append((passes / n, size / n))
            print(f"| {kind} | {n} | {times.get('Parser', 0.0):.4f} | {passes:.4f} | {1e6 * passes / n:.2f} | "
                  f"{size / n:.0f} |", flush=True)
            os.remove(path)
            os.remove(out)
        print(f"| {kind} | {sizes[-1]} vs {sizes[0]} | | | **{per[-1][0] / per[0][0]:.2f}×** | "
              f"**{per[-1][1] / per[0][1]:.2f}×** |", flush=True)


def instructions(pld_opt, path, args):
    """Instructions (valgrind --tool=callgrind) of the parser and of each
    pass's own body (its runOnOperation, without the verifier after it)."""
    with tempfile.NamedTemporaryFile(suffix=".cg") as cg:
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg.name}", pld_opt, path, *args,
                        "-o", os.devnull], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        report = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", cg.name],
                                check=True, capture_output=True, text=True).stdout
    parse, passes = 0, 0
    for line in report.splitlines():
        m = re.match(r"^\s*([0-9,]+) .*?(mlir::parseSourceFile\(|pld::\(anonymous namespace\)::(\w+)::runOnOperation\(\))", line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        if m.group(3):
            passes += n
        elif not parse:
            parse = n
    return parse, passes


def cf_instruction_rows(pld_opt, tmp, sizes):
    """Time per task is noisy at a few milliseconds; instruction counts are
    exact: the passes' instructions per task at the largest size over the
    smallest shows whether the work itself is linear."""
    print("\n| shape | tasks | parse (M instr) | passes' own (M instr) | passes' instr per task | growth |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in ("if", "for", "while", "nest", "cf"):
        first = None
        for n in (sizes[0], sizes[-1]):
            raw, path = os.path.join(tmp, f"{kind}{n}.raw.mlir"), os.path.join(tmp, f"{kind}{n}.mlir")
            write_cf_shape(raw, kind, n)
            printed_form(pld_opt, raw, path)
            args = ["--auto-derive-task-dependencies"] if kind == "cf" else ["--pld-lower-collectives"]
            parse, passes = instructions(pld_opt, path, args + VERIFY)
            os.remove(path)
            first = first or passes / n
            print(f"| {kind} | {n} | {parse / 1e6:.1f} | {passes / 1e6:.1f} | {passes / n:.0f} | "
                  f"**{passes / n / first:.2f}×** |", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pipeline", default="100000,1000000")
    ap.add_argument("--cf", default="500,1000,2000,4000,8000")
    ap.add_argument("--mixed", default="100000",
                    help="sizes of the mixed shape (every variant of the table, 10 per function)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per control-flow row (the best is kept)")
    ap.add_argument("--pipeline-repeat", type=int, default=3, help="runs per pipeline row (the best is kept)")
    ap.add_argument("--pld-opt", default=os.path.join(ROOT, "target", "release", "pld-opt"))
    ap.add_argument("--no-verify", action="store_true", help="run the passes with --verify-each=0")
    ap.add_argument("--output-rss-max", type=int, default=100000,
                    help="measure parse+print of the output only up to this many collectives")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the control-flow shapes' instructions (valgrind) at the smallest and largest N")
    args = ap.parse_args()
    OUTPUT_RSS_MAX[0] = args.output_rss_max
    if args.no_verify:
        VERIFY.append("--verify-each=0")
    if not os.path.exists(args.pld_opt):
        sys.exit("build first: cargo build --release --bin pld-opt")
    with tempfile.TemporaryDirectory() as tmp:
        sizes = [int(s) for s in args.pipeline.split(",") if s]
        if sizes:
            pipeline_rows(args.pld_opt, tmp, sizes, args.pipeline_repeat)
        sizes = [int(s) for s in args.mixed.split(",") if s]
        if sizes:
            print("\nmixed collectives (every variant of the table):\n")
            pipeline_rows(args.pld_opt, tmp, sizes, args.pipeline_repeat, write_mixed)
        sizes = [int(s) for s in args.cf.split(",") if s]
        if sizes:
            cf_rows(args.pld_opt, tmp, sizes, args.repeat)
            if args.instructions:
                cf_instruction_rows(args.pld_opt, tmp, sizes)


if __name__ == "__main__":
    main()
