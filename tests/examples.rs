//! The example programs end to end: `examples/moe_layers.mlir`, `examples/micro_batches.mlir`,
//! `examples/tp_layer.mlir` and `examples/ep_moe.mlir` are lowered with
//! `pld-opt --pld-lower-collectives`, rendered with `pld-translate --pld-to-ascend-build`,
//! compiled with `g++ -std=c++17 -Wall -Wextra -Werror` against `runtime/include` together with
//! the host runtime and a small driver (`examples/drivers/*_driver.cpp`), and run for P = 2 and
//! P = 4 ranks. Every rank's output is compared with a golden computed here from the examples'
//! documented meaning (plain Rust loops over tokens and rows, no collective, nothing from the
//! crate). The lowered IR and the generated C++ are checked structurally: the loop is an
//! `scf.for` in the CHIP body, no collective op is left, each collective is one call of its
//! synthesized kernel inside the loop, and the orchestration source has a C++ `for (` with each
//! collective's task written once, after it (not unrolled).
//!
//! The examples are written for one rank count (micro_batches for P = 2, the others for P = 4);
//! the other is obtained by rewriting the P-dependent shapes listed in each `Example::shapes`
//! (each must occur in the file, so an edit of the example cannot silently leave a shape behind).

use std::{
    path::{Path, PathBuf},
    process::Command,
    sync::OnceLock,
    time::Instant,
};

const PLD_OPT: &str = env!("CARGO_BIN_EXE_pld-opt");
const PLD_TRANSLATE: &str = env!("CARGO_BIN_EXE_pld-translate");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch directory `CARGO_TARGET_TMPDIR/examples/<name>-<pid>` (unique per test process,
/// since other cargo processes may run these tests in the same tree), removed when its test
/// passes and kept for inspection when it fails.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn scratch_root() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("examples")
}

fn scratch(name: &str) -> Scratch {
    let dir = scratch_root().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn run(cmd: &mut Command) -> String {
    let shown = format!("{cmd:?}");
    let out = cmd.output().unwrap_or_else(|e| panic!("{shown}: {e}"));
    assert!(
        out.status.success(),
        "{shown} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `g++ -std=c++17 -Wall -Wextra -Werror -O1 -pthread -I runtime/include <args>`.
fn gxx(args: &[&str]) {
    let include = root().join("runtime/include");
    run(Command::new("g++")
        .args([
            "-std=c++17",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-O1",
            "-pthread",
            "-I",
        ])
        .arg(include)
        .args(args));
}

/// runtime/host/runtime.cpp compiled once per test process, into `runtime-<pid>` (the folders
/// of test processes that are gone are removed first).
fn runtime_object() -> &'static Path {
    static OBJ: OnceLock<PathBuf> = OnceLock::new();
    OBJ.get_or_init(|| {
        if let Ok(entries) = std::fs::read_dir(scratch_root()) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let pid = name
                    .strip_prefix("runtime-")
                    .and_then(|p| p.parse::<u32>().ok());
                if pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
        let dir = scratch_root().join(format!("runtime-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let obj = dir.join("runtime.o");
        let src = root().join("runtime/host/runtime.cpp");
        gxx(&["-c", src.to_str().unwrap(), "-o", obj.to_str().unwrap()]);
        obj
    })
}

/// Rewrites each `from` of `shapes` to its `to`, all at once (a replacement never sees
/// another's output). Every `from` must occur.
fn retarget(text: &str, shapes: &[(&str, String)]) -> String {
    let mut out = text.to_string();
    for (i, (from, _)) in shapes.iter().enumerate() {
        assert!(
            out.contains(from),
            "the example no longer contains `{from}`: update tests/examples.rs"
        );
        out = out.replace(from, &format!("\u{1}{i}\u{1}"));
    }
    for (i, (_, to)) in shapes.iter().enumerate() {
        out = out.replace(&format!("\u{1}{i}\u{1}"), to);
    }
    out
}

struct Example {
    /// File stem under examples/ and the CHIP orchestration function's name.
    name: &'static str,
    /// The rank count the file is written for.
    written_for: usize,
    /// The P-dependent text of the file and its form for P ranks.
    shapes: fn(usize) -> Vec<(&'static str, String)>,
    /// HOST orchestrators the tree must contain (`host/<name>.cpp`).
    hosts: &'static [&'static str],
    /// Whether the loop has iter_args.
    loop_carried: bool,
    /// The synthesized kernels the CHIP body's collectives become, each with how many
    /// collectives of the body call it (each collective is one task in the C++, whatever the
    /// trip count).
    collectives: &'static [(&'static str, usize)],
}

/// Every collective op of the dialect (its ODS trait, through pld's API): none may be left in
/// the lowered IR.
fn collective_ops() -> Vec<String> {
    pld::collective_op_names(&pld::create_context())
}

struct Built {
    dir: Scratch,
    exe: PathBuf,
}

/// Lowers, renders, checks and compiles `ex` for `p` ranks with `driver`.
fn build(ex: &Example, p: usize, driver: &str) -> Built {
    let t0 = Instant::now();
    let scratch = scratch(&format!("{}-p{p}", ex.name));
    let dir = scratch.0.clone();
    let source =
        std::fs::read_to_string(root().join(format!("examples/{}.mlir", ex.name))).unwrap();
    let text = retarget(&source, &(ex.shapes)(p));
    if p == ex.written_for {
        assert_eq!(
            text, source,
            "retargeting to the rank count the file is written for must change nothing"
        );
    }
    let input = dir.join(format!("{}.mlir", ex.name));
    std::fs::write(&input, &text).unwrap();

    // pld-opt: the whole pipeline.
    let lowered = run(Command::new(PLD_OPT)
        .arg("--pld-lower-collectives")
        .arg(&input));
    let lowered_path = dir.join(format!("{}.lowered.mlir", ex.name));
    std::fs::write(&lowered_path, &lowered).unwrap();
    let ops = collective_ops();
    assert!(ops.len() >= 8, "{ops:?}");
    let left: Vec<&str> = lowered
        .lines()
        .filter(|l| ops.iter().any(|op| is_op(l, op)))
        .collect();
    assert!(
        left.is_empty(),
        "a collective was left in the lowered IR: {left:?}"
    );
    let body = function_text(&lowered, ex.name);
    let loop_at = body
        .find("scf.for")
        .unwrap_or_else(|| panic!("@{} lost its scf.for:\n{body}", ex.name));
    if ex.loop_carried {
        assert!(
            body[loop_at..]
                .lines()
                .next()
                .unwrap()
                .contains("iter_args("),
            "the loop carries its windows:\n{body}"
        );
    }
    for &(kernel, n) in ex.collectives {
        let call = format!("func.call @{kernel}(");
        let calls: Vec<usize> = body.match_indices(&call).map(|(i, _)| i).collect();
        assert_eq!(
            calls.len(),
            n,
            "each collective becomes one call of @{kernel}:\n{body}"
        );
        assert!(
            calls.iter().all(|&c| c > loop_at),
            "the collectives are inside the loop:\n{body}"
        );
    }

    // pld-translate: the build tree.
    let tree = dir.join("build");
    run(Command::new(PLD_TRANSLATE)
        .args(["--pld-to-ascend-build", "--output-dir"])
        .arg(&tree)
        .arg("--kernel-source-dir")
        .arg(root().join("runtime/examples"))
        .arg(&lowered_path));
    let sub = tree.join("next_levels").join(ex.name);
    let orch = sub.join(format!("orchestration/{}.cpp", ex.name));
    let cpp = std::fs::read_to_string(&orch).unwrap();
    assert!(
        cpp.contains("for ("),
        "{} has no C++ loop:\n{cpp}",
        orch.display()
    );
    let loop_at = cpp.find("for (").unwrap();
    for &(kernel, n) in ex.collectives {
        let name = format!("\"{kernel}\"");
        let tasks: Vec<usize> = cpp
            .match_indices("Task task(")
            .filter(|(i, _)| cpp[*i..].lines().next().is_some_and(|l| l.contains(&name)))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(
            tasks.len(),
            n,
            "each {kernel} collective is submitted from one place (not unrolled):\n{cpp}"
        );
        assert!(
            tasks.iter().all(|&i| i > loop_at),
            "the collectives are inside the loop:\n{cpp}"
        );
    }

    // g++: every kernel once (renamed entry, registered by name), then the rest.
    let mut objects = vec![runtime_object().to_path_buf()];
    let mut kernels: Vec<PathBuf> = std::fs::read_dir(sub.join("kernels/aiv"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    kernels.sort();
    for (i, k) in kernels.iter().enumerate() {
        let name = k.file_stem().unwrap().to_str().unwrap();
        let obj = dir.join(format!("k{i}.o"));
        gxx(&[
            "-c",
            k.to_str().unwrap(),
            "-o",
            obj.to_str().unwrap(),
            &format!("-Dkernel_entry=pld_example_k{i}"),
            &format!("-DPLD_KERNEL_NAME=\"{name}\""),
        ]);
        objects.push(obj);
    }
    let mut sources = vec![root().join("examples/drivers").join(driver), orch];
    for host in ex.hosts {
        let h = tree.join(format!("host/{host}.cpp"));
        assert!(h.exists(), "{} is missing", h.display());
        sources.push(h);
    }
    let exe = dir.join("run");
    let mut args: Vec<String> = vec!["-o".into(), exe.to_str().unwrap().into()];
    args.extend(
        sources
            .iter()
            .chain(&objects)
            .map(|p| p.to_str().unwrap().to_string()),
    );
    gxx(&args.iter().map(String::as_str).collect::<Vec<_>>());
    eprintln!(
        "{} P={p}: lowered, rendered and compiled in {:.1?}",
        ex.name,
        t0.elapsed()
    );
    Built { dir: scratch, exe }
}

/// Whether the printed IR line is an `op` operation (custom or generic form, with or without
/// results); a string attribute that merely names the op does not count.
fn is_op(line: &str, op: &str) -> bool {
    let line = line.trim_start();
    let rest = match line.split_once(" = ") {
        Some((results, rest)) if results.starts_with('%') => rest,
        _ => line,
    };
    rest.starts_with(&format!("{op} ")) || rest.starts_with(&format!("\"{op}\"("))
}

/// The text of `func.func @name(` up to the next top-level function.
fn function_text<'a>(module: &'a str, name: &str) -> &'a str {
    let start = module
        .find(&format!("func.func @{name}("))
        .unwrap_or_else(|| panic!("no @{name} in:\n{module}"));
    let rest = &module[start..];
    let end = rest[1..]
        .find("\n  func.func ")
        .map(|e| e + 1)
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Deterministic integer-valued inputs in [0, 30).
fn inputs(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 33) % 30) as f32
        })
        .collect()
}

fn write_floats(path: &Path, v: &[f32]) {
    let text: Vec<String> = v.iter().map(|x| format!("{x}")).collect();
    std::fs::write(path, text.join(" ")).unwrap();
}

/// A driver's report: `status`, per-rank statuses, named counters and tagged rows of floats.
struct Report {
    text: String,
    /// What the run wrote to stderr (the runtime's error reports).
    stderr: String,
}

impl Report {
    fn value(&self, key: &str) -> i64 {
        self.text
            .lines()
            .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix(' ')))
            .unwrap_or_else(|| panic!("no `{key}` in the driver's output:\n{}", self.text))
            .trim()
            .parse()
            .unwrap()
    }
    fn rank_statuses(&self) -> Vec<i64> {
        self.text
            .lines()
            .filter_map(|l| l.strip_prefix("rank_status "))
            .map(|r| r.split_whitespace().nth(1).unwrap().parse().unwrap())
            .collect()
    }
    /// The floats of every line `<tag> <ids...> <floats>` (`ids` integers skipped), in order.
    fn rows(&self, tag: &str, ids: usize) -> Vec<Vec<f32>> {
        self.text
            .lines()
            .filter_map(|l| l.strip_prefix(tag).and_then(|r| r.strip_prefix(' ')))
            .map(|r| {
                r.split_whitespace()
                    .skip(ids)
                    .map(|x| x.parse().unwrap())
                    .collect()
            })
            .collect()
    }
}

fn run_driver(exe: &Path, args: &[&str]) -> Report {
    let mut cmd = Command::new(exe);
    cmd.args(args).env("PLD_WAIT_TIMEOUT_MS", "10000");
    let shown = format!("{cmd:?}");
    let out = cmd.output().unwrap_or_else(|e| panic!("{shown}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{shown} failed ({}):\n{stderr}",
        out.status
    );
    Report {
        text: String::from_utf8(out.stdout).unwrap(),
        stderr,
    }
}

fn assert_rows_eq(what: &str, got: &[Vec<f32>], want: &[Vec<f32>]) {
    assert_eq!(got.len(), want.len(), "{what}: row count");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "{what}: row {i} differs");
    }
}

// ---------------------------------------------------------------------------- moe_layers

const MOE_TOKENS: usize = 8;
const MOE_HIDDEN: usize = 4;
const MOE_CAPACITY: usize = 3;

const MOE: Example = Example {
    name: "moe_layers",
    written_for: 4,
    shapes: |p| {
        vec![
            ("<32x4xf32>", format!("<{}x4xf32>", p * MOE_TOKENS)),
            ("<12x4xf32>", format!("<{}x4xf32>", p * MOE_CAPACITY)),
            ("<4x8xi32>", format!("<{p}x8xi32>")),
            ("<4xi32>", format!("<{p}xi32>")),
            (
                "%devices = arith.constant 4 : index",
                format!("%devices = arith.constant {p} : index"),
            ),
        ]
    },
    hosts: &["moe_host"],
    loop_carried: true,
    collectives: &[("__builtin_all_to_all_v__fp32", 2)],
};

/// One MoE layer's meaning, per token: token t of rank r goes to expert
/// e = (int(sum of h) + layer) mod P unless C earlier tokens of r already went to e in this layer;
/// a routed token becomes h + (2h + e + 1), a dropped one stays h. Returns whether a token was
/// dropped.
fn moe_layer(p: usize, layer: i64, h: &mut [Vec<f32>]) -> bool {
    let mut dropped = false;
    for r in 0..p {
        let mut taken = vec![0usize; p];
        for row in &mut h[r * MOE_TOKENS..(r + 1) * MOE_TOKENS] {
            let key = row.iter().fold(0.0f32, |s, x| s + x) as i64;
            let e = (key + layer).rem_euclid(p as i64) as usize;
            if taken[e] == MOE_CAPACITY {
                dropped = true;
                continue;
            }
            taken[e] += 1;
            for x in row.iter_mut() {
                let y = 2.0f32 * *x + (e + 1) as f32;
                *x += y;
            }
        }
    }
    dropped
}

/// Every rank's tokens after `layers` layers (none for layers <= 0), and whether the capacity
/// dropped a token.
fn moe_golden(p: usize, layers: i64, inp: &[f32]) -> (Vec<Vec<f32>>, bool) {
    let mut h: Vec<Vec<f32>> = inp.chunks(MOE_HIDDEN).map(|c| c.to_vec()).collect();
    let mut dropped = false;
    for layer in 0..layers.max(0) {
        dropped |= moe_layer(p, layer, &mut h);
    }
    (h, dropped)
}

/// The launch width of a collective with core_num `l` on `p` ranks (RFC #2521): `l` below `p`,
/// else the largest multiple of `p` not above `l`.
fn launch_width(p: i64, l: i64) -> i64 {
    if l < p { l } else { l / p * p }
}

/// The signal stride S of the example's signal window ([P, 8]).
const MOE_SIGNAL_STRIDE: i64 = 8;

fn moe(p: usize) {
    let built = build(&MOE, p, "moe_driver.cpp");
    let dir = &built.dir.0;
    let mut dropped_somewhere = false;
    // (mode, num_layers, core_num, input seed)
    let cases = [
        ("chip", 3, 4, 1),
        ("chip", 1, 1, 2),
        ("chip", 2, 3, 3),
        ("chip", 4, 9, 4), // folded to B = 8 = S
        ("chip", 0, 4, 5),
        ("chip", -2, 4, 6),
        ("chip", 5, 2, 7),
        ("host", 3, 4, 8),
        ("host", 2, 8, 9),
        // A core_num the runtime check refuses: every rank stops with 5 before the first collective.
        ("chip", 3, 0, 10),
        ("chip", 2, 16, 11),
        ("host", 3, -1, 12),
        // ... which is only reached when the loop runs.
        ("chip", 0, 0, 13),
    ];
    for (mode, layers, core_num, seed) in cases {
        let inp = inputs(p * MOE_TOKENS * MOE_HIDDEN, seed + 100 * p as u64);
        let file = dir.join(format!("inp-{seed}.txt"));
        write_floats(&file, &inp);
        let (ps, ls, cs) = (p.to_string(), layers.to_string(), core_num.to_string());
        let report = run_driver(&built.exe, &[&ps, &ls, &cs, mode, file.to_str().unwrap()]);
        let what = format!("moe_layers P={p} {mode} num_layers={layers} core_num={core_num}");
        let (pi, runs) = (p as i64, layers.max(0));
        let b = launch_width(pi, core_num);
        let refused =
            runs > 0 && (!(1..=i64::from(i32::MAX)).contains(&core_num) || b > MOE_SIGNAL_STRIDE);
        if refused {
            assert_eq!(report.value("status"), 5, "{what}:\n{}", report.text);
            assert_eq!(
                report.rank_statuses(),
                vec![5; p],
                "{what}:\n{}",
                report.text
            );
            // The CHIP rail's require message reaches run_host_entry's caller (the
            // driver prints what it returned) and stderr, on both rails.
            assert!(
                report
                    .text
                    .contains("message pld.tensor.all_to_all_v: core_num"),
                "{what}:\n{}",
                report.text
            );
            assert!(
                report.stderr.contains(
                    "error 5: pld.tensor.all_to_all_v: core_num must be in [1, 2147483647]"
                ),
                "{what}: stderr:\n{}",
                report.stderr
            );
            // The report names the values the check saw.
            let seen = format!("(seen: core_num L={core_num}, B={b})");
            assert!(
                report.text.contains(&seen),
                "{what}: no {seen}:\n{}",
                report.text
            );
            // moe_load and the first moe_route ran; no collective, nothing after it.
            assert_eq!(report.value("blocks"), 2 * pi, "{what}:\n{}", report.text);
            assert_rows_eq(
                &what,
                &report.rows("row", 1),
                &vec![vec![-1.0; MOE_HIDDEN]; p * MOE_TOKENS],
            );
        } else {
            assert_eq!(report.value("status"), 0, "{what}:\n{}", report.text);
            assert_eq!(
                report.rank_statuses(),
                vec![0; p],
                "{what}:\n{}",
                report.text
            );
            // Per rank: load + store, and per layer route + expert + gather + two collectives of B blocks.
            assert_eq!(
                report.value("blocks"),
                pi * (2 + runs * (3 + 2 * b)),
                "{what}: launch widths"
            );
            let (want, dropped) = moe_golden(p, layers, &inp);
            assert_rows_eq(&what, &report.rows("row", 1), &want);
            dropped_somewhere |= dropped;
        }
        if mode == "chip" {
            assert_eq!(
                report.value("signal_sum"),
                0,
                "{what}: every signal cell back to 0"
            );
        }
    }
    assert!(
        dropped_somewhere,
        "P={p}: no input exercised the capacity limit"
    );
}

#[test]
fn moe_layers_p2() {
    moe(2);
}

#[test]
fn moe_layers_p4() {
    moe(4);
}

// ---------------------------------------------------------------------------- micro_batches

const MB_MICRO: usize = 3;
const MB_PER_PEER: usize = 2;
const MB_HIDDEN: usize = 3;

const MICRO: Example = Example {
    name: "micro_batches",
    written_for: 2,
    shapes: |p| {
        let mb = p * MB_PER_PEER;
        vec![
            ("<12x3xf32>", format!("<{}x3xf32>", MB_MICRO * mb)),
            ("<4x3xf32>", format!("<{mb}x3xf32>")),
            ("array<i64: 4, 3>", format!("array<i64: {mb}, 3>")),
            ("<2x4xi32>", format!("<{p}x4xi32>")),
            ("<2xi32>", format!("<{p}xi32>")),
            (
                "%mb = arith.constant 4 : index",
                format!("%mb = arith.constant {mb} : index"),
            ),
        ]
    },
    hosts: &[],
    loop_carried: false,
    collectives: &[("__builtin_all_to_all_v__fp32", 1)],
};

/// Micro-batch i of rank q, rows [i*mb + r*R, +R), is for rank r: the rows whose int(first
/// element) is not a multiple of 3, in order, become rows i*mb + q*R + k of r's y as 2x + 1;
/// the rest of those R rows are 0.
fn micro_golden(p: usize, x: &[Vec<Vec<f32>>]) -> Vec<Vec<Vec<f32>>> {
    let mb = p * MB_PER_PEER;
    let mut y = vec![vec![vec![0.0f32; MB_HIDDEN]; MB_MICRO * mb]; p];
    for (r, yr) in y.iter_mut().enumerate() {
        for i in 0..MB_MICRO {
            for (q, xq) in x.iter().enumerate() {
                let chunk = &xq[i * mb + r * MB_PER_PEER..i * mb + (r + 1) * MB_PER_PEER];
                let kept = chunk.iter().filter(|row| (row[0] as i64) % 3 != 0);
                for (k, row) in kept.enumerate() {
                    yr[i * mb + q * MB_PER_PEER + k] =
                        row.iter().map(|v| 2.0f32 * v + 1.0).collect();
                }
            }
        }
    }
    y
}

fn micro(p: usize) {
    let built = build(&MICRO, p, "micro_batches_driver.cpp");
    let dir = &built.dir.0;
    let rows = MB_MICRO * p * MB_PER_PEER;
    for seed in [11u64, 12, 13] {
        let flat = inputs(p * rows * MB_HIDDEN, seed + 100 * p as u64);
        let x: Vec<Vec<Vec<f32>>> = flat
            .chunks(rows * MB_HIDDEN)
            .map(|rank| rank.chunks(MB_HIDDEN).map(|c| c.to_vec()).collect())
            .collect();
        let file = dir.join(format!("x-{seed}.txt"));
        write_floats(&file, &flat);
        let report = run_driver(&built.exe, &[&p.to_string(), file.to_str().unwrap()]);
        let what = format!("micro_batches P={p} seed {seed}");
        assert_eq!(report.value("status"), 0, "{what}:\n{}", report.text);
        assert_eq!(
            report.rank_statuses(),
            vec![0; p],
            "{what}:\n{}",
            report.text
        );
        assert_eq!(
            report.value("signal_sum"),
            0,
            "{what}: every signal cell back to 0"
        );
        assert_eq!(
            report.value("live_buffers"),
            0,
            "{what}: the per-iteration creates are freed on return"
        );
        let want: Vec<Vec<f32>> = micro_golden(p, &x).into_iter().flatten().collect();
        assert_rows_eq(&what, &report.rows("y", 2), &want);
    }
}

#[test]
fn micro_batches_p2() {
    micro(2);
}

#[test]
fn micro_batches_p4() {
    micro(4);
}

// ---------------------------------------------------------------------------- tp_layer

const TP_TOKENS: usize = 4;
const TP_HIDDEN: usize = 6;
const TP_SHARD: usize = 3;
const TP_LAYERS: usize = 3;

const TP: Example = Example {
    name: "tp_layer",
    written_for: 4,
    shapes: |p| {
        let ffn = p * TP_SHARD;
        vec![
            ("<18x12xf32>", format!("<18x{ffn}xf32>")),
            ("<36x6xf32>", format!("<{}x6xf32>", TP_LAYERS * ffn)),
            ("<6x12xf32>", format!("<6x{ffn}xf32>")),
            ("<12x6xf32>", format!("<{ffn}x6xf32>")),
            ("<16x6xf32>", format!("<{}x6xf32>", p * TP_TOKENS)),
            ("<4x2xi32>", format!("<{p}x2xi32>")),
            ("array<i64: 6, 12>", format!("array<i64: 6, {ffn}>")),
            ("array<i64: 12, 6>", format!("array<i64: {ffn}, 6>")),
            (
                "%ffn = arith.constant 12 : index",
                format!("%ffn = arith.constant {ffn} : index"),
            ),
            (
                "%devices = arith.constant 4 : index",
                format!("%devices = arith.constant {p} : index"),
            ),
        ]
    },
    hosts: &["tp_host"],
    loop_carried: true,
    collectives: &[("__builtin_allreduce_sum__fp32", 1)],
};

/// The unsharded MLP the ranks compute together, in exact integer arithmetic: per layer l,
/// x <- x + relu(x @ W1_l) @ W2_l, with W1_l rows [l*H, (l+1)*H) of w1 ([NL*H, F]) and W2_l rows
/// [l*F, (l+1)*F) of w2 ([NL*F, H]). The inputs are small integers, so every value is an integer;
/// the golden also asserts that every sum the ranks form in f32 (each dot product, and the
/// allreduce's fold of the partial outputs and the residual) has a sum of magnitudes below 2^24,
/// so f32 represents every partial sum exactly and the result is exact in any summation order:
/// the comparison is bitwise. Returns the output and whether the relu clamped a pre-activation
/// and let another through (the nonlinearity is exercised).
fn tp_golden(p: usize, x: &[i64], w1: &[i64], w2: &[i64]) -> (Vec<Vec<i64>>, bool) {
    const EXACT: i64 = 1 << 24;
    let (t_n, h_n, f_n) = (TP_TOKENS, TP_HIDDEN, p * TP_SHARD);
    let mut x: Vec<Vec<i64>> = x.chunks(h_n).map(|c| c.to_vec()).collect();
    let (mut clamped, mut passed) = (false, false);
    for l in 0..TP_LAYERS {
        let w1_at = |k: usize, j: usize| w1[(l * h_n + k) * f_n + j];
        let w2_at = |j: usize, i: usize| w2[(l * f_n + j) * h_n + i];
        let mut next = x.clone();
        for t in 0..t_n {
            let a: Vec<i64> = (0..f_n)
                .map(|j| {
                    let dot: i64 = (0..h_n).map(|k| x[t][k] * w1_at(k, j)).sum();
                    let mag: i64 = (0..h_n).map(|k| (x[t][k] * w1_at(k, j)).abs()).sum();
                    assert!(
                        mag < EXACT,
                        "tp_layer: the inputs overflow f32's exact integers"
                    );
                    clamped |= dot < 0;
                    passed |= dot > 0;
                    dot.max(0)
                })
                .collect();
            for i in 0..h_n {
                let dot: i64 = (0..f_n).map(|j| a[j] * w2_at(j, i)).sum();
                let mag: i64 =
                    x[t][i].abs() + (0..f_n).map(|j| (a[j] * w2_at(j, i)).abs()).sum::<i64>();
                assert!(
                    mag < EXACT,
                    "tp_layer: the inputs overflow f32's exact integers"
                );
                next[t][i] = x[t][i] + dot;
            }
        }
        x = next;
    }
    (x, clamped && passed)
}

fn tp(p: usize) {
    let built = build(&TP, p, "tp_driver.cpp");
    let dir = &built.dir.0;
    let f_n = p * TP_SHARD;
    let n_w = TP_LAYERS * TP_HIDDEN * f_n;
    for (mode, seed) in [("chip", 1u64), ("chip", 2), ("host", 3), ("host", 4)] {
        // Tokens in [-3, 3], weights in {-1, 0, 1}.
        let x: Vec<i64> = inputs(TP_TOKENS * TP_HIDDEN, seed + 100 * p as u64)
            .iter()
            .map(|v| *v as i64 % 7 - 3)
            .collect();
        let w: Vec<i64> = inputs(2 * n_w, seed + 1000 + 100 * p as u64)
            .iter()
            .map(|v| *v as i64 % 3 - 1)
            .collect();
        let (w1, w2) = w.split_at(n_w);
        let file = dir.join(format!("in-{seed}.txt"));
        let all: Vec<f32> = x.iter().chain(w1).chain(w2).map(|v| *v as f32).collect();
        write_floats(&file, &all);
        let report = run_driver(&built.exe, &[&p.to_string(), mode, file.to_str().unwrap()]);
        let what = format!("tp_layer P={p} {mode} seed {seed}");
        assert_eq!(report.value("status"), 0, "{what}:\n{}", report.text);
        assert_eq!(
            report.rank_statuses(),
            vec![0; p],
            "{what}:\n{}",
            report.text
        );
        // Per rank: load + store, and per layer column + row + an allreduce of 2 blocks.
        assert_eq!(
            report.value("blocks"),
            (p * (2 + TP_LAYERS * 4)) as i64,
            "{what}: launch widths"
        );
        if mode == "chip" {
            assert_eq!(
                report.value("signal_sum"),
                0,
                "{what}: every signal cell back to 0"
            );
        }
        let (want, nonlinear) = tp_golden(p, &x, w1, w2);
        assert!(nonlinear, "{what}: the relu is not exercised");
        assert!(
            want.iter().flatten().any(|v| *v != 0),
            "{what}: a trivial output"
        );
        // Every rank holds the whole result: rank r's copy is rows [r*T, (r+1)*T) of out.
        let want: Vec<Vec<f32>> = (0..p)
            .flat_map(|_| {
                want.iter()
                    .map(|row| row.iter().map(|v| *v as f32).collect())
            })
            .collect();
        assert_rows_eq(&what, &report.rows("row", 1), &want);
    }
}

#[test]
fn tp_layer_p2() {
    tp(2);
}

#[test]
fn tp_layer_p4() {
    tp(4);
}

// ---------------------------------------------------------------------------- ep_moe

const EP_TOKENS: usize = 8;
const EP_HIDDEN: usize = 4;
const EP_CAPACITY: usize = 3;
const EP_CLASSES: usize = 5;

const EP: Example = Example {
    name: "ep_moe",
    written_for: 4,
    shapes: |p| {
        vec![
            ("<32x4xf32>", format!("<{}x4xf32>", p * EP_TOKENS)),
            ("<12x4xf32>", format!("<{}x4xf32>", p * EP_CAPACITY)),
            ("<4x2xi32>", format!("<{p}x2xi32>")),
            (
                "%devices = arith.constant 4 : index",
                format!("%devices = arith.constant {p} : index"),
            ),
        ]
    },
    hosts: &["ep_host"],
    loop_carried: true,
    collectives: &[
        ("__builtin_broadcast_root0__int32", 1),
        ("__builtin_all_to_all__fp32", 2),
        ("__builtin_barrier", 1),
    ],
};

/// Layer l's routing table, as rank 0 makes it: token class k goes to expert (3k + l + 1) mod P.
fn ep_table(p: usize, layer: i64) -> Vec<i64> {
    (0..EP_CLASSES as i64)
        .map(|k| (3 * k + layer + 1).rem_euclid(p as i64))
        .collect()
}

/// Every rank's tokens after `layers` layers of the example's meaning, and whether the capacity
/// dropped a token: per layer, token t of rank r goes to expert
/// e = table_l[int(sum of h) mod K] unless C earlier tokens of r already went to e in this layer;
/// a routed token becomes h + (2h + e + 1), a dropped one stays h.
fn ep_golden(p: usize, layers: i64, inp: &[f32]) -> (Vec<Vec<f32>>, bool) {
    let mut h: Vec<Vec<f32>> = inp.chunks(EP_HIDDEN).map(|c| c.to_vec()).collect();
    let mut dropped = false;
    for layer in 0..layers.max(0) {
        let table = ep_table(p, layer);
        for r in 0..p {
            let mut taken = vec![0usize; p];
            for row in &mut h[r * EP_TOKENS..(r + 1) * EP_TOKENS] {
                let key = row.iter().fold(0.0f32, |s, x| s + x) as i64;
                let e = table[key.rem_euclid(EP_CLASSES as i64) as usize] as usize;
                if taken[e] == EP_CAPACITY {
                    dropped = true;
                    continue;
                }
                taken[e] += 1;
                for x in row.iter_mut() {
                    let y = 2.0f32 * *x + (e + 1) as f32;
                    *x += y;
                }
            }
        }
    }
    (h, dropped)
}

fn ep(p: usize) {
    let built = build(&EP, p, "ep_driver.cpp");
    let dir = &built.dir.0;
    let mut dropped_somewhere = false;
    // (mode, num_layers, input seed)
    let cases = [
        ("chip", 3, 1u64),
        ("chip", 1, 2),
        ("chip", 4, 3),
        ("chip", 0, 4),
        ("chip", -1, 5),
        ("host", 3, 6),
        ("host", 2, 7),
    ];
    for (mode, layers, seed) in cases {
        let inp = inputs(p * EP_TOKENS * EP_HIDDEN, seed + 100 * p as u64);
        let file = dir.join(format!("inp-{seed}.txt"));
        write_floats(&file, &inp);
        let (ps, ls) = (p.to_string(), layers.to_string());
        let report = run_driver(&built.exe, &[&ps, &ls, mode, file.to_str().unwrap()]);
        let what = format!("ep_moe P={p} {mode} num_layers={layers}");
        let runs = layers.max(0);
        assert_eq!(report.value("status"), 0, "{what}:\n{}", report.text);
        assert_eq!(
            report.rank_statuses(),
            vec![0; p],
            "{what}:\n{}",
            report.text
        );
        // Per rank: load + store, and per layer router + broadcast (1 block) + route + dispatch
        // (2) + expert + combine (2) + gather + barrier (1).
        assert_eq!(
            report.value("blocks"),
            p as i64 * (2 + runs * 10),
            "{what}: launch widths"
        );
        if mode == "chip" {
            assert_eq!(
                report.value("signal_sum"),
                0,
                "{what}: every signal cell back to 0"
            );
            // The last layer's broadcast left rank 0's table on every rank (the windows start
            // at zero when no layer ran).
            let table: Vec<Vec<i64>> = report
                .text
                .lines()
                .filter_map(|l| l.strip_prefix("table "))
                .map(|r| {
                    r.split_whitespace()
                        .skip(1)
                        .map(|v| v.parse().unwrap())
                        .collect()
                })
                .collect();
            let want = if runs > 0 {
                ep_table(p, runs - 1)
            } else {
                vec![0; EP_CLASSES]
            };
            assert_eq!(table, vec![want; p], "{what}: the routing tables");
        }
        let (want, dropped) = ep_golden(p, layers, &inp);
        assert_rows_eq(&what, &report.rows("row", 1), &want);
        dropped_somewhere |= dropped;
    }
    assert!(
        dropped_somewhere,
        "P={p}: no input exercised the capacity limit"
    );
}

#[test]
fn ep_moe_p2() {
    ep(2);
}

#[test]
fn ep_moe_p4() {
    ep(4);
}

#[test]
fn is_op_finds_the_collectives_of_the_sources() {
    let ops = collective_ops();
    for (name, n) in [
        ("moe_layers", 2),
        ("micro_batches", 1),
        ("tp_layer", 1),
        ("ep_moe", 4),
    ] {
        let text = std::fs::read_to_string(root().join(format!("examples/{name}.mlir"))).unwrap();
        assert_eq!(
            text.lines()
                .filter(|l| ops.iter().any(|op| is_op(l, op)))
                .count(),
            n,
            "{name}"
        );
    }
    let generic = r#"  %0 = "pld.tensor.all_to_all_v"(%a, %b, %c, %d, %e) : (...) -> T"#;
    let message = r#"  pl.require %22 else error 5, "pld.tensor.all_to_all_v: core_num must be in [1, 2147483647]""#;
    assert!(is_op(generic, "pld.tensor.all_to_all_v"));
    assert!(!is_op(message, "pld.tensor.all_to_all_v"));
}
