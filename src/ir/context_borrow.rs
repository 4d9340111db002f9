//! Borrowing a `&Context` from a `ContextRef` soundly.

use melior::{Context, ContextRef};

/// The `&Context` behind `context`, borrowed no longer than `context` lives.
///
/// melior's `ContextRef::to_ref` reinterprets `&ContextRef` as `&Context`
/// with an unbounded lifetime, so calling it on a temporary
/// (`op.context().to_ref()`) dangles as soon as the statement ends (it only
/// "works" in debug builds). Bind the `ContextRef` to a local and borrow it
/// through this function instead.
pub fn borrow<'r>(context: &'r ContextRef) -> &'r Context {
    unsafe { context.to_ref() }
}
