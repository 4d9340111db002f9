//! What defines a value, without melior's `TryFrom`.
//!
//! melior's `BlockArgument::try_from` / `OperationResult::try_from` build
//! their error by printing the value, which prints (and first verifies) the
//! whole enclosing op: one failed conversion costs O(module), so probing with
//! them makes a walk quadratic. These check the kind first.

use melior::ir::{Value, ValueLike, block::BlockArgument, operation::OperationResult};

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
