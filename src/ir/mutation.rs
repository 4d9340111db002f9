//! The few IR mutations melior's safe API does not reach: replacing all
//! uses, erasing an op, inserting before an op.

use crate::error::PldError;
use crate::ir::op_kind::reborrow_op;
use melior::ir::{
    BlockLike, Value, ValueLike,
    operation::{Operation, OperationLike, OperationRef},
};

/// Replaces every use of `from` with `to`.
pub fn replace_all_uses(from: Value, to: Value) {
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(from.to_raw(), to.to_raw()) }
}

/// Erases an op (it must have no uses left).
pub fn erase(op: OperationRef) {
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) }
}

/// Inserts `new` right before `anchor`, returning the inserted op.
pub fn insert_before<'c, 'a>(
    anchor: &OperationRef<'c, 'a>,
    new: Operation<'c>,
) -> Result<OperationRef<'c, 'a>, PldError> {
    let block = anchor
        .block()
        .ok_or_else(|| PldError::Internal("op without a block".into()))?;
    Ok(block.insert_operation_before(reborrow_op(anchor), new))
}
