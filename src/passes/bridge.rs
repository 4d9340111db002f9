//! The cxx bridge the pass classes generated from `Passes.td`
//! (`src/bridge/passes.cc`) call the Rust pass bodies through: `run_pass`
//! with the option values, the counts for the statistics and the analyses
//! the pipeline keeps. It sits with the passes so that the FFI layer below
//! (`crate::bridge`) imports nothing from the crate.

use super::run_pass;
use crate::analysis::pipeline_analyses::drop_analyses;

#[cxx::bridge(namespace = "pld::bridge")]
pub mod ffi {
    /// The option values of one pass run (`dialect/include/pld/Passes.td`),
    /// from the C++ pass to its Rust body.
    #[derive(Clone, Copy, Debug, Default)]
    struct PassOptions {
        /// `lower-l2-tensor-collectives{aiv-cores}`: the target's AIV core
        /// count, 0 when unknown.
        aiv_cores: u64,
        /// `lower-l2-tensor-collectives{window-provenance}` (default true).
        window_provenance: bool,
        /// `lower-l2-tensor-collectives{provenance-timing}` (default false).
        provenance_timing: bool,
    }

    /// What one pass run counted, from the Rust body to the C++ pass's
    /// statistics (`--mlir-pass-statistics`); each pass fills its own.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    struct PassStatistics {
        /// lower-l2 / lower-host: collectives rewritten into calls.
        collectives_lowered: u64,
        /// lower-l2 / lower-host: kernel functions synthesized (not reused).
        kernels_synthesized: u64,
        /// lower-l2: values the contiguity trace visited.
        contiguity_steps_traced: u64,
        /// auto-derive-task-dependencies: tasks numbered.
        tasks_numbered: u64,
        /// auto-derive-task-dependencies: edges in `pl.task_deps`.
        task_dependencies: u64,
        /// materialize-dist-tensor-ctx: `!pld.comm_ctx` parameters appended.
        contexts_appended: u64,
        /// materialize-dist-tensor-ctx: context arguments passed at call sites.
        context_arguments_threaded: u64,
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
            options: &PassOptions,
            statistics: &mut PassStatistics,
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
