//! The cxx bridge to the C++ shim (`src/bridge/shim.cc`): the MLIR entry
//! points the C API does not offer. The lowest layer of the crate: it imports
//! nothing from it. The callbacks the generated pass classes
//! (`src/bridge/passes.cc`) make into the Rust pass bodies have their own
//! bridge above the passes (`crate::passes::bridge`).

use cxx::{ExternType, type_id};

/// `MlirPass` by value (cxx cannot name mlir-sys's types directly).
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct PassHandle(pub mlir_sys::MlirPass);

/// `MlirOperation` by value.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct OperationHandle(pub mlir_sys::MlirOperation);

/// `MlirDialectRegistry` by value.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct DialectRegistryHandle(pub mlir_sys::MlirDialectRegistry);

unsafe impl ExternType for DialectRegistryHandle {
    type Id = type_id!("pld::bridge::DialectRegistryHandle");
    type Kind = cxx::kind::Trivial;
}

unsafe impl ExternType for OperationHandle {
    type Id = type_id!("pld::bridge::OperationHandle");
    type Kind = cxx::kind::Trivial;
}

unsafe impl ExternType for PassHandle {
    type Id = type_id!("pld::bridge::PassHandle");
    type Kind = cxx::kind::Trivial;
}

#[cxx::bridge(namespace = "pld::bridge")]
pub mod ffi {
    /// The SSA names a function's source text gives (`source_names`).
    struct SourceNames {
        /// Whether the source parsed and holds the function with a body.
        found: bool,
        /// Its entry block's argument names, without `%` (`""` where unknown).
        args: Vec<String>,
        /// Its `pld.window` results' names, in program order.
        windows: Vec<String>,
    }

    unsafe extern "C++" {
        include!("pld/src/bridge/shim.h");

        type PassHandle = super::PassHandle;
        type OperationHandle = super::OperationHandle;
        type DialectRegistryHandle = super::DialectRegistryHandle;

        /// `MlirOptMain` over the pld registry; returns the process exit code.
        fn opt_main(args: &[String]) -> i32;
        /// `mlirTranslateMain` with `--pld-to-ascend-build` (`--output-dir`,
        /// `--kernel-source-dir`) registered; `build(module, output_dir,
        /// kernel_source_dir, input_file)` does the codegen. Returns the exit code.
        fn translate_main(
            args: &[String],
            build: fn(OperationHandle, &str, &str, &str) -> bool,
        ) -> i32;
        /// Registers every pld pass (generated from `Passes.td`) and the
        /// `pld-lower-collectives` pipeline; idempotent.
        fn register_passes();
        /// Registers the upstream generic transforms (`canonicalize`, `cse`,
        /// `inline`, ...); idempotent.
        fn register_upstream_passes();
        /// The flag of every pass declared in `Passes.td` (each has a
        /// generated C++ shell).
        fn pass_arguments() -> Vec<String>;
        /// A new, owned instance of the pld pass whose flag is `argument`
        /// (a null handle if there is none).
        fn create_pass(argument: &str) -> PassHandle;
        /// `MlirLspServerMain` over the pld registry (`src/bridge/lsp.cc`);
        /// returns the exit code.
        fn lsp_main(args: &[String]) -> i32;
        /// `mlirReduceMain` over the pld registry with the pl/pld reduction
        /// patterns (`src/bridge/reduce.cc`); returns the exit code.
        fn reduce_main(args: &[String]) -> i32;
        /// Inserts `pl`, `pld` and `func` (with the pld inliner extension).
        fn register_dialects(registry: DialectRegistryHandle);
        /// The names `source` (module text) gives `@function`'s parameters and
        /// `pld.window` results, read from MLIR's parser state
        /// (`src/bridge/names.cc`).
        fn source_names(source: &str, function: &str) -> SourceNames;

    }
}
