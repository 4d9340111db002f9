//! Builds the ODS dialect library with CMake (Release, Ninja) and the cxx
//! bridge around MlirOptMain, both against the LLVM 22 install that mlir-sys
//! links statically, so the final binaries hold exactly one MLIR.

use std::{env, path::PathBuf, process::Command};

// The Rust side of Passes.td (pass modules, options and statistics structs,
// the pass table, the pipelines as text), from the records CMake dumps.
#[path = "dialect/pass_rust.rs"]
mod pass_rust;

const PACKAGES: &str = "libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libpolly-22-dev \
                        clang-22 libclang-rt-22-dev cmake ninja-build libzstd-dev libz3-dev \
                        libxml2-dev zlib1g-dev";

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
    // The dialect library is compiled with LLVM's own clang (see `main`).
    if !prefix.join("bin/clang++").exists() {
        fail(&format!(
            "{} not found (clang-22): `apt-get install {PACKAGES}`",
            prefix.join("bin/clang++").display()
        ));
    }
    prefix
}

/// Where `clang` keeps its runtimes (`-print-runtime-dir`): the sanitizer build links its ASan.
fn clang_runtime_dir(clang: &str) -> PathBuf {
    match Command::new(clang).arg("-print-runtime-dir").output() {
        Ok(out) if out.status.success() => {
            PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
        }
        _ => fail(&format!("`{clang} -print-runtime-dir` failed")),
    }
}

/// Whether the LLVM at `prefix` was built with assertions (`!NDEBUG`).
fn llvm_assertions(prefix: &std::path::Path) -> bool {
    Command::new(prefix.join("bin/llvm-config"))
        .arg("--assertion-mode")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim() == "ON")
        .unwrap_or(false)
}

/// What the build's optimization level selects in the CMake configuration.
fn opt_key() -> &'static str {
    if env::var("OPT_LEVEL").as_deref() == Ok("0") {
        "dev"
    } else {
        "release"
    }
}

/// The CMake tree of one configuration (`parts`) and a lock held while it builds.
/// With `PLD_DIALECT_BUILD_DIR` (.cargo/config.toml: `target/dialect-build`), one folder per
/// configuration there, shared by every cargo build of the checkout that configures alike
/// (scripts/build-plugin.sh's has an OUT_DIR of its own); a second build waiting on the lock
/// then finds the library built. Without it, OUT_DIR.
fn dialect_tree(out_dir: &std::path::Path, parts: &[&str]) -> (PathBuf, Option<std::fs::File>) {
    println!("cargo:rerun-if-env-changed=PLD_DIALECT_BUILD_DIR");
    let Some(root) = env::var_os("PLD_DIALECT_BUILD_DIR").filter(|d| !d.is_empty()) else {
        return (out_dir.to_path_buf(), None);
    };
    // FNV-1a over the parts and what else the cmake crate's flags read (target, CFLAGS, CXXFLAGS).
    let mut h: u64 = 0xcbf29ce484222325;
    let env_parts = ["TARGET", "CFLAGS", "CXXFLAGS"].map(|v| env::var(v).unwrap_or_default());
    for part in parts
        .iter()
        .copied()
        .chain(env_parts.iter().map(String::as_str))
    {
        for b in part.bytes().chain([0]) {
            h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        }
    }
    let tree = PathBuf::from(root).join(format!("{h:016x}"));
    let lock = std::fs::create_dir_all(&tree)
        .and_then(|_| std::fs::File::create(tree.join("lock")))
        .and_then(|f| f.lock().map(|_| f));
    match lock {
        Ok(f) => (tree, Some(f)),
        Err(e) => fail(&format!(
            "cannot lock the dialect build tree {}: {e}",
            tree.display()
        )),
    }
}

fn main() {
    let prefix = llvm_prefix();
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());

    // Only the C++ inputs re-run CMake; Rust edits stay ~1 s.
    for path in [
        "build.rs",
        "cmake",
        "dialect",
        "src/bridge/shim.h",
        "src/bridge/argv.h",
        "src/bridge/shim.cc",
        "src/bridge/lsp.cc",
        "src/bridge/reduce.cc",
        "src/bridge/passes.cc",
        "src/bridge/names.cc",
        "src/bridge/unity.cc",
    ] {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    // The shared flavour (scripts/build-plugin.sh): melior links libMLIR.so
    // and a C API library CMake builds from Debian's libMLIRCAPI*.a archives.
    println!("cargo:rerun-if-env-changed=MLIR_SYS_LINK_SHARED");
    let shared = env::var("MLIR_SYS_LINK_SHARED").as_deref() == Ok("1");
    // Against the shared libMLIR.so, compile with the compiler LLVM was built
    // with (clang): MLIR's implicit TypeIDs (traits, ...) are keyed by type
    // names, which g++ and clang spell differently, and a shared library
    // keeps its own copies of them. (A static link merges the copies.)
    let clang = (
        prefix.join("bin/clang++").display().to_string(),
        prefix.join("bin/clang").display().to_string(),
    );

    // The `sanitize` feature (scripts/sanitize.sh): the C++ side (dialect,
    // bridge) instrumented with clang's ASan + UBSan, the Rust side linked against
    // clang's shared ASan runtime (which carries UBSan's handlers). The runtime lands after the
    // libraries rustc links, so ASan, which must come first in the process, is preloaded by the
    // wrappers that run these binaries. A feature, not an environment variable: cargo gives the
    // instrumented build its own OUT_DIR and pld units while every dependency stays shared with
    // the normal build in the same target dir.
    let sanitize_flags = env::var_os("CARGO_FEATURE_SANITIZE").map(|_| {
        let asan = clang_runtime_dir(&clang.0).join("libclang_rt.asan-x86_64.so");
        if !asan.is_file() {
            fail(&format!(
                "{} not found (clang-22's ASan runtime): `apt-get install {PACKAGES}`",
                asan.display()
            ));
        }
        println!("cargo:rustc-link-arg={}", asan.display());
        "-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
    });

    // The dialect library's CMake tree is compiled with clang in every flavour, so the
    // binaries' build and the plugin's (an OUT_DIR of its own) configure alike and share one
    // tree (see `dialect_tree`), and the sanitizer tree takes the same precompiled header.
    let (tree_cxx, tree_cc) = clang.clone();
    let mut cmake_config = cmake::Config::new("cmake");
    // Always Release (NDEBUG, as Debian's LLVM is built), at -O1 for a dev
    // build: the TableGen'd op code compiles ≈ 25 % faster than at -O3, and
    // what pld-opt spends its time in is MLIR's own (optimized) libraries.
    // Under the sanitizers, -O0: that build only runs the lit suite and a fuzz slice, and the
    // instrumented op code compiled ≈ 30 % faster than at -O1 (measured with g++).
    let opt = if sanitize_flags.is_some() {
        "-O0"
    } else {
        "-O1"
    };
    if opt_key() == "dev" {
        cmake_config
            .define("CMAKE_CXX_FLAGS_RELEASE", format!("{opt} -DNDEBUG"))
            .define("CMAKE_C_FLAGS_RELEASE", format!("{opt} -DNDEBUG"));
    }
    if let Some(flags) = &sanitize_flags {
        cmake_config.cxxflag(flags).cflag(flags);
    }
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap());
    let (tree, lock) = dialect_tree(
        &out_dir,
        &[
            &prefix.display().to_string(),
            &tree_cxx,
            &tree_cc,
            opt_key(),
            sanitize_flags.unwrap_or(""),
        ],
    );
    let out = cmake_config
        .out_dir(&tree)
        .generator("Ninja")
        .profile("Release")
        .define("MLIR_DIR", prefix.join("lib/cmake/mlir"))
        .define("LLVM_DIR", prefix.join("lib/cmake/llvm"))
        .define("CMAKE_CXX_COMPILER", &tree_cxx)
        .define("CMAKE_C_COMPILER", &tree_cc)
        // Defined in every flavour (a shared tree configures alike); only the plugin builds it.
        .define("PLD_BUILD_MLIR_C", "ON")
        // Configured, and only the generated headers and pass records built: what the bridge
        // below and `pass_rust` read.
        .build_target("PldIncGen")
        .build();
    let build = out.join("build");
    // The library (and the plugin's C API library) compiles in the background, beside the
    // bridge: the bridge is one long translation unit, and the library's tree starts with a
    // precompiled header; one after the other, each left a core idle.
    let library = {
        let build = build.clone();
        std::thread::spawn(move || {
            let targets: &[&str] = if shared {
                // libMLIR-C.so next to libPldDialects.a, where mlir-sys's `-lMLIR-C` finds it.
                &["PldDialects", "MLIR-C"]
            } else {
                &["PldDialects"]
            };
            let mut cmd = Command::new("cmake");
            cmd.arg("--build")
                .arg(&build)
                .arg("--target")
                .args(targets)
                .args(["--config", "Release"]);
            if let Ok(jobs) = env::var("NUM_JOBS") {
                cmd.arg("--parallel").arg(jobs);
            }
            match cmd.status() {
                Ok(s) if s.success() => None,
                Ok(s) => Some(format!(
                    "building the dialect library (cmake --build --target {}) failed: {s}",
                    targets.join(" ")
                )),
                Err(e) => Some(format!("cannot run cmake --build: {e}")),
            }
        })
    };
    println!(
        "cargo:rustc-link-search=native={}",
        build.join("lib").display()
    );
    println!("cargo:rustc-link-lib=static=PldDialects");

    // The generated documentation (dialects and passes, from ODS) stays in the
    // build tree: the build writes nothing into the source tree.
    // tests/generated_docs.rs compares it with the committed docs/ (and
    // rewrites them with PLD_UPDATE_DOCS=1).
    println!(
        "cargo:rustc-env=PLD_GENERATED_DOCS={}",
        build.join("dialect/docs").display()
    );

    // The Rust side of Passes.td, from the records PassShells.cmake read
    // (src/passes/mod.rs includes it): into OUT_DIR.
    if let Err(message) = pass_rust::generate(
        &build.join("dialect/PassRecords.json"),
        &manifest.join("src/passes"),
        &out_dir.join("passes.rs"),
    ) {
        fail(&message);
    }

    let include = prefix.join("include");
    let mut bridge = cxx_build::bridges(["src/bridge.rs", "src/passes/bridge.rs"]);
    // The bridge: clang against libMLIR.so (TypeIDs, above) and for the sanitizers (clang's
    // ASan runtime is the one linked); the binaries' default C++ compiler otherwise.
    if shared || sanitize_flags.is_some() {
        bridge.compiler(&clang.0);
    }
    // Match LLVM's own NDEBUG: some MLIR classes (mlir::Pass::Statistic) are
    // laid out differently with and without it.
    if !llvm_assertions(&prefix) {
        bridge.define("NDEBUG", None);
    }
    if let Some(flags) = &sanitize_flags {
        for flag in flags.split(' ') {
            bridge.flag(flag);
        }
    }
    bridge
        .file("src/bridge/unity.cc")
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
        .opt_level(if sanitize_flags.is_some() { 0 } else { 2 })
        .compile("pld_bridge");

    match library.join() {
        Ok(None) => {}
        Ok(Some(message)) => fail(&message),
        Err(_) => fail("the dialect library's build thread panicked"),
    }
    if shared {
        // libMLIR-C.so also in OUT_DIR's build/lib, where scripts/build-plugin.sh takes it
        // from (scripts/plugin-artifacts.py).
        let capi = out_dir.join("build/lib");
        if capi != build.join("lib") {
            let copied = std::fs::create_dir_all(&capi).and_then(|_| {
                std::fs::copy(build.join("lib/libMLIR-C.so"), capi.join("libMLIR-C.so"))
            });
            if let Err(e) = copied {
                fail(&format!(
                    "copying libMLIR-C.so into {}: {e}",
                    capi.display()
                ));
            }
        }
    }
    // The tree is built: another flavour's build may take it.
    drop(lock);
}
