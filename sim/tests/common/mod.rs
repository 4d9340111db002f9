//! What the simulator's suites share: the generated C++'s flags, and the library's toolchain
//! built with them.

use std::path::Path;

use pld_run::toolchain::Toolchain;

/// The generated C++'s flags in every test suite (lit's, test/lit.cfg.py; runner/tests/common):
/// the generated code stays warning-free, and the suites share one cache entry per unit (the
/// engine and the runtime compile once per run, not once per suite). A test that sets
/// `PLD_SIM_CXXFLAGS` itself wins.
pub const TEST_CXXFLAGS: &str = "-Wall -Wextra -Werror";

/// The library's toolchain: the tools next to the pld-sim binary, the suites' flags.
pub fn toolchain() -> Toolchain {
    let tools = Path::new(env!("CARGO_BIN_EXE_pld-sim")).parent().unwrap();
    let mut tc = Toolchain::with_tools(tools.to_path_buf()).unwrap();
    tc.extra_flags = TEST_CXXFLAGS.split_whitespace().map(Into::into).collect();
    tc
}
