//! The Rust bodies of the pld passes.
//!
//! Every pass is declared in `dialect/include/pld/Passes.td` (flag, summary,
//! description, dependent dialects, options, statistics); TableGen generates
//! its C++ class (`src/bridge/passes.cc`), which MLIR registers, parses the
//! options of, times and reports the statistics of like any C++ pass. Its
//! `runOnOperation` calls `run_pass` through the cxx bridge (`bridge`) with the module
//! and the option values; `run_pass` runs the matching [`ModulePass`] and
//! hands its counts back.

pub mod auto_derive_task_dependencies;
mod bridge;
pub mod derive_call_directions;
pub mod legalize_spmd_launches;
pub mod lower_composite_ops;
pub mod lower_host_tensor_collectives;
pub mod lower_l2_tensor_collectives;
pub mod materialize_dist_tensor_ctx;
pub mod test_func_kinds;

pub use crate::analysis::pipeline_analyses::{Analyses, Effect};
use crate::{
    bridge::{OperationHandle, ffi},
    diag,
    error::PldError,
};
pub use bridge::ffi::{PassOptions, PassOutcome, PassStatistics};
use melior::{
    ir::{operation::OperationLike, operation::OperationRef},
    pass::Pass,
};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The Rust body of a pass anchored on `builtin.module`.
pub trait ModulePass: Default + 'static {
    /// The command-line flag, e.g. `lower-l2-tensor-collectives`: the `def`
    /// in `Passes.td` with this flag is the pass this is the body of.
    const ARGUMENT: &'static str;
    /// Runs on the module. `Err(PldError::Diagnosed)` means the errors were
    /// already emitted at their locations; any other error is reported at the
    /// module's location.
    fn run(&mut self, module: OperationRef) -> Result<(), PldError>;
    /// [`Self::run`] with the analyses the pipeline kept (`crate::analysis::pipeline_analyses`);
    /// a pass that uses them overrides this (and its `run` calls it with
    /// fresh ones).
    fn run_with(&mut self, module: OperationRef, _analyses: &mut Analyses) -> Result<(), PldError> {
        self.run(module)
    }
    /// What the last successful run did to the IR: which analyses MLIR may
    /// keep (and, when nothing changed, that it need not verify again).
    fn effect(&self) -> Effect {
        Effect::Changed
    }
    /// Takes the option values of this run (called before [`Self::run`]).
    fn set_options(&mut self, _options: &PassOptions) {}
    /// What the last run counted (`Passes.td`'s statistics of this pass).
    fn statistics(&self) -> PassStatistics {
        PassStatistics::default()
    }
}

/// Every pass with a Rust body: [`ARGUMENTS`] and the dispatch of `run_pass`.
macro_rules! rust_passes {
    ($($pass:ty),* $(,)?) => {
        /// The flag of every pass with a Rust body, in the pipeline's order
        /// (the test pass last).
        pub const ARGUMENTS: &[&str] = &[$(<$pass>::ARGUMENT),*];

        /// The body of the pass whose flag is `argument` (called by its C++ class).
        /// `analyses` is the handle of the module's [`Analyses`] (0: none
        /// yet); `outcome` says which of them stay valid.
        pub(crate) fn run_pass(
            argument: &str,
            module: OperationHandle,
            options: &PassOptions,
            statistics: &mut PassStatistics,
            analyses: &mut usize,
            outcome: &mut PassOutcome,
        ) -> bool {
            let module = unsafe { OperationRef::from_raw(module.0) };
            // The handle is 0 or one this crate made and MLIR has not dropped.
            let analyses = unsafe { crate::analysis::pipeline_analyses::from_handle(analyses) };
            $(if argument == <$pass>::ARGUMENT {
                return run_body::<$pass>(module, options, statistics, analyses, outcome);
            })*
            diag::error(module.location(), &format!("pass '{argument}' has no Rust body (an internal error of pld)"));
            false
        }
    };
}

rust_passes!(
    lower_composite_ops::LowerCompositeOps,
    lower_l2_tensor_collectives::LowerL2TensorCollectives,
    legalize_spmd_launches::LegalizeSpmdLaunches,
    derive_call_directions::DeriveCallDirections,
    auto_derive_task_dependencies::AutoDeriveTaskDependencies,
    lower_host_tensor_collectives::LowerHostTensorCollectives,
    materialize_dist_tensor_ctx::MaterializeDistTensorCtx,
    test_func_kinds::TestFuncKinds,
);

fn run_body<P: ModulePass>(
    module: OperationRef,
    options: &PassOptions,
    statistics: &mut PassStatistics,
    analyses: &mut Analyses,
    effect: &mut PassOutcome,
) -> bool {
    let mut pass = P::default();
    pass.set_options(options);
    // No panic may unwind into C++: report it as a located error instead.
    let outcome = catch_unwind(AssertUnwindSafe(|| pass.run_with(module, analyses)));
    let message = match outcome {
        Ok(Ok(())) => {
            *statistics = pass.statistics();
            let kept = pass.effect();
            effect.unchanged = kept == Effect::Unchanged;
            effect.keeps_analyses = kept != Effect::Changed;
            return true;
        }
        Ok(Err(PldError::Diagnosed(_))) => None,
        Ok(Err(error)) => Some(diag::msg!("pass '{}' failed: {error}", P::ARGUMENT)),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Some(diag::msg!(
                "pass '{}' failed: internal error: {what}",
                P::ARGUMENT
            ))
        }
    };
    if let Some(message) = message {
        diag::error(module.location(), &message);
    }
    false
}

/// The flag of every pass declared in `Passes.td` (each has a C++ class
/// generated from its declaration); [`ARGUMENTS`] are those with a Rust body,
/// and the two must agree (`tests/pass_registry.rs`).
pub fn declared_arguments() -> Vec<String> {
    ffi::pass_arguments()
}

/// A fresh instance of pass `P` (its C++ class, default options), for
/// melior's `PassManager::add_pass`.
pub fn create<P: ModulePass>() -> Pass {
    create_by_argument(P::ARGUMENT)
        .unwrap_or_else(|| panic!("Passes.td declares no pass '{}'", P::ARGUMENT))
}

/// A fresh instance of the pld pass whose flag is `argument` (e.g.
/// `"lower-l2-tensor-collectives"`), or `None` when no pld pass has that flag.
pub fn create_by_argument(argument: &str) -> Option<Pass> {
    let handle = ffi::create_pass(argument);
    (!handle.0.ptr.is_null()).then(|| unsafe { Pass::from_raw(handle.0) })
}

/// The pipeline `--pld-lower-collectives` runs, as text (without options;
/// `pld-lower-collectives{aiv-cores=N}` forwards `aiv-cores` to
/// `lower-l2-tensor-collectives`).
pub const PLD_LOWER_COLLECTIVES: &str = "builtin.module(lower-composite-ops, lower-l2-tensor-collectives, \
     legalize-spmd-launches, derive-call-directions, auto-derive-task-dependencies, \
     lower-host-tensor-collectives, materialize-dist-tensor-ctx)";

/// Registers every pld pass and the `pld-lower-collectives` pipeline in
/// MLIR's global registry (idempotent, thread-safe).
pub fn register_passes() {
    ffi::register_passes();
}

/// [`register_passes`] plus the upstream generic transforms `pld-opt` offers
/// (`canonicalize`, `cse`, `inline`, `symbol-dce`, ...); idempotent.
pub fn register_all_passes() {
    ffi::register_passes();
    ffi::register_upstream_passes();
}
