//! The cxx bridge to the C++ shim (`src/bridge/shim.cc`): the MLIR entry
//! points the C API does not offer.

use cxx::{ExternType, type_id};

/// `MlirPass` by value (cxx cannot name mlir-sys's types directly).
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct PassHandle(pub mlir_sys::MlirPass);

/// `MlirLocation` by value.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct LocationHandle(pub mlir_sys::MlirLocation);

/// `MlirOperation` by value.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct OperationHandle(pub mlir_sys::MlirOperation);

unsafe impl ExternType for OperationHandle {
    type Id = type_id!("pld::bridge::OperationHandle");
    type Kind = cxx::kind::Trivial;
}

unsafe impl ExternType for PassHandle {
    type Id = type_id!("pld::bridge::PassHandle");
    type Kind = cxx::kind::Trivial;
}

unsafe impl ExternType for LocationHandle {
    type Id = type_id!("pld::bridge::LocationHandle");
    type Kind = cxx::kind::Trivial;
}

#[cxx::bridge(namespace = "pld::bridge")]
pub mod ffi {
    unsafe extern "C++" {
        include!("pld/src/bridge/shim.h");

        type PassHandle = super::PassHandle;
        type LocationHandle = super::LocationHandle;
        type OperationHandle = super::OperationHandle;

        /// `MlirOptMain` over the pld registry; returns the process exit code.
        fn opt_main(args: &[String]) -> i32;
        /// `mlirTranslateMain` with `--pld-to-ascend-build` (`--output-dir`,
        /// `--kernel-source-dir`) registered; `build(module, output_dir,
        /// kernel_source_dir, input_file)` does the codegen. Returns the exit code.
        fn translate_main(args: &[String], build: fn(OperationHandle, &str, &str, &str) -> bool) -> i32;
        /// `mlir::registerPass` with a constructor returning an owned pass.
        fn register_pass(create: fn() -> PassHandle);
        /// `mlir::PassPipelineRegistration` of a textual pipeline.
        fn register_pipeline(argument: &str, description: &str, pipeline: &str);
        /// A located error (0), warning (1) or remark (2), with an optional note.
        fn emit_diagnostic(
            loc: LocationHandle,
            severity: u8,
            message: &str,
            note_loc: LocationHandle,
            note: &str,
        );
    }
}
