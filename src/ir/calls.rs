//! Call sites (`func.call`, `pl.submit`, `pld.host.dispatch`): callee,
//! argument count, runtime-allocated results, appending arguments.

use crate::ir::attributes::{attr_str, set_attr};
use crate::ir::op_kind::{OpKind, op_kind};
use melior::ir::{
    attribute::DenseI32ArrayAttribute,
    operation::{OperationLike, OperationRef},
};

/// The `callee` symbol of a call-like op.
pub fn callee_name(op: &OperationRef) -> Option<String> {
    callee(op).map(str::to_string)
}

/// The `callee` symbol of a call-like op, borrowed from the context (no
/// allocation).
pub fn callee<'c>(op: &OperationRef<'c, '_>) -> Option<&'c str> {
    attr_str(op.attribute("callee").ok()?)
}

/// How many leading operands of a call-like op are callee arguments (a
/// `pld.host.dispatch` also has its device and optional core_num).
/// The result indices a `pl.submit` leaves to the runtime to allocate
/// (`runtime_alloc_outs`, in order; empty for any other op). Entry `k` is the
/// buffer the runtime allocates for the callee's parameter
/// `operand_count + k`, which the callee returns at that result index (the
/// `pl.submit` verifier checks the binding; docs/lowering.md, "pl.submit").
pub fn runtime_alloc_outs(op: &OperationRef) -> Vec<i64> {
    if op_kind(op) != OpKind::Submit {
        return Vec::new();
    }
    op.attribute("runtime_alloc_outs")
        .ok()
        .and_then(|a| melior::ir::attribute::DenseI64ArrayAttribute::try_from(a).ok())
        .map(|d| (0..d.len()).filter_map(|i| d.element(i).ok()).collect())
        .unwrap_or_default()
}

pub fn call_arg_count(op: &OperationRef) -> usize {
    if op_kind(op) == OpKind::HostDispatch {
        return dispatch_segments(op).map(|s| s[0] as usize).unwrap_or(0);
    }
    op.operand_count()
}

fn dispatch_segments(op: &OperationRef) -> Option<Vec<i32>> {
    let attr = op.attribute("operandSegmentSizes").ok()?;
    let array = DenseI32ArrayAttribute::try_from(attr).ok()?;
    Some(
        (0..array.len())
            .map(|i| array.element(i).unwrap_or(0))
            .collect(),
    )
}

/// Appends `extra` to the callee arguments of a call-like op, which is
/// replaced by a copy with the longer operand list (see
/// `pldOperationRebuildWithOperands`); returns the copy. `op` is erased:
/// only the returned handle may be used afterwards.
pub fn append_call_args<'c, 'a>(
    op: OperationRef<'c, 'a>,
    extra: &[mlir_sys::MlirValue],
) -> OperationRef<'c, 'a> {
    if extra.is_empty() {
        return op;
    }
    let n = call_arg_count(&op);
    let segments = if op_kind(&op) == OpKind::HostDispatch {
        dispatch_segments(&op)
    } else {
        None
    };
    let raw = unsafe {
        crate::capi::pldOperationRebuildWithOperands(
            op.to_raw(),
            n as isize,
            extra.len() as isize,
            extra.as_ptr(),
        )
    };
    // The copy lives in the same block as the original did.
    let rebuilt = unsafe { OperationRef::from_raw(raw) };
    if let Some(mut segments) = segments {
        segments[0] += extra.len() as i32;
        let context_ref = rebuilt.context();
        let context = crate::ir::context_borrow::borrow(&context_ref);
        set_attr(
            &rebuilt,
            "operandSegmentSizes",
            DenseI32ArrayAttribute::new(context, &segments).into(),
        );
    }
    rebuilt
}

#[cfg(test)]
mod append_call_args_tests {
    use super::{append_call_args, call_arg_count};
    use melior::ir::{BlockLike, Module, RegionLike, ValueLike, operation::OperationLike};

    /// The rebuilt call keeps its callee, attributes, result uses and place,
    /// gains the operands, and the original is gone.
    #[test]
    fn rebuilt_call_replaces_the_original() {
        let context = crate::test_context();
        let module = Module::parse(
            &context,
            r#"
            func.func private @k(i32) -> i32
            func.func @f(%a: i32, %b: i64) -> i32 {
              %r = func.call @k(%a) {pl.task_id = 7 : i64} : (i32) -> i32
              return %r : i32
            }
            "#,
        )
        .expect("parses");
        let body = module.body();
        let f = body
            .first_operation()
            .and_then(|k| k.next_in_block())
            .expect("@f");
        let entry = f.region(0).expect("body").first_block().expect("entry");
        let call = entry.first_operation().expect("the call");
        let extra = [entry.argument(1).expect("%b").to_raw()];
        let rebuilt = append_call_args(call, &extra);

        assert_eq!(call_arg_count(&rebuilt), 2);
        assert_eq!(
            rebuilt.operand(1).expect("operand").to_raw().ptr,
            extra[0].ptr
        );
        assert!(rebuilt.attribute("pl.task_id").is_ok());
        assert_eq!(
            entry.first_operation().map(|op| op.to_raw().ptr),
            Some(rebuilt.to_raw().ptr)
        );
        let ret = rebuilt.next_in_block().expect("the return");
        assert_eq!(
            ret.operand(0).expect("returned value").to_raw().ptr,
            rebuilt.result(0).expect("result").to_raw().ptr
        );
        // The callee keeps its one parameter (materialize-dist-tensor-ctx
        // extends both), so the module prints in generic form.
        let printed = module.as_operation().to_string();
        assert!(
            printed.contains(r#""func.call"(%arg0, %arg1) <{callee = @k}> {pl.task_id = 7 : i64} : (i32, i64) -> i32"#),
            "{printed}"
        );
        assert_eq!(printed.matches("func.call").count(), 1, "{printed}");
    }
}
