//! Analyses shared by the passes of one pipeline (issue #16): the function
//! map, the contiguity trace's verdicts, every function's parameter
//! directions and alias classes ([`Directions`]) are computed once and kept
//! while the IR they describe is unchanged.
//!
//! MLIR's analysis manager decides that: each pld pass's C++ class
//! (`src/bridge/passes.cc`) asks it for the module's `RustAnalyses`, whose
//! handle owns an [`Analyses`], and after a successful run marks it
//! preserved when the pass says so ([`Effect`]). Any other pass -- an
//! upstream one in between, say -- preserves nothing, so MLIR destroys it and
//! the next pld pass starts afresh. A pass that changed nothing at all
//! preserves every analysis, which also spares the module a re-verification.
//!
//! Outside a pass manager (a pass's `run` called directly), each run gets a
//! fresh [`Analyses`].

use crate::{analysis::directions::Directions, ir::op_kind::op_id};
use melior::ir::operation::OperationRef;

/// What a successful pass run did to the IR, for MLIR's analysis manager.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing changed: every analysis is preserved (and MLIR skips the
    /// verifier after the pass).
    Unchanged,
    /// Changed only attributes no analysis depends on (`pl.direction`,
    /// `pl.arg_directions`, `pl.task_id`, `pl.task_deps`): every analysis,
    /// MLIR's and [`Analyses`], is kept, and MLIR does not re-verify the
    /// module after the pass (the next pass that changes the IR verifies
    /// those attributes with everything else).
    KeepsAnalyses,
    /// Anything else: every analysis is dropped.
    Changed,
}

/// The analyses of one module, kept across the passes that preserve them.
#[derive(Default)]
pub struct Analyses {
    /// The module they describe (its address).
    module: usize,
    /// The IR handles inside live as long as the module, which outlives the
    /// analysis manager that owns this; their lifetimes are erased here and
    /// restored by [`Self::directions`].
    directions: Option<Box<Directions<'static, 'static>>>,
}

impl Analyses {
    /// The directions (and alias classes, trace, function map) of `module`,
    /// built on first use.
    pub fn directions<'c, 'a>(&mut self, module: &OperationRef<'c, 'a>) -> &mut Directions<'c, 'a> {
        if self.module != op_id(module) {
            self.module = op_id(module);
            self.directions = None;
        }
        let directions = self.directions.get_or_insert_with(|| {
            let built: Box<Directions<'c, 'a>> = Box::new(Directions::of_module(module));
            // Only the lifetimes change; see the field's doc.
            unsafe {
                std::mem::transmute::<Box<Directions<'c, 'a>>, Box<Directions<'static, 'static>>>(
                    built,
                )
            }
        });
        unsafe {
            std::mem::transmute::<&mut Directions<'static, 'static>, &mut Directions<'c, 'a>>(
                &mut **directions,
            )
        }
    }
}

impl Analyses {
    /// Drops every analysis now, for a pass that is about to change the IR
    /// they describe (MLIR would drop them after the pass anyway): the
    /// memory goes back to the allocator before the pass allocates new ops,
    /// which then reuse it (issue #16, peak RSS).
    pub fn clear(&mut self) {
        self.directions = None;
    }
}

/// Moves `analyses` behind a handle for C++ (see `drop_analyses`).
pub(crate) fn into_handle(analyses: Box<Analyses>) -> usize {
    Box::into_raw(analyses) as usize
}

/// The [`Analyses`] behind a handle from [`into_handle`], created on first use.
///
/// # Safety
/// `handle` is 0 or came from [`into_handle`] and was not dropped.
pub(crate) unsafe fn from_handle<'h>(handle: &'h mut usize) -> &'h mut Analyses {
    if *handle == 0 {
        *handle = into_handle(Box::default());
    }
    unsafe { &mut *(*handle as *mut Analyses) }
}

/// Drops the [`Analyses`] behind a handle (MLIR invalidated them, or the
/// analysis manager is done).
pub(crate) fn drop_analyses(handle: usize) {
    if handle != 0 {
        drop(unsafe { Box::from_raw(handle as *mut Analyses) });
    }
}
