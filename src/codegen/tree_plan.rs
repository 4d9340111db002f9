//! The tree walk: which sub-builds and host entries exist, every AIV kernel's
//! source (copied from `pl.kernel_source` or rendered from its builtin
//! template, once per kernel so every sub-build gets the same bytes), and the
//! located diagnostics for whatever cannot be built.

use super::planner::{Planner, path_component_ok, string_attr};
use super::{Options, Tree, chip, cpp_names::quoted, host, kernel_config, manifest};
use crate::{
    error::PldError,
    ir::calls::callee_name,
    ir::func_kind::{is_chip_orchestration, is_host_level, is_orchestration_body, symbol_name},
    ir::signature::entry_block,
    ir::walk::{collectives_in, module_functions, ops_named},
};
use melior::ir::operation::{OperationLike, OperationRef};
use std::{
    collections::{BTreeSet, HashMap},
    path::PathBuf,
};

/// Whether an orchestration function's name can name its file (or folder)
/// and a unique, valid C entry symbol; reports at the function if not.
fn entry_name_ok(
    p: &mut Planner,
    c_names: &mut HashMap<String, String>,
    func: &OperationRef,
    name: &str,
    kind: &str,
    path_use: &str,
) -> bool {
    if !path_component_ok(name) {
        p.error(
            &func,
            &format!("{kind} @{}: its name cannot be {path_use}", quoted(name)),
        );
        return false;
    }
    let c_name = super::cpp_names::c_identifier(name);
    if let Some(why) = super::cpp_names::c_symbol_problem(&c_name) {
        p.error(&func, &format!("@{name}: its C symbol '{c_name}' {why}"));
        return false;
    }
    if let Some(other) = c_names.insert(c_name.clone(), name.to_string()) {
        p.error(
            &func,
            &format!("@{name} and @{other} have the same C symbol '{c_name}'"),
        );
        return false;
    }
    true
}

/// Plans the whole tree (nothing is written here).
pub fn plan(module: &OperationRef, options: &Options) -> Result<Tree, PldError> {
    let functions: Vec<OperationRef> = module_functions(module);
    let mut p = Planner {
        options: options.clone(),
        functions: functions
            .iter()
            .filter_map(|f| symbol_name(f).map(|n| (n.to_string(), *f)))
            .collect(),
        errors: 0,
        kernels: HashMap::new(),
    };

    // A nested module's pld code is not built (nor was it lowered by the pipeline).
    for (nested, what) in crate::ir::walk::nested_pld_modules(module) {
        p.error(&nested, &crate::ir::walk::nested_module_message(&what));
    }

    // A collective left in an orchestration body was never lowered.
    for func in &functions {
        if !is_orchestration_body(func) {
            continue;
        }
        for op in collectives_in(func) {
            p.error(&op,
                "was never lowered: run `pld-opt --pld-lower-collectives` before `pld-translate --pld-to-ascend-build`",
            );
        }
    }

    // What the HOST orchestrators dispatch (and with a launch width).
    let mut dispatched = BTreeSet::new();
    let mut dispatched_with_width = BTreeSet::new();
    for func in functions
        .iter()
        .filter(|f| is_orchestration_body(f) && is_host_level(f))
    {
        for op in ops_named(func, &["pld.host.dispatch"]) {
            if let Some(callee) = callee_name(&op) {
                if op.operand_count() > crate::ir::calls::call_arg_count(&op) + 1 {
                    dispatched_with_width.insert(callee.clone());
                }
                dispatched.insert(callee);
            }
        }
    }

    let mut tree = Tree::default();
    let mut entries: Vec<manifest::Entry> = Vec::new();
    let mut c_names: HashMap<String, String> = HashMap::new();
    // The module's pl.arch (verified by the pl dialect), for kernel_config.py.
    let arch = string_attr(module, "pl.arch");
    let mut chip_subs: Vec<chip::SubBuild> = Vec::new();
    for func in &functions {
        let Some(name) = symbol_name(func) else {
            continue;
        };
        let has_body = entry_block(func).is_some();
        if !has_body {
            continue;
        }
        if is_chip_orchestration(func) {
            // A builtin collective callable is built only where the HOST rail dispatched it.
            if name.starts_with("builtin.") && !dispatched.contains(name) {
                continue;
            }
            if !entry_name_ok(
                &mut p,
                &mut c_names,
                func,
                name,
                "orchestration function",
                "a directory name",
            ) {
                continue;
            }
            let Some(sub) = chip::emit(&mut p, func, dispatched_with_width.contains(name)) else {
                continue;
            };
            let root = PathBuf::from("next_levels").join(name);
            tree.files.insert(
                root.join(format!("orchestration/{name}.cpp")),
                sub.cpp.clone().into_bytes(),
            );
            for (_, kernel) in &sub.kernels {
                tree.files.insert(
                    root.join(format!("kernels/aiv/{}.cpp", kernel.name)),
                    kernel.text.clone(),
                );
            }
            tree.files.insert(
                root.join("kernel_config.py"),
                kernel_config::render(&sub, arch.as_deref()).into_bytes(),
            );
            chip_subs.push(sub.clone());
            entries.push(manifest::Entry {
                func: *func,
                name: name.to_string(),
                c_name: sub.c_name.clone(),
                rail: manifest::Rail::Chip,
                source: format!("next_levels/{name}/orchestration/{name}.cpp"),
                kernels: sub.kernels.clone(),
            });
        } else if is_orchestration_body(func) && is_host_level(func) {
            if !entry_name_ok(
                &mut p,
                &mut c_names,
                func,
                name,
                "HOST orchestrator",
                "a file name",
            ) {
                continue;
            }
            if let Some(cpp) = host::emit(&mut p, func) {
                tree.files
                    .insert(PathBuf::from(format!("host/{name}.cpp")), cpp.into_bytes());
                entries.push(manifest::Entry {
                    func: *func,
                    name: name.to_string(),
                    c_name: super::cpp_names::c_identifier(name),
                    rail: manifest::Rail::Host,
                    source: format!("host/{name}.cpp"),
                    kernels: Vec::new(),
                });
            }
        }
    }
    // chip_entries.cpp names each sub-build's symbols `pld_chip_<c>` plus a suffix: a function
    // whose C symbol is another's plus that suffix would define one of them twice.
    for sub in &chip_subs {
        for (suffix, what) in super::chip_entries::SUFFIXES {
            let derived = format!("{}{suffix}", sub.c_name);
            if let Some(other) = chip_subs.iter().find(|o| o.c_name == derived)
                && let Some(func) = p.functions.get(&other.name).copied()
            {
                p.error(&func,
                    &format!(
                        "@{} and @{}: chip_entries.cpp would define '{}' twice (the ChipEntry of @{}, and @{}'s {what})",
                        other.name,
                        sub.name,
                        super::chip_entries::entry_symbol(&derived),
                        other.name,
                        sub.name
                    ),
                );
            }
        }
    }
    if p.errors > 0 {
        return Err(PldError::Diagnosed(p.errors));
    }
    if !chip_subs.is_empty() {
        let subs: Vec<&chip::SubBuild> = chip_subs.iter().collect();
        tree.files.insert(
            PathBuf::from("chip_entries.cpp"),
            super::chip_entries::render(&subs).into_bytes(),
        );
    }
    tree.files.insert(
        PathBuf::from("manifest.json"),
        manifest::render(module, arch.as_deref(), &entries).into_bytes(),
    );
    Ok(tree)
}
