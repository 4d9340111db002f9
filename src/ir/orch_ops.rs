//! What a CHIP orchestration body may contain: the one list that both the
//! orchestration codegen (`crate::codegen::chip`, which matches on [`OrchOp`]
//! exhaustively) and `--legalize-spmd-launches` (which refuses every op and
//! type not listed here, at its location, before codegen) are written
//! against, so the two cannot drift. The contract is
//! `docs/spec/orchestration.md`'s table.

use crate::ir::at::{BlockAt as _, OpAt as _};
use crate::{
    diag,
    ir::attributes::int_attr,
    ir::calls::callee,
    ir::func_kind::func_kind,
    ir::signature::param_types,
    ir::tensor_type::TensorLike,
    ir::types::{is_comm_ctx, is_tensor_like},
};
use melior::ir::{
    BlockLike, RegionLike, Type, TypeLike, ValueLike,
    attribute::DenseI64ArrayAttribute,
    operation::{OperationLike, OperationRef},
};

/// An op the orchestration codegen emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrchOp {
    /// `func.return`.
    Return,
    /// `func.call`.
    Call,
    /// `pl.submit`.
    Submit,
    /// `pl.launch`: its one call with a runtime block count.
    Launch,
    /// `pl.require`: latch an error code unless a condition holds.
    Require,
    /// `pl.cast`.
    Cast,
    /// `pl.tensor.slice`.
    Slice,
    /// `pl.tensor.view`.
    View,
    /// `pl.tensor.reshape`.
    Reshape,
    /// `pl.tensor.transpose`.
    Transpose,
    /// `pl.tensor.set_validshape`.
    SetValidShape,
    /// `pl.tensor.create`.
    Create,
    /// `pl.tensor.assemble`.
    Assemble,
    /// `pl.tensor.write`.
    Write,
    /// `scf.for`.
    For,
    /// `scf.while`.
    While,
    /// `scf.if`.
    If,
    /// `scf.yield` / `scf.condition` / `pl.yield`: emitted by the op that owns the region.
    Terminator,
    /// `arith.constant`.
    Constant,
    /// A two-operand integer op.
    Binary(BinOp),
    /// `arith.cmpi`.
    Cmp,
    /// `arith.select`.
    Select,
    /// `arith.extsi`.
    ExtS,
    /// `arith.extui`.
    ExtU,
    /// `arith.trunci`.
    Trunc,
    /// `arith.index_cast`.
    IndexCast,
    /// `arith.index_castui`.
    IndexCastUi,
}

/// The `arith` integer ops of two operands and one result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `arith.addi`.
    Add,
    /// `arith.subi`.
    Sub,
    /// `arith.muli`.
    Mul,
    /// `arith.divsi`.
    DivS,
    /// `arith.divui`.
    DivU,
    /// `arith.remsi`.
    RemS,
    /// `arith.remui`.
    RemU,
    /// `arith.minsi`.
    MinS,
    /// `arith.maxsi`.
    MaxS,
    /// `arith.minui`.
    MinU,
    /// `arith.maxui`.
    MaxU,
    /// `arith.andi`.
    And,
    /// `arith.ori`.
    Or,
    /// `arith.xori`.
    Xor,
    /// `arith.shli`.
    Shl,
    /// `arith.shrsi`.
    ShrS,
    /// `arith.shrui`.
    ShrU,
}

/// Every supported op by name.
pub const ORCHESTRATION_OPS: &[(&str, OrchOp)] = &[
    ("func.return", OrchOp::Return),
    ("func.call", OrchOp::Call),
    ("pl.submit", OrchOp::Submit),
    ("pl.launch", OrchOp::Launch),
    ("pl.require", OrchOp::Require),
    ("pl.yield", OrchOp::Terminator),
    ("pl.cast", OrchOp::Cast),
    ("pl.tensor.slice", OrchOp::Slice),
    ("pl.tensor.view", OrchOp::View),
    ("pl.tensor.reshape", OrchOp::Reshape),
    ("pl.tensor.transpose", OrchOp::Transpose),
    ("pl.tensor.set_validshape", OrchOp::SetValidShape),
    ("pl.tensor.create", OrchOp::Create),
    ("pl.tensor.assemble", OrchOp::Assemble),
    ("pl.tensor.write", OrchOp::Write),
    ("scf.for", OrchOp::For),
    ("scf.while", OrchOp::While),
    ("scf.if", OrchOp::If),
    ("scf.yield", OrchOp::Terminator),
    ("scf.condition", OrchOp::Terminator),
    ("arith.constant", OrchOp::Constant),
    ("arith.addi", OrchOp::Binary(BinOp::Add)),
    ("arith.subi", OrchOp::Binary(BinOp::Sub)),
    ("arith.muli", OrchOp::Binary(BinOp::Mul)),
    ("arith.divsi", OrchOp::Binary(BinOp::DivS)),
    ("arith.divui", OrchOp::Binary(BinOp::DivU)),
    ("arith.remsi", OrchOp::Binary(BinOp::RemS)),
    ("arith.remui", OrchOp::Binary(BinOp::RemU)),
    ("arith.minsi", OrchOp::Binary(BinOp::MinS)),
    ("arith.maxsi", OrchOp::Binary(BinOp::MaxS)),
    ("arith.minui", OrchOp::Binary(BinOp::MinU)),
    ("arith.maxui", OrchOp::Binary(BinOp::MaxU)),
    ("arith.andi", OrchOp::Binary(BinOp::And)),
    ("arith.ori", OrchOp::Binary(BinOp::Or)),
    ("arith.xori", OrchOp::Binary(BinOp::Xor)),
    ("arith.shli", OrchOp::Binary(BinOp::Shl)),
    ("arith.shrsi", OrchOp::Binary(BinOp::ShrS)),
    ("arith.shrui", OrchOp::Binary(BinOp::ShrU)),
    ("arith.cmpi", OrchOp::Cmp),
    ("arith.select", OrchOp::Select),
    ("arith.extsi", OrchOp::ExtS),
    ("arith.extui", OrchOp::ExtU),
    ("arith.trunci", OrchOp::Trunc),
    ("arith.index_cast", OrchOp::IndexCast),
    ("arith.index_castui", OrchOp::IndexCastUi),
];

/// Collectives (`is_collective_op`: the dialect's `Pld_CollectiveOp` trait) are deferred: not
/// emitted, but not refused by legalize either; the CHIP rail lowers them
/// first, and its residual check (and pld-translate's) owns a collective that
/// is still there.
pub fn is_deferred(op: &OperationRef) -> bool {
    crate::ir::op_kind::is_collective_op(op)
}

impl OrchOp {
    /// An integer scalar op (`arith.constant`, a binary op, `cmpi`, `select`,
    /// a cast): the ops both orchestration rails emit from one scalar model.
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            OrchOp::Constant
                | OrchOp::Binary(_)
                | OrchOp::Cmp
                | OrchOp::Select
                | OrchOp::ExtS
                | OrchOp::ExtU
                | OrchOp::Trunc
                | OrchOp::IndexCast
                | OrchOp::IndexCastUi
        )
    }

    /// The entry of [`ORCHESTRATION_OPS`] named `name`.
    pub fn from_name(name: &str) -> Option<OrchOp> {
        ORCHESTRATION_OPS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, op)| *op)
    }
}

thread_local! {
    /// [`OrchOp::from_name`] by op-class TypeID (process-wide, never reused).
    static ORCH_OPS: std::cell::RefCell<crate::ir::handle_maps::PtrMap<Option<OrchOp>>> = Default::default();
}

/// [`OrchOp::from_name`] of `op` (named `name`): the table is searched once
/// per registered op class, not once per op.
fn orch_op(op: &OperationRef, name: &str) -> Option<OrchOp> {
    let id = unsafe { mlir_sys::mlirOperationGetTypeID(op.to_raw()) }.ptr as usize;
    if id == 0 {
        return OrchOp::from_name(name);
    }
    ORCH_OPS.with(|cache| {
        *cache
            .borrow_mut()
            .entry(id)
            .or_insert_with(|| OrchOp::from_name(name))
    })
}

/// The bit width of an integer scalar the codegen keeps in an `int64_t`
/// (`i1`..`i64` signless, `index` = 64), or `None`.
pub fn scalar_bits(ty: Type) -> Option<u32> {
    let raw = ty.to_raw();
    unsafe {
        if mlir_sys::mlirTypeIsAIndex(raw) {
            return Some(64);
        }
        if mlir_sys::mlirTypeIsAInteger(raw) && mlir_sys::mlirIntegerTypeIsSignless(raw) {
            let w = mlir_sys::mlirIntegerTypeGetWidth(raw);
            return (1..=64).contains(&w).then_some(w);
        }
    }
    None
}

/// Whether a value of type `ty` can live in a CHIP orchestration body: a
/// tensor descriptor, a CommContext, or an integer scalar.
pub fn type_supported(ty: Type) -> bool {
    is_tensor_like(ty) || is_comm_ctx(ty) || scalar_bits(ty).is_some()
}

/// The C++ comparison of an `arith.cmpi` predicate attribute and whether it
/// compares unsigned (both emitters share it).
pub fn cmpi_operator(predicate: i64) -> Option<(&'static str, bool)> {
    use melior::dialect::arith::CmpiPredicate as P;
    const ALL: [(P, &str, bool); 10] = [
        (P::Eq, "==", false),
        (P::Ne, "!=", false),
        (P::Slt, "<", false),
        (P::Sle, "<=", false),
        (P::Sgt, ">", false),
        (P::Sge, ">=", false),
        (P::Ult, "<", true),
        (P::Ule, "<=", true),
        (P::Ugt, ">", true),
        (P::Uge, ">=", true),
    ];
    ALL.iter()
        .find(|(p, _, _)| *p as i64 == predicate)
        .map(|(_, sym, unsigned)| (*sym, *unsigned))
}

/// Bytes per element of a tensor element type (`None` for a type the runtime
/// cannot size).
pub fn element_bytes(ty: Type) -> Option<u32> {
    let raw = ty.to_raw();
    let bits = unsafe {
        if mlir_sys::mlirTypeIsAInteger(raw) {
            mlir_sys::mlirIntegerTypeGetWidth(raw)
        } else if mlir_sys::mlirTypeIsAFloat(raw) {
            mlir_sys::mlirFloatTypeGetWidth(raw)
        } else {
            return None;
        }
    };
    let bytes = bits.div_ceil(8);
    matches!(bytes, 1 | 2 | 4 | 8).then_some(bytes)
}

/// Reports (at each op's location) everything in the CHIP orchestration body
/// `func` that the orchestration codegen cannot emit; returns the error count.
/// One error per op; an unsupported op's regions are not searched further.
/// Ops in `skip` (by `crate::ir::op_kind::op_id`) were already reported.
pub fn check_body<'c, 'a>(
    func: &OperationRef<'c, 'a>,
    functions: &crate::ir::walk::FunctionMap<'c, 'a>,
    skip: &std::collections::HashSet<usize>,
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
        if !type_supported(ty) {
            report(
                func,
                format!(
                    "CHIP orchestration function @{name}: parameter #{i} must be a tensor, a CommContext or an integer scalar (i1..i64, index), got '{ty}'"
                ),
            );
        } else if let Some(problem) = crate::ir::tensor_type::chip_tensor_problem(
            &format!("CHIP orchestration function @{name}: parameter #{i}"),
            ty,
        ) {
            report(func, problem);
        }
    }
    if let Some(message) = entry_slots_problem(&name, &param_types(func)) {
        report(func, message);
    }
    crate::ir::walk::check_body_ops(
        func,
        |op| skip.contains(&crate::ir::op_kind::op_id(op)),
        |op| check_op(op, functions),
        &mut report,
    );
    errors
}

/// The entry's argument slots (simpler's `ChipTaskArgs`): a tensor slot per tensor parameter, a
/// scalar per integer or CommContext parameter, where a `!pld.dtensor` parameter not yet given its
/// context by `--materialize-dist-tensor-ctx` will have one. Past them the entry cannot be called.
fn entry_slots_problem(name: &str, types: &[Type]) -> Option<String> {
    use crate::ir::launch_width::{CHIP_MAX_SCALAR_ARGS, CHIP_MAX_TENSOR_ARGS};
    let count = |pred: &dyn Fn(Type) -> bool| types.iter().filter(|t| pred(**t)).count();
    let tensors = count(&|t| is_tensor_like(t));
    let integers = count(&|t| scalar_bits(t).is_some());
    let contexts = count(&|t| is_comm_ctx(t)).max(count(&|t| crate::ir::types::is_dtensor(t)));
    let scalars = integers + contexts;
    (tensors > CHIP_MAX_TENSOR_ARGS || scalars > CHIP_MAX_SCALAR_ARGS).then(|| {
        format!(
            "CHIP orchestration function @{name} must fit its entry's argument slots (at most \
             {CHIP_MAX_TENSOR_ARGS} tensors and {CHIP_MAX_SCALAR_ARGS} scalars: simpler's \
             ChipTaskArgs), got {tensors} tensor parameters and {scalars} scalars ({integers} \
             integer, {contexts} CommContext)"
        )
    })
}

fn check_op<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    functions: &crate::ir::walk::FunctionMap<'c, 'a>,
) -> Result<(), String> {
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or("?");
    if is_deferred(op) {
        return Ok(());
    }
    let Some(kind) = orch_op(op, name) else {
        return Err(diag::msg!(
            "is not supported in a CHIP orchestration body: the orchestration codegen (pld-translate --pld-to-ascend-build) cannot emit it, so --legalize-spmd-launches refuses it"
        ));
    };
    for r in 0..op.result_count() {
        let Some(v) = op.result_at(r) else { continue };
        if !type_supported(v.r#type()) {
            return Err(diag::msg!(
                "result #{r} must be a tensor, a CommContext or an integer scalar (i1..i64, index) in a CHIP orchestration body, got '{}'",
                v.r#type()
            ));
        }
        if let Some(problem) =
            crate::ir::tensor_type::chip_tensor_problem(&format!("result #{r}"), v.r#type())
        {
            return Err(problem);
        }
    }
    for r in 0..op.region_count() {
        let Some(region) = op.region_at(r) else {
            continue;
        };
        let mut b = region.first_block();
        while let Some(block) = b {
            b = block.next_in_region();
            if block.next_in_region().is_some() {
                return Err(diag::msg!(
                    "region of more than one block has no structured form in the orchestration codegen"
                ));
            }
            for k in 0..block.argument_count() {
                let Some(a) = block.argument_at(k) else {
                    continue;
                };
                if !type_supported(a.r#type()) {
                    return Err(diag::msg!(
                        "region argument #{k} must be a tensor, a CommContext or an integer scalar (i1..i64, index) in a CHIP orchestration body, got '{}'",
                        a.r#type()
                    ));
                }
                if let Some(problem) = crate::ir::tensor_type::chip_tensor_problem(
                    &format!("region argument #{k}"),
                    a.r#type(),
                ) {
                    return Err(problem);
                }
            }
        }
    }
    let static_result = |what: &str| -> Result<(), String> {
        let Some(r) = op.result_at(0) else {
            return Ok(());
        };
        let ty = r.r#type();
        match TensorLike::of(ty) {
            Some(t) if t.static_shape().is_some() && element_bytes(t.element).is_some() => Ok(()),
            _ => Err(diag::msg!(
                "{what} must have a static shape and a sized element type in a CHIP orchestration body, got '{ty}'"
            )),
        }
    };
    match kind {
        OrchOp::View | OrchOp::Reshape => static_result("result type"),
        OrchOp::Create => static_result("allocated type"),
        OrchOp::Constant
            if op
                .attribute("value")
                .ok()
                .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
                .is_none() =>
        {
            Err(diag::msg!(
                "attribute 'value' must be an integer constant in a CHIP orchestration body (only integer scalars have a runtime form)"
            ))
        }
        OrchOp::Call | OrchOp::Submit => check_task(op, name, functions),
        _ => Ok(()),
    }
}

/// A task: an AIV kernel of this module, results it can name, no scalar arguments.
fn check_task<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    name: &str,
    functions: &crate::ir::walk::FunctionMap<'c, 'a>,
) -> Result<(), String> {
    let Some(callee) = callee(op) else {
        return Err(diag::msg!(
            "callee symbol must be valid UTF-8 for the orchestration codegen to name it"
        ));
    };
    let Some(func) = functions.get(callee) else {
        return Err(diag::msg!(
            "callee @{callee} must be a function of this module"
        ));
    };
    if func_kind(func) != Some("aiv") {
        let kind = func_kind(func).map_or("no pl.func_kind".to_string(), |k| {
            format!("pl.func_kind \"{k}\"")
        });
        return Err(diag::msg!(
            "callee @{callee} must be an AIV kernel (pl.func_kind \"aiv\"): a CHIP orchestration body launches AIV kernels only, got {kind}"
        ));
    }
    let abi = int_attr(op, "pl.abi_arg_count")
        .map(|n| n.max(0) as usize)
        .unwrap_or(usize::MAX);
    for k in 0..op.operand_count().min(abi) {
        let Some(v) = op.operand_at(k) else { continue };
        if scalar_bits(v.r#type()).is_some() {
            return Err(diag::msg!(
                "argument #{k} of @{callee} must be a tensor or a CommContext (a kernel task takes no scalars), got an integer scalar"
            ));
        }
    }
    let alloc_outs: Vec<i64> = if name == "pl.submit" {
        op.attribute("runtime_alloc_outs")
            .ok()
            .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
            .map(|d| (0..d.len()).filter_map(|i| d.element(i).ok()).collect())
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let returned = crate::ir::value_defs::returned_params(func);
    for n in 0..op.result_count() {
        let Some(r) = op.result_at(n) else { continue };
        if alloc_outs.contains(&(n as i64)) {
            match TensorLike::of(r.r#type()) {
                Some(t) if t.static_shape().is_some() && element_bytes(t.element).is_some() => {
                    continue;
                }
                _ => {
                    return Err(diag::msg!(
                        "runtime-allocated result #{n} of @{callee} must have a static shape, got '{}'",
                        r.r#type()
                    ));
                }
            }
        }
        let named = returned
            .get(n)
            .copied()
            .flatten()
            .is_some_and(|j| j < op.operand_count() + alloc_outs.len());
        if !named {
            return Err(diag::msg!(
                "result #{n} of @{callee} must be a parameter the callee returns, or the orchestration codegen cannot name it (a kernel writes its arguments in place)"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_listed_once_and_round_trips() {
        crate::ir::op_kind::assert_name_table(ORCHESTRATION_OPS, OrchOp::from_name);
        for refused in [
            "cf.br",
            "cf.cond_br",
            "memref.alloc",
            "tensor.empty",
            "arith.addf",
            "scf.execute_region",
            "pld.window",
        ] {
            assert_eq!(OrchOp::from_name(refused), None, "{refused}");
        }
    }
}
