//! Helpers shared by the integration tests.

use std::{path::PathBuf, process::Command};

/// A tool from LLVM 22's bin folder (`lit`, `FileCheck`, `not`).
pub fn llvm_tool(name: &str) -> PathBuf {
    let bindir = Command::new("llvm-config-22")
        .arg("--bindir")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| PathBuf::from(s.trim()))
        .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-22/bin"));
    bindir.join(name)
}
