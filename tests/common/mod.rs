//! Helpers shared by the integration tests.

use std::{path::PathBuf, process::Command};

/// A tool from LLVM 22's bin folder (`lit`, `FileCheck`, `not`).
pub fn llvm_tool(name: &str) -> PathBuf {
    // The one LLVM prefix variable (MLIR_SYS_220_PREFIX, which cargo sets from
    // .cargo/config.toml), else LLVM 22's own llvm-config; never another LLVM.
    let prefix = std::env::var("MLIR_SYS_220_PREFIX")
        .ok()
        .filter(|p| !p.is_empty())
        .or_else(|| {
            Command::new("llvm-config-22")
                .arg("--prefix")
                .output()
                .ok()
                .and_then(|o| String::from_utf8(o.stdout).ok())
                .map(|s| s.trim().to_string())
        })
        .expect("MLIR_SYS_220_PREFIX or llvm-config-22 (bash scripts/setup.sh)");
    PathBuf::from(prefix).join("bin").join(name)
}
