//! The cxx bridge the pass classes generated from `Passes.td`
//! (`src/bridge/passes.cc`) call the Rust pass bodies through: `run_pass`
//! with the option values, the counts for the statistics and the analyses
//! the pipeline keeps. Nothing here names a pass, an option or a statistic:
//! options and counts cross as (name, value) pairs, marshalled on both sides
//! by code generated from `Passes.td` (`dialect/PassShells.cmake`,
//! `dialect/pass_rust.rs`). It sits with the passes so that the FFI layer
//! below (`crate::bridge`) imports nothing from the crate.

use super::run_pass;
use crate::analysis::pipeline_analyses::drop_analyses;

#[cxx::bridge(namespace = "pld::bridge")]
pub mod ffi {
    /// One option of a pass run, from the C++ pass to its Rust body: the
    /// option's flag in `Passes.td` (`aiv-cores`) and its value as text
    /// (`4`), which the pass's generated options struct parses
    /// (`crate::passes::PassOptions::set`).
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct PassOption {
        /// The option's flag.
        name: String,
        /// Its value, as text.
        value: String,
    }

    /// One count of a pass run, from the Rust body to the C++ pass's
    /// statistic of that name in `Passes.td` (`collectives-lowered`), which
    /// `--mlir-pass-statistics` reports.
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct PassCount {
        /// The statistic's name.
        name: String,
        /// What the run counted.
        value: u64,
    }

    /// What a successful run did to the IR (`crate::analysis::pipeline_analyses::Effect`).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    struct PassOutcome {
        /// Nothing changed: the pass preserves every analysis.
        unchanged: bool,
        /// The module's `RustAnalyses` stay valid.
        keeps_analyses: bool,
    }

    extern "Rust" {
        /// The Rust body of the pass whose flag is `argument`, on `module`
        /// (a `builtin.module`). False: it failed, its errors already emitted
        /// at their locations. `analyses` is the handle of the analyses the
        /// pipeline kept for the module (0: none yet; the body may set it).
        fn run_pass(
            argument: &str,
            module: OperationHandle,
            options: &[PassOption],
            statistics: &mut Vec<PassCount>,
            analyses: &mut usize,
            outcome: &mut PassOutcome,
        ) -> bool;
        /// Drops the analyses behind a handle `run_pass` set.
        fn drop_analyses(analyses: usize);
    }

    unsafe extern "C++" {
        include!("pld/src/bridge/shim.h");

        type OperationHandle = crate::bridge::OperationHandle;
    }
}
