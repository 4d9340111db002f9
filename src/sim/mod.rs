//! pld-sim: runs the rendered all_to_all_v kernel and the generated CHIP orchestration on the CPU
//! (docs/sim.md). The `pld-sim` binary is a thin CLI over this module.
//!
//! - [`case`]: the case JSON and its validation;
//! - [`error`]: [`SimError`], why a run gave no result;
//! - [`chip_pipeline`]: the `chip_pipeline` module written for a case;
//! - [`toolchain`]: pld-opt → pld-translate → g++ with the content-hash cache;
//! - [`run`]: the driver run and the result;
//! - [`golden`]: the independent expected outcome;
//! - [`matrix`]: the case matrix and how each entry is judged;
//! - [`family`]: the collective family's cases, modules, golden and matrix.

pub mod case;
pub mod chip_pipeline;
pub mod error;
pub mod family;
pub mod golden;
pub mod matrix;
pub mod result;
pub mod run;
pub mod toolchain;

pub use error::SimError;
