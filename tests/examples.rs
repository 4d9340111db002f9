//! The example programs' lowering, structurally: `examples/moe_layers.mlir`,
//! `examples/micro_batches.mlir`, `examples/tp_layer.mlir`, `examples/ep_moe.mlir` and
//! `examples/pp_pipeline.mlir` are lowered
//! with `pld-opt --pld-lower-collectives` and rendered with `pld-translate --pld-to-ascend-build`;
//! the loop stays an `scf.for` in the CHIP body, no collective op is left, each collective is one
//! call of its synthesized kernel inside the loop, and the orchestration source has a C++ `for (`
//! with each collective's task written once, after it (not unrolled); the HOST orchestrators are
//! rendered. Running them (2 and 4 ranks, against references from their documented meaning) is
//! the executor crate's `runner/tests/examples.rs`, through pld-run.

use std::{path::PathBuf, process::Command};

const PLD_OPT: &str = env!("CARGO_BIN_EXE_pld-opt");
const PLD_TRANSLATE: &str = env!("CARGO_BIN_EXE_pld-translate");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch directory `CARGO_TARGET_TMPDIR/examples/<name>-<pid>`, removed when its test
/// passes and kept for inspection when it fails.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("examples")
        .join(format!("{name}-{}", std::process::id()));
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

struct Example {
    /// File stem under examples/ and the CHIP orchestration function's name.
    name: &'static str,
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

/// Lowers, renders and checks `ex`.
fn check(ex: &Example) {
    let scratch = scratch(ex.name);
    let dir = scratch.0.clone();
    let input = root().join(format!("examples/{}.mlir", ex.name));

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
    let text = std::fs::read_to_string(&orch).unwrap();
    // The entry's body (the prelude before it has loops of its own).
    let cpp = &text[text
        .find("void aicpu_orchestration_entry")
        .unwrap_or_else(|| panic!("{} has no aicpu_orchestration_entry", orch.display()))..];
    assert!(
        cpp.contains("for ("),
        "{} has no C++ loop:\n{cpp}",
        orch.display()
    );
    let loop_at = cpp.find("for (").unwrap();
    for &(kernel, n) in ex.collectives {
        let name = format!(": {kernel}(");
        let tasks: Vec<usize> = cpp
            .match_indices("{  // task ")
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

    for host in ex.hosts {
        let h = tree.join(format!("host/{host}.cpp"));
        assert!(h.exists(), "{} is missing", h.display());
    }
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
#[test]
fn moe_layers() {
    check(&Example {
        name: "moe_layers",
        hosts: &["moe_host"],
        loop_carried: true,
        collectives: &[("__builtin_all_to_all_v__fp32", 2)],
    });
}

#[test]
fn micro_batches() {
    check(&Example {
        name: "micro_batches",
        hosts: &[],
        loop_carried: false,
        collectives: &[("__builtin_all_to_all_v__fp32", 1)],
    });
}

#[test]
fn tp_layer() {
    check(&Example {
        name: "tp_layer",
        hosts: &["tp_host"],
        loop_carried: true,
        collectives: &[("__builtin_allreduce_sum__fp32", 1)],
    });
}

#[test]
fn pp_pipeline() {
    check(&Example {
        name: "pp_pipeline",
        hosts: &["pp_host"],
        loop_carried: true,
        collectives: &[("__builtin_permute_0to1_1to2_2to3__fp32", 1)],
    });
}

#[test]
fn ep_moe() {
    check(&Example {
        name: "ep_moe",
        hosts: &["ep_host"],
        loop_carried: true,
        collectives: &[
            ("__builtin_broadcast_root0__int32", 1),
            ("__builtin_all_to_all__fp32", 2),
            ("__builtin_barrier", 1),
        ],
    });
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
