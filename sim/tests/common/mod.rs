//! What the simulator's suites share: the generated C++'s flags, the library's toolchain built
//! with them, and scratch folders.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use pld_run::toolchain::Toolchain;

/// The generated C++'s flags in every test suite (lit's, test/lit.cfg.py; runner/tests/common):
/// the generated code stays warning-free, and the suites share one cache entry per unit (the
/// engine and the runtime compile once per run, not once per suite). A test that sets
/// `PLD_SIM_CXXFLAGS` itself wins.
pub const TEST_CXXFLAGS: &str = "-Wall -Wextra -Werror";

/// The environment of the ThreadSanitizer slices (sim.rs, sim_family.rs): the generated
/// orchestrations, the rendered kernels and the runtime built with -fsanitize=thread
/// (PLD_SIM_CXXFLAGS, cache entries of their own; -O0, where every access the source makes stays
/// one for TSan, and which compiles faster; docs/sanitizers.md), a reported race aborting the
/// simulator (halt_on_error) and so failing the run, the ranks as threads of one process, where
/// TSan sees every rank's accesses. One set of flags, so the slices build (and share) the same
/// trees.
pub const TSAN_ENV: [(&str, &str); 3] = [
    ("PLD_SIM_CXXFLAGS", "-fsanitize=thread -g -O0"),
    ("TSAN_OPTIONS", "halt_on_error=1 second_deadlock_stack=1"),
    ("PLD_SIM_RANKS_AS", "threads"),
];

/// The library's toolchain: the tools next to the pld-sim binary, the suites' flags.
pub fn toolchain() -> Toolchain {
    let tools = Path::new(env!("CARGO_BIN_EXE_pld-sim")).parent().unwrap();
    let mut tc = Toolchain::with_tools(tools.to_path_buf()).unwrap();
    tc.extra_flags = TEST_CXXFLAGS.split_whitespace().map(Into::into).collect();
    tc
}

/// A scratch directory under target/tmp, removed when the test passes (kept for a failure).
pub struct Scratch(pub PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// `target/tmp/pld-sim-tests/<name>-<pid>-<n>`, unique within the run.
pub fn scratch(name: &str) -> Scratch {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("pld-sim-tests")
        .join(format!(
            "{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}
