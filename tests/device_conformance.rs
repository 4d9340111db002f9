//! docs/spec/device.md, "Conformance" 1: every rendered builtin kernel variant, and every user
//! kernel of the examples (`runtime/examples/kernels`, copied verbatim into the trees), compiles against
//! only pto-isa's and simpler's headers (the reference snapshots, extracted where
//! `PLD_PTO_ISA_DIR` and `PLD_SIMPLER_DIR` point; `.ci/run` sets both), with the contract's exact
//! clang++-22 command, each kernel alone in an empty folder. Without the two variables the test
//! says why in one line and passes: the snapshots are not part of the repository.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The contract's flags (device.md, Conformance 1), before the include folders.
const FLAGS: &[&str] = &[
    "-std=c++20",
    "-fsyntax-only",
    "-D__CPU_SIM",
    "-D__DAV_VEC__",
    "-DPTO_CPU_MAX_THREADS=1",
    "-Werror=pre-c++20-compat-pedantic",
    "-Wno-macro-redefined",
    "-Wno-ignored-attributes",
    "-include",
    "stdint.h",
    "-include",
    "stddef.h",
];

/// pto-isa's and simpler's header folders, as the contract lists them.
fn include_dirs(pto: &Path, simpler: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![pto.join("include"), pto.join("include/pto")];
    for d in [
        "src/common",
        "src/common/task_interface",
        "src/a2a3/runtime/tensormap_and_ringbuffer/common",
        "src/a2a3/runtime/tensormap_and_ringbuffer/runtime",
        "src/a2a3/runtime/tensormap_and_ringbuffer/orchestration",
        "src/a2a3/platform/include",
        "src/common/platform/include",
    ] {
        dirs.push(simpler.join(d));
    }
    dirs
}

fn snapshots() -> Option<(PathBuf, PathBuf)> {
    let pto = std::env::var_os("PLD_PTO_ISA_DIR")?;
    let simpler = std::env::var_os("PLD_SIMPLER_DIR")?;
    Some((PathBuf::from(pto), PathBuf::from(simpler)))
}

#[test]
fn every_builtin_and_example_kernel_compiles_against_pto_isa_and_simpler_headers() {
    let Some((pto, simpler)) = snapshots() else {
        eprintln!(
            "skipped: PLD_PTO_ISA_DIR / PLD_SIMPLER_DIR unset (the reference snapshots; .ci/run sets them)"
        );
        return;
    };
    for d in [&pto, &simpler] {
        assert!(d.is_dir(), "{} is not a folder", d.display());
    }
    let cxx = std::env::var("PLD_CONFORMANCE_CXX").unwrap_or_else(|_| "clang++-22".into());
    let kernels = pld::builtin_kernels();
    assert!(
        kernels.len() > 100,
        "only {} kernels sampled",
        kernels.len()
    );
    let work = std::env::temp_dir().join(format!("pld-conformance-{}", std::process::id()));
    let mut args: Vec<String> = FLAGS.iter().map(|s| s.to_string()).collect();
    for d in include_dirs(&pto, &simpler) {
        args.push("-isystem".into());
        args.push(d.display().to_string());
    }
    args.push("kernel.cpp".into());

    // Every kernel in its own empty folder, compiled `jobs` at a time.
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut failures = Vec::new();
    for batch in kernels.chunks(jobs) {
        let running: Vec<_> = batch
            .iter()
            .map(|k| {
                let dir = work.join(&k.symbol);
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join("kernel.cpp"), &k.source).unwrap();
                let child = Command::new(&cxx)
                    .args(&args)
                    .current_dir(&dir)
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap_or_else(|e| panic!("cannot run {cxx}: {e}"));
                (k, child)
            })
            .collect();
        for (k, child) in running {
            match child.wait_with_output() {
                Ok(o) if o.status.success() => {}
                Ok(o) => failures.push(format!(
                    "{} ({}):\n{}",
                    k.symbol,
                    k.template,
                    String::from_utf8_lossy(&o.stderr)
                        .lines()
                        .take(20)
                        .collect::<Vec<_>>()
                        .join("\n")
                )),
                Err(e) => panic!("cannot run {cxx}: {e}"),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    assert!(
        failures.is_empty(),
        "{} of {} kernels do not compile against pto-isa + simpler:\n{}",
        failures.len(),
        kernels.len(),
        failures.join("\n\n")
    );
    eprintln!(
        "{} builtin kernels compile against pto-isa's and simpler's headers",
        kernels.len()
    );
}
