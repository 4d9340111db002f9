//! `--pld-test-func-kinds`: a test pass (like MLIR's `-test-*` passes) that
//! exercises registration, located diagnostics and pass failure from Rust.
//!
//! It emits a remark per function with its kind and level, and an error for
//! an orchestration function without a body (a declaration has no tasks to
//! run), failing the pass. (A HOST-level function that is not an orchestrator
//! is the `pl` dialect verifier's error.)

use super::ModulePass;
use crate::ir::at::OpAt as _;
use crate::{diag, error::PldError, ir::func_kind};
use melior::ir::{BlockLike, RegionLike, operation::OperationLike, operation::OperationRef};

/// `--pld-test-func-kinds`: a test pass (see `Passes.td`).
#[derive(Clone, Default)]
pub struct PldTestFuncKinds;

impl ModulePass for PldTestFuncKinds {
    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        let body = module
            .region(0)?
            .first_block()
            .expect("a module has a body");
        let mut errors = 0;
        let mut next = body.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if op.name().as_string_ref().as_str() != Ok("func.func") {
                continue;
            }
            let name = func_kind::symbol_name(&op).unwrap_or("?");
            let kind = func_kind::func_kind(&op).map_or("no pl.func_kind".to_string(), |k| {
                format!("pl.func_kind \"{k}\"")
            });
            let level = if func_kind::is_host_level(&op) {
                "host"
            } else {
                "chip"
            };
            let declared = op.region_at(0).and_then(|r| r.first_block()).is_none();
            if declared && func_kind::func_kind(&op) == Some("orchestration") {
                diag::op_error(
                    &op,
                    &format!(
                        "@{name}: an orchestration function needs a body (a declaration has no tasks to run), pl.level \"{level}\""
                    ),
                );
                errors += 1;
                continue;
            }
            diag::op_remark(&op, &format!("@{name}: {kind}, pl.level \"{level}\""));
        }
        if errors > 0 {
            Err(PldError::Diagnosed(errors))
        } else {
            Ok(())
        }
    }
    fn effect(&self) -> super::Effect {
        super::Effect::Unchanged
    }
}
