//! **pld**: the `pl` / `pld` MLIR dialects and the passes that lower
//! PyPTO-style managed collectives for Ascend NPUs.
//!
//! The dialects are defined in ODS under `dialect/` and linked statically
//! into the same binary as melior's MLIR. Embedding users call
//! [`register_dialects`] on their registry and [`register_passes`] once, then
//! run the passes by flag name through MLIR's pass registry (or parse a
//! pipeline such as `builtin.module(lower-l2-tensor-collectives)`).

pub mod analysis;
pub mod bridge;
pub mod capi;
pub mod diag;
pub mod error;
pub mod ir;
pub mod codegen;
pub mod collective;
pub mod passes;
pub mod sim;

pub use error::PldError;
pub use ir::launch_width::cal_all_to_all_v_blocks;
pub use passes::{register_all_passes, register_passes};

use melior::dialect::{DialectHandle, DialectRegistry};

/// The `pl` dialect's handle (`mlirGetDialectHandle__pl__`).
pub fn pl_dialect_handle() -> DialectHandle {
    unsafe { DialectHandle::from_raw(capi::mlirGetDialectHandle__pl__()) }
}

/// The `pld` dialect's handle (`mlirGetDialectHandle__pld__`).
pub fn pld_dialect_handle() -> DialectHandle {
    unsafe { DialectHandle::from_raw(capi::mlirGetDialectHandle__pld__()) }
}

/// Inserts `pl`, `pld` and `func` (which the passes create ops of) into `registry`.
pub fn register_dialects(registry: &DialectRegistry) {
    capi::pldRegisterDialects(registry.to_raw())
}
