//! The codegen's service to its emitters: the [`Planner`] (the module's
//! functions, each AIV kernel's source resolved once, the located errors) and
//! the attribute readers they share. The walk that calls the emitters is
//! `tree_plan`; this module calls none of them.

use super::{Options, cpp_names::quoted, template, tensor_kernels::TensorKernel};
pub use crate::ir::entry_names::path_component_ok;
use crate::{
    ir::direction::Direction,
    ir::func_kind::func_kind,
    ir::signature::{arg_attr, param_types},
    ir::types::{is_comm_ctx, is_tensor_like},
};
use melior::ir::{
    Location,
    operation::{OperationLike, OperationRef},
};
use std::{collections::HashMap, path::PathBuf, rc::Rc};

/// One AIV kernel as it lands in `kernels/aiv/<name>.cpp`.
#[derive(Debug)]
pub struct Kernel {
    pub name: String,
    pub text: Vec<u8>,
    /// Directions of its tensor parameters (CommContext slots excluded).
    pub signature: Vec<Direction>,
    /// Where its text came from: `pl.kernel_source` as written (a user
    /// kernel, relative to `--kernel-source-dir`) or the builtin template
    /// package it was rendered from.
    pub origin: KernelOrigin,
}

/// Where a kernel's text came from (the manifest reports it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelOrigin {
    /// `pl.kernel_source`, as written.
    Source(String),
    /// A builtin template package.
    Template(String),
}

/// The walk's state: the module's functions, the resolved kernels, the error count.
pub struct Planner<'c, 'a> {
    pub options: Options,
    /// Shared with every orchestration function's contiguity trace (built once per module).
    pub functions: std::rc::Rc<crate::ir::walk::FunctionMap<'c, 'a>>,
    pub errors: usize,
    pub(super) kernels: HashMap<String, Option<Rc<Kernel>>>,
}

impl<'c, 'a> Planner<'c, 'a> {
    /// An error about `op` (`'<op name>' op <message>`, docs/diagnostics.md).
    pub fn error(&mut self, op: &OperationRef, message: &str) {
        crate::diag::op_error(op, message);
        self.errors += 1;
    }

    /// An error about `op` with one attached note.
    pub fn error_with_note(
        &mut self,
        op: &OperationRef,
        message: &str,
        note_loc: Location,
        note: &str,
    ) {
        crate::diag::op_error_with_note(op, message, note_loc, note);
        self.errors += 1;
    }

    /// The kernel `name` that `call` launches, resolved once (`None` after an error).
    pub fn kernel(&mut self, name: &str, call: &OperationRef<'c, 'a>) -> Option<Rc<Kernel>> {
        if let Some(k) = self.kernels.get(name) {
            return k.clone();
        }
        let resolved = self.resolve_kernel(name, call);
        self.kernels.insert(name.to_string(), resolved.clone());
        resolved
    }

    /// The builtin tensor kernel `kind` for elements of `bytes` bytes (rendered
    /// once), for the op `at` that needs it. Reports at `at` when no variant
    /// exists for the size, or when a function of the module already has the
    /// kernel's name (its file and func_id would be ambiguous).
    pub fn tensor_kernel(
        &mut self,
        kind: TensorKernel,
        bytes: u32,
        at: &OperationRef<'c, 'a>,
    ) -> Option<Rc<Kernel>> {
        let Some(name) = kind.symbol(bytes) else {
            self.error(
                at,
                &format!(
                    "elements of {bytes} bytes have no builtin {} kernel (it exists for 1, 2, 4 and 8 bytes)",
                    kind.short()
                ),
            );
            return None;
        };
        if let Some(f) = self.functions.get(&name).copied() {
            self.error_with_note(
                at,
                &format!(
                    "needs the builtin kernel @{name}, but a function of this module has that name"
                ),
                f.location(),
                "declared here",
            );
            return None;
        }
        if let Some(k) = self.kernels.get(&name) {
            return k.clone();
        }
        let kernel = Rc::new(Kernel {
            name: name.clone(),
            text: kind.render(bytes)?.into_bytes(),
            signature: kind.signature(),
            origin: KernelOrigin::Template(kind.package().to_string()),
        });
        self.kernels.insert(name, Some(kernel.clone()));
        Some(kernel)
    }

    fn resolve_kernel(&mut self, name: &str, call: &OperationRef<'c, 'a>) -> Option<Rc<Kernel>> {
        let Some(func) = self.functions.get(name).copied() else {
            self.error(
                &call,
                &format!("callee @{name} must be a function of this module"),
            );
            return None;
        };
        if func_kind(&func) != Some("aiv") {
            self.error_with_note(&call,
                &format!("callee @{name} must be an AIV kernel (pl.func_kind \"aiv\") to be launched as a task"),
                func.location(),
                "declared here",
            );
            return None;
        }
        if !path_component_ok(name) {
            self.error(
                &func,
                &format!(
                    "AIV kernel @{}: its name cannot be a file name",
                    quoted(name)
                ),
            );
            return None;
        }
        let origin;
        let text = if let Some(package) = string_attr(&func, "pl.builtin_template_dir") {
            origin = KernelOrigin::Template(package.clone());
            let Some(pkg) = template::package(&package) else {
                self.error(&func,
                    &format!("AIV kernel @{name}: attribute 'pl.builtin_template_dir' must name a builtin template package, got \"{package}\""),
                );
                return None;
            };
            let vars = string_attr(&func, "pl.builtin_template_vars").unwrap_or_default();
            match template::parse_vars(&vars).and_then(|v| template::render_package(pkg, &v)) {
                Ok(text) => text.into_bytes(),
                Err(e) => {
                    self.error(&func,
                        &format!(
                            "AIV kernel @{name}: cannot render builtin template '{package}' with pl.builtin_template_vars = \"{vars}\": {e}"
                        ),
                    );
                    return None;
                }
            }
        } else if let Some(source) = string_attr(&func, "pl.kernel_source") {
            origin = KernelOrigin::Source(source.clone());
            let path = match self.kernel_source_path(&source) {
                Ok(path) => path,
                Err(why) => {
                    self.error(&func, &format!("AIV kernel @{name}: {why}"));
                    return None;
                }
            };
            match std::fs::read(&path) {
                Ok(bytes) => bytes,
                Err(e) => {
                    self.error(&func,
                        &format!("AIV kernel @{name}: cannot read pl.kernel_source \"{source}\" ({}): {e}", path.display()),
                    );
                    return None;
                }
            }
        } else {
            self.error_with_note(&func,
                &format!(
                    "AIV kernel @{name} must have a pl.kernel_source: pld-translate copies kernel sources, it does not compile InCore IR"
                ),
                call.location(),
                "launched here",
            );
            return None;
        };
        let signature = kernel_signature(&func);
        Some(Rc::new(Kernel {
            name: name.to_string(),
            text,
            signature,
            origin,
        }))
    }
}

impl Planner<'_, '_> {
    /// Where `source` (a `pl.kernel_source`) resolves: inside
    /// `--kernel-source-dir` after symlinks, unless `--allow-kernel-source-outside`,
    /// so an IR file from elsewhere cannot pull any readable host file into a
    /// build tree.
    fn kernel_source_path(&self, source: &str) -> Result<PathBuf, String> {
        let attr = format!("pl.kernel_source \"{source}\"");
        if source.is_empty() {
            return Err(crate::diag::msg!("pl.kernel_source is empty"));
        }
        let dir = &self.options.kernel_source_dir;
        let path = dir.join(source);
        if self.options.allow_kernel_source_outside {
            return Ok(path);
        }
        if std::path::Path::new(source).is_absolute() {
            return Err(crate::diag::msg!(
                "{attr} is an absolute path; kernel sources are relative to {} unless --allow-kernel-source-outside",
                self.options.kernel_source_folder(dir)
            ));
        }
        let unreadable =
            |e: std::io::Error| crate::diag::msg!("cannot read {attr} ({}): {e}", path.display());
        let base = std::fs::canonicalize(dir).map_err(unreadable)?;
        let resolved = std::fs::canonicalize(&path).map_err(unreadable)?;
        if !resolved.starts_with(&base) {
            return Err(crate::diag::msg!(
                "{attr} resolves to {}, outside {}; pass --allow-kernel-source-outside to allow it",
                resolved.display(),
                self.options.kernel_source_folder(&base)
            ));
        }
        Ok(resolved)
    }
}

/// Directions of a function's tensor parameters (`pl.direction`, default in);
/// CommContext slots and scalars are not listed.
pub fn kernel_signature(func: &OperationRef) -> Vec<Direction> {
    param_types(func)
        .into_iter()
        .enumerate()
        .filter(|(_, t)| !is_comm_ctx(*t) && is_tensor_like(*t))
        .map(|(i, _)| param_direction(func, i))
        .collect()
}

/// `pl.direction` of parameter `i` (default in).
pub fn param_direction(func: &OperationRef, i: usize) -> Direction {
    arg_attr(func, i, "pl.direction")
        .and_then(crate::ir::attributes::attr_str)
        .and_then(Direction::parse)
        .unwrap_or(Direction::In)
}

pub fn string_attr(op: &OperationRef, name: &str) -> Option<String> {
    crate::ir::attributes::attr_str(op.attribute(name).ok()?).map(str::to_string)
}
