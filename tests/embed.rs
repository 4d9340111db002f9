//! Runs the built `embed` example (`cargo test` builds examples) and
//! FileChecks its output against test/Driver/Inputs/embed.check.

use std::{
    io::Write,
    path::PathBuf,
    process::{Command, Stdio},
};

use crate::common;
use common::llvm_tool;

/// target/<profile>/examples/embed, next to this test's target/<profile>/deps.
fn embed_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    profile_dir.join("examples").join("embed")
}

#[test]
fn embed_example_lowers_the_chip_pipeline() {
    let embed = embed_binary();
    assert!(
        embed.exists(),
        "{} is missing: run `cargo build --examples` (a plain `cargo test` builds it)",
        embed.display()
    );
    let output = Command::new(&embed).output().expect("embed runs");
    assert!(
        output.status.success(),
        "embed failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut filecheck = Command::new(llvm_tool("FileCheck"))
        .arg(root.join("test/Driver/Inputs/embed.check"))
        .arg("--implicit-check-not=pld.tensor.all_to_all_v")
        .stdin(Stdio::piped())
        .spawn()
        .expect("FileCheck runs (apt-get install llvm-22-tools)");
    filecheck
        .stdin
        .take()
        .unwrap()
        .write_all(&output.stdout)
        .unwrap();
    assert!(
        filecheck.wait().unwrap().success(),
        "FileCheck failed on embed's output"
    );
}

#[test]
fn embed_example_reports_a_bad_pipeline() {
    let embed = embed_binary();
    if !embed.exists() {
        panic!(
            "{} is missing: run `cargo build --examples`",
            embed.display()
        );
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(&embed)
        .arg(root.join("examples/chip_pipeline.mlir"))
        .arg("builtin.module(no-such-pass)")
        .output()
        .expect("embed runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bad pipeline `builtin.module(no-such-pass)`"),
        "{stderr}"
    );
}

/// Issue 21 item 5: the whole pipeline on a program with loops (scf, arith)
/// runs embedded, as in pld-opt: one registration call gives every dialect.
#[test]
fn embed_example_runs_the_whole_pipeline_on_the_moe_layers() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(embed_binary())
        .arg(root.join("examples/moe_layers.mlir"))
        .arg("builtin.module(pld-lower-collectives)")
        .output()
        .expect("embed runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("scf.for"), "{stdout}");
    assert!(
        stdout.contains("call @__builtin_all_to_all_v__fp32("),
        "{stdout}"
    );
    assert!(!stdout.contains("= pld.tensor.all_to_all_v"), "{stdout}");
    // pld-opt's output, byte for byte.
    let opt = Command::new(env!("CARGO_BIN_EXE_pld-opt"))
        .arg("--pld-lower-collectives")
        .arg(root.join("examples/moe_layers.mlir"))
        .output()
        .expect("pld-opt runs");
    assert_eq!(String::from_utf8_lossy(&opt.stdout), stdout);
}

/// The embedding API's diagnostic printer: `file:line:col: error:` with the
/// input's own name, and every attached note (MLIR's fallback printed
/// `loc("-":7:8)` and dropped the notes).
#[test]
fn embed_example_prints_located_errors_with_their_notes() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let input = root.join("test/Transforms/lower-l2-tensor-collectives/contiguity-reject.mlir");
    let output = Command::new(embed_binary())
        .arg(&input)
        .arg("builtin.module(lower-l2-tensor-collectives)")
        .output()
        .expect("embed runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let name = input.to_string_lossy();
    let error = stderr
        .lines()
        .position(|l| l.starts_with(&format!("{name}:")) && l.contains(": error: 'pld.tensor.all_to_all_v' op operand 'input' is not provably contiguous"))
        .unwrap_or_else(|| panic!("no located error:\n{stderr}"));
    let note = stderr.lines().nth(error + 1).unwrap_or_default();
    assert!(
        note.starts_with(&format!("{name}:")) && note.contains(": note: the chain is broken by "),
        "the note does not follow its error:\n{stderr}"
    );
    assert!(!stderr.contains("loc("), "{stderr}");
}

/// examples/rust-driver: the from-scratch Rust driver of docs/embedding.md
/// (its own crate over `pld` and `melior`, a default member: `cargo build`
/// builds it; `scripts/test.sh` runs that before `cargo test`). Its output is
/// pld-opt's, byte for byte; its errors carry their notes.
#[test]
fn the_from_scratch_rust_driver_matches_pld_opt() {
    let exe = embed_binary()
        .parent()
        .and_then(|examples| examples.parent())
        .expect("target/<profile>")
        .join("pld-rust-driver");
    if !exe.exists() {
        assert!(
            std::env::var_os("PLD_REQUIRE_PLUGIN").is_none(),
            "{} is missing: cargo build",
            exe.display()
        );
        eprintln!("skipped: {} is missing (cargo build)", exe.display());
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for example in ["examples/chip_pipeline.mlir", "examples/moe_layers.mlir"] {
        let driver = Command::new(&exe).arg(root.join(example)).output().unwrap();
        assert!(
            driver.status.success(),
            "{}",
            String::from_utf8_lossy(&driver.stderr)
        );
        let opt = Command::new(env!("CARGO_BIN_EXE_pld-opt"))
            .arg("--pld-lower-collectives")
            .arg(root.join(example))
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&driver.stdout),
            String::from_utf8_lossy(&opt.stdout),
            "{example}"
        );
    }
    let bad = root.join("test/Transforms/lower-l2-tensor-collectives/aliasing.mlir");
    let out = Command::new(&exe).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error: 'pld.tensor.all_to_all_v' op operands input and target must be different window allocations")
            && stderr.contains("note: both are views of this parameter (#0)"),
        "{stderr}"
    );
}
