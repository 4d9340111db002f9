//! One CHIP orchestration function → `orchestration/<fn>.cpp`, written against
//! `pld_runtime/orchestration.h` exactly as docs/runtime-api.md ("What
//! generated code must look like") prescribes: arity check, one task block
//! per kernel call in program order (tensors, then CommContext slots), the
//! launch spec from `pl.core_num`, the contiguity backstop, `return 0`.

use super::{
    names::{Locals, c_identifier, quoted},
    plan::{Kernel, Planner, param_direction},
};
use crate::{
    directions::{Direction, recorded_arg_directions},
    func_kind::symbol_name,
    ir_util::{callee_name, entry_block, int_attr, is_comm_ctx, is_tensor_like, op_name, param_types},
};
use melior::ir::{
    BlockLike, Location, RegionLike, Value, ValueLike,
    attribute::ArrayAttribute,
    operation::{OperationLike, OperationRef},
};
use std::{collections::HashMap, fmt::Write, rc::Rc};

/// One planned sub-build: its orchestration source and the kernels it launches.
pub struct SubBuild {
    /// The function's symbol (directory and file name).
    pub name: String,
    /// Its C symbol (`extern "C"`).
    pub c_name: String,
    pub cpp: String,
    /// (func_id, kernel) in order of first launch.
    pub kernels: Vec<(usize, Rc<Kernel>)>,
    /// Directions of the function's tensor parameters.
    pub signature: Vec<Direction>,
}

/// The key of an SSA value.
pub fn vkey<'c, 'a>(v: impl ValueLike<'c>) -> usize {
    v.to_raw().ptr as usize
}

/// The name of a location (`loc("out")`), if it is a NameLoc.
pub fn loc_name(loc: Location) -> Option<String> {
    unsafe {
        let raw = loc.to_raw();
        if !mlir_sys::mlirLocationIsAName(raw) {
            return None;
        }
        let s = mlir_sys::mlirIdentifierStr(mlir_sys::mlirLocationNameGetName(raw));
        let bytes = std::slice::from_raw_parts(s.data as *const u8, s.length);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// What an SSA value is in the generated code.
#[derive(Clone)]
enum Bind {
    /// A tensor parameter (index into the declaration list).
    Tensor(usize),
    /// A CommContext parameter (index into the declaration list).
    Ctx(usize),
    /// A value the codegen cannot name at runtime, and why.
    Untraced(String),
}

struct Param {
    var: String,
    decl: String,
    used: bool,
}

fn dir_cpp(d: Direction) -> &'static str {
    match d {
        Direction::In => "Dir::In",
        Direction::Out => "Dir::Out",
        Direction::InOut => "Dir::InOut",
    }
}

fn i64_list(op: &OperationRef, name: &str) -> Option<Vec<i64>> {
    let array = ArrayAttribute::try_from(op.attribute(name).ok()?).ok()?;
    (0..array.len())
        .map(|i| {
            melior::ir::attribute::IntegerAttribute::try_from(array.element(i).ok()?).ok().map(|a| a.value())
        })
        .collect()
}

/// A comment naming a task: `task 1 (after 0): callee(a, b)`.
pub fn task_comment(call: &OperationRef, callee: &str, operands: &[String]) -> String {
    let id = int_attr(call, "pl.task_id").map(|i| format!("task {i}")).unwrap_or_else(|| "task".into());
    let deps = match i64_list(call, "pl.task_deps") {
        Some(d) if !d.is_empty() => {
            format!(" (after {})", d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "))
        }
        _ => String::new(),
    };
    format!("{id}{deps}: {callee}({})", operands.join(", "))
}

/// Emits `func`'s orchestration source. `dispatch_width`: a HOST dispatch
/// gives this callable a runtime launch width (`OrchArgs::dispatch_block_num`),
/// which its calls without `pl.core_num` use.
pub fn emit<'c, 'a>(p: &mut Planner<'c, 'a>, func: &OperationRef<'c, 'a>, dispatch_width: bool) -> Option<SubBuild> {
    let name = symbol_name(func)?.to_string();
    let c_name = c_identifier(&name);
    let entry = entry_block(func)?;
    let errors_before = p.errors;
    if func.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.next_in_region()).is_some() {
        p.error(func.location(), &format!("orchestration function @{name}: only a single-block body is supported"));
        return None;
    }

    let mut locals = Locals::default();
    let mut binds: HashMap<usize, Bind> = HashMap::new();
    let mut params: Vec<Param> = Vec::new();
    let (mut n_tensors, mut n_comms) = (0usize, 0usize);
    let mut signature = Vec::new();
    for (i, ty) in param_types(func).into_iter().enumerate() {
        let Ok(arg) = entry.argument(i) else { continue };
        let base = loc_name(arg.location()).unwrap_or_else(|| format!("arg{i}"));
        if is_comm_ctx(ty) {
            let var = locals.fresh(&format!("ctx_{base}"));
            binds.insert(vkey(arg), Bind::Ctx(params.len()));
            params.push(Param {
                decl: format!("  pld::rt::CommContext* {var} = args->comm({n_comms});\n"),
                var,
                used: false,
            });
            n_comms += 1;
        } else if is_tensor_like(ty) {
            let var = locals.fresh(&base);
            binds.insert(vkey(arg), Bind::Tensor(params.len()));
            params.push(Param { decl: format!("  pld::rt::Tensor& {var} = args->tensor({n_tensors});\n"), var, used: false });
            signature.push(param_direction(func, i));
            n_tensors += 1;
        } else {
            p.error(
                func.location(),
                &format!(
                    "orchestration function @{name}: parameter #{i} has type {ty}; a CHIP orchestration function takes tensors and CommContexts only"
                ),
            );
        }
    }

    let mut body = String::new();
    let mut kernels: Vec<(usize, Rc<Kernel>)> = Vec::new();
    let mut uses_dispatch_width = false;
    let mut next = entry.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let kind = op_name(&op);
        match kind.as_str() {
            "func.return" | "arith.constant" => {}
            "pl.cast" => {
                let Ok(src) = op.operand(0) else { continue };
                let b = binds.get(&vkey(src)).cloned().unwrap_or(Bind::Untraced("an unsupported value".into()));
                if let Ok(r) = op.result(0) {
                    binds.insert(vkey(r), b);
                }
            }
            "func.call" => {
                let Some(callee) = callee_name(&op) else { continue };
                let callee_fn = p.functions.get(&callee).copied();
                // Results rebind nothing: a kernel writes its operands in place, so a result
                // is the argument its callee returns.
                let returned = callee_fn.map(|f| returned_params(&f)).unwrap_or_default();
                for r in 0..op.result_count() {
                    let Ok(res) = op.result(r) else { continue };
                    let b = match returned.get(r).copied().flatten() {
                        Some(j) => op.operand(j).map(|v| bind_of(&binds, v)).unwrap_or(Bind::Untraced("a missing operand".into())),
                        None => Bind::Untraced(format!("result #{r} of @{callee}, which its body does not return as a parameter")),
                    };
                    binds.insert(vkey(res), b);
                }
                let Some(kernel) = p.kernel(&callee, &op) else {
                    continue;
                };
                let func_id = match kernels.iter().find(|(_, k)| k.name == kernel.name) {
                    Some((id, _)) => *id,
                    None => {
                        kernels.push((kernels.len(), kernel.clone()));
                        kernels.len() - 1
                    }
                };
                let abi = int_attr(&op, "pl.abi_arg_count").map(|n| n.max(0) as usize).unwrap_or(op.operand_count());
                let recorded = recorded_arg_directions(&op);
                let mut tensors: Vec<(String, Direction)> = Vec::new();
                let mut comms: Vec<String> = Vec::new();
                let mut failed = false;
                for i in 0..op.operand_count().min(abi) {
                    let Ok(v) = op.operand(i) else { continue };
                    let dir = recorded
                        .as_ref()
                        .and_then(|d| d.get(i).copied())
                        .or_else(|| callee_fn.map(|f| param_direction(&f, i)))
                        .unwrap_or(Direction::In);
                    match bind_of(&binds, v) {
                        Bind::Tensor(k) => {
                            if !comms.is_empty() {
                                p.error(
                                    op.location(),
                                    &format!("call of @{callee}: tensor argument #{i} follows a CommContext slot; the kernel ABI is all tensors, then the CommContext slots"),
                                );
                                failed = true;
                            }
                            params[k].used = true;
                            tensors.push((params[k].var.clone(), dir));
                        }
                        Bind::Ctx(k) => {
                            params[k].used = true;
                            comms.push(params[k].var.clone());
                        }
                        Bind::Untraced(why) => {
                            p.error(op.location(), &format!("call of @{callee}: argument #{i} is {why}, which the orchestration codegen cannot name at runtime"));
                            failed = true;
                        }
                    }
                }
                if failed {
                    continue;
                }
                let all_operands: Vec<String> = tensors.iter().map(|(t, _)| t.clone()).chain(comms.iter().cloned()).collect();
                let _ = writeln!(body, "  {{  // {}", task_comment(&op, &callee, &all_operands));
                if callee_fn.is_some_and(|f| f.attribute("pl.require_contiguous_operands").is_ok()) {
                    for (t, _) in &tensors {
                        let _ = writeln!(body, "    if (!{t}.is_contiguous()) return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);");
                    }
                }
                let _ = writeln!(body, "    Task task({func_id}, {});", quoted(&callee));
                for (t, d) in &tensors {
                    let _ = writeln!(body, "    task.add_tensor({t}, {});", dir_cpp(*d));
                }
                for c in &comms {
                    let _ = writeln!(body, "    task.add_comm_context({c});");
                }
                match int_attr(&op, "pl.core_num") {
                    Some(b) if !(1..=i32::MAX as i64).contains(&b) => {
                        p.error(op.location(), &format!("call of @{callee}: pl.core_num = {b} is not a block count in [1, 2147483647]"));
                    }
                    Some(b) if b > 1 => {
                        let _ = writeln!(body, "    task.launch_spec().set_block_num({b});");
                        let _ = writeln!(body, "    task.launch_spec().set_require_sync_start(true);");
                    }
                    Some(_) => {}
                    None if dispatch_width => {
                        uses_dispatch_width = true;
                        let _ = writeln!(body, "    if (block_num > 1) {{");
                        let _ = writeln!(body, "      task.launch_spec().set_block_num(block_num);");
                        let _ = writeln!(body, "      task.launch_spec().set_require_sync_start(true);");
                        let _ = writeln!(body, "    }}");
                    }
                    None => {}
                }
                let _ = writeln!(body, "    if (int rc = orch->submit(task)) return rc;");
                let _ = writeln!(body, "  }}");
            }
            "pld.tensor.all_to_all_v" | "pld.tensor.indexed_all_to_all_v" => {} // reported by the plan
            _ => {
                p.error(
                    op.location(),
                    &format!("'{kind}' in CHIP orchestration function @{name} is not supported by the orchestration codegen"),
                );
            }
        }
    }
    if p.errors > errors_before {
        return None;
    }

    let mut cpp = String::new();
    let _ = writeln!(cpp, "// Generated by pld-translate --pld-to-ascend-build: CHIP orchestration @{name}.");
    let _ = writeln!(cpp, "// Tasks are submitted in program order (= dependency order; each submit completes");
    let _ = writeln!(cpp, "// before it returns). See docs/runtime-api.md and docs/codegen.md.");
    let _ = writeln!(cpp, "#include \"pld_runtime/orchestration.h\"\n");
    let _ = writeln!(cpp, "extern \"C\" int {c_name}(pld::rt::Orchestration* orch, const pld::rt::OrchArgs* args) {{");
    let _ = writeln!(cpp, "  using pld::rt::Dir;");
    let _ = writeln!(cpp, "  using pld::rt::Task;");
    let _ = writeln!(cpp, "  if (args->num_tensors != {n_tensors} || args->num_comms != {n_comms}) {{");
    let _ = writeln!(cpp, "    return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);");
    let _ = writeln!(cpp, "  }}");
    if uses_dispatch_width {
        let _ = writeln!(cpp, "  // The launch width the HOST dispatch gave this callable (0: none, one block).");
        let _ = writeln!(cpp, "  const int block_num = args->dispatch_block_num;");
        let _ = writeln!(cpp, "  if (block_num < 0) return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);");
    }
    for param in params.iter().filter(|p| p.used) {
        cpp.push_str(&param.decl);
    }
    cpp.push('\n');
    cpp.push_str(&body);
    let _ = writeln!(cpp, "  return 0;");
    let _ = writeln!(cpp, "}}");
    Some(SubBuild { name, c_name, cpp, kernels, signature })
}

fn bind_of(binds: &HashMap<usize, Bind>, v: Value) -> Bind {
    binds.get(&vkey(v)).cloned().unwrap_or_else(|| {
        let what = crate::values::as_result(v)
            .map(|r| format!("a result of '{}'", op_name(&r.owner())))
            .unwrap_or_else(|| "a value".into());
        Bind::Untraced(what)
    })
}

/// For each result of `func`: the parameter its `func.return` returns (looking
/// through `pl.cast`), if any.
pub fn returned_params(func: &OperationRef) -> Vec<Option<usize>> {
    let Some(entry) = entry_block(func) else { return Vec::new() };
    let Some(ret) = entry.terminator() else { return Vec::new() };
    (0..ret.operand_count())
        .map(|i| {
            let mut v = ret.operand(i).ok()?;
            loop {
                if let Some(arg) = crate::values::as_argument(v) {
                    return (arg.owner() == entry).then(|| arg.argument_number());
                }
                let def = crate::values::as_result(v)?.owner();
                if op_name(&def) != "pl.cast" {
                    return None;
                }
                v = def.operand(0).ok()?;
            }
        })
        .collect()
}
