//! What defines a value, without melior's `TryFrom`.
//!
//! melior's `BlockArgument::try_from` / `OperationResult::try_from` build
//! their error by printing the value, which prints (and first verifies) the
//! whole enclosing op: one failed conversion costs O(module), so probing with
//! them makes a walk quadratic. These check the kind first.

use crate::ir::at::OpAt as _;
use melior::ir::{
    BlockLike, Value, ValueLike,
    block::BlockArgument,
    operation::{OperationLike, OperationRef, OperationResult},
};

/// The value as an op result, if it is one.
pub fn as_result<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationResult<'c, 'a>> {
    value
        .is_operation_result()
        .then(|| unsafe { OperationResult::from_raw(value.to_raw()) })
}

/// The value as a block argument, if it is one.
pub fn as_argument<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockArgument<'c, 'a>> {
    value
        .is_block_argument()
        .then(|| unsafe { BlockArgument::from_raw(value.to_raw()) })
}

/// The parameter of a function whose entry block is `entry` that `returned`
/// (a value its body returns) is, through any chain of `pl.cast`s: a call's
/// result then aliases that argument (the alias classes, the codegen's
/// result binding and the task graph follow the same rule).
pub fn returned_param<'c, 'a>(
    mut returned: Value<'c, 'a>,
    entry: melior::ir::BlockRef<'c, 'a>,
) -> Option<usize> {
    loop {
        if let Some(arg) = as_argument(returned) {
            return (arg.owner() == entry).then(|| arg.argument_number());
        }
        let def = as_result(returned)?.owner();
        if crate::ir::op_kind::op_name(&def) != "pl.cast" {
            return None;
        }
        returned = def.operand_at(0)?;
    }
}

/// For each result of `func`: the parameter its `func.return` returns (looking
/// through `pl.cast`), if any.
pub fn returned_params(func: &OperationRef) -> Vec<Option<usize>> {
    let Some(entry) = crate::ir::signature::entry_block(func) else {
        return Vec::new();
    };
    let Some(ret) = entry.terminator() else {
        return Vec::new();
    };
    (0..ret.operand_count())
        .map(|i| returned_param(ret.operand_at(i)?, entry))
        .collect()
}
