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

/// An `orchestration` or `graph` body (either level).
pub fn is_orchestration_body(func: &OperationRef) -> bool {
    matches!(func_kind(func), Some("orchestration" | "graph"))
}

/// A CHIP orchestration body: an orchestration or graph function at chip level.
pub fn is_chip_orchestration(func: &OperationRef) -> bool {
    is_orchestration_body(func) && !is_host_level(func)
}

/// A HOST orchestrator: an orchestration function at host level.
pub fn is_host_orchestrator(func: &OperationRef) -> bool {
    func_kind(func) == Some("orchestration") && is_host_level(func)
}

/// The symbol name of a function-like op.
pub fn symbol_name<'c>(op: &OperationRef<'c, '_>) -> Option<&'c str> {
    attr_str(op.attribute("sym_name").ok()?)
}
