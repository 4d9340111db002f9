//! `cargo test` runs the lit suite under `test/` against the binaries this
//! build produced.

use std::{path::PathBuf, process::Command};

use crate::common;

fn lit() -> PathBuf {
    common::llvm_tool("lit")
}

#[test]
fn lit_suite() {
    let pld_opt = PathBuf::from(env!("CARGO_BIN_EXE_pld-opt"));
    let bin_dir = pld_opt.parent().expect("binary has a folder");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new(lit())
        .arg("-sv")
        .arg(root.join("test"))
        .env("PLD_BIN_DIR", bin_dir)
        .env("PLD_TEST_EXEC_ROOT", bin_dir.join("lit"))
        .status()
        .expect("lit runs (apt-get install llvm-22-tools)");
    assert!(status.success(), "lit suite failed");
}
