//! The analyses the passes share: they read the IR and never change it.
//!
//! - [`contiguity`]: the allow-list proof that a collective operand is a packed
//!   row-major view (the design's contiguity trace).
//! - `alias`: a function's alias classes over its tensor-like values.
//! - `directions`: parameter and per-call argument directions.
//! - `provenance`: window provenance and communication domains across HOST
//!   dispatches (`docs/spec/domains.md`);
//! - `window_checks`: the checks over a collective's resolved windows
//!   (distinct allocations, one domain, NR = ranks), on `provenance`.
//! - `manager`: the above kept across one pipeline through MLIR's analysis
//!   manager.

pub(crate) mod alias;
pub mod contiguity;
pub(crate) mod directions;
pub(crate) mod pipeline_analyses;
pub(crate) mod provenance;
pub(crate) mod window_checks;
