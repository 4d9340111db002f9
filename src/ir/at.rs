//! Positional lookups that may miss, without melior's cost of missing: its
//! out-of-range error prints the op or block it was asked about, and printing
//! a nested op renders (and verifies) its whole enclosing module — a module
//! print per miss made passes quadratic (1000 HOST dispatches: 44 s). The
//! `op.operand(i).ok()`-style probes go through these instead.

use melior::ir::{
    RegionRef, Value,
    block::{BlockArgument, BlockLike},
    operation::{OperationLike, OperationResult},
};

/// `operand`, `result` and `region` of an op, `None` past the end.
pub(crate) trait OpAt<'c: 'a, 'a> {
    /// Operand `index`, if the op has that many.
    fn operand_at(&self, index: usize) -> Option<Value<'c, 'a>>;
    /// Result `index`, if the op has that many.
    fn result_at(&self, index: usize) -> Option<OperationResult<'c, 'a>>;
    /// Region `index`, if the op has that many.
    fn region_at(&self, index: usize) -> Option<RegionRef<'c, 'a>>;
}

impl<'c: 'a, 'a, T: OperationLike<'c, 'a>> OpAt<'c, 'a> for T {
    fn operand_at(&self, index: usize) -> Option<Value<'c, 'a>> {
        (index < self.operand_count()).then(|| self.operand(index).ok())?
    }
    fn result_at(&self, index: usize) -> Option<OperationResult<'c, 'a>> {
        (index < self.result_count()).then(|| self.result(index).ok())?
    }
    fn region_at(&self, index: usize) -> Option<RegionRef<'c, 'a>> {
        (index < self.region_count()).then(|| self.region(index).ok())?
    }
}

/// `argument` of a block, `None` past the end.
pub(crate) trait BlockAt<'c: 'a, 'a> {
    /// Argument `index`, if the block has that many.
    fn argument_at(&self, index: usize) -> Option<BlockArgument<'c, 'a>>;
}

impl<'c: 'a, 'a, T: BlockLike<'c, 'a>> BlockAt<'c, 'a> for T {
    fn argument_at(&self, index: usize) -> Option<BlockArgument<'c, 'a>> {
        (index < self.argument_count()).then(|| self.argument(index).ok())?
    }
}
