//! The Rust passes and their registration in MLIR's pass registry.
//!
//! Each pass is a [`ModulePass`]; [`register_passes`] hands a constructor per
//! pass to `mlir::registerPass` through the C++ shim, so every pass is a
//! `pld-opt --flag` and a `--pass-pipeline` element, exactly like a C++ pass.

pub mod auto_derive_task_dependencies;
pub mod derive_call_directions;
pub mod legalize_spmd_launches;
pub mod lower_composite_ops;
pub mod lower_host_tensor_collectives;
pub mod lower_l2_tensor_collectives;
pub mod materialize_dist_tensor_ctx;
pub mod test_func_kinds;

use crate::{
    bridge::{PassHandle, ffi},
    diag,
    error::PldError,
};
use melior::{
    ContextRef,
    dialect::DialectHandle,
    ir::{operation::OperationLike, operation::OperationRef, r#type::TypeId},
    pass::{ExternalPass, Pass, RunExternalPass, create_external},
};
use std::{
    panic::{AssertUnwindSafe, catch_unwind},
    sync::Once,
};

/// A unique address per pass: MLIR's pass TypeID. Not zero-sized, so two
/// statics never share an address.
#[repr(align(8))]
pub struct PassId(#[allow(dead_code)] u8);

/// A pass anchored on `builtin.module`, written in Rust.
pub trait ModulePass: Clone + Default + 'static {
    /// The command-line flag, e.g. `lower-l2-tensor-collectives`.
    const ARGUMENT: &'static str;
    /// The pass name, e.g. `LowerL2TensorCollectives`.
    const NAME: &'static str;
    /// One-line summary shown by `--help`.
    const DESCRIPTION: &'static str;
    fn id() -> &'static PassId;
    /// Runs on the module. `Err(PldError::Diagnosed)` means the errors were
    /// already emitted at their locations; any other error is reported at the
    /// module's location.
    fn run(&mut self, module: OperationRef) -> Result<(), PldError>;
}

#[derive(Clone)]
struct Adapter<P>(P);

impl<'c, P: ModulePass> RunExternalPass<'c> for Adapter<P> {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, module: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        // No panic may unwind into C++: report it as a located error instead.
        let outcome = catch_unwind(AssertUnwindSafe(|| self.0.run(module)));
        let message = match outcome {
            Ok(Ok(())) => return,
            Ok(Err(PldError::Diagnosed(_))) => None,
            Ok(Err(error)) => Some(format!("{}: {error}", P::ARGUMENT)),
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                Some(format!("{}: internal error: {what}", P::ARGUMENT))
            }
        };
        if let Some(message) = message {
            diag::error(module.location(), &message);
        }
        pass.signal_failure();
    }
}

/// Builds a fresh instance of pass `P`.
pub fn create<P: ModulePass>() -> Pass {
    create_external(
        Adapter(P::default()),
        TypeId::create(P::id()),
        P::NAME,
        P::ARGUMENT,
        P::DESCRIPTION,
        "builtin.module",
        &[
            DialectHandle::func(),
            DialectHandle::arith(),
            DialectHandle::scf(),
            crate::pl_dialect_handle(),
            crate::pld_dialect_handle(),
        ],
    )
}

fn create_handle<P: ModulePass>() -> PassHandle {
    PassHandle(create::<P>().to_raw())
}

/// The design-order pipeline registered as `--pld-lower-collectives`.
pub const PLD_LOWER_COLLECTIVES: &str = "builtin.module(lower-composite-ops, lower-l2-tensor-collectives, \
     legalize-spmd-launches, derive-call-directions, auto-derive-task-dependencies, \
     lower-host-tensor-collectives, materialize-dist-tensor-ctx)";

/// Registers every pld pass and pipeline in MLIR's global registry (idempotent).
pub fn register_passes() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        ffi::register_pass(create_handle::<lower_l2_tensor_collectives::LowerL2TensorCollectives>);
        ffi::register_pass(create_handle::<test_func_kinds::TestFuncKinds>);
        ffi::register_pass(create_handle::<lower_composite_ops::LowerCompositeOps>);
        ffi::register_pass(create_handle::<legalize_spmd_launches::LegalizeSpmdLaunches>);
        ffi::register_pass(create_handle::<derive_call_directions::DeriveCallDirections>);
        ffi::register_pass(create_handle::<auto_derive_task_dependencies::AutoDeriveTaskDependencies>);
        ffi::register_pass(create_handle::<lower_host_tensor_collectives::LowerHostTensorCollectives>);
        ffi::register_pass(create_handle::<materialize_dist_tensor_ctx::MaterializeDistTensorCtx>);
        ffi::register_pipeline(
            "pld-lower-collectives",
            "The managed-collective lowering pipeline, in the design's order",
            PLD_LOWER_COLLECTIVES,
        );
    });
}
