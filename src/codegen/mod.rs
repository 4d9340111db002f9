//! `pld-translate --pld-to-ascend-build`: the Ascend build tree of a module
//! lowered by `--pld-lower-collectives` (the contract is docs/codegen.md).
//! [`translate`] plans the whole tree in memory, then writes it.
//!
//! - `tree_plan`: walks the module and drives the emitters into one in-memory
//!   [`Tree`];
//! - `planner`: the emitters' service (the `Planner`: every AIV kernel's source,
//!   copied from `pl.kernel_source` or rendered from its builtin template, once;
//!   located errors; shared attribute readers), below every emitter;
//! - `template`: the embedded builtin template packages and `${var}` rendering;
//! - `tensor_kernels`: the builtin fill and copy kernels a CHIP orchestration's
//!   `pl.tensor.create` / `pl.tensor.assemble` run as tasks;
//! - `chip`: one CHIP orchestration function → `orchestration/<fn>.cpp`, per
//!   op (`scalars`, `control_flow`, `descriptors`, `tasks`);
//! - `host`: one HOST orchestrator → `host/<fn>.cpp`;
//! - `kernel_config`: a sub-build's `kernel_config.py`;
//! - `manifest`: the tree's `manifest.json` (entries, parameters, HOST
//!   windows, kernels, runtime checks) for runners;
//! - `loops`: the `scf.for` header both rails emit (step guard, no overflow);
//! - `scalars`: the integer scalar model both rails emit (`pld_runtime/scalar.h`);
//! - `values`: the value model both rails bind SSA values to (`RtValue`, `Bindings`);
//! - `cpp_names`: symbols as C identifiers, clash-free locals, string literals;
//! - `tree_writer`: the tree on disk, all or nothing (only a tree pld-translate
//!   wrote itself is ever replaced).
//!
//! `orch_ops` and `host_ops` (what a CHIP orchestration body and a HOST
//! orchestrator may hold) are `crate::ir`'s, re-exported here.
//!
//! Every error is a located MLIR diagnostic; nothing is written unless the
//! whole tree was planned without one.

pub(crate) mod chip;
pub(crate) mod chip_entries;
pub use chip_entries::rename_flags as orchestration_rename_flags;
pub(crate) mod cpp_names;
pub(crate) mod host;
pub(crate) mod kernel_config;
pub(crate) mod loops;
pub(crate) mod manifest;
/// What a HOST orchestrator body may hold (`crate::ir::host_ops`, shared
/// with `--legalize-spmd-launches`).
pub use crate::ir::host_ops;
/// What a CHIP orchestration body may hold (`crate::ir::orch_ops`, shared
/// with `--legalize-spmd-launches`).
pub use crate::ir::orch_ops;
pub(crate) mod planner;
pub(crate) mod scalars;
pub(crate) mod template;
pub(crate) mod tensor_kernels;
pub use template::{BuiltinKernel, TEMPLATE_DIR_ENV, include_block};

/// Every builtin kernel pld-translate can render, as it renders it: a sample
/// of the collective table's variants (each op × dtype × reduction × mode,
/// roots 0 and 15, three permute pair lists), then every builtin tensor
/// kernel (fill and copy per element size) — what a toolchain check compiles
/// (docs/device.md, conformance).
pub fn builtin_kernels() -> Vec<BuiltinKernel> {
    let mut all = template::collective_kernels();
    all.extend(tensor_kernels::samples());
    all
}
pub(crate) mod tree_plan;
pub(crate) mod tree_writer;
pub(crate) mod values;

use crate::{bridge::OperationHandle, error::PldError};
use melior::ir::operation::{OperationLike, OperationRef};
use std::{
    collections::BTreeMap,
    panic::{AssertUnwindSafe, catch_unwind},
    path::PathBuf,
    sync::atomic::{AtomicBool, Ordering},
};

/// What the tool was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    /// `--output-dir`.
    pub output_dir: PathBuf,
    /// The folder `pl.kernel_source` paths are relative to: `--kernel-source-dir`
    /// if given, else the input file's folder (the current one for stdin).
    pub kernel_source_dir: PathBuf,
    /// Whether `--kernel-source-dir` was given (messages name the folder's origin).
    pub kernel_source_dir_given: bool,
    /// `--allow-kernel-source-outside`: a `pl.kernel_source` may be absolute or
    /// resolve (after symlinks) outside `kernel_source_dir`.
    pub allow_kernel_source_outside: bool,
}

impl Options {
    /// `kernel_source_dir` empty → the folder of `input_file` (`<stdin>`, `-`
    /// or empty → the current directory).
    pub fn new(output_dir: &str, kernel_source_dir: &str, input_file: &str) -> Self {
        let base = if !kernel_source_dir.is_empty() {
            PathBuf::from(kernel_source_dir)
        } else if input_file.is_empty() || input_file == "-" || input_file == "<stdin>" {
            PathBuf::from(".")
        } else {
            PathBuf::from(input_file)
                .parent()
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("."))
        };
        let base = if base.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            base
        };
        Self {
            output_dir: PathBuf::from(output_dir),
            kernel_source_dir: base,
            kernel_source_dir_given: !kernel_source_dir.is_empty(),
            allow_kernel_source_outside: ALLOW_KERNEL_SOURCE_OUTSIDE.load(Ordering::Relaxed),
        }
    }
}

impl Options {
    /// The kernel source folder as a message names it, `shown` being its path:
    /// the flag that set it, or the input file's folder it defaults to.
    pub(crate) fn kernel_source_folder(&self, shown: &std::path::Path) -> String {
        if self.kernel_source_dir_given {
            format!("--kernel-source-dir ({})", shown.display())
        } else {
            format!(
                "the input file's folder ({}; --kernel-source-dir sets another)",
                shown.display()
            )
        }
    }
}

/// `--allow-kernel-source-outside` of pld-translate's command line (the C++
/// driver sets it before each translation; the Options of a call read it).
static ALLOW_KERNEL_SOURCE_OUTSIDE: AtomicBool = AtomicBool::new(false);

#[unsafe(no_mangle)]
/// Called by the C++ driver (`src/bridge/shim.cc`) for `--allow-kernel-source-outside`.
#[doc(hidden)]
pub extern "C" fn pld_translate_set_allow_kernel_source_outside(allow: bool) {
    ALLOW_KERNEL_SOURCE_OUTSIDE.store(allow, Ordering::Relaxed);
}

/// Whether the run splits its input (`--split-input-file`): each chunk's tree then waits in
/// [`DEFERRED`] for [`pld_translate_finish`] instead of being written by its chunk.
static SPLIT: AtomicBool = AtomicBool::new(false);

/// A split run's trees, with their output directories, in chunk order.
static DEFERRED: std::sync::Mutex<Vec<(PathBuf, Tree)>> = std::sync::Mutex::new(Vec::new());

#[unsafe(no_mangle)]
/// Called by the C++ driver before each translation: whether the run splits its input.
#[doc(hidden)]
pub extern "C" fn pld_translate_set_split(split: bool) {
    SPLIT.store(split, Ordering::Relaxed);
}

#[unsafe(no_mangle)]
/// Called by the C++ driver when `mlirTranslateMain` returns (`ok`: every chunk succeeded):
/// writes a split run's tree. Nothing when a chunk failed (the output directory is left as it
/// was); an error when several chunks built a tree each, since `--output-dir` holds one.
/// Returns whether the run still succeeds.
#[doc(hidden)]
pub extern "C" fn pld_translate_finish(ok: bool) -> bool {
    let trees = std::mem::take(&mut *DEFERRED.lock().unwrap_or_else(|e| e.into_inner()));
    if !ok {
        return true; // already failed, and nothing was written
    }
    match trees.as_slice() {
        [] => true,
        [(dir, tree)] => match tree_writer::write_tree(dir, tree) {
            Ok(()) => true,
            Err(e) => {
                eprintln!(
                    "pld-translate: error: cannot write the build tree {}: {e}",
                    dir.display()
                );
                false
            }
        },
        [(dir, _), ..] => {
            eprintln!(
                "pld-translate: error: --split-input-file: {} chunks each built a tree, but \
                 --output-dir={} holds one, so none was written (translate one module per run)",
                trees.len(),
                dir.display()
            );
            false
        }
    }
}

/// The generated files, by path relative to the output directory.
#[derive(Default, Debug)]
pub struct Tree {
    /// Each file's bytes.
    pub files: BTreeMap<PathBuf, Vec<u8>>,
}

/// Plans the tree of `module` and writes it to `options.output_dir`.
pub fn translate(module: &OperationRef, options: &Options) -> Result<Tree, PldError> {
    let tree = tree_plan::plan(module, options)?;
    if let Err(e) = tree_writer::write_tree(&options.output_dir, &tree) {
        crate::diag::error(
            module.location(),
            &format!(
                "cannot write the build tree {}: {e}",
                options.output_dir.display()
            ),
        );
        return Err(PldError::Diagnosed(1));
    }
    Ok(tree)
}

/// The `build` callback of the C++ translation registration.
pub(crate) fn translate_callback(
    module: OperationHandle,
    output_dir: &str,
    kernel_source_dir: &str,
    input_file: &str,
) -> bool {
    let options = Options::new(output_dir, kernel_source_dir, input_file);
    let op = unsafe { OperationRef::from_raw(module.0) };
    let run = || {
        if SPLIT.load(Ordering::Relaxed) {
            let tree = tree_plan::plan(&op, &options)?;
            DEFERRED
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((options.output_dir.clone(), tree));
            Ok(())
        } else {
            translate(&op, &options).map(drop)
        }
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(_)) => true,
        Ok(Err(PldError::Diagnosed(_))) => false,
        Ok(Err(e)) => {
            crate::diag::op_error(&op, &format!("pld-to-ascend-build failed: {e}"));
            false
        }
        Err(_) => {
            crate::diag::op_error(&op, "pld-to-ascend-build failed: internal error (panic)");
            false
        }
    }
}
