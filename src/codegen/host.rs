//! One HOST orchestrator → `host/<fn>.cpp`, written against
//! `pld_runtime/host_entry.h`: window allocations and views, the `arith`
//! scalar code and `scf.for` loops the HOST rail emits, `pld.host.require`
//! checks, and one `Host::dispatch` per `pld.host.dispatch` (queued on that
//! device's stream; devices run concurrently).

use super::{
    chip::{fail_message, loc_name, task_comment},
    cpp_names::{Locals, c_identifier, quoted},
    planner::{Planner, string_attr},
    scalars,
    values::{Bindings, RtValue},
};
use crate::ir::at::{BlockAt as _, OpAt as _};
use crate::{
    ir::attributes::int_attr,
    ir::calls::{call_arg_count, callee_name},
    ir::func_kind::{is_chip_orchestration, symbol_name},
    ir::host_ops::{HostOp, param_problem, window_type_problem},
    ir::op_kind::op_name,
    ir::orch_ops::{OrchOp, scalar_bits},
    ir::signature::{entry_block, param_types},
    ir::tensor_type::TensorLike,
};
use melior::ir::{
    BlockLike, BlockRef, RegionLike, ValueLike,
    operation::{OperationLike, OperationRef},
};
use std::{collections::BTreeSet, fmt::Write};

struct Emitter<'p, 'c, 'a> {
    p: &'p mut Planner<'c, 'a>,
    name: String,
    locals: Locals,
    vals: Bindings,
    callees: BTreeSet<String>,
    out: String,
}

impl<'p, 'c, 'a> Emitter<'p, 'c, 'a> {
    /// Operand `i` as an integer scalar: its expression and bit width.
    fn int(&mut self, op: &OperationRef<'c, 'a>, i: usize) -> Option<(String, u32)> {
        let v = op.operand_at(i)?;
        match self.vals.get(v) {
            Some(RtValue::Int(s, bits)) => Some((s.clone(), *bits)),
            _ => {
                self.p.error(
                    &op,
                    &format!("operand #{i} must be a scalar the host codegen can name"),
                );
                None
            }
        }
    }

    fn scalar(&mut self, op: &OperationRef<'c, 'a>, i: usize) -> Option<String> {
        self.int(op, i).map(|(s, _)| s)
    }

    /// `const int64_t v = expr;` bound to result #0 (`bits` wide).
    fn define(
        &mut self,
        op: &OperationRef<'c, 'a>,
        wanted: &str,
        bits: u32,
        expr: String,
        indent: &str,
    ) {
        let Some(r) = op.result_at(0) else { return };
        let var = self.locals.fresh(wanted);
        let _ = writeln!(
            self.out,
            "{indent}[[maybe_unused]] const int64_t {var} = {expr};"
        );
        self.vals.bind(r, RtValue::Int(var, bits));
    }

    fn block(&mut self, block: &BlockRef<'c, 'a>, depth: usize) {
        let indent = "  ".repeat(depth);
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            self.op(&op, &indent, depth);
        }
    }

    /// The bit width of result #0, an integer scalar (else a located error).
    fn result_bits(&mut self, op: &OperationRef<'c, 'a>) -> Option<u32> {
        let ty = op.result_at(0)?.r#type();
        let bits = scalar_bits(ty);
        if bits.is_none() {
            self.p.error(
                &op,
                &format!("result #0 must be an integer scalar in a HOST orchestrator, got '{ty}'"),
            );
        }
        bits
    }

    /// One integer scalar op, from the model both rails share.
    fn scalar_op(&mut self, op: &OperationRef<'c, 'a>, kind: OrchOp, indent: &str) {
        match kind {
            OrchOp::Constant => {
                let Some(bits) = self.result_bits(op) else {
                    return;
                };
                let Some(value) = int_attr(op, "value") else {
                    self.p
                        .error(&op, "attribute 'value' must be an integer attribute");
                    return;
                };
                // A constant is a literal at its uses, never a local.
                if let Some(r) = op.result_at(0) {
                    self.vals
                        .bind(r, RtValue::Int(scalars::literal(value, bits), bits));
                }
            }
            OrchOp::Binary(b) => {
                let (Some((x, _)), Some((y, _)), Some(bits)) =
                    (self.int(op, 0), self.int(op, 1), self.result_bits(op))
                else {
                    return;
                };
                let fail = format!(
                    "return host->fail(SIMPLER_ERROR_INVALID_ARGS, {})",
                    fail_message(op, scalars::DIVISION_BY_ZERO)
                );
                if let Some(check) = scalars::zero_divisor_check(b, &y, &fail) {
                    let _ = writeln!(self.out, "{indent}{check}");
                }
                self.define(op, "v", bits, scalars::binary(b, &x, &y, bits), indent);
            }
            OrchOp::Cmp => {
                let (Some((x, bits)), Some((y, _))) = (self.int(op, 0), self.int(op, 1)) else {
                    return;
                };
                let pred = int_attr(op, "predicate").unwrap_or(-1);
                let Some(expr) = scalars::cmpi(pred, &x, &y, bits) else {
                    self.p.error(
                        &op,
                        &format!(
                            "attribute 'predicate' must be a known arith.cmpi predicate, got {pred}"
                        ),
                    );
                    return;
                };
                self.define(op, "cond", 1, expr, indent);
            }
            OrchOp::Select => {
                let (Some(c), Some(a), Some(b), Some(bits)) = (
                    self.scalar(op, 0),
                    self.scalar(op, 1),
                    self.scalar(op, 2),
                    self.result_bits(op),
                ) else {
                    return;
                };
                self.define(op, "v", bits, scalars::select(&c, &a, &b), indent);
            }
            OrchOp::ExtS
            | OrchOp::ExtU
            | OrchOp::Trunc
            | OrchOp::IndexCast
            | OrchOp::IndexCastUi => {
                let (Some((x, from)), Some(to)) = (self.int(op, 0), self.result_bits(op)) else {
                    return;
                };
                self.define(op, "v", to, scalars::int_cast(kind, &x, from, to), indent);
            }
            // Not scalar ops (HostOp::Scalar holds only those).
            _ => self.unsupported(op),
        }
    }

    fn unsupported(&mut self, op: &OperationRef<'c, 'a>) {
        self.p.error(
            &op,
            &format!(
                "in HOST orchestrator @{} is not supported by the host codegen",
                self.name
            ),
        );
    }

    fn op(&mut self, op: &OperationRef<'c, 'a>, indent: &str, depth: usize) {
        let Some(kind) = HostOp::from_name(&op_name(op)) else {
            if crate::ir::orch_ops::is_deferred(op) {
                return; // reported by the plan ("was never lowered")
            }
            self.unsupported(op);
            return;
        };
        match kind {
            HostOp::Scalar(scalar) => self.scalar_op(op, scalar, indent),
            HostOp::For => self.for_loop(op, indent, depth),
            HostOp::Yield => {
                if op.operand_count() != 0 {
                    self.p.error(
                        &op,
                        "loop-carried values are not supported in a HOST orchestrator",
                    );
                }
            }
            HostOp::Return => {
                let _ = writeln!(self.out, "{indent}return host->status();");
            }
            HostOp::Cast => {
                let Some(src) = op.operand_at(0) else { return };
                let Some(v) = self.vals.get(src).cloned() else {
                    self.p
                        .error(&op, "operand #0 must be a value the host codegen can name");
                    return;
                };
                if let Some(r) = op.result_at(0) {
                    self.vals.bind(r, v);
                }
            }
            HostOp::WindowBuffer => {
                let Some(bytes) = int_attr(op, "bytes") else {
                    self.p
                        .error(&op, "attribute 'bytes' must be a static byte count");
                    return;
                };
                let var = self.locals.fresh("buf");
                let _ = writeln!(
                    self.out,
                    "{indent}const uint64_t {var} = host->alloc_window({bytes}, {});",
                    site_literal(op)
                );
                let _ = writeln!(self.out, "{indent}if (int rc = host->status()) return rc;");
                if let Some(r) = op.result_at(0) {
                    self.vals.bind(r, RtValue::Buffer(var));
                }
            }
            HostOp::Window => self.window(op, indent),
            HostOp::CommDomain => {
                let Some(ranks) = int_attr(op, "ranks") else {
                    return;
                };
                let var = self.locals.fresh("domain");
                let _ = writeln!(
                    self.out,
                    "{indent}const int {var} = host->comm_domain({ranks}, {});",
                    site_literal(op)
                );
                let _ = writeln!(self.out, "{indent}if (int rc = host->status()) return rc;");
                if let Some(r) = op.result_at(0) {
                    self.vals.bind(r, RtValue::Domain(var));
                }
            }
            HostOp::DeviceCtx => {
                let Some(dev) = self.scalar(op, 0) else {
                    return;
                };
                // Checked first: melior's out-of-range error prints the op (the whole module).
                let domain_operand = (op.operand_count() > 1).then(|| op.operand_at(1)).flatten();
                let domain = match domain_operand.map(|d| self.vals.get(d).cloned()) {
                    None => String::new(),
                    Some(Some(RtValue::Domain(d))) => format!(", {d}, {}", site_literal(op)),
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
                if let Some(r) = op.result_at(0) {
                    self.vals.bind(r, RtValue::Ctx(var));
                }
            }
            HostOp::Require => {
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
                    "{indent}if ({}) return host->fail({code}, {text});",
                    scalars::is_false(&c)
                );
            }
            HostOp::Dispatch => self.dispatch(op, indent),
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
        let (Some((lb, bits)), Some(ub), Some(step)) =
            (self.int(op, 0), self.scalar(op, 1), self.scalar(op, 2))
        else {
            return;
        };
        let Some(body) = op.region_at(0).and_then(|r| r.first_block()) else {
            return;
        };
        let Some(iv) = body.argument_at(0) else {
            return;
        };
        let var = self
            .locals
            .fresh(&loc_name(iv.location()).unwrap_or_else(|| "iv".into()));
        self.vals.bind(iv, RtValue::Int(var.clone(), bits));
        // The CHIP rail's loop semantics (orchestration.md): a step <= 0 fails
        // with 5 at the loop, the increment never overflows.
        let fail = format!(
            "return host->fail(SIMPLER_ERROR_INVALID_ARGS, {})",
            fail_message(op, "the step must be positive")
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
                unsigned_bits: unsigned.then_some(bits),
                fail: &fail,
            },
        );
        self.block(&body, depth + 2);
        let _ = writeln!(self.out, "{indent}  }}");
        let _ = writeln!(self.out, "{indent}}}");
    }

    fn window(&mut self, op: &OperationRef<'c, 'a>, indent: &str) {
        let Some(RtValue::Buffer(buf)) = op.operand_at(0).and_then(|v| self.vals.get(v).cloned())
        else {
            self.p
                .error(&op, "operand #0 must be a pld.window_buffer of this body");
            return;
        };
        let Some(r) = op.result_at(0) else { return };
        let ty = r.r#type();
        if let Some(problem) = window_type_problem(ty) {
            self.p.error(&op, &problem);
            return;
        }
        let tensor = TensorLike::of(ty);
        let (Some(shape), Some(elem)) = (
            tensor.as_ref().and_then(|t| t.static_shape()),
            tensor
                .as_ref()
                .and_then(|t| crate::ir::orch_ops::element_bytes(t.element)),
        ) else {
            return; // window_type_problem said none
        };
        let offset = int_attr(op, "offset").unwrap_or(0);
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let var = self.locals.fresh("win");
        let _ = writeln!(
            self.out,
            "{indent}[[maybe_unused]] const pld::host::WindowView {var} = pld::host::WindowView::make({buf} + {offset}, {elem}, {{{}}});",
            dims.join(", ")
        );
        self.vals.bind(r, RtValue::Window(var));
    }

    /// A builtin callable's collective: its op, kernel symbol and the
    /// signal's NR (read through the dispatch argument's `pl.cast` from the
    /// window's static type; ring mode: its trailing dimension).
    fn builtin_collective(
        &self,
        callable: &OperationRef<'c, 'a>,
        dispatch: &OperationRef<'c, 'a>,
    ) -> Option<(&'static str, String, i64)> {
        let call = crate::collective::builtin_callable_call(callable)?;
        let kernel = callee_name(&call)?;
        let (op, ranks) =
            crate::collective::lowered_collective(dispatch, self.p.functions.get(&kernel)?)?;
        Some((op, kernel, ranks?))
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
        let (mut tensors, mut comms, mut scalar_args, mut shown) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for i in 0..n {
            let Some(v) = op.operand_at(i) else { continue };
            match self.vals.get(v).cloned() {
                Some(RtValue::Tensor(t)) => {
                    shown.push(t.clone());
                    tensors.push(t);
                }
                Some(RtValue::Window(w)) => {
                    shown.push(w.clone());
                    tensors.push(format!("host->window_tensor({w}, {dev})"));
                }
                Some(RtValue::Ctx(c)) => {
                    shown.push(c.clone());
                    comms.push(c);
                }
                Some(RtValue::Int(x, _)) => {
                    shown.push(x.clone());
                    scalar_args.push(x);
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
        let scalar_list = if scalar_args.is_empty() {
            String::new()
        } else {
            format!("{{{}}}, ", scalar_args.join(", "))
        };
        // Every dispatch is told its site: the runtime locates the dispatch's
        // own failures with it, and a builtin callable (the HOST rail's
        // fan-out of one collective) reports it in its rank-count check and
        // timeouts instead of the callable's first user.
        let here = super::chip::source_site(op.location());
        if callee.starts_with(crate::collective::BUILTIN_CALLABLE_PREFIX) {
            // A world of fewer devices than NR: the dispatch to device
            // P..NR-1 fails here, in the words of the runtime's rank-count
            // check (a world of more devices fails that check itself).
            if let Some((op_name, kernel, ranks)) = self.builtin_collective(&func, op) {
                let _ = writeln!(
                    self.out,
                    "{indent}  if ({dev} >= host->num_devices()) return host->fail(SIMPLER_ERROR_INVALID_ARGS, pld::rt::collective_rank_mismatch({}, {}, host->num_devices(), {ranks}, {}));",
                    quoted(op_name),
                    quoted(&here),
                    quoted(&kernel)
                );
            }
        }
        let site = format!(", {}", quoted(&here));
        let _ = writeln!(
            self.out,
            "{indent}  if (int rc = host->dispatch({dev}, &{}, {}, {{{}}}, {{{}}}, {scalar_list}{width}{site})) return rc;",
            crate::codegen::chip_entries::entry_symbol(&c_name),
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
        vals: Bindings::default(),
        callees: BTreeSet::new(),
        out: String::new(),
    };
    let (mut n_tensors, mut n_scalars) = (0usize, 0usize);
    let mut decls = String::new();
    for (i, ty) in param_types(func).into_iter().enumerate() {
        let Some(arg) = entry.argument_at(i) else {
            continue;
        };
        let base = loc_name(arg.location()).unwrap_or_else(|| format!("arg{i}"));
        let var = e.locals.fresh(&base);
        match TensorLike::of(ty) {
            Some(t) if !t.distributed => {
                let _ = writeln!(
                    decls,
                    "  [[maybe_unused]] pld::rt::Tensor& {var} = args->tensor({n_tensors});"
                );
                e.vals.bind(arg, RtValue::Tensor(var));
                n_tensors += 1;
            }
            None if scalar_bits(ty).is_some() => {
                let bits = scalar_bits(ty).unwrap_or(64);
                let _ = writeln!(
                    decls,
                    "  [[maybe_unused]] const int64_t {var} = {};",
                    scalars::param(n_scalars, bits)
                );
                e.vals.bind(arg, RtValue::Int(var, bits));
                n_scalars += 1;
            }
            _ => {
                let problem = param_problem(&name, i, ty).unwrap_or_default();
                e.p.error(&func, &problem);
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
    let _ = writeln!(cpp, "#include \"pld_runtime/host_entry.h\"");
    let _ = writeln!(cpp, "#include \"pld_runtime/scalar.h\"\n");
    for callee in &callees {
        let _ = writeln!(
            cpp,
            "// next_levels/{callee}/orchestration/{callee}.cpp (chip_entries.cpp)\nextern const pld::rt::ChipEntry {};",
            crate::codegen::chip_entries::entry_symbol(&c_identifier(callee))
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

/// The op's `file:line:col` as a C string literal: the runtime's `at`
/// argument, which locates a failure it detects while running the op.
fn site_literal(op: &OperationRef) -> String {
    quoted(&super::chip::source_site(op.location()))
}
