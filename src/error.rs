//! The one error type of the Rust side.

use thiserror::Error;

/// What a pass, the codegen or the simulator's driver reports: most
/// failures are emitted as located MLIR diagnostics first ([`Self::Diagnosed`]).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PldError {
    /// melior reported a failure (parse, builder, pattern driver).
    #[error("MLIR: {0}")]
    Melior(#[from] melior::Error),
    /// Errors were already emitted as located MLIR diagnostics.
    #[error("{0} error(s) were reported as diagnostics")]
    Diagnosed(usize),
    /// A Rust panic caught at the FFI seam (a bug, reported, never unwound into C++).
    #[error("internal error: {0}")]
    Internal(String),
}
