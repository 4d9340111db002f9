//! Walking a module: its body and functions, the ops of one function's own
//! scope (by name, kind, or the collectives), the enclosing function, the
//! nested modules that hold pld code.

use crate::ir::at::OpAt as _;
use crate::ir::op_kind::{OpKind, op_kind};
use crate::{error::PldError, ir::func_kind::symbol_name};
use melior::ir::{
    BlockLike, BlockRef, RegionLike,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
};

/// The module's body block.
pub fn module_body<'c, 'a>(module: &OperationRef<'c, 'a>) -> Result<BlockRef<'c, 'a>, PldError> {
    module
        .region(0)?
        .first_block()
        .ok_or_else(|| PldError::Internal("module without a body".into()))
}

/// Top-level `func.func`s of the module, in order.
pub fn module_functions<'c, 'a>(module: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    let Ok(body) = module_body(module) else {
        return out;
    };
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_kind(&op) == OpKind::Func {
            out.push(op);
        }
    }
    out
}

/// The `builtin.module`s directly in `module`'s body that hold pld code at any
/// depth (a `pl` / `pld` op, or a function with a `pl.func_kind`), each with
/// the first such thing it holds (`'pld.tensor.allreduce'`, `@chip
/// (pl.func_kind "orchestration")`). pld builds a program from its top-level
/// module: the pipeline's passes run on it and pld-translate renders its
/// functions, neither enters a nested module, so both refuse one that holds
/// pld code ([`nested_module_message`]) instead of leaving it unlowered and
/// unbuilt.
pub fn nested_pld_modules<'c, 'a>(
    module: &OperationRef<'c, 'a>,
) -> Vec<(OperationRef<'c, 'a>, String)> {
    let mut out = Vec::new();
    let Ok(body) = module_body(module) else {
        return out;
    };
    let mut next = body.first_operation();
    while let Some(nested) = next {
        next = nested.next_in_block();
        if op_kind(&nested) != OpKind::Module {
            continue;
        }
        let mut what = None;
        nested.walk(WalkOrder::PreOrder, |op| {
            let name = crate::ir::op_kind::op_name(&op);
            if name.starts_with("pl.") || name.starts_with("pld.") {
                what = Some(format!("'{name}'"));
            } else if let Some(kind) = crate::ir::func_kind::func_kind(&op) {
                let sym = symbol_name(&op).unwrap_or("?");
                what = Some(format!("@{sym} (pl.func_kind \"{kind}\")"));
            }
            if what.is_some() {
                WalkResult::Interrupt
            } else {
                WalkResult::Advance
            }
        });
        if let Some(what) = what {
            out.push((nested, what));
        }
    }
    out
}

/// The error both the pipeline (`--legalize-spmd-launches`) and pld-translate
/// give a nested module that holds pld code (`what`, [`nested_pld_modules`]).
pub fn nested_module_message(what: &str) -> String {
    crate::diag::msg!(
        "holds {what}, which pld does not build: a pld program is its top-level module (the \
         pld-lower-collectives pipeline and pld-translate do not enter a nested builtin.module; \
         make it the top-level module)"
    )
}

/// The module's functions by symbol name.
pub type FunctionMap<'c, 'a> = crate::ir::handle_maps::NameMap<String, OperationRef<'c, 'a>>;

/// `func.func`s by symbol name.
pub fn function_map<'c, 'a>(module: &OperationRef<'c, 'a>) -> FunctionMap<'c, 'a> {
    module_functions(module)
        .into_iter()
        .filter_map(|f| symbol_name(&f).map(|n| (n.to_string(), f)))
        .collect()
}

/// Every op nested in `root` (not `root` itself) in program (pre-)order,
/// without descending into a nested `builtin.module` / `func.func`: a call in
/// a nested module's function is not a task of `root`, and its callee is not
/// a symbol of the top-level module.
pub fn ops_in<'c, 'a>(root: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let root_raw = root.to_raw();
    let mut raw = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op.to_raw().ptr == root_raw.ptr {
            return WalkResult::Advance;
        }
        if op_kind(&op).is_nested_scope() {
            return WalkResult::Skip;
        }
        raw.push(op.to_raw());
        WalkResult::Advance
    });
    raw.into_iter()
        .map(|r| unsafe { OperationRef::from_raw(r) })
        .collect()
}

/// Every op of `root`'s own scope (see [`ops_in`]) whose name is in `names`,
/// in program (pre-)order.
pub fn ops_named<'c, 'a>(root: &OperationRef<'c, 'a>, names: &[&str]) -> Vec<OperationRef<'c, 'a>> {
    let kinds: Vec<OpKind> = names.iter().map(|n| OpKind::from_name(n)).collect();
    if kinds.contains(&OpKind::Other) {
        return ops_in(root)
            .into_iter()
            .filter(|op| {
                op.name()
                    .as_string_ref()
                    .as_str()
                    .is_ok_and(|n| names.contains(&n))
            })
            .collect();
    }
    ops_of_kind(root, |k| kinds.contains(&k))
}

/// Every managed collective of `root`'s own scope (see [`ops_in`]), in
/// program (pre-)order.
pub fn collectives_in<'c, 'a>(root: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    ops_of_kind(root, OpKind::is_collective)
}

/// Every op of `root`'s own scope (see [`ops_in`]) whose kind passes
/// `wanted`, in program (pre-)order.
pub fn ops_of_kind<'c, 'a>(
    root: &OperationRef<'c, 'a>,
    wanted: impl Fn(OpKind) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let root_raw = root.to_raw();
    let mut raw = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op.to_raw().ptr == root_raw.ptr {
            return WalkResult::Advance;
        }
        let kind = op_kind(&op);
        if kind.is_nested_scope() {
            return WalkResult::Skip;
        }
        if wanted(kind) {
            raw.push(op.to_raw());
        }
        WalkResult::Advance
    });
    raw.into_iter()
        .map(|r| unsafe { OperationRef::from_raw(r) })
        .collect()
}

/// The enclosing `func.func` of an op.
pub fn enclosing_function<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut parent = op.parent_operation();
    while let Some(p) = parent {
        if op_kind(&p) == OpKind::Func {
            return Some(p);
        }
        parent = p.parent_operation();
    }
    None
}

/// Checks every op of `func`'s body in program order, block by block (every
/// block: a body of several blocks has a `cf` branch the checker refuses at
/// its own location), descending into an op's regions only when `check`
/// accepts the op; `check` returns the message of a refused op, handed to
/// `report` (one per op). Ops `skip` says were already handled are passed over.
pub fn check_body_ops<'c, 'a>(
    func: &OperationRef<'c, 'a>,
    skip: impl Fn(&OperationRef<'c, 'a>) -> bool,
    mut check: impl FnMut(&OperationRef<'c, 'a>) -> Result<(), String>,
    mut report: impl FnMut(&OperationRef<'c, 'a>, String),
) {
    let Some(region) = func.region_at(0) else {
        return;
    };
    let mut stack = Vec::new();
    let mut b = region.first_block();
    while let Some(block) = b {
        b = block.next_in_region();
        stack.push(block);
    }
    stack.reverse();
    while let Some(block) = stack.pop() {
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if skip(&op) {
                continue;
            }
            match check(&op) {
                Err(msg) => report(&op, msg),
                Ok(()) => {
                    for r in 0..op.region_count() {
                        let Some(region) = op.region_at(r) else {
                            continue;
                        };
                        let mut b = region.first_block();
                        while let Some(block) = b {
                            b = block.next_in_region();
                            stack.push(block);
                        }
                    }
                }
            }
        }
    }
}
