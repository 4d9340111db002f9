#!/usr/bin/env python3
"""A structured mutation fuzzer for pld-opt and pld-translate.

Seeds are every `.mlir` file under test/ and examples/ (split at `// -----`).
Each case mutates one seed in ways that matter here (integer literals at the
edges, shapes, element types, operands dropped / duplicated / swapped,
attributes removed or changed, symbols made to clash, terminators deleted,
lines wrapped in scf.for / scf.if, nested modules, recursion, byte flips) and
runs it through every pass, the whole pipeline and pld-translate. A run is a
finding when it

  crash        dies on a signal, exits with a code other than 0/1, or prints a
               panic, an assertion, `LLVM ERROR` or a stack dump;
  hang         exceeds the per-run timeout;
  invalid      exits 0 with output that pld-opt itself refuses to read back;
  half-rewrite fails, and --mlir-print-ir-after-failure shows a module other
               than the input (a pass rewrote, then failed).

Findings are minimized (line-wise delta debugging, keeping the same class and
tool; then, for a pld-opt finding that still parses and verifies, pld-reduce's
--reduction-tree with this script as its interestingness test) and written to fuzz/findings/ as lit-ready `.mlir` files with a RUN line
(move a fixed one under test/Fuzz/ as a regression).

    python3 fuzz/fuzz.py --seed 1 --cases 4000         # the CI slice (deterministic)
    python3 fuzz/fuzz.py --seed $RANDOM --minutes 60   # a campaign
"""
import argparse
import collections
import glob
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSES = [
    "lower-composite-ops", "lower-l2-tensor-collectives", "legalize-spmd-launches",
    "derive-call-directions", "auto-derive-task-dependencies", "lower-host-tensor-collectives",
    "materialize-dist-tensor-ctx", "pld-lower-collectives", "pld-test-func-kinds",
]
CRASH_MARKS = ("panicked", "Assertion", "LLVM ERROR", "Stack dump", "stack overflow",
               "fatal runtime error", "Segmentation fault", "AddressSanitizer", "runtime error:")
EDGE_INTS = ["0", "-1", "1", "2", "7", "8", "16", "2147483647", "2147483648", "-2147483648",
             "9223372036854775807", "-9223372036854775808", "4294967296"]
ELEMENTS = ["f32", "i8", "i32", "i64", "f16", "bf16", "i1", "index"]


def seeds():
    out = []
    for pattern in ("test/**/*.mlir", "examples/*.mlir"):
        for path in sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)):
            if "/Inputs/" in path and not path.endswith(".mlir"):
                continue
            with open(path, errors="replace") as f:
                text = f.read()
            for chunk in text.split("\n// -----\n"):
                # Drop lit/FileCheck directives: a mutant is a plain input.
                lines = [l for l in chunk.splitlines() if not re.match(r"\s*//\s*(RUN|CHECK|expected-)", l)]
                body = "\n".join(lines).strip()
                if "func.func" in body or "module" in body:
                    out.append((os.path.relpath(path, ROOT), body + "\n"))
    return out


# ---- mutations: each takes (rng, text) and returns a new text (or the same) ----
def m_int(rng, t):
    spots = [m for m in re.finditer(r"(?<![\w%#@.])-?\d+(?![\w.])", t)]
    if not spots:
        return t
    m = rng.choice(spots)
    return t[:m.start()] + rng.choice(EDGE_INTS) + t[m.end():]


def m_shape(rng, t):
    spots = list(re.finditer(r"<((?:[\d?]+x)+)", t))
    if not spots:
        return t
    m = rng.choice(spots)
    dims = m.group(1).split("x")[:-1]
    op = rng.randrange(4)
    if op == 0 and dims:
        dims[rng.randrange(len(dims))] = rng.choice(["0", "1", "3", "?", "16", "1024"])
    elif op == 1 and dims:
        dims.pop(rng.randrange(len(dims)))
    elif op == 2:
        dims.insert(rng.randrange(len(dims) + 1), rng.choice(["1", "2", "4"]))
    else:
        return t[:m.start()] + "<*x" + t[m.end():]
    return t[:m.start()] + "<" + "".join(d + "x" for d in dims) + t[m.end():]


def m_element(rng, t):
    spots = list(re.finditer(r"x(f32|i8|i32|i64|f16|bf16)>", t))
    if not spots:
        return t
    m = rng.choice(spots)
    return t[:m.start(1)] + rng.choice(ELEMENTS) + t[m.end(1):]


def m_operands(rng, t):
    spots = list(re.finditer(r"(%[\w#]+(?:, %[\w#]+)+)", t))
    if not spots:
        return t
    m = rng.choice(spots)
    ops = m.group(1).split(", ")
    op = rng.randrange(3)
    if op == 0:
        ops.pop(rng.randrange(len(ops)))
    elif op == 1:
        ops.insert(rng.randrange(len(ops) + 1), rng.choice(ops))
    else:
        i, j = rng.randrange(len(ops)), rng.randrange(len(ops))
        ops[i], ops[j] = ops[j], ops[i]
    return t[:m.start()] + ", ".join(ops) + t[m.end():]


def m_attr(rng, t):
    spots = list(re.finditer(r"(pl\.[\w.]+|core_num|offsets|sizes|perm|valid|bytes|offset|code|callee)\s*=\s*[^,}]+", t))
    if not spots:
        return t
    m = rng.choice(spots)
    key = m.group(1)
    choice = rng.randrange(4)
    if choice == 0:
        repl = ""
    elif choice == 1:
        repl = f'{key} = "bogus"'
    elif choice == 2:
        repl = f"{key} = {rng.choice(EDGE_INTS)} : i64"
    else:
        repl = f"{key} = array<i64: {rng.choice(EDGE_INTS)}, {rng.choice(EDGE_INTS)}>"
    out = t[:m.start()] + repl + t[m.end():]
    return re.sub(r"\{\s*,\s*", "{", re.sub(r",\s*,", ",", out))


def m_symbol(rng, t):
    names = re.findall(r"func\.func (?:private )?@([\w.\"]+)", t)
    if len(names) < 2:
        return t
    a, b = rng.sample(names, 2)
    return t.replace(f"@{a}(", f"@{b}(", 1)


def m_terminator(rng, t):
    lines = t.splitlines()
    idx = [i for i, l in enumerate(lines) if re.match(r"\s*(return|scf\.yield|pl\.yield|scf\.condition)\b", l)]
    if not idx:
        return t
    lines.pop(rng.choice(idx))
    return "\n".join(lines) + "\n"


def m_wrap(rng, t):
    lines = t.splitlines()
    # A whole one-line statement without results (a wrapped result would not dominate its uses).
    idx = [i for i, l in enumerate(lines)
           if re.match(r"\s+(func\.call|call|pl\.submit|pl\.tensor|pld\.tensor)\b", l) and l.rstrip().endswith(")")]
    if not idx:
        return t
    i = rng.choice(idx)
    if rng.random() < 0.5:
        pre = ["  %fz0 = arith.constant 0 : index", "  %fz1 = arith.constant 1 : index",
               "  scf.for %fzi = %fz0 to %fz1 step %fz1 {"]
    else:
        pre = ["  %fzc = arith.constant true", "  scf.if %fzc {"]
    return "\n".join(lines[:i] + pre + [lines[i], "  }"] + lines[i + 1:]) + "\n"


def m_nested_module(rng, t):
    m = re.search(r"func\.func[^{]*\{\n", t)
    if not m:
        return t
    return t[:m.end()] + "  builtin.module {\n  }\n" + t[m.end():]


def m_recursion(rng, t):
    m = re.search(r"func\.func (?:private )?@([\w.]+)\(([^)]*)\)[^{]*\{\n", t)
    if not m or m.group(2).strip():
        return t
    return t[:m.end()] + f"  func.call @{m.group(1)}() : () -> ()\n" + t[m.end():]


def m_bytes(rng, t):
    b = bytearray(t.encode())
    for _ in range(rng.randint(1, 3)):
        if b:
            b[rng.randrange(len(b))] = rng.randrange(256)
    return b.decode(errors="replace")


MUTATIONS = [m_int, m_int, m_shape, m_element, m_operands, m_attr, m_attr, m_symbol,
             m_terminator, m_wrap, m_nested_module, m_recursion, m_bytes]


def run(cmd, stdin, timeout):
    try:
        r = subprocess.run(cmd, input=stdin.encode(errors="replace"), capture_output=True, timeout=timeout)
        return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return None, "", ""


def classify(bindir, tool, arg, text, timeout, tmp):
    """Returns (class or None, detail)."""
    if tool == "pld-translate":
        cmd = [os.path.join(bindir, "pld-translate"), "--pld-to-ascend-build", "--allow-unregistered-dialect",
               "--output-dir", os.path.join(tmp, "tree"), "--kernel-source-dir", tmp]
    else:
        cmd = [os.path.join(bindir, "pld-opt"), f"--{arg}", "--mlir-print-ir-after-failure",
               "--allow-unregistered-dialect"]
    rc, out, err = run(cmd, text, timeout)
    if rc is None:
        return "hang", ""
    if rc < 0 or rc not in (0, 1) or any(m in err for m in CRASH_MARKS):
        line = next((l for l in err.splitlines() if any(m in l for m in CRASH_MARKS)), f"exit {rc}")
        return "crash", line
    if tool == "pld-opt" and rc == 0:
        reparse = [os.path.join(bindir, "pld-opt"), "--allow-unregistered-dialect", "-o", "/dev/null"]
        rc2, _, err2 = run(reparse, out, timeout)
        if rc2 != 0:
            # Not ours when MLIR's own print of the input does not read back
            # either (e.g. an empty symbol prints as @<<INVALID EMPTY SYMBOL>>).
            _, plain, _ = run([os.path.join(bindir, "pld-opt"), "--allow-unregistered-dialect"], text, timeout)
            if run(reparse, plain, timeout)[0] == 0:
                return "invalid", (err2.splitlines() or [""])[0]
    # A single pass only: in a pipeline the dump after a failure also shows what
    # the earlier, successful passes did.
    if tool == "pld-opt" and arg != "pld-lower-collectives" and rc == 1 and "// -----// IR Dump After" in err:
        dumped = err.split("// -----// IR Dump After", 1)[1].split("\n", 1)[1]
        rc3, before, _ = run([os.path.join(bindir, "pld-opt"), "--allow-unregistered-dialect"], text, timeout)
        if rc3 == 0 and normalize(before) != normalize(dumped):
            return "half-rewrite", arg
    return None, ""


def normalize(ir):
    return "\n".join(l.rstrip() for l in ir.strip().splitlines() if l.strip() and not l.startswith("//"))


def minimize(bindir, tool, arg, text, cls, timeout, tmp):
    lines = text.splitlines()
    chunk = max(1, len(lines) // 2)
    while chunk >= 1:
        i, changed = 0, False
        while i < len(lines):
            trial = lines[:i] + lines[i + chunk:]
            if trial and classify(bindir, tool, arg, "\n".join(trial) + "\n", timeout, tmp)[0] == cls:
                lines, changed = trial, True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return "\n".join(lines) + "\n"


def pld_reduce(bindir, arg, text, cls, timeout, tmp):
    """Shrinks a pld-opt finding further with pld-reduce (MLIR's reducer: it
    deletes ops and regions, and applies the pl/pld reduction patterns,
    keeping the module valid), when the finding still verifies. The
    interestingness test is this script's --interesting mode. Returns the
    smaller text, or `text`."""
    reducer = os.path.join(bindir, "pld-reduce")
    if not os.path.exists(reducer):
        return text
    source = os.path.join(tmp, "finding.mlir")
    with open(source, "w") as f:
        f.write(text)
    # Only a module the verifier accepts can be reduced (every candidate is verified).
    rc, _, _ = run([os.path.join(bindir, "pld-opt"), "--allow-unregistered-dialect", source], "", timeout)
    if rc != 0:
        return text
    script = os.path.join(tmp, "interesting.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n"
                f'exec "{sys.executable}" "{os.path.abspath(__file__)}" --interesting "{cls}" "{arg}" '
                f'--bindir "{bindir}" --timeout {timeout} "$@"\n')
    os.chmod(script, 0o755)
    tree = f"--reduction-tree=traversal-mode=0 test={script}"
    try:
        r = subprocess.run([reducer, source, "--allow-unregistered-dialect", tree, tree],
                           capture_output=True, timeout=20 * timeout)
    except subprocess.TimeoutExpired:
        return text
    reduced = r.stdout.decode(errors="replace")
    if r.returncode != 0 or not reduced.strip() or len(reduced.splitlines()) >= len(text.splitlines()):
        return text
    return reduced


def interesting(argv):
    """pld-reduce's interestingness test (exit 1 = interesting): the last
    argument, run as the finding was, is still a finding of the same class."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--interesting", nargs=2, metavar=("CLASS", "PASS"))
    ap.add_argument("--bindir", required=True)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    cls, arg = args.interesting
    with open(args.files[-1], errors="replace") as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        return 1 if classify(args.bindir, "pld-opt", arg, text, args.timeout, tmp)[0] == cls else 0


def main():
    if "--interesting" in sys.argv:
        return interesting(sys.argv[1:])
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=2.0)
    ap.add_argument("--cases", type=int, default=0,
                    help="stop after this many cases instead of at the deadline (a deterministic slice)")
    ap.add_argument("--bindir", default=os.environ.get("PLD_BIN_DIR", os.path.join(ROOT, "target", "debug")))
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--findings", default=os.path.join(ROOT, "fuzz", "findings"))
    ap.add_argument("--jobs", type=int, default=1,
                    help="runs at once; the cases, their order and the findings are the same for any value")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    corpus = seeds()
    deadline = time.time() + 60 * args.minutes
    counts = {"cases": 0, "runs": 0}
    findings = {}
    budget = f"{args.cases} cases" if args.cases else f"{args.minutes} min"
    print(f"fuzz: seed {args.seed}, {len(corpus)} seed inputs, {budget}, binaries {args.bindir}", flush=True)

    def runs():
        """Every (origin, text, tool, arg) of the slice, in order: only this draws from rng."""
        while (counts["cases"] < args.cases) if args.cases else (time.time() < deadline):
            origin, text = rng.choice(corpus)
            for _ in range(rng.randint(1, 3)):
                text = rng.choice(MUTATIONS)(rng, text)
            counts["cases"] += 1
            targets = [("pld-opt", rng.choice(PASSES)), ("pld-opt", "pld-lower-collectives")]
            if rng.random() < 0.3:
                targets.append(("pld-translate", "pld-to-ascend-build"))
            for tool, arg in targets:
                yield origin, text, tool, arg

    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max(1, args.jobs)) as pool:
        def classified(run):
            # Each run its own scratch folder (pld-translate writes a tree into it).
            scratch = tempfile.mkdtemp(dir=tmp)
            try:
                return run, classify(args.bindir, run[2], run[3], run[1], args.timeout, scratch)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)

        # The runs are classified side by side (a bounded window of them) and their results
        # taken in order, so what is reported and minimized does not depend on --jobs.
        window = collections.deque()
        pending = runs()
        while True:
            while len(window) < 2 * max(1, args.jobs):
                run = next(pending, None)
                if run is None:
                    break
                window.append(pool.submit(classified, run))
            if not window:
                break
            (origin, text, tool, arg), (cls, detail) = window.popleft().result()
            counts["runs"] += 1
            if cls is None:
                continue
            key = (cls, tool, arg, detail[:80])
            if key in findings:
                continue
            small = minimize(args.bindir, tool, arg, text, cls, args.timeout, tmp)
            if tool == "pld-opt":
                small = pld_reduce(args.bindir, arg, small, cls, args.timeout, tmp)
            digest = hashlib.sha1(small.encode(errors="replace")).hexdigest()[:10]
            os.makedirs(args.findings, exist_ok=True)
            path = os.path.join(args.findings, f"{cls}-{digest}.mlir")
            run_line = (f"// RUN: pld-translate %s --pld-to-ascend-build --output-dir %t" if tool == "pld-translate"
                        else f"// RUN: pld-opt %s --{arg}")
            with open(path, "w") as f:
                f.write(f"// fuzz finding: {cls} in {tool} {arg} ({detail}); seed {args.seed}, from {origin}\n{run_line}\n{small}")
            findings[key] = path
            print(f"fuzz: {cls}: {tool} --{arg}: {detail} -> {os.path.relpath(path, ROOT)}", flush=True)
    print(f"fuzz: {counts['cases']} cases, {counts['runs']} runs, {len(findings)} findings (seed {args.seed})")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
