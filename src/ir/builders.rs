//! Typed builders for the `pl` / `pld` ops the passes create: one function
//! per op, its parameters the ODS operands and attributes by name and kind
//! (`dialect/include/pld/{PlOps,PldOps}.td`), so no pass spells an op name,
//! an operand order or an attribute name of its own. Each builds through
//! melior's `OperationBuilder`; the op's ODS verifier checks the result when
//! the pass manager verifies. (melior's `dialect!` macro would generate
//! these from the `.td` files, but needs melior's `ods-dialects` feature,
//! which compiles every upstream dialect's builders into each of CI's
//! builds.)

use crate::error::PldError;
use melior::{
    Context,
    ir::{
        Attribute, AttributeLike, Block, BlockLike, Identifier, Location, Region, RegionLike, Type,
        TypeLike, Value, ValueLike,
        attribute::{
            DenseI32ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute,
        },
        operation::{Operation, OperationBuilder, OperationLike},
        r#type::IntegerType,
    },
};

fn build<'c>(
    name: &str,
    loc: Location<'c>,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    attributes: &[(Identifier<'c>, Attribute<'c>)],
) -> Result<Operation<'c>, PldError> {
    Ok(OperationBuilder::new(name, loc)
        .add_operands(operands)
        .add_results(results)
        .add_attributes(attributes)
        .build()?)
}

fn i64_attr(context: &Context, value: i64) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 64).into(), value).into()
}

fn i64_type(context: &Context) -> Type<'_> {
    IntegerType::new(context, 64).into()
}

/// `pl.cast %source : T to result`: through `pl.cast`'s own ODS builder
/// (`pldCastCreate`), ~40% cheaper than the generic builder for the five
/// casts of every collective (#16).
pub fn cast<'c>(
    source: Value<'c, '_>,
    result: Type<'c>,
    loc: Location<'c>,
) -> Result<Operation<'c>, PldError> {
    let raw = unsafe { crate::capi::pldCastCreate(loc.to_raw(), source.to_raw(), result.to_raw()) };
    if raw.ptr.is_null() {
        return Err(PldError::Internal("pl.cast could not be created".into()));
    }
    Ok(unsafe { Operation::from_raw(raw) })
}

/// Replaces the collective `op`, through the pattern rewriter `rewriter`
/// (the raw handle a melior pattern callback receives), by a call of
/// `callee`: a `pl.cast` of each operand whose type is not `params[i]`, the
/// `func.call` (result type `result`, discardable attributes
/// `discardable`), and a `pl.cast` of its result back to `op`'s result type.
/// One C call per collective through the ODS builders (`pldRewriteCollectiveAsCall`):
/// the mixed pipeline's rewrite is op creation, and this halves it (#23).
pub fn replace_collective_with_call<'c>(
    rewriter: mlir_sys::MlirPatternRewriter,
    op: melior::ir::operation::OperationRef<'c, '_>,
    callee: Attribute<'c>,
    params: &[mlir_sys::MlirType],
    result: mlir_sys::MlirType,
    discardable: Option<mlir_sys::MlirAttribute>,
) -> Result<(), PldError> {
    if op.operand_count() < params.len() || op.result_count() != 1 {
        return Err(PldError::Internal(
            "a collective has its kernel's operands and one result".into(),
        ));
    }
    let call = unsafe {
        crate::capi::pldRewriteCollectiveAsCall(
            rewriter,
            op.to_raw(),
            callee.to_raw(),
            params.len() as isize,
            params.as_ptr(),
            result,
            discardable.unwrap_or(mlir_sys::MlirAttribute {
                ptr: std::ptr::null(),
            }),
        )
    };
    if call.ptr.is_null() {
        return Err(PldError::Internal("func.call could not be created".into()));
    }
    Ok(())
}

/// `pl.require %condition else error code, "message"`.
pub fn require<'c>(
    context: &'c Context,
    condition: Value<'c, '_>,
    code: i64,
    message: &str,
    seen: &[(&str, Value<'c, '_>)],
    loc: Location<'c>,
) -> Result<Operation<'c>, PldError> {
    guard(
        "pl.require",
        "code",
        context,
        condition,
        code,
        message,
        seen,
        loc,
    )
}

/// A `<name> %condition else error <code>, "message" [seen(values)]` op:
/// `pl.require` (CHIP) and `pld.host.require` (HOST) differ in their name and
/// code attribute. `seen` names the run-time values a failure reports.
#[allow(clippy::too_many_arguments)]
fn guard<'c>(
    name: &str,
    code_attribute: &str,
    context: &'c Context,
    condition: Value<'c, '_>,
    code: i64,
    message: &str,
    seen: &[(&str, Value<'c, '_>)],
    loc: Location<'c>,
) -> Result<Operation<'c>, PldError> {
    let mut operands = vec![condition];
    operands.extend(seen.iter().map(|(_, v)| *v));
    let mut attributes = vec![
        (
            Identifier::new(context, code_attribute),
            i64_attr(context, code),
        ),
        (
            Identifier::new(context, "message"),
            StringAttribute::new(context, message).into(),
        ),
    ];
    if !seen.is_empty() {
        let names: Vec<Attribute> = seen
            .iter()
            .map(|(n, _)| StringAttribute::new(context, n).into())
            .collect();
        attributes.push((
            Identifier::new(context, "value_names"),
            melior::ir::attribute::ArrayAttribute::new(context, &names).into(),
        ));
    }
    build(name, loc, &operands, &[], &attributes)
}

/// `%r = pl.launch %blocks -> result { <call>; pl.yield <call's results> }`.
pub fn launch<'c>(
    blocks: Value<'c, '_>,
    call: Operation<'c>,
    results: &[Type<'c>],
    loc: Location<'c>,
) -> Result<Operation<'c>, PldError> {
    let block = Block::new(&[]);
    let call = block.append_operation(call);
    let values: Vec<Value> = call.results().map(Value::from).collect();
    block.append_operation(build("pl.yield", loc, &values, &[], &[])?);
    let region = Region::new();
    region.append_block(block);
    Ok(OperationBuilder::new("pl.launch", loc)
        .add_operands(&[blocks])
        .add_results(results)
        .add_regions([region])
        .build()?)
}

/// `pld.system.nranks : i64` (InCore).
pub fn system_nranks<'c>(
    context: &'c Context,
    loc: Location<'c>,
) -> Result<Operation<'c>, PldError> {
    build("pld.system.nranks", loc, &[], &[i64_type(context)], &[])
}

/// `pld.system.rank : i64` (InCore).
pub fn system_rank<'c>(context: &'c Context, loc: Location<'c>) -> Result<Operation<'c>, PldError> {
    build("pld.system.rank", loc, &[], &[i64_type(context)], &[])
}

/// `pld.comm.read_count %counts[%index] : T -> i32` (the local rank's entry).
pub fn comm_read_count<'c>(
    context: &'c Context,
    counts: Value<'c, '_>,
    index: Value<'c, '_>,
    loc: Location<'c>,
) -> Result<Operation<'c>, PldError> {
    build(
        "pld.comm.read_count",
        loc,
        &[counts, index],
        &[IntegerType::new(context, 32).into()],
        &[],
    )
}

/// `pld.comm.put_rows %rows of %source[%source_row] to %target[%target_row] on rank %rank`.
pub fn comm_put_rows<'c>(
    rows: Value<'c, '_>,
    source: Value<'c, '_>,
    source_row: Value<'c, '_>,
    target: Value<'c, '_>,
    target_row: Value<'c, '_>,
    rank: Value<'c, '_>,
    loc: Location<'c>,
) -> Result<Operation<'c>, PldError> {
    build(
        "pld.comm.put_rows",
        loc,
        &[rows, source, source_row, target, target_row, rank],
        &[],
        &[],
    )
}

/// `pld.comm.notify %value to %counts[%slot] signal %signal on rank %rank`.
pub fn comm_notify<'c>(
    value: Value<'c, '_>,
    counts: Value<'c, '_>,
    slot: Value<'c, '_>,
    signal: Value<'c, '_>,
    rank: Value<'c, '_>,
    loc: Location<'c>,
) -> Result<Operation<'c>, PldError> {
    build(
        "pld.comm.notify",
        loc,
        &[value, counts, slot, signal, rank],
        &[],
        &[],
    )
}

/// `pld.comm.wait %signal[%slot]`.
pub fn comm_wait<'c>(
    signal: Value<'c, '_>,
    slot: Value<'c, '_>,
    loc: Location<'c>,
) -> Result<Operation<'c>, PldError> {
    build("pld.comm.wait", loc, &[signal, slot], &[], &[])
}

/// `pld.host.require %condition else error error_code, "message"`.
pub fn host_require<'c>(
    context: &'c Context,
    condition: Value<'c, '_>,
    error_code: i64,
    message: &str,
    seen: &[(&str, Value<'c, '_>)],
    loc: Location<'c>,
) -> Result<Operation<'c>, PldError> {
    guard(
        "pld.host.require",
        "error_code",
        context,
        condition,
        error_code,
        message,
        seen,
        loc,
    )
}

/// `pld.host.dispatch @callee(args) on %device [core_num(%core_num)]`, with
/// extra discardable attributes (`pl.*`).
pub fn host_dispatch<'c>(
    context: &'c Context,
    callee: &str,
    args: &[Value<'c, '_>],
    device: Value<'c, '_>,
    core_num: Option<Value<'c, '_>>,
    extra: &[(&str, Attribute<'c>)],
    loc: Location<'c>,
) -> Result<Operation<'c>, PldError> {
    let mut operands: Vec<Value> = args.to_vec();
    operands.push(device);
    operands.extend(core_num);
    let segments = [args.len() as i32, 1, core_num.is_some() as i32];
    let mut attributes = vec![
        (
            Identifier::new(context, "callee"),
            FlatSymbolRefAttribute::new(context, callee).into(),
        ),
        (
            Identifier::new(context, "operandSegmentSizes"),
            DenseI32ArrayAttribute::new(context, &segments).into(),
        ),
    ];
    attributes.extend(extra.iter().map(|(n, a)| (Identifier::new(context, n), *a)));
    build("pld.host.dispatch", loc, &operands, &[], &attributes)
}

/// `pld.host.device_ctx %device [in %domain] : !pld.comm_ctx`.
pub fn host_device_ctx<'c>(
    context: &'c Context,
    device: Value<'c, '_>,
    domain: Option<Value<'c, '_>>,
    loc: Location<'c>,
) -> Result<Operation<'c>, PldError> {
    let mut operands = vec![device];
    operands.extend(domain);
    build(
        "pld.host.device_ctx",
        loc,
        &operands,
        &[crate::ir::types::comm_ctx_type(context)],
        &[],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::BlockLike;

    /// Every builder's op verifies and prints in its ODS assembly format with
    /// its operands in order (inside a HOST orchestrator, where the host ops
    /// are valid).
    #[test]
    fn builders_follow_the_ods_operand_order() {
        use melior::{
            dialect::func,
            ir::{
                Region,
                attribute::{StringAttribute, TypeAttribute},
                r#type::FunctionType,
            },
        };
        let context = crate::test_context();
        let loc = Location::unknown(&context);
        let i64t = i64_type(&context);
        let i1: Type = IntegerType::new(&context, 1).into();
        let block = Block::new(&[(i64t, loc), (i64t, loc), (i1, loc)]);
        let [a, b] = [0, 1].map(|i| Value::from(block.argument(i).unwrap()));
        let c: Value = block.argument(2).unwrap().into();
        block.append_operation(host_require(&context, c, 5, "no", &[], loc).unwrap());
        block.append_operation(host_dispatch(&context, "k", &[a], b, Some(a), &[], loc).unwrap());
        block.append_operation(host_device_ctx(&context, a, None, loc).unwrap());
        block.append_operation(func::r#return(&[], loc));
        let region = Region::new();
        region.append_block(block);
        let ty = FunctionType::new(&context, &[i64t, i64t, i1], &[]);
        let host = func::func(
            &context,
            StringAttribute::new(&context, "host"),
            TypeAttribute::new(ty.into()),
            region,
            &[
                (
                    Identifier::new(&context, "pl.func_kind"),
                    StringAttribute::new(&context, "orchestration").into(),
                ),
                (
                    Identifier::new(&context, "pl.level"),
                    StringAttribute::new(&context, "host").into(),
                ),
            ],
            loc,
        );
        let text = host.to_string();
        for expected in [
            "pld.host.require %arg2 else error 5, \"no\"",
            "pld.host.dispatch @k(%arg0) on %arg1 core_num(%arg0)",
            "pld.host.device_ctx %arg0 : i64",
        ] {
            assert!(text.contains(expected), "{expected} in {text}");
        }
        // Standalone: the ops the CHIP and InCore rails build.
        let dangling = Block::new(&[(i1, loc), (i64t, loc)]);
        let cond: Value = dangling.argument(0).unwrap().into();
        let require =
            dangling.append_operation(require(&context, cond, 5, "bad", &[], loc).unwrap());
        assert_eq!(require.name().as_string_ref().as_str(), Ok("pl.require"));
        assert_eq!(require.attribute("code").unwrap().to_string(), "5 : i64");
        for op in [
            system_rank(&context, loc).unwrap(),
            system_nranks(&context, loc).unwrap(),
        ] {
            assert_eq!(op.result(0).unwrap().r#type(), i64t);
        }
    }
}
