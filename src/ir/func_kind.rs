//! The function kinds of `pl.func_kind` / `pl.level` (verified by the dialect).

use crate::ir::attributes::attr_str;
use melior::ir::operation::{OperationLike, OperationRef};

/// `pl.func_kind` of a function, if any.
pub fn func_kind<'c>(func: &OperationRef<'c, '_>) -> Option<&'c str> {
    attr_str(func.attribute("pl.func_kind").ok()?)
}

/// `pl.level = "host"` (absent means chip).
pub fn is_host_level(func: &OperationRef) -> bool {
    func.attribute("pl.level").ok().and_then(attr_str) == Some("host")
}

/// An `orchestration` or `graph` body (either level): the dialect's
/// predicate (`pld::isOrchestrationBody`), the one its verifiers use.
pub fn is_orchestration_body(func: &OperationRef) -> bool {
    unsafe { crate::capi::pldFunctionIsOrchestrationBody(func.to_raw()) }
}

/// A CHIP orchestration body: an orchestration or graph function at chip
/// level (`pld::isChipOrchestration`).
pub fn is_chip_orchestration(func: &OperationRef) -> bool {
    unsafe { crate::capi::pldFunctionIsChipOrchestration(func.to_raw()) }
}

/// A HOST orchestrator: an orchestration function at host level
/// (`pld::isHostOrchestrator`).
pub fn is_host_orchestrator(func: &OperationRef) -> bool {
    unsafe { crate::capi::pldFunctionIsHostOrchestrator(func.to_raw()) }
}

/// The symbol name of a function-like op.
pub fn symbol_name<'c>(op: &OperationRef<'c, '_>) -> Option<&'c str> {
    attr_str(op.attribute("sym_name").ok()?)
}
