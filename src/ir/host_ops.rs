//! What a HOST orchestrator body may contain: the one list that both the
//! HOST codegen (`crate::codegen::host`, which matches on [`HostOp`]
//! exhaustively) and `--legalize-spmd-launches` (which refuses every op and
//! type not listed here, at its location, before codegen) are written
//! against, so no HOST program is accepted by `pld-opt` and then refused by
//! `pld-translate`. Its integer scalar ops are exactly the CHIP list's
//! ([`OrchOp::is_scalar`]): both rails emit them from one scalar model.

use crate::ir::at::OpAt as _;
use crate::{
    diag,
    ir::orch_ops::{OrchOp, element_bytes, is_deferred, scalar_bits},
    ir::signature::{entry_block, param_types},
    ir::tensor_type::TensorLike,
};
use melior::ir::{
    ValueLike,
    operation::{OperationLike, OperationRef},
};

/// An op the HOST codegen emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostOp {
    /// `func.return`.
    Return,
    /// `scf.for` without loop-carried values.
    For,
    /// `scf.yield` (of an `scf.for`, without operands: a loop with
    /// loop-carried values is refused at the loop).
    Yield,
    /// `pl.cast`: the same value.
    Cast,
    /// `pld.window_buffer`.
    WindowBuffer,
    /// `pld.window`.
    Window,
    /// `pld.comm_domain`.
    CommDomain,
    /// `pld.host.device_ctx`.
    DeviceCtx,
    /// `pld.host.require`.
    Require,
    /// `pld.host.dispatch`.
    Dispatch,
    /// An integer scalar op of the CHIP list (`arith.constant`, the binary
    /// ops, `cmpi`, `select`, the casts).
    Scalar(OrchOp),
}

/// Every supported op by name, but the scalar ops ([`HostOp::from_name`]
/// takes those from the CHIP list).
pub const HOST_OPS: &[(&str, HostOp)] = &[
    ("func.return", HostOp::Return),
    ("scf.for", HostOp::For),
    ("scf.yield", HostOp::Yield),
    ("pl.cast", HostOp::Cast),
    ("pld.window_buffer", HostOp::WindowBuffer),
    ("pld.window", HostOp::Window),
    ("pld.comm_domain", HostOp::CommDomain),
    ("pld.host.device_ctx", HostOp::DeviceCtx),
    ("pld.host.require", HostOp::Require),
    ("pld.host.dispatch", HostOp::Dispatch),
];

impl HostOp {
    /// The op named `name`, if a HOST body may hold it.
    pub fn from_name(name: &str) -> Option<HostOp> {
        HOST_OPS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, op)| *op)
            .or_else(|| {
                OrchOp::from_name(name)
                    .filter(OrchOp::is_scalar)
                    .map(HostOp::Scalar)
            })
    }
}

/// Why a `pld.window`'s result type has no HOST form, if it has none: the
/// codegen makes a packed row-major view of a static shape and a sized
/// element type.
pub fn window_type_problem(ty: melior::ir::Type) -> Option<String> {
    let tensor = TensorLike::of(ty);
    let sized = tensor
        .as_ref()
        .is_some_and(|t| t.static_shape().is_some() && element_bytes(t.element).is_some());
    if !sized {
        return Some(diag::msg!(
            "result type must have a static shape and a sized element type in a HOST orchestrator, got '{ty}'"
        ));
    }
    if !tensor.as_ref().is_some_and(|t| t.is_packed_nd()) {
        return Some(diag::msg!(
            "result type must be a packed row-major (nd) view in a HOST orchestrator, got '{ty}'"
        ));
    }
    None
}

/// Why parameter #`i` (of type `ty`) of HOST orchestrator @`name` has no
/// HOST form, if it has none: the codegen reads host tensors
/// (`args->tensor(i)`) and integer scalars (`args->scalar(j)`).
pub fn param_problem(name: &str, i: usize, ty: melior::ir::Type) -> Option<String> {
    let host_tensor = TensorLike::of(ty).is_some_and(|t| !t.distributed);
    if !host_tensor && scalar_bits(ty).is_none() {
        return Some(diag::msg!(
            "HOST orchestrator @{name}: parameter #{i} must be a host tensor (!pl.tensor) or an integer scalar (i1..i64, index), got '{ty}'"
        ));
    }
    crate::ir::tensor_type::chip_tensor_problem(
        &format!("HOST orchestrator @{name}: parameter #{i}"),
        ty,
    )
}

/// Reports (at each op's location) everything in the HOST orchestrator `func`
/// that the HOST codegen cannot emit; returns the error count. One error per
/// op; an unsupported op's regions are not searched further.
pub fn check_body<'c, 'a>(
    func: &OperationRef<'c, 'a>,
    functions: &crate::ir::walk::FunctionMap<'c, 'a>,
) -> usize {
    let name = crate::ir::func_kind::symbol_name(func)
        .unwrap_or("")
        .to_string();
    let mut errors = 0;
    let mut report = |op: &OperationRef, msg: String| {
        diag::op_error(op, &msg);
        errors += 1;
    };
    for (i, ty) in param_types(func).into_iter().enumerate() {
        if let Some(problem) = param_problem(&name, i, ty) {
            report(func, problem);
        }
    }
    crate::ir::walk::check_body_ops(func, |_| false, |op| check_op(op, functions), &mut report);
    errors
}

fn check_op<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    functions: &crate::ir::walk::FunctionMap<'c, 'a>,
) -> Result<(), String> {
    if is_deferred(op) {
        return Ok(()); // --lower-host-tensor-collectives owns it
    }
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or("?");
    let Some(kind) = HostOp::from_name(name) else {
        return Err(diag::msg!(
            "is not supported in a HOST orchestrator: the host codegen (pld-translate --pld-to-ascend-build) cannot emit it, so --legalize-spmd-launches refuses it"
        ));
    };
    match kind {
        HostOp::Scalar(scalar) => {
            for r in 0..op.result_count() {
                let Some(v) = op.result_at(r) else { continue };
                if scalar_bits(v.r#type()).is_none() {
                    return Err(diag::msg!(
                        "result #{r} must be an integer scalar (i1..i64, index) in a HOST orchestrator, got '{}'",
                        v.r#type()
                    ));
                }
            }
            let integer_value = op
                .attribute("value")
                .ok()
                .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
                .is_some();
            if scalar == OrchOp::Constant && !integer_value {
                return Err(diag::msg!(
                    "attribute 'value' must be an integer constant in a HOST orchestrator (only integer scalars have a runtime form)"
                ));
            }
            Ok(())
        }
        HostOp::For => {
            if op.result_count() != 0 || op.operand_count() != 3 {
                return Err(diag::msg!(
                    "with loop-carried values is not supported in a HOST orchestrator (the host codegen emits loops without them)"
                ));
            }
            Ok(())
        }
        HostOp::Window => match op.result(0) {
            Ok(r) => window_type_problem(r.r#type())
                .or_else(|| crate::ir::tensor_type::chip_tensor_problem("result #0", r.r#type()))
                .map_or(Ok(()), Err),
            Err(_) => Ok(()),
        },
        HostOp::Dispatch => {
            let callee = crate::ir::calls::callee(op).and_then(|c| functions.get(c));
            match callee {
                Some(f) if entry_block(f).is_none() => Err(diag::msg!(
                    "callee @{} must be a CHIP orchestration function with a body (the host codegen dispatches its generated orchestration)",
                    crate::ir::func_kind::symbol_name(f).unwrap_or("")
                )),
                _ => Ok(()),
            }
        }
        HostOp::Return
        | HostOp::Yield
        | HostOp::Cast
        | HostOp::WindowBuffer
        | HostOp::CommDomain
        | HostOp::DeviceCtx
        | HostOp::Require => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_listed_once_and_round_trips() {
        crate::ir::op_kind::assert_name_table(HOST_OPS, HostOp::from_name);
    }

    #[test]
    fn the_scalar_ops_are_the_chip_lists() {
        for (name, op) in crate::ir::orch_ops::ORCHESTRATION_OPS {
            let host = HostOp::from_name(name);
            if op.is_scalar() {
                assert_eq!(host, Some(HostOp::Scalar(*op)), "{name}");
            } else {
                assert!(
                    HOST_OPS.iter().any(|(n, _)| n == name) || host.is_none(),
                    "{name}"
                );
            }
        }
        for name in [
            "arith.shli",
            "arith.shrsi",
            "arith.shrui",
            "arith.minui",
            "arith.maxui",
            "arith.index_castui",
        ] {
            assert!(
                matches!(HostOp::from_name(name), Some(HostOp::Scalar(_))),
                "{name}"
            );
        }
        for refused in [
            "scf.if",
            "scf.while",
            "func.call",
            "cf.br",
            "arith.addf",
            "pl.tensor.slice",
        ] {
            assert_eq!(HostOp::from_name(refused), None, "{refused}");
        }
    }
}
