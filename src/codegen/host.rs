//! One HOST orchestrator → `host/<fn>.cpp`, written against
//! `pld_runtime/host_entry.h`: window allocations and views, the `arith`
//! scalar code and `scf.for` loops the HOST rail emits, `pld.host.require`
//! checks, and one `Host::dispatch` per `pld.host.dispatch` (queued on that
//! device's stream; devices run concurrently).

use super::{
    chip::{loc_name, loc_text, task_comment, value_id},
    cpp_names::{Locals, c_identifier, quoted},
    tree_plan::{Planner, string_attr},
};
use crate::{
    ir::attributes::int_attr,
    ir::calls::{call_arg_count, callee_name},
    ir::func_kind::{is_chip_orchestration, symbol_name},
    ir::op_kind::op_name,
    ir::signature::{entry_block, param_types},
    ir::tensor_type::TensorLike,
    ir::types::is_comm_ctx,
};
use melior::ir::{
    BlockLike, BlockRef, RegionLike, Type, ValueLike,
    operation::{OperationLike, OperationRef},
};
use std::{
    collections::{BTreeSet, HashMap},
    fmt::Write,
};

#[derive(Clone)]
enum HostValue {
    /// An integer/index (`int64_t`) or i1 (`bool`) scalar variable.
    Scalar(String),
    HostTensor(String),
    /// A `pld.host::WindowView` variable.
    Window(String),
    /// A `pld.window_buffer` offset variable.
    Buffer(String),
    Ctx(String),
    /// A `pld.comm_domain` index variable (`Host::comm_domain`).
    Domain(String),
}

struct Emitter<'p, 'c, 'a> {
    p: &'p mut Planner<'c, 'a>,
    name: String,
    locals: Locals,
    vals: HashMap<usize, HostValue>,
    callees: BTreeSet<String>,
    out: String,
}

fn is_bool(ty: Type) -> bool {
    ty.to_string() == "i1"
}

fn is_scalar(ty: Type) -> bool {
    let t = ty.to_string();
    t == "index" || (t.starts_with('i') && t[1..].parse::<u32>().is_ok())
}

impl<'p, 'c, 'a> Emitter<'p, 'c, 'a> {
    fn scalar(&mut self, op: &OperationRef<'c, 'a>, i: usize) -> Option<String> {
        let v = op.operand(i).ok()?;
        match self.vals.get(&value_id(v)) {
            Some(HostValue::Scalar(s)) => Some(s.clone()),
            _ => {
                self.p.error(
                    &op,
                    &format!("operand #{i} must be a scalar the host codegen can name"),
                );
                None
            }
        }
    }

    fn define(
        &mut self,
        op: &OperationRef<'c, 'a>,
        wanted: &str,
        ty: &str,
        expr: String,
        indent: &str,
    ) {
        let Ok(r) = op.result(0) else { return };
        let var = self.locals.fresh(wanted);
        let _ = writeln!(
            self.out,
            "{indent}[[maybe_unused]] const {ty} {var} = {expr};"
        );
        self.vals.insert(value_id(r), HostValue::Scalar(var));
    }

    fn block(&mut self, block: &BlockRef<'c, 'a>, depth: usize) {
        let indent = "  ".repeat(depth);
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            self.op(&op, &indent, depth);
        }
    }

    fn op(&mut self, op: &OperationRef<'c, 'a>, indent: &str, depth: usize) {
        let kind = op_name(op);
        let result_ty = op.result(0).ok().map(|r| r.r#type());
        let scalar_ty = if result_ty.is_some_and(is_bool) {
            "bool"
        } else {
            "int64_t"
        };
        let bin = |sym: &str| -> Option<(String, &'static str)> { Some((sym.to_string(), "")) };
        let binop = match kind.as_str() {
            "arith.addi" => bin("+"),
            "arith.subi" => bin("-"),
            "arith.muli" => bin("*"),
            "arith.divsi" => bin("/"),
            "arith.remsi" => bin("%"),
            "arith.andi" => bin("&"),
            "arith.ori" => bin("|"),
            "arith.xori" => bin("^"),
            "arith.divui" => Some(("/".to_string(), "u")),
            "arith.remui" => Some(("%".to_string(), "u")),
            _ => None,
        };
        if let Some((sym, unsigned)) = binop {
            let (Some(a), Some(b)) = (self.scalar(op, 0), self.scalar(op, 1)) else {
                return;
            };
            let expr = if unsigned == "u" {
                format!(
                    "static_cast<int64_t>(static_cast<uint64_t>({a}) {sym} static_cast<uint64_t>({b}))"
                )
            } else if scalar_ty == "bool" {
                format!("(({a}) {sym} ({b})) != 0")
            } else {
                format!("{a} {sym} {b}")
            };
            self.define(op, "v", scalar_ty, expr, indent);
            return;
        }
        match kind.as_str() {
            "arith.constant" => {
                let Some(ty) = result_ty.filter(|t| is_scalar(*t)) else {
                    self.p.error(
                        &op,
                        "result #0 must be an integer or index constant in a HOST orchestrator",
                    );
                    return;
                };
                let Some(value) = crate::ir::attributes::int_attr(op, "value") else {
                    self.p
                        .error(&op, "attribute 'value' must be an integer attribute");
                    return;
                };
                let (wanted, expr) = if is_bool(ty) {
                    (
                        "c".to_string(),
                        if value != 0 {
                            "true".to_string()
                        } else {
                            "false".to_string()
                        },
                    )
                } else if value == i64::MIN {
                    (
                        format!("c{}", value.unsigned_abs()),
                        "INT64_MIN".to_string(),
                    )
                } else {
                    (
                        format!("c{}", value.to_string().replace('-', "m")),
                        format!("INT64_C({value})"),
                    )
                };
                self.define(op, &wanted, scalar_ty, expr, indent);
            }
            "arith.cmpi" => {
                let (Some(a), Some(b)) = (self.scalar(op, 0), self.scalar(op, 1)) else {
                    return;
                };
                let pred = int_attr(op, "predicate").unwrap_or(-1);
                let (sym, unsigned) = match super::orch_ops::cmpi_operator(pred) {
                    Some(found) => found,
                    None => {
                        self.p.error(
                            &op,
                            "attribute 'predicate' must be a known arith.cmpi predicate",
                        );
                        return;
                    }
                };
                let expr = if unsigned {
                    format!("static_cast<uint64_t>({a}) {sym} static_cast<uint64_t>({b})")
                } else {
                    format!("{a} {sym} {b}")
                };
                self.define(op, "cond", "bool", expr, indent);
            }
            "arith.select" => {
                let (Some(c), Some(a), Some(b)) =
                    (self.scalar(op, 0), self.scalar(op, 1), self.scalar(op, 2))
                else {
                    return;
                };
                self.define(op, "v", scalar_ty, format!("{c} ? {a} : {b}"), indent);
            }
            "arith.maxsi" | "arith.minsi" => {
                let (Some(a), Some(b)) = (self.scalar(op, 0), self.scalar(op, 1)) else {
                    return;
                };
                let sym = if kind == "arith.maxsi" { ">" } else { "<" };
                self.define(
                    op,
                    "v",
                    scalar_ty,
                    format!("{a} {sym} {b} ? {a} : {b}"),
                    indent,
                );
            }
            "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui"
            | "arith.trunci" => {
                let Some(a) = self.scalar(op, 0) else { return };
                let expr = if scalar_ty == "bool" {
                    format!("(({a}) & 1) != 0")
                } else {
                    format!("static_cast<int64_t>({a})")
                };
                self.define(op, "v", scalar_ty, expr, indent);
            }
            "scf.for" => self.for_loop(op, indent, depth),
            "scf.yield" => {
                if op.operand_count() != 0 {
                    self.p.error(
                        &op,
                        "loop-carried values are not supported in a HOST orchestrator",
                    );
                }
            }
            "func.return" => {
                let _ = writeln!(self.out, "{indent}return host->status();");
            }
            "pl.cast" => {
                let Ok(src) = op.operand(0) else { return };
                let Some(v) = self.vals.get(&value_id(src)).cloned() else {
                    self.p
                        .error(&op, "operand #0 must be a value the host codegen can name");
                    return;
                };
                if let Ok(r) = op.result(0) {
                    self.vals.insert(value_id(r), v);
                }
            }
            "pld.window_buffer" => {
                let Some(bytes) = int_attr(op, "bytes") else {
                    self.p
                        .error(&op, "attribute 'bytes' must be a static byte count");
                    return;
                };
                let var = self.locals.fresh("buf");
                let _ = writeln!(
                    self.out,
                    "{indent}const uint64_t {var} = host->alloc_window({bytes});"
                );
                let _ = writeln!(self.out, "{indent}if (int rc = host->status()) return rc;");
                if let Ok(r) = op.result(0) {
                    self.vals.insert(value_id(r), HostValue::Buffer(var));
                }
            }
            "pld.window" => self.window(op, indent),
            "pld.comm_domain" => {
                let Some(ranks) = int_attr(op, "ranks") else {
                    return;
                };
                let var = self.locals.fresh("domain");
                let _ = writeln!(
                    self.out,
                    "{indent}const int {var} = host->comm_domain({ranks});"
                );
                let _ = writeln!(self.out, "{indent}if (int rc = host->status()) return rc;");
                if let Ok(r) = op.result(0) {
                    self.vals.insert(value_id(r), HostValue::Domain(var));
                }
            }
            "pld.host.device_ctx" => {
                let Some(dev) = self.scalar(op, 0) else {
                    return;
                };
                let domain = match op
                    .operand(1)
                    .ok()
                    .map(|d| self.vals.get(&value_id(d)).cloned())
                {
                    None => String::new(),
                    Some(Some(HostValue::Domain(d))) => format!(", {d}"),
                    Some(_) => {
                        self.p
                            .error(&op, "domain operand must be a pld.comm_domain of this body");
                        return;
                    }
                };
                let var = self.locals.fresh("ctx");
                let _ = writeln!(
                    self.out,
                    "{indent}pld::rt::CommContext* {var} = host->device_ctx({dev}{domain});"
                );
                if let Ok(r) = op.result(0) {
                    self.vals.insert(value_id(r), HostValue::Ctx(var));
                }
            }
            "pld.host.require" => {
                let Some(c) = self.scalar(op, 0) else { return };
                let code = int_attr(op, "error_code").unwrap_or(5);
                let message = string_attr(op, "message").unwrap_or_default();
                let names = crate::ir::attributes::string_list(op, "value_names");
                let mut seen = Vec::new();
                for (k, name) in names.into_iter().enumerate() {
                    let Some(v) = self.scalar(op, 1 + k) else {
                        return;
                    };
                    seen.push((name, v));
                }
                let text = super::cpp_names::seen_report(&message, &seen)
                    .unwrap_or_else(|| quoted(&message));
                let _ = writeln!(
                    self.out,
                    "{indent}if (!({c})) return host->fail({code}, {text});"
                );
            }
            "pld.host.dispatch" => self.dispatch(op, indent),
            "pld.tensor.all_to_all_v" | "pld.tensor.indexed_all_to_all_v" => {} // reported by the plan
            _ => self.p.error(
                &op,
                &format!(
                    "in HOST orchestrator @{} is not supported by the host codegen",
                    self.name
                ),
            ),
        }
    }

    fn for_loop(&mut self, op: &OperationRef<'c, 'a>, indent: &str, depth: usize) {
        if op.operand_count() != 3 || op.result_count() != 0 {
            self.p.error(
                &op,
                "with loop-carried values is not supported in a HOST orchestrator",
            );
            return;
        }
        let (Some(lb), Some(ub), Some(step)) =
            (self.scalar(op, 0), self.scalar(op, 1), self.scalar(op, 2))
        else {
            return;
        };
        let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else {
            return;
        };
        let Ok(iv) = body.argument(0) else { return };
        let var = self
            .locals
            .fresh(&loc_name(iv.location()).unwrap_or_else(|| "iv".into()));
        self.vals
            .insert(value_id(iv), HostValue::Scalar(var.clone()));
        // The CHIP rail's loop semantics (orchestration.md): a step <= 0 fails
        // with 5 at the loop, the increment never overflows.
        let fail = format!(
            "return host->fail(SIMPLER_ERROR_INVALID_ARGS, {})",
            quoted(&format!(
                "{} at {}: the step must be positive",
                op_name(op),
                loc_text(op.location())
            ))
        );
        let (lbv, ubv, stv) = (
            self.locals.fresh("lb"),
            self.locals.fresh("ub"),
            self.locals.fresh("step"),
        );
        let unsigned = op.attribute("unsignedCmp").is_ok();
        let _ = writeln!(self.out, "{indent}{{");
        super::loops::write_header(
            &mut self.out,
            &format!("{indent}  "),
            &super::loops::ForLoop {
                lb_var: &lbv,
                ub_var: &ubv,
                step_var: &stv,
                lb: &lb,
                ub: &ub,
                step: &step,
                iv: &var,
                unsigned_bits: unsigned.then_some(64),
                fail: &fail,
            },
        );
        self.block(&body, depth + 2);
        let _ = writeln!(self.out, "{indent}  }}");
        let _ = writeln!(self.out, "{indent}}}");
    }

    fn window(&mut self, op: &OperationRef<'c, 'a>, indent: &str) {
        let Some(HostValue::Buffer(buf)) = op
            .operand(0)
            .ok()
            .and_then(|v| self.vals.get(&value_id(v)).cloned())
        else {
            self.p
                .error(&op, "operand #0 must be a pld.window_buffer of this body");
            return;
        };
        let Ok(r) = op.result(0) else { return };
        let ty = r.r#type();
        let tensor = TensorLike::of(ty);
        let (Some(shape), Some(elem)) = (
            tensor.as_ref().and_then(|t| t.static_shape()),
            tensor
                .as_ref()
                .and_then(|t| crate::ir::orch_ops::element_bytes(t.element)),
        ) else {
            self.p.error(&op, &format!("result type must have a static shape and a sized element type in the host codegen, got '{ty}'"));
            return;
        };
        if !tensor.as_ref().is_some_and(|t| t.is_packed_nd()) {
            self.p.error(&op, &format!("result type must be a packed row-major (nd) view in the host codegen, got '{ty}'"));
            return;
        }
        let offset = int_attr(op, "offset").unwrap_or(0);
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let var = self.locals.fresh("win");
        let _ = writeln!(
            self.out,
            "{indent}[[maybe_unused]] const pld::host::WindowView {var} = pld::host::WindowView::make({buf} + {offset}, {elem}, {{{}}});",
            dims.join(", ")
        );
        self.vals.insert(value_id(r), HostValue::Window(var));
    }

    fn dispatch(&mut self, op: &OperationRef<'c, 'a>, indent: &str) {
        // The verifier guarantees a callee that resolves; report, never drop, if not.
        let Some(func) = callee_name(op).and_then(|c| self.p.functions.get(&c).copied()) else {
            self.p
                .error(&op, "callee must be a function of this module");
            return;
        };
        let callee = callee_name(op).unwrap_or_default();
        if !is_chip_orchestration(&func) || entry_block(&func).is_none() {
            self.p.error(
                &op,
                &format!("callee @{callee} must be a CHIP orchestration function with a body"),
            );
            return;
        }
        let n = call_arg_count(op);
        let Some(dev) = self.scalar(op, n) else {
            return;
        };
        let width = if op.operand_count() > n + 1 {
            self.scalar(op, n + 1)
        } else {
            Some("0".to_string())
        };
        let Some(width) = width else { return };
        let (mut tensors, mut comms, mut scalars, mut shown) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for i in 0..n {
            let Ok(v) = op.operand(i) else { continue };
            match self.vals.get(&value_id(v)).cloned() {
                Some(HostValue::HostTensor(t)) => {
                    shown.push(t.clone());
                    tensors.push(t);
                }
                Some(HostValue::Window(w)) => {
                    shown.push(w.clone());
                    tensors.push(format!("host->window_tensor({w}, {dev})"));
                }
                Some(HostValue::Ctx(c)) => {
                    shown.push(c.clone());
                    comms.push(c);
                }
                Some(HostValue::Scalar(x)) => {
                    shown.push(x.clone());
                    scalars.push(format!("static_cast<int64_t>({x})"));
                }
                _ => {
                    self.p.error(&op,
                        &format!("argument #{i} of @{callee} must be a host tensor, a window view, a CommContext or an integer scalar"),
                    );
                    return;
                }
            }
        }
        self.callees.insert(callee.clone());
        let c_name = c_identifier(&callee);
        let _ = writeln!(
            self.out,
            "{indent}{{  // {} on device {dev}",
            task_comment(op, &callee, &shown)
        );
        // The scalar list only when the callee takes scalars (the five-list form).
        let scalar_list = if scalars.is_empty() {
            String::new()
        } else {
            format!("{{{}}}, ", scalars.join(", "))
        };
        let _ = writeln!(
            self.out,
            "{indent}  if (int rc = host->dispatch({dev}, &{c_name}, {}, {{{}}}, {{{}}}, {scalar_list}{width})) return rc;",
            quoted(&callee),
            tensors.join(", "),
            comms.join(", ")
        );
        let _ = writeln!(self.out, "{indent}}}");
    }
}

/// Emits the HOST orchestrator `func`.
pub fn emit<'c, 'a>(p: &mut Planner<'c, 'a>, func: &OperationRef<'c, 'a>) -> Option<String> {
    let name = symbol_name(func)?.to_string();
    let c_name = c_identifier(&name);
    let entry = entry_block(func)?;
    let errors_before = p.errors;
    // A local must not shadow the C symbol of a function it dispatches (`&f`).
    let locals = Locals::avoiding(p.functions.keys().map(String::as_str));
    let mut e = Emitter {
        p,
        name: name.clone(),
        locals,
        vals: HashMap::new(),
        callees: BTreeSet::new(),
        out: String::new(),
    };
    let (mut n_tensors, mut n_scalars) = (0usize, 0usize);
    let mut decls = String::new();
    for (i, ty) in param_types(func).into_iter().enumerate() {
        let Ok(arg) = entry.argument(i) else { continue };
        let base = loc_name(arg.location()).unwrap_or_else(|| format!("arg{i}"));
        let var = e.locals.fresh(&base);
        match TensorLike::of(ty) {
            Some(t) if !t.distributed => {
                let _ = writeln!(
                    decls,
                    "  [[maybe_unused]] pld::rt::Tensor& {var} = args->tensor({n_tensors});"
                );
                e.vals.insert(value_id(arg), HostValue::HostTensor(var));
                n_tensors += 1;
            }
            None if is_scalar(ty) => {
                let cty = if is_bool(ty) { "bool" } else { "int64_t" };
                let conv = if is_bool(ty) {
                    format!("args->scalar({n_scalars}) != 0")
                } else {
                    format!("args->scalar({n_scalars})")
                };
                let _ = writeln!(decls, "  [[maybe_unused]] const {cty} {var} = {conv};");
                e.vals.insert(value_id(arg), HostValue::Scalar(var));
                n_scalars += 1;
            }
            _ => {
                let what = if is_comm_ctx(ty) {
                    "a CommContext"
                } else {
                    "a value"
                };
                e.p.error(&func,
                    &format!("HOST orchestrator @{name}: parameter #{i} must be a host tensor or an integer, got {what} '{ty}'"),
                );
            }
        }
    }
    e.block(&entry, 1);
    let (body, callees) = (std::mem::take(&mut e.out), std::mem::take(&mut e.callees));
    if p.errors > errors_before {
        return None;
    }
    let mut cpp = String::new();
    let _ = writeln!(
        cpp,
        "// Generated by pld-translate --pld-to-ascend-build: HOST orchestrator @{name}."
    );
    let _ = writeln!(
        cpp,
        "// Run it with pld::host::run_host_entry (pld_runtime/host_entry.h); each dispatch is queued"
    );
    let _ = writeln!(cpp, "// on its device's stream. See docs/codegen.md.");
    let _ = writeln!(cpp, "#include <cstdint>\n");
    let _ = writeln!(cpp, "#include \"pld_runtime/host_entry.h\"\n");
    for callee in &callees {
        let _ = writeln!(
            cpp,
            "// next_levels/{callee}/orchestration/{callee}.cpp\nextern \"C\" int {}(pld::rt::Orchestration* orch, const pld::rt::OrchArgs* args);",
            c_identifier(callee)
        );
    }
    if !callees.is_empty() {
        cpp.push('\n');
    }
    let _ = writeln!(
        cpp,
        "extern \"C\" int {c_name}(pld::host::Host* host, const pld::host::HostArgs* args) {{"
    );
    let _ = writeln!(
        cpp,
        "  if (args->num_tensors != {n_tensors} || args->num_scalars != {n_scalars}) {{"
    );
    let _ = writeln!(
        cpp,
        "    return host->fail(SIMPLER_ERROR_INVALID_ARGS, {});",
        quoted(&format!("@{name}: wrong argument count"))
    );
    let _ = writeln!(cpp, "  }}");
    cpp.push_str(&decls);
    cpp.push_str(&body);
    if !body.trim_end().ends_with("return host->status();") {
        let _ = writeln!(cpp, "  return host->status();");
    }
    let _ = writeln!(cpp, "}}");
    Some(cpp)
}
