//! `--pld-test-func-kinds`: a test pass (like MLIR's `-test-*` passes) that
//! exercises registration, located diagnostics and pass failure from Rust.
//!
//! It emits a remark per function with its kind and level, and an error for
//! a HOST-level function that is not an orchestrator (only an orchestrator
//! runs on the host), failing the pass.

use super::ModulePass;
use crate::{diag, error::PldError, ir::func_kind};
use melior::ir::{BlockLike, RegionLike, operation::OperationLike, operation::OperationRef};

/// `--test-func-kinds`: a test pass (see `Passes.td`).
#[derive(Clone, Default)]
pub struct TestFuncKinds;

impl ModulePass for TestFuncKinds {
    const ARGUMENT: &'static str = "pld-test-func-kinds";
    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        let body = module.region(0)?.first_block().expect("a module has a body");
        let mut errors = 0;
        let mut next = body.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if op.name().as_string_ref().as_str() != Ok("func.func") {
                continue;
            }
            let name = func_kind::symbol_name(&op).unwrap_or("?");
            let kind = func_kind::func_kind(&op).unwrap_or("none");
            let level = if func_kind::is_host_level(&op) { "host" } else { "chip" };
            if level == "host" && kind != "orchestration" {
                diag::error(
                    op.location(),
                    &format!("function '@{name}' is HOST-level but its kind is '{kind}': only an orchestrator runs on the host"),
                );
                errors += 1;
                continue;
            }
            diag::remark(op.location(), &format!("function '@{name}': kind '{kind}', level '{level}'"));
        }
        if errors > 0 { Err(PldError::Diagnosed(errors)) } else { Ok(()) }
    }
    fn effect(&self) -> super::Effect {
        super::Effect::Unchanged
    }
}
