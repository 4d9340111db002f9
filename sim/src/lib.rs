//! pld-sim: runs the rendered all_to_all_v kernel and the generated CHIP orchestration on the CPU
//! (docs/sim.md). The `pld-sim` binary is a thin CLI over this crate; a case is built and run
//! through the one executor, pld-run's crate ([`pld_run`], docs/running.md: its build cache,
//! its engine and the element types), of which this crate is a client.
//!
//! - [`case`]: the case JSON and its validation;
//! - [`bench`](mod@bench): `pld-sim --bench`, the exchange timed against memcpy;
//! - [`error`]: [`SimError`], why a run gave no result;
//! - [`chip_pipeline`]: the `chip_pipeline` module written for a case;
//! - [`launch`]: a case's module built into a runner and run by the engine, bounded;
//! - [`result`]: the one result (both suites) and its JSON;
//! - [`run`]: one case's engine run and the result;
//! - [`golden`]: the independent expected outcome;
//! - [`wire`]: what the exchange kernels move, checked from the engine's copy trace;
//! - [`suite`]: the one case / matrix / verdict model of both suites (all_to_all_v, family);
//! - [`matrix`]: the case matrix and how each entry is judged;
//! - [`family`]: the collective family's cases, modules, golden and matrix.
//!
//! The simulator is its own crate so that its golden's independence is structural: it reaches
//! pld only through pld-opt and pld-translate as subprocesses and through the `pld` library's
//! public API, of which it uses exactly one item, [`pld::cal_all_to_all_v_blocks`] (the launch
//! width B of a [`case`], whence its default signal stride; the golden folds its own,
//! [`golden::fold_blocks`]). `sim/tests/independence.rs` keeps it so: no other `pld::` path in
//! `src/`, none at all in the goldens outside their unit tests (nor of the executor but its element
//! types), no `#[path]` / `include!` and no path dependency but `pld` and `pld-run`.
#![deny(missing_docs)]

pub mod bench;
pub mod case;
pub mod chip_pipeline;
pub mod error;
pub mod family;
pub mod golden;
pub mod launch;
pub mod matrix;
pub(crate) mod mlir_text;
pub(crate) mod raw;
pub mod result;
pub mod run;
pub mod suite;
pub mod wire;

pub use error::SimError;
