//! **pld**: the `pl` / `pld` MLIR dialects and the passes that lower
//! PyPTO-style managed collectives for Ascend NPUs.
//!
//! The dialects are defined in ODS under `dialect/` and linked statically
//! into the same binary as melior's MLIR. Embedding users call
//! [`register_dialects`] on their registry and [`register_passes`] once, then
//! run the passes by flag name through MLIR's pass registry (or parse a
//! pipeline such as `builtin.module(lower-l2-tensor-collectives)`).
//!
//! The public API is what embedding needs: the registration functions, the
//! pass types ([`passes`]), [`PldError`], the drivers' entry points
//! ([`opt_main`], [`translate_main`], [`lsp_server_main`], [`reduce_main`]), the codegen
//! ([`codegen::translate`]); plus the typed views a Rust user reads IR
//! through ([`ir::tensor_type::TensorLike`], [`analysis::contiguity::ContiguityTrace`],
//! [`cal_all_to_all_v_blocks`]). Everything else is crate-private. The CPU simulator and
//! runner (`pld-sim`, `pld-run`) are the workspace crate `pld-sim` (`sim/`), a user of this
//! API like any other.
#![deny(missing_docs)]

pub mod analysis;
mod bridge;
mod capi;
pub mod codegen;
mod collective;
mod diag;
pub mod embedding;
mod error;
pub mod ir;
pub mod passes;

pub use codegen::{
    BuiltinKernel, TEMPLATE_DIR_ENV, builtin_kernels, include_block, orchestration_rename_flags,
};
pub use embedding::{
    CollectiveSite, SourceNames, attach_diagnostic_printer, collective_op_names, collective_sites,
    create_context, parse_file, source_names,
};
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

/// Inserts `pl`, `pld` and the upstream dialects pld's IR uses (`func`, `arith`, `scf`,
/// `cf`: what `pld-opt` registers) into `registry`.
pub fn register_dialects(registry: &DialectRegistry) {
    pldRegisterDialects(registry.to_raw())
}

/// [`register_dialects`] into a registry the caller owns as a raw C API
/// handle (a plugin's `registerDialectRegistryCallbacks`, a C/C++ host).
pub fn register_dialects_raw(registry: mlir_sys::MlirDialectRegistry) {
    pldRegisterDialects(registry)
}

// The C exports (the crate root: they call every layer below): the functions of `dialect/include/pld-c/Registration.h`: defined here, in
// Rust, so that the shared library (`plugin/`, a cdylib, which exports only
// Rust `#[no_mangle]` functions) exports them.

/// Inserts `pl`, `pld` and the upstream dialects pld's IR uses (func with pld's inliner extension,
/// arith, scf, cf).
#[unsafe(no_mangle)]
pub extern "C" fn pldRegisterDialects(registry: mlir_sys::MlirDialectRegistry) {
    bridge::ffi::register_dialects(bridge::DialectRegistryHandle(registry));
}

/// Registers every pld pass and the `pld-lower-collectives` pipeline.
#[unsafe(no_mangle)]
pub extern "C" fn pldRegisterPasses() {
    passes::register_passes();
}

/// [`pldRegisterPasses`] plus the upstream generic transforms pld-opt offers.
#[unsafe(no_mangle)]
pub extern "C" fn pldRegisterAllPasses() {
    passes::register_all_passes();
}

/// Runs `mlir::MlirOptMain` over `args` (`argv`, program name first) with the
/// `pl`, `pld` and upstream dialects and every registered pass: `pld-opt`'s
/// `main`. Call [`register_passes`] (or [`register_all_passes`]) first.
/// Returns the process exit code.
pub fn opt_main(args: &[String]) -> i32 {
    bridge::ffi::opt_main(args)
}

/// Runs `mlir::mlirTranslateMain` over `args` with the pld translations
/// (`--pld-to-ascend-build`, the codegen of [`codegen::translate`]):
/// `pld-translate`'s `main`. Returns the process exit code.
pub fn translate_main(args: &[String]) -> i32 {
    bridge::ffi::translate_main(args, codegen::translate_callback)
}

/// Runs `mlir::MlirLspServerMain` over `args` with the dialects `pld-opt`
/// parses (`pl`, `pld`, `func`, `arith`, `scf`, `cf`): `pld-lsp-server`'s
/// `main`, an LSP server on stdin/stdout. Returns the process exit code.
pub fn lsp_server_main(args: &[String]) -> i32 {
    bridge::ffi::lsp_main(args)
}

/// Runs `mlir::mlirReduceMain` over `args` with the same dialects, the pl/pld
/// reduction patterns and every registered pass (`--opt-reduction-pass`):
/// `pld-reduce`'s `main`. Call [`register_passes`] first. Returns the
/// process exit code.
pub fn reduce_main(args: &[String]) -> i32 {
    bridge::ffi::reduce_main(args)
}

/// A context with `pl`, `pld` and `func` loaded: the unit tests' context.
#[cfg(test)]
pub(crate) fn test_context() -> melior::Context {
    let registry = DialectRegistry::new();
    register_dialects(&registry);
    let context = melior::Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context
}
