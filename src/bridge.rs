//! The cxx bridge to the C++ shim (`src/bridge/shim.cc`): the MLIR entry
//! points the C API does not offer; and to the pass classes generated from
//! `Passes.td` (`src/bridge/passes.cc`), which call back into [`run_pass`].

use cxx::{ExternType, type_id};

use crate::{analysis::manager::drop_analyses, passes::run_pass};

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

unsafe impl ExternType for LocationHandle {
    type Id = type_id!("pld::bridge::LocationHandle");
    type Kind = cxx::kind::Trivial;
}

#[cxx::bridge(namespace = "pld::bridge")]
pub mod ffi {
    /// The option values of one pass run (`dialect/include/pld/Passes.td`),
    /// from the C++ pass to its Rust body.
    #[derive(Clone, Copy, Debug, Default)]
    struct PassOptions {
        /// `lower-l2-tensor-collectives{aiv-cores}`: the target's AIV core
        /// count, 0 when unknown.
        aiv_cores: u64,
    }

    /// What one pass run counted, from the Rust body to the C++ pass's
    /// statistics (`--mlir-pass-statistics`); each pass fills its own.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    struct PassStatistics {
        /// lower-l2 / lower-host: collectives rewritten into calls.
        collectives_lowered: u64,
        /// lower-l2 / lower-host: kernel functions synthesized (not reused).
        kernels_synthesized: u64,
        /// lower-l2: values the contiguity trace visited.
        contiguity_steps_traced: u64,
        /// auto-derive-task-dependencies: tasks numbered.
        tasks_numbered: u64,
        /// auto-derive-task-dependencies: edges in `pl.task_deps`.
        task_dependencies: u64,
        /// materialize-dist-tensor-ctx: `!pld.comm_ctx` parameters appended.
        contexts_appended: u64,
        /// materialize-dist-tensor-ctx: context arguments passed at call sites.
        context_arguments_threaded: u64,
    }

    /// What a successful run did to the IR (`crate::analysis::manager::Effect`).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    struct PassOutcome {
        /// Nothing changed: the pass preserves every analysis.
        unchanged: bool,
        /// The module's `RustAnalyses` stay valid.
        keeps_analyses: bool,
    }

    extern "Rust" {
        /// The Rust body of the pass whose flag is `argument`, on `module`
        /// (a `builtin.module`). False: it failed, its errors already emitted
        /// at their locations. `analyses` is the handle of the analyses the
        /// pipeline kept for the module (0: none yet; the body may set it).
        fn run_pass(
            argument: &str,
            module: OperationHandle,
            options: &PassOptions,
            statistics: &mut PassStatistics,
            analyses: &mut usize,
            outcome: &mut PassOutcome,
        ) -> bool;
        /// Drops the analyses behind a handle `run_pass` set.
        fn drop_analyses(analyses: usize);
    }

    unsafe extern "C++" {
        include!("pld/src/bridge/shim.h");

        type PassHandle = super::PassHandle;
        type LocationHandle = super::LocationHandle;
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
        /// A new, owned instance of the pld pass whose flag is `argument`
        /// (a null handle if there is none).
        fn create_pass(argument: &str) -> PassHandle;
        /// Inserts `pl`, `pld` and `func` (with the pld inliner extension).
        fn register_dialects(registry: DialectRegistryHandle);
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
