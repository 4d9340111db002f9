//! What both conformance suites need (`tests/device_conformance.rs` and the simulator crate's
//! `runner/tests/a2a3sim.rs`, which include this file): the snapshot folders, and the build tree
//! pld-opt and pld-translate render for a module.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The two snapshot folders (pto-isa, simpler), or None after the one-line reason the test skips.
pub fn snapshots() -> Option<(PathBuf, PathBuf)> {
    match (
        std::env::var_os("PLD_PTO_ISA_DIR"),
        std::env::var_os("PLD_SIMPLER_DIR"),
    ) {
        (Some(pto), Some(simpler)) => Some((PathBuf::from(pto), PathBuf::from(simpler))),
        _ => {
            eprintln!(
                "skipped: PLD_PTO_ISA_DIR / PLD_SIMPLER_DIR unset (the reference snapshots; .ci/run sets them)"
            );
            None
        }
    }
}

/// The build tree `pld-opt --pld-lower-collectives | pld-translate --pld-to-ascend-build`
/// renders for `module` into `out` (the lowered module beside it), user kernels from `kernels`;
/// pld-translate is the `pld_opt` binary's sibling.
pub fn render_tree(pld_opt: &Path, module: &Path, kernels: &Path, out: &Path) {
    let lowered = Command::new(pld_opt)
        .arg("--pld-lower-collectives")
        .arg(module)
        .output()
        .expect("cannot run pld-opt");
    assert!(
        lowered.status.success(),
        "pld-opt {}: {}",
        module.display(),
        String::from_utf8_lossy(&lowered.stderr)
    );
    let lowered_path = out.with_extension("lowered.mlir");
    std::fs::write(&lowered_path, &lowered.stdout).unwrap();
    let translated = Command::new(pld_opt.with_file_name("pld-translate"))
        .args(["--pld-to-ascend-build", "--output-dir"])
        .arg(out)
        .arg("--kernel-source-dir")
        .arg(kernels)
        .arg(&lowered_path)
        .output()
        .expect("cannot run pld-translate");
    assert!(
        translated.status.success(),
        "pld-translate {}: {}",
        module.display(),
        String::from_utf8_lossy(&translated.stderr)
    );
}
