//! The tree walk: which sub-builds and host entries exist, every AIV kernel's
//! source (copied from `pl.kernel_source` or rendered from its builtin
//! template, once per kernel so every sub-build gets the same bytes), and the
//! located diagnostics for whatever cannot be built.

use super::planner::{Planner, string_attr};
use super::{Options, Tree, chip, host, kernel_config, manifest};
use crate::{
    error::PldError,
    ir::calls::callee_name,
    ir::entry_names::{EntryRail, entry_name_problems, tree_entries},
    ir::func_kind::{is_host_level, is_orchestration_body, symbol_name},
    ir::walk::{collectives_in, module_functions, ops_named},
};
use melior::ir::operation::{OperationLike, OperationRef};
use std::{
    collections::{BTreeSet, HashMap},
    path::PathBuf,
};

/// Plans the whole tree (nothing is written here).
pub fn plan(module: &OperationRef, options: &Options) -> Result<Tree, PldError> {
    let functions: Vec<OperationRef> = module_functions(module);
    let mut p = Planner {
        options: options.clone(),
        functions: std::rc::Rc::new(
            functions
                .iter()
                .filter_map(|f| symbol_name(f).map(|n| (n.to_string(), *f)))
                .collect(),
        ),
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

    // The entries (a builtin collective callable only where the HOST rail dispatched it) and
    // their names: a file or folder, a unique C symbol (ir::entry_names, whose rules
    // --legalize-spmd-launches applies too).
    let named = tree_entries(&functions, |name| dispatched.contains(name));
    let mut refused = BTreeSet::new();
    for (func, message) in entry_name_problems(&named) {
        p.error(&func, &message);
        refused.insert(symbol_name(&func).unwrap_or_default().to_string());
    }

    let mut tree = Tree::default();
    let mut entries: Vec<manifest::Entry> = Vec::new();
    // The module's pl.arch (verified by the pl dialect), for kernel_config.py.
    let arch = string_attr(module, "pl.arch");
    let mut chip_subs: Vec<chip::SubBuild> = Vec::new();
    for &(func, name, rail) in &named {
        let func = &func;
        if refused.contains(name) {
            continue;
        }
        if rail == EntryRail::Chip {
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
        } else if let Some(cpp) = host::emit(&mut p, func) {
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
