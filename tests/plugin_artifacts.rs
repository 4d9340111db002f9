//! scripts/plugin-artifacts.py finds the plugin and the root package's build-script output in
//! real `cargo build --message-format=json` logs whatever the checkout's folder is named: `pld`
//! (git's default for a clone, where cargo spells the package id `…/pld#0.1.0`, without
//! `#pld@`) among others. Each case builds a two-package miniature of the workspace (a `pld`
//! package with a build script, a `pld-plugin` cdylib named `PldPlugin` over it) in a folder of
//! that name: seconds, no dependencies, no network.

use std::fs;
use std::path::Path;
use std::process::Command;

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// The miniature workspace in `root`; its build script leaves `build/lib/libMLIR-C.so` in its
/// OUT_DIR as pld's CMake build does.
fn miniature(root: &Path) {
    let _ = fs::remove_dir_all(root);
    write(
        &root.join("Cargo.toml"),
        "[package]\nname = \"pld\"\nversion = \"0.1.0\"\nedition = \"2021\"\nbuild = \"build.rs\"\n\n\
         [workspace]\nmembers = [\"plugin\"]\n",
    );
    write(&root.join("src/lib.rs"), "pub fn answer() -> i32 { 42 }\n");
    write(
        &root.join("build.rs"),
        "fn main() {\n    let out = std::path::PathBuf::from(std::env::var(\"OUT_DIR\").unwrap());\n    \
         std::fs::create_dir_all(out.join(\"build/lib\")).unwrap();\n    \
         std::fs::write(out.join(\"build/lib/libMLIR-C.so\"), b\"capi\").unwrap();\n}\n",
    );
    write(
        &root.join("plugin/Cargo.toml"),
        "[package]\nname = \"pld-plugin\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [lib]\nname = \"PldPlugin\"\npath = \"src/lib.rs\"\ncrate-type = [\"cdylib\"]\n\n\
         [dependencies]\npld = { path = \"..\" }\n",
    );
    write(
        &root.join("plugin/src/lib.rs"),
        "#[unsafe(no_mangle)]\npub extern \"C\" fn pld_answer() -> i32 { pld::answer() }\n",
    );
}

#[test]
fn finds_the_artifacts_under_every_folder_name() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/plugin-artifacts.py");
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("plugin-artifacts");
    for name in ["pld", "pld-main", "checkout"] {
        let root = base.join(name);
        miniature(&root);
        let log = root.join("cargo.json");
        let out = Command::new(env!("CARGO"))
            .args([
                "build",
                "--offline",
                "-p",
                "pld-plugin",
                "--message-format=json",
            ])
            .env("CARGO_TARGET_DIR", root.join("target"))
            .env_remove("RUSTFLAGS")
            .current_dir(&root)
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        fs::write(&log, &out.stdout).unwrap();
        let ids = String::from_utf8_lossy(&out.stdout);
        if name == "pld" {
            // The spelling that defeated matching by text (issue: `install: cannot stat 'None'`).
            assert!(
                !ids.contains("#pld@"),
                "cargo now spells the id with #pld@: {ids}"
            );
        }
        let found = Command::new("python3")
            .arg(&script)
            .arg(&log)
            .arg(root.join("Cargo.toml"))
            .output()
            .expect("python3 runs");
        let stdout = String::from_utf8_lossy(&found.stdout);
        assert!(
            found.status.success(),
            "{name}: {}{}",
            stdout,
            String::from_utf8_lossy(&found.stderr)
        );
        let paths: Vec<&str> = stdout.split_whitespace().collect();
        assert_eq!(paths.len(), 2, "{name}: {stdout}");
        assert!(paths[0].ends_with("libPldPlugin.so"), "{name}: {stdout}");
        assert!(
            Path::new(paths[0]).is_file(),
            "{name}: no plugin at {}",
            paths[0]
        );
        assert_eq!(
            fs::read(paths[1]).ok().as_deref(),
            Some(&b"capi"[..]),
            "{name}: {stdout}"
        );
    }
}

#[test]
fn names_what_is_missing() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/plugin-artifacts.py");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("plugin-artifacts-empty");
    fs::create_dir_all(&dir).unwrap();
    let log = dir.join("cargo.json");
    fs::write(&log, "not json\n").unwrap();
    let out = Command::new("python3")
        .arg(&script)
        .arg(&log)
        .arg(dir.join("Cargo.toml"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cargo reported no `PldPlugin` shared library"),
        "{err}"
    );
}
