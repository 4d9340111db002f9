//! Builds the ODS dialect library with CMake (Release, Ninja) and the cxx
//! bridge around MlirOptMain, both against the LLVM 22 install that mlir-sys
//! links statically, so the final binaries hold exactly one MLIR.

use std::{env, fs, path::PathBuf, process::Command};

const PACKAGES: &str = "libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libpolly-22-dev \
                        clang-22 cmake ninja-build libzstd-dev libz3-dev libxml2-dev zlib1g-dev";

fn fail(message: &str) -> ! {
    println!("cargo::error={message}");
    std::process::exit(1);
}

fn llvm_prefix() -> PathBuf {
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let prefix = PathBuf::from(prefix);
    if !prefix.join("lib/cmake/mlir/MLIRConfig.cmake").exists() {
        fail(&format!(
            "MLIR 22 not found under {}: run scripts/setup.sh or `apt-get install {PACKAGES}`",
            prefix.display()
        ));
    }
    for tool in ["cmake", "ninja"] {
        if Command::new(tool).arg("--version").output().is_err() {
            fail(&format!("`{tool}` not found: `apt-get install {PACKAGES}`"));
        }
    }
    prefix
}

fn main() {
    let prefix = llvm_prefix();
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());

    // Only the C++ inputs re-run CMake; Rust edits stay ~1 s.
    for path in ["build.rs", "cmake", "dialect", "src/bridge/shim.h", "src/bridge/shim.cc"] {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");

    let out = cmake::Config::new("cmake")
        .generator("Ninja")
        .profile("Release")
        .define("MLIR_DIR", prefix.join("lib/cmake/mlir"))
        .define("LLVM_DIR", prefix.join("lib/cmake/llvm"))
        .define("CMAKE_CXX_COMPILER", "g++")
        .define("CMAKE_C_COMPILER", "gcc")
        .build_target("PldDialects")
        .build();
    let build = out.join("build");
    println!("cargo:rustc-link-search=native={}", build.join("lib").display());
    println!("cargo:rustc-link-lib=static=PldDialects");

    // The generated dialect documentation lands in docs/dialects/ (committed),
    // rewritten only when it changed.
    let docs = manifest.join("docs/dialects");
    let _ = fs::create_dir_all(&docs);
    for name in ["pl.md", "pld.md"] {
        if let Ok(text) = fs::read_to_string(build.join("dialect/docs").join(name)) {
            let dest = docs.join(name);
            if fs::read_to_string(&dest).ok().as_deref() != Some(text.as_str()) {
                let _ = fs::write(dest, text);
            }
        }
    }

    let include = prefix.join("include");
    cxx_build::bridge("src/bridge.rs")
        .file("src/bridge/shim.cc")
        .include(&include)
        .include(manifest.join("dialect/include"))
        .include(build.join("dialect/include"))
        .include(&manifest)
        .flag("-std=c++17")
        .flag("-fno-exceptions")
        .flag("-Wno-unused-parameter")
        .flag("-Wno-comment")
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .define("_GNU_SOURCE", None)
        .opt_level(2)
        .compile("pld_bridge");
}
