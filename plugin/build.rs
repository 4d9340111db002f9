//! libPldPlugin.so finds libMLIR-C.so next to itself (scripts/build-plugin.sh
//! copies it there) and libMLIR.so / libLLVM.so in LLVM 22's library folder.

use std::{env, path::PathBuf, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_LINK_SHARED");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    if env::var("MLIR_SYS_LINK_SHARED").as_deref() != Ok("1") {
        println!(
            "cargo::error=the plugin links the shared libMLIR.so: build it with `bash scripts/build-plugin.sh` \
             (MLIR_SYS_LINK_SHARED=1, --target <host>)"
        );
        std::process::exit(1);
    }
    let prefix = PathBuf::from(
        env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into()),
    );
    let libdir = Command::new(prefix.join("bin/llvm-config"))
        .arg("--libdir")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .unwrap_or_else(|_| prefix.join("lib").display().to_string());
    println!("cargo:rustc-cdylib-link-arg=-Wl,-rpath,$ORIGIN:{libdir}");
    // Every symbol resolved at link time: a missing one is a build error,
    // not a failure when mlir-opt loads the plugin.
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,defs");
}
