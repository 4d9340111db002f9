//! Runs the built `embed` example (`cargo test` builds examples) and
//! FileChecks its output against test/Driver/Inputs/embed.check.

use std::{
    io::Write,
    path::PathBuf,
    process::{Command, Stdio},
};

mod common;
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
