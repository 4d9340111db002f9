//! What a program that embeds pld needs beyond registration: a context with
//! every dialect pld's IR uses, files parsed under their own names, and a
//! diagnostic printer that writes what `pld-opt` writes
//! (`file:line:col: error: message`, each attached note after its error).
//! The C entry points of `pld-c/Registration.h` call the same code.

use crate::error::PldError;
use melior::{
    Context,
    dialect::DialectRegistry,
    ir::{Location, Module},
};
use mlir_sys::{MlirContext, MlirDiagnostic, MlirLogicalResult};
use std::{ffi::c_void, io::Write, path::Path};

/// A context with `pl`, `pld` and the upstream dialects pld's IR uses
/// (`func`, `arith`, `scf`, `cf`) loaded, and [`attach_diagnostic_printer`]
/// attached: everything `pld-opt` knows, for an embedding driver.
pub fn create_context() -> Context {
    let registry = DialectRegistry::new();
    crate::bridge::ffi::register_dialects(crate::bridge::DialectRegistryHandle(registry.to_raw()));
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    attach_diagnostic_printer(&context);
    context
}

/// Prints every diagnostic of `context` to stderr as `pld-opt` does:
/// `file:line:col: error: message`, then each attached note
/// (`file:line:col: note: ...`). Without it MLIR's fallback prints
/// `loc("file":7:8): error: ...` and drops the notes. The diagnostics are
/// consumed (no later handler sees them).
pub fn attach_diagnostic_printer(context: &Context) {
    unsafe { attach_raw(context.to_raw()) };
}

/// Parses the file at `path` into a module whose locations name that file
/// (melior's `Module::parse` names every buffer `-`). Parse errors go to the
/// context's diagnostic handlers; the error names the file.
pub fn parse_file<'c>(context: &'c Context, path: &Path) -> Result<Module<'c>, PldError> {
    let name = path.to_string_lossy();
    let raw = unsafe {
        mlir_sys::mlirModuleCreateParseFromFile(
            context.to_raw(),
            mlir_sys::MlirStringRef {
                data: name.as_ptr() as *const _,
                length: name.len(),
            },
        )
    };
    unsafe { Module::from_option_raw(raw) }
        .ok_or_else(|| PldError::Internal(format!("{name} does not parse")))
}

/// `pld-c/Registration.h`: [`attach_diagnostic_printer`] for a C/C++ driver
/// (defined here, in Rust, so the shared library exports it).
#[unsafe(no_mangle)]
pub extern "C" fn pldContextAttachDiagnosticPrinter(
    context: MlirContext,
) -> mlir_sys::MlirDiagnosticHandlerID {
    unsafe { attach_raw(context) }
}

/// `mlirContextAttachDiagnosticHandler` with the printer; returns its id.
unsafe fn attach_raw(context: MlirContext) -> mlir_sys::MlirDiagnosticHandlerID {
    unsafe {
        mlir_sys::mlirContextAttachDiagnosticHandler(
            context,
            Some(print_raw),
            std::ptr::null_mut(),
            None,
        )
    }
}

unsafe extern "C" fn print_raw(diagnostic: MlirDiagnostic, _: *mut c_void) -> MlirLogicalResult {
    let mut text = String::new();
    unsafe { format_diagnostic(diagnostic, &mut text) };
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
    MlirLogicalResult { value: 1 }
}

/// Appends `diagnostic` and its notes, one line each.
unsafe fn format_diagnostic(diagnostic: MlirDiagnostic, out: &mut String) {
    unsafe {
        let loc = Location::from_raw(mlir_sys::mlirDiagnosticGetLocation(diagnostic));
        let severity = match mlir_sys::mlirDiagnosticGetSeverity(diagnostic) {
            mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticError => "error",
            mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticWarning => "warning",
            mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticNote => "note",
            _ => "remark",
        };
        let mut message = String::new();
        mlir_sys::mlirDiagnosticPrint(
            diagnostic,
            Some(append_str),
            &mut message as *mut String as *mut c_void,
        );
        out.push_str(&format!(
            "{}: {severity}: {message}\n",
            crate::diag::location_text(loc)
        ));
        for i in 0..mlir_sys::mlirDiagnosticGetNumNotes(diagnostic) {
            format_diagnostic(mlir_sys::mlirDiagnosticGetNote(diagnostic, i), out);
        }
    }
}

unsafe extern "C" fn append_str(text: mlir_sys::MlirStringRef, data: *mut c_void) {
    let out = unsafe { &mut *(data as *mut String) };
    let bytes = unsafe { std::slice::from_raw_parts(text.data as *const u8, text.length) };
    out.push_str(&String::from_utf8_lossy(bytes));
}

/// One managed collective of a module (`pld.tensor.*` with the collective
/// trait), as a runner that plays the HOST side needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectiveSite {
    /// The op, e.g. `pld.tensor.allgather`.
    pub op: String,
    /// Where it is written (`file:line:col`, or MLIR's printed location).
    pub location: String,
    /// Its rank count NR: the signal's static leading dimension (in
    /// allreduce's ring mode its trailing one); `None` when not static.
    pub ranks: Option<i64>,
}

/// Every managed collective of `module`, in program order (of an already
/// lowered module: every call of a builtin collective kernel and every HOST
/// dispatch of a builtin callable, named by their op), then every
/// `pld.comm_domain` (`ranks`: its rank count), whose collectives run on a
/// subset of the world: with one, NR is not the world's size.
pub fn collective_sites(module: &Module) -> Vec<CollectiveSite> {
    use melior::ir::{ValueLike, operation::OperationLike};
    let root = module.as_operation();
    let root = unsafe { melior::ir::operation::OperationRef::from_raw(root.to_raw()) };
    crate::ir::walk::module_functions(&root)
        .iter()
        .flat_map(|f| crate::ir::walk::collectives_in(f))
        .filter_map(|op| {
            let name = crate::ir::op_kind::op_name(&op);
            let spec = crate::collective::Collective::of_op_name(&name)?.spec();
            let ranks = op
                .operand(spec.signal)
                .ok()
                .and_then(|s| crate::ir::tensor_type::TensorView::of(s.r#type()))
                .and_then(|view| crate::collective::signal_geometry(&op, spec, &view))
                .map(|(ranks, _)| ranks);
            Some(CollectiveSite {
                op: name,
                location: crate::diag::location_text(op.location()),
                ranks,
            })
        })
        .chain(lowered_collective_sites(&root))
        .chain(
            crate::ir::walk::module_functions(&root)
                .iter()
                .flat_map(|f| crate::ir::walk::ops_named(f, &["pld.comm_domain"]))
                .map(|op| CollectiveSite {
                    op: crate::ir::op_kind::op_name(&op),
                    location: crate::diag::location_text(op.location()),
                    ranks: crate::analysis::provenance::domain_ranks(&op),
                }),
        )
        .collect()
}

/// The collectives of an already lowered module: a CHIP orchestration's
/// `func.call` of a builtin collective kernel, and a HOST
/// `pld.host.dispatch` of a builtin callable (its kernel is the callable's
/// call, which is not listed again).
fn lowered_collective_sites<'c, 'a>(
    root: &melior::ir::operation::OperationRef<'c, 'a>,
) -> Vec<CollectiveSite> {
    use melior::ir::operation::OperationLike;
    let functions = crate::ir::walk::function_map(root);
    let kernel_of = |op: &melior::ir::operation::OperationRef<'c, 'a>| {
        let name = crate::ir::calls::callee_name(op)?;
        let callee = functions.get(&name)?;
        if crate::ir::op_kind::op_name(op) == "func.call" {
            return Some(*callee);
        }
        // Only a builtin callable's dispatch is a collective (its operands keep the op's
        // order); a user CHIP function's collectives are its own calls.
        if !name.starts_with(crate::collective::BUILTIN_CALLABLE_PREFIX) {
            return None;
        }
        let call = crate::collective::builtin_callable_call(callee)?;
        functions
            .get(&crate::ir::calls::callee_name(&call)?)
            .copied()
    };
    crate::ir::walk::module_functions(root)
        .iter()
        .filter(|f| {
            !crate::ir::func_kind::symbol_name(f)
                .is_some_and(|n| n.starts_with(crate::collective::BUILTIN_CALLABLE_PREFIX))
        })
        .flat_map(|f| crate::ir::walk::ops_named(f, &["func.call", "pld.host.dispatch"]))
        .filter_map(|op| {
            let (name, ranks) = crate::collective::lowered_collective(&op, &kernel_of(&op)?)?;
            Some(CollectiveSite {
                op: name.to_string(),
                location: crate::diag::location_text(op.location()),
                ranks,
            })
        })
        .collect()
}

/// The dialect's managed collective ops (every op with the ODS trait
/// `Pld_CollectiveOp`), in name order: what a tool or test iterates instead
/// of a hand-written list.
pub fn collective_op_names(context: &Context) -> Vec<String> {
    crate::ir::op_kind::collective_op_names(context)
}

/// The SSA names a module's text gives one function: what a runner shows and
/// binds values by (`%x` → `x`). Read from MLIR's own parser state, so any
/// syntax pld-opt accepts is named as the user wrote it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceNames {
    /// The entry block's argument names, in order (`""` where unknown).
    pub params: Vec<String>,
    /// The names of its `pld.window` results, in program order (`""` where
    /// unknown).
    pub windows: Vec<String>,
}

/// The names `source` (a module's text) gives `@function`; `None` when the
/// text does not parse or has no such function with a body.
pub fn source_names(source: &str, function: &str) -> Option<SourceNames> {
    let names = crate::bridge::ffi::source_names(source, function);
    names.found.then(|| SourceNames {
        params: names.args,
        windows: names.windows,
    })
}
