//! Minimal task edges against the conservative relation (issue #16): on
//! random straight-line, structured (`scf.if` / `scf.for` / `scf.while`,
//! nested, loop-carried tensors) and `cf` programs, the new `pl.task_deps`
//! (1) are a subset of the reference's ([`super::reference`], the algorithm
//! before #16), (2) have the same transitive closure, and (3) hold no edge
//! that another listed predecessor implies through a path within one
//! iteration (each step to an earlier task; between two loop-carried edges,
//! each step to an earlier task too) -- see the tracker's module doc for why
//! a path around a loop implies nothing. In loop-free programs (straight
//! line, branches) (4) no edge is implied by another through any path at
//! all: the lists are the transitive reduction.

use super::{plan_function, reference};
use crate::{
    analysis::contiguity::ContiguityTrace,
    analysis::directions::Directions,
    ir::func_kind::is_orchestration_body,
    ir::walk::{function_map, module_functions},
};
use melior::{
    Context,
    ir::{Module, operation::OperationLike},
};

fn context() -> Context {
    // pl, pld, func, arith, scf, cf: what the random programs use.
    crate::test_context()
}

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const T: &str = "!pl.tensor<4xf32>";

/// Kernels by name and the number of tensor parameters.
const KERNELS: [(&str, usize); 8] = [
    ("r", 1),
    ("w", 1),
    ("rw", 1),
    ("r2", 2),
    ("u", 2),
    ("w2", 2),
    ("m", 2),
    ("wr", 2),
];

/// Each kernel's parameter directions (reads, writes), as `kernels()` declares them.
fn kernel_directions(name: &str) -> &'static [(bool, bool)] {
    const IN: (bool, bool) = (true, false);
    const OUT: (bool, bool) = (false, true);
    const INOUT: (bool, bool) = (true, true);
    match name {
        "r" => &[IN],
        "w" => &[OUT],
        "rw" => &[INOUT],
        "r2" => &[IN, IN],
        "u" => &[INOUT, IN],
        "w2" => &[OUT, OUT],
        "m" => &[IN, OUT],
        "wr" => &[OUT, IN],
        _ => unreachable!("kernel {name}"),
    }
}

/// A structured program as generated, for the dynamic check.
enum Stmt {
    /// A task: its id and what it does to each class (class, read, write).
    Task(usize, Vec<(u32, bool, bool)>),
    If(Vec<Stmt>, Vec<Stmt>),
    For(Vec<Stmt>),
    /// `scf.while`: the before region, then the after region.
    While(Vec<Stmt>, Vec<Stmt>),
}

fn kernels() -> String {
    let p = |d: &str| format!("%{d}: {T} {{pl.direction = \"{d}\"}}");
    let decl = |name: &str, params: Vec<String>| {
        format!(
            "func.func private @{name}({}) attributes {{pl.func_kind = \"aiv\"}}\n",
            params.join(", ")
        )
    };
    let mut s = String::new();
    s += &decl("r", vec![p("in")]);
    s += &decl("w", vec![p("out")]);
    s += &decl("rw", vec![p("inout")]);
    s += &decl("r2", vec![p("in"), p("in").replace("%in", "%in2")]);
    s += &decl("u", vec![p("inout"), p("in")]);
    s += &decl("w2", vec![p("out"), p("out").replace("%out", "%out2")]);
    s += &decl("m", vec![p("in"), p("out")]);
    s += &decl("wr", vec![p("out"), p("in")]);
    s
}

struct Gen {
    rng: Rng,
    out: String,
    names: usize,
    tasks: usize,
    max_tasks: usize,
    structured: bool,
    loops: bool,
}

impl Gen {
    fn fresh(&mut self, prefix: &str) -> String {
        self.names += 1;
        format!("%{prefix}{}", self.names)
    }

    fn call(&mut self, indent: &str, tensors: &[(String, u32)]) -> Stmt {
        let (name, arity) = KERNELS[self.rng.below(KERNELS.len())];
        let args: Vec<(String, u32)> = (0..arity)
            .map(|_| tensors[self.rng.below(tensors.len())].clone())
            .collect();
        let types = vec![T; arity].join(", ");
        let names: Vec<&str> = args.iter().map(|(n, _)| n.as_str()).collect();
        self.out += &format!(
            "{indent}func.call @{name}({}) : ({types}) -> ()\n",
            names.join(", ")
        );
        let mut accesses: Vec<(u32, bool, bool)> = Vec::new();
        for ((_, class), &(r, w)) in args.iter().zip(kernel_directions(name)) {
            match accesses.iter_mut().find(|a| a.0 == *class) {
                Some(a) => {
                    a.1 |= r;
                    a.2 |= w;
                }
                None => accesses.push((*class, r, w)),
            }
        }
        let id = self.tasks;
        self.tasks += 1;
        Stmt::Task(id, accesses)
    }

    /// A list of one to four statements at `depth` (at most `max_tasks` tasks in all).
    fn stmts(&mut self, indent: &str, depth: usize, tensors: &[(String, u32)]) -> Vec<Stmt> {
        let mut list = Vec::new();
        let count = 1 + self.rng.below(4);
        for _ in 0..count {
            if self.tasks >= self.max_tasks {
                break;
            }
            let nested = self.structured && depth < 3 && self.rng.chance(35);
            if !nested {
                list.push(self.call(indent, tensors));
                continue;
            }
            let inner = format!("{indent}  ");
            let kinds = if self.loops { 5 } else { 2 };
            let stmt = match self.rng.below(kinds) {
                0 => {
                    self.out += &format!("{indent}scf.if %c {{\n");
                    let then = self.stmts(&inner, depth + 1, tensors);
                    self.out += &format!("{indent}}}\n");
                    Stmt::If(then, Vec::new())
                }
                1 => {
                    self.out += &format!("{indent}scf.if %c {{\n");
                    let then = self.stmts(&inner, depth + 1, tensors);
                    self.out += &format!("{indent}}} else {{\n");
                    let other = self.stmts(&inner, depth + 1, tensors);
                    self.out += &format!("{indent}}}\n");
                    Stmt::If(then, other)
                }
                2 => {
                    let i = self.fresh("i");
                    self.out += &format!("{indent}scf.for {i} = %c0 to %n step %c1 {{\n");
                    let body = self.stmts(&inner, depth + 1, tensors);
                    self.out += &format!("{indent}}}\n");
                    Stmt::For(body)
                }
                3 => {
                    // A loop-carried tensor: the block argument aliases its initializer.
                    let i = self.fresh("i");
                    let acc = self.fresh("acc");
                    let res = self.fresh("res");
                    let (init, class) = tensors[self.rng.below(tensors.len())].clone();
                    self.out += &format!(
                        "{indent}{res} = scf.for {i} = %c0 to %n step %c1 iter_args({acc} = {init}) -> ({T}) {{\n"
                    );
                    let mut inner_tensors = tensors.to_vec();
                    inner_tensors.push((acc.clone(), class));
                    let body = self.stmts(&inner, depth + 1, &inner_tensors);
                    self.out += &format!("{inner}scf.yield {acc} : {T}\n{indent}}}\n");
                    Stmt::For(body)
                }
                _ => {
                    self.out += &format!("{indent}scf.while : () -> () {{\n");
                    let before = self.stmts(&inner, depth + 1, tensors);
                    self.out += &format!("{inner}scf.condition(%c)\n{indent}}} do {{\n");
                    let after = self.stmts(&inner, depth + 1, tensors);
                    self.out += &format!("{inner}scf.yield\n{indent}}}\n");
                    Stmt::While(before, after)
                }
            };
            list.push(stmt);
        }
        list
    }
}

/// A random module: one orchestration (or, for `cf`, graph) body over four
/// parameters and two views of them; and, unless `cf`, its statements.
fn program(seed: u64, shape: &str) -> (String, Option<Vec<Stmt>>) {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
        out: String::new(),
        names: 0,
        tasks: 0,
        max_tasks: 40,
        structured: shape == "structured" || shape == "branches",
        loops: shape == "structured",
    };
    let kind = if shape == "cf" {
        "graph"
    } else {
        "orchestration"
    };
    g.out += &kernels();
    g.out += &format!(
        "func.func @body(%t0: {T}, %t1: {T}, %t2: {T}, %t3: {T}, %c: i1, %n: index) attributes {{pl.func_kind = \"{kind}\"}} {{\n"
    );
    g.out += "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n";
    g.out += &format!(
        "  %v0 = pl.tensor.reshape %t0 : {T} -> {T}\n  %v1 = pl.tensor.reshape %t2 : {T} -> {T}\n"
    );
    // Each with its alias class: a view aliases its source.
    let mut tensors: Vec<(String, u32)> = [
        ("%t0", 0),
        ("%t1", 1),
        ("%t2", 2),
        ("%t3", 3),
        ("%v0", 0),
        ("%v1", 2),
    ]
    .iter()
    .map(|&(s, c)| (s.to_string(), c))
    .collect();
    // Fewer classes in some programs: more edges, more to reduce.
    if g.rng.chance(40) {
        tensors.truncate(2 + g.rng.below(2));
    }
    if shape != "cf" {
        let target = 5 + g.rng.below(30);
        let mut stmts = Vec::new();
        while g.tasks < target {
            stmts.extend(g.stmts("  ", 0, &tensors));
        }
        g.out += "  return\n}\n";
        return (g.out, Some(stmts));
    }
    // cf: blocks with random forward and backward branches; a block
    // argument carries a tensor now and then.
    let blocks = 2 + g.rng.below(5);
    let takes: Vec<bool> = (0..blocks).map(|_| g.rng.chance(30)).collect();
    g.out += "  cf.br ^b0";
    if takes[0] {
        g.out += &format!("(%t0 : {T})");
    }
    g.out += "\n";
    for b in 0..blocks {
        let mut local = tensors.clone();
        if takes[b] {
            g.out += &format!("^b{b}(%a{b}: {T}):\n");
            // (No dynamic check of cf programs: the class is not used.)
            local.push((format!("%a{b}"), u32::MAX));
        } else {
            g.out += &format!("^b{b}:\n");
        }
        g.stmts("  ", 0, &local);
        let target = |g: &mut Gen| -> String {
            let t = g.rng.below(blocks + 1);
            if t == blocks {
                "^exit".to_string()
            } else if takes[t] {
                format!("^b{t}({} : {T})", local[g.rng.below(local.len())].0)
            } else {
                format!("^b{t}")
            }
        };
        if g.rng.chance(50) {
            let (x, y) = (target(&mut g), target(&mut g));
            g.out += &format!("  cf.cond_br %c, {x}, {y}\n");
        } else {
            let x = target(&mut g);
            g.out += &format!("  cf.br {x}\n");
        }
    }
    g.out += "^exit:\n  return\n}\n";
    (g.out, None)
}

/// Everything reachable from `t` (not `t` itself unless on a cycle), over
/// `deps`, never entering `avoid`.
fn reach(deps: &[Vec<i64>], from: &[i64], avoid: Option<i64>) -> Vec<bool> {
    let mut seen = vec![false; deps.len()];
    let mut stack: Vec<i64> = from.to_vec();
    while let Some(u) = stack.pop() {
        for &v in &deps[u as usize] {
            if Some(v) != avoid && !seen[v as usize] {
                seen[v as usize] = true;
                stack.push(v);
            }
        }
    }
    seen
}

/// A loop of a structured program: its tasks `first..=last` and, for an
/// `scf.while`, the first of its after region.
struct LoopRange {
    first: i64,
    last: i64,
    after: Option<i64>,
}

/// Every loop of `stmts` (outer before inner); `next` is the next task id.
fn loop_ranges(stmts: &[Stmt], next: &mut i64, out: &mut Vec<LoopRange>) {
    for stmt in stmts {
        match stmt {
            Stmt::Task(..) => *next += 1,
            Stmt::If(a, b) => {
                loop_ranges(a, next, out);
                loop_ranges(b, next, out);
            }
            Stmt::For(body) => {
                let i = out.len();
                out.push(LoopRange {
                    first: *next,
                    last: 0,
                    after: None,
                });
                loop_ranges(body, next, out);
                out[i].last = *next - 1;
            }
            Stmt::While(before, after) => {
                let i = out.len();
                out.push(LoopRange {
                    first: *next,
                    last: 0,
                    after: None,
                });
                loop_ranges(before, next, out);
                out[i].after = Some(*next);
                loop_ranges(after, next, out);
                out[i].last = *next - 1;
            }
        }
    }
}

/// The innermost loop around `t` and `c` (its index), if any.
fn carrier(loops: &[LoopRange], t: i64, c: i64) -> Option<usize> {
    let (lo, hi) = (t.min(c), t.max(c));
    loops
        .iter()
        .enumerate()
        .filter(|(_, l)| l.first <= lo && hi <= l.last)
        .max_by_key(|(_, l)| l.first)
        .map(|(i, _)| i)
}

/// Whether the step `u -> v` goes from a while's after region into its
/// before region (once the while is over, the latest `v` ran after the latest
/// `u`: such a step implies nothing about it).
fn back_into_before(loops: &[LoopRange], u: i64, v: i64) -> bool {
    loops.iter().any(|l| {
        l.after
            .is_some_and(|a| a <= u && u <= l.last && l.first <= v && v < a)
    })
}

/// Whether `from` reaches `to` through steps each to an earlier task, none
/// from a while's after region into its before region.
fn forward_reach(deps: &[Vec<i64>], loops: &[LoopRange], from: i64, to: i64) -> bool {
    let mut seen = vec![false; deps.len()];
    let mut stack = vec![from];
    while let Some(u) = stack.pop() {
        for &v in &deps[u as usize] {
            if back_into_before(loops, u, v) {
                continue;
            }
            if v == to && v < u {
                return true;
            }
            if v < u && v > to && !seen[v as usize] {
                seen[v as usize] = true;
                stack.push(v);
            }
        }
    }
    false
}

fn closure(deps: &[Vec<i64>]) -> Vec<Vec<bool>> {
    (0..deps.len() as i64)
        .map(|t| reach(deps, &[t], None))
        .collect()
}

/// One run of `stmts`: each task instance in execution order, with whether
/// it ran (a task in the arm not taken, or in a loop that ran zero times, is
/// skipped: a scheduler completes it when its dependencies have). Each loop
/// runs 0 to 2 times (a while's before region once more).
fn run(stmts: &[Stmt], rng: &mut Rng, trace: &mut Vec<(usize, bool)>) {
    for stmt in stmts {
        match stmt {
            Stmt::Task(id, _) => trace.push((*id, true)),
            Stmt::If(then, other) => {
                if rng.chance(50) {
                    run(then, rng, trace);
                    skip(other, trace);
                } else {
                    skip(then, trace);
                    run(other, rng, trace);
                }
            }
            Stmt::For(body) => match rng.below(3) {
                0 => skip(body, trace),
                trips => (0..trips).for_each(|_| run(body, rng, trace)),
            },
            Stmt::While(before, after) => {
                let trips = rng.below(3);
                run(before, rng, trace);
                for _ in 0..trips {
                    run(after, rng, trace);
                    run(before, rng, trace);
                }
                if trips == 0 {
                    skip(after, trace);
                }
            }
        }
    }
}

/// Every task of `stmts`, skipped once.
fn skip(stmts: &[Stmt], trace: &mut Vec<(usize, bool)>) {
    for stmt in stmts {
        match stmt {
            Stmt::Task(id, _) => trace.push((*id, false)),
            Stmt::If(a, b) | Stmt::While(a, b) => {
                skip(a, trace);
                skip(b, trace);
            }
            Stmt::For(body) => skip(body, trace),
        }
    }
}

fn task_accesses(stmts: &[Stmt], out: &mut Vec<Vec<(u32, bool, bool)>>) {
    for stmt in stmts {
        match stmt {
            Stmt::Task(id, accesses) => {
                assert_eq!(*id, out.len(), "tasks numbered in program order");
                out.push(accesses.clone());
            }
            Stmt::If(a, b) | Stmt::While(a, b) => {
                task_accesses(a, out);
                task_accesses(b, out);
            }
            Stmt::For(body) => task_accesses(body, out),
        }
    }
}

/// The dynamic check (TensorMap semantics on real runs): over random runs
/// of `stmts`, each task instance waits for the latest instance of each of
/// its `deps` and of itself (its own previous run); every instance must then
/// reach, through those waits, the last instance that wrote each class it
/// touches and, if it writes the class, every instance that read it since.
/// (By induction that orders every conflicting pair.)
fn check_runs(stmts: &[Stmt], deps: &[Vec<i64>], seed: u64, source: &str) {
    let mut accesses = Vec::new();
    task_accesses(stmts, &mut accesses);
    assert_eq!(accesses.len(), deps.len());
    let mut rng = Rng(seed.wrapping_mul(0xd1b5_4a32_d192_ed03) | 1);
    for _ in 0..48 {
        let mut trace = Vec::new();
        run(stmts, &mut rng, &mut trace);
        let n = trace.len();
        let words = n.div_ceil(64).max(1);
        // ancestors[j]: every instance j waits for, transitively.
        let mut ancestors = vec![0u64; n * words];
        let mut latest: Vec<Option<usize>> = vec![None; deps.len()];
        let mut writer: Vec<Option<usize>> = vec![None; 4];
        let mut readers: Vec<Vec<usize>> = vec![Vec::new(); 4];
        for j in 0..n {
            let (t, real) = trace[j];
            let waits = deps[t].iter().map(|&d| d as usize).chain([t]);
            for d in waits {
                if let Some(i) = latest[d] {
                    ancestors[j * words + i / 64] |= 1 << (i % 64);
                    for w in 0..words {
                        ancestors[j * words + w] |= ancestors[i * words + w];
                    }
                }
            }
            latest[t] = Some(j);
            if !real {
                continue;
            }
            let reaches = |i: usize| ancestors[j * words + i / 64] & (1 << (i % 64)) != 0;
            for &(class, _, write) in &accesses[t] {
                let c = class as usize;
                let mut must: Vec<usize> = writer[c].into_iter().collect();
                if write {
                    must.extend(&readers[c]);
                }
                for i in must {
                    assert!(
                        reaches(i),
                        "run {:?}: instance {j} (task {t}) is not ordered after instance {i} (task {}) on class {class}\ndeps {deps:?}\n{source}",
                        trace
                            .iter()
                            .map(|&(t, real)| if real {
                                format!("{t}")
                            } else {
                                format!("({t})")
                            })
                            .collect::<Vec<_>>()
                            .join(" "),
                        trace[i].0
                    );
                }
            }
            for &(class, read, write) in &accesses[t] {
                let c = class as usize;
                if write {
                    writer[c] = Some(j);
                    readers[c].clear();
                } else if read {
                    readers[c].push(j);
                }
            }
        }
    }
}

/// Checks every property on one program; returns (tasks, new edges, reference edges).
fn check(source: &str, stmts: Option<&[Stmt]>, seed: u64) -> (usize, usize, usize) {
    let context = context();
    let module = Module::parse(&context, source)
        .unwrap_or_else(|| panic!("the generated IR parses:\n{source}"));
    assert!(
        module.as_operation().verify(),
        "the generated IR verifies:\n{source}"
    );
    let op = module.as_operation();
    let body = module.body();
    let mut counts = (0, 0, 0);
    for func in module_functions(&op)
        .iter()
        .filter(|f| is_orchestration_body(f))
    {
        let mut directions = Directions::new(function_map(&op), ContiguityTrace::new(body));
        let new: Vec<Vec<i64>> = plan_function(func, &mut directions)
            .into_iter()
            .map(|(_, _, d)| d)
            .collect();
        let mut directions = Directions::new(function_map(&op), ContiguityTrace::new(body));
        let old: Vec<Vec<i64>> = reference::plan_function(func, &mut directions)
            .into_iter()
            .map(|(_, _, d)| d)
            .collect();
        assert_eq!(new.len(), old.len());
        for (t, (n, o)) in new.iter().zip(&old).enumerate() {
            assert!(
                n.windows(2).all(|w| w[0] < w[1]),
                "task {t}: {n:?} not ascending\n{source}"
            );
            assert!(
                !n.contains(&(t as i64)),
                "task {t} depends on itself\n{source}"
            );
            assert!(
                n.iter().all(|d| o.contains(d)),
                "task {t}: {n:?} not within the reference's {o:?}\n{source}"
            );
        }
        if let Some(stmts) = stmts {
            check_runs(stmts, &new, seed, source);
        }
        let (cn, co) = (closure(&new), closure(&old));
        for t in 0..new.len() {
            assert_eq!(
                cn[t], co[t],
                "task {t}: closures differ\nnew {new:?}\nold {old:?}\n{source}"
            );
        }
        // (cf programs: no loop ranges; their blocks are one loop.)
        let mut loops = Vec::new();
        if let Some(stmts) = stmts {
            loop_ranges(stmts, &mut 0, &mut loops);
        }
        let loop_free =
            !source.contains("scf.for") && !source.contains("scf.while") && !source.contains("^b0");
        for (t, n) in new.iter().enumerate() {
            let t = t as i64;
            for &d in n {
                // (3) Within one iteration: the others on the same side of
                // t (later ones: carried by the same loop), forward paths.
                let same_side: Vec<i64> = n
                    .iter()
                    .copied()
                    .filter(|&x| x != d && (x < t) == (d < t))
                    .filter(|&x| d < t || carrier(&loops, t, x) == carrier(&loops, t, d))
                    .collect();
                assert!(
                    !same_side.iter().any(|&o| forward_reach(&new, &loops, o, d)),
                    "task {t}: edge to {d} is implied by another of {n:?} within one iteration\n{new:?}\n{source}"
                );
                // (4) Loop-free: through any path avoiding t.
                if loop_free {
                    let others: Vec<i64> = n.iter().copied().filter(|&x| x != d).collect();
                    assert!(
                        !reach(&new, &others, Some(t))[d as usize],
                        "task {t}: edge to {d} is implied by another of {n:?}\n{new:?}\n{source}"
                    );
                }
            }
        }
        counts.0 += new.len();
        counts.1 += new.iter().map(Vec::len).sum::<usize>();
        counts.2 += old.iter().map(Vec::len).sum::<usize>();
    }
    counts
}

fn run_shape(shape: &str, programs: u64) {
    let (mut tasks, mut new, mut old) = (0, 0, 0);
    for seed in 0..programs {
        let (source, stmts) = program(seed + 1, shape);
        let (t, n, o) = check(&source, stmts.as_deref(), seed);
        tasks += t;
        new += n;
        old += o;
    }
    // The suite is not vacuous: there were tasks, and edges to remove.
    assert!(tasks > programs as usize * 5, "{shape}: {tasks} tasks");
    assert!(
        new < old,
        "{shape}: {new} minimal edges vs {old} conservative ones"
    );
    eprintln!(
        "{shape}: {programs} programs, {tasks} tasks, {new} minimal edges, {old} conservative"
    );
}

#[test]
fn minimal_edges_on_straight_line_programs() {
    run_shape("straight", 300);
}

#[test]
fn minimal_edges_on_branching_programs() {
    run_shape("branches", 400);
}

#[test]
fn minimal_edges_on_structured_programs() {
    run_shape("structured", 600);
}

#[test]
fn minimal_edges_on_cf_programs() {
    run_shape("cf", 500);
}
