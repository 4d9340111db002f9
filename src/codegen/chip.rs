//! One CHIP orchestration function → `orchestration/<fn>.cpp`, written against
//! `pld_runtime/orchestration.h` as docs/runtime-api.md prescribes.
//!
//! Code is emitted per op, not per pattern (`docs/spec/orchestration.md`):
//! every op of [`OrchOp`] has one arm in [`Emitter::op`], regions recurse, so
//! nested loops, loops inside branches and tasks inside both come out as C++
//! loops and branches. SSA values become C++ locals: a tensor is a
//! `pld::rt::Tensor` descriptor (a parameter by reference, everything else by
//! value), an integer scalar an `int64_t` kept sign-extended from its width
//! (`pld_runtime/scalar.h`), a CommContext a pointer. Values that carry across
//! region boundaries (`scf.for` iter_args, `scf.while` arguments, `scf.if` and
//! loop results) are variables declared before the op and assigned at its
//! terminator (all yielded values are read before any is assigned).

use super::{
    names::{Locals, c_identifier, quoted},
    orch_ops::{BinOp, OrchOp, element_bytes, scalar_bits},
    plan::{Kernel, Planner, param_direction},
};
use crate::{
    analysis::directions::{Direction, recorded_arg_directions},
    ir::attributes::int_attr,
    ir::calls::callee_name,
    ir::func_kind::symbol_name,
    ir::op_kind::op_name,
    ir::signature::{entry_block, param_types},
    ir::tensor_type::TensorLike,
    ir::types::{is_comm_ctx, is_tensor_like},
};
use melior::ir::{
    BlockLike, BlockRef, Location, RegionLike, Type, Value, ValueLike,
    attribute::{ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute},
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

/// A location as `file:line:col` (or MLIR's printed form), for runtime messages.
pub(crate) fn loc_text(loc: Location) -> String {
    crate::diag::location_text(loc)
}

/// What an SSA value is in the generated code.
#[derive(Clone, Debug)]
enum Val {
    /// A tensor descriptor: the C++ expression naming it.
    Tensor(String),
    /// A `CommContext*`.
    Ctx(String),
    /// An `int64_t` holding an integer of this many bits, sign-extended.
    Int(String, u32),
}

impl Val {
    fn expr(&self) -> &str {
        match self {
            Val::Tensor(e) | Val::Ctx(e) | Val::Int(e, _) => e,
        }
    }
}

fn dir_cpp(d: Direction) -> &'static str {
    match d {
        Direction::In => "Dir::In",
        Direction::Out => "Dir::Out",
        Direction::InOut => "Dir::InOut",
    }
}

fn i64_list(op: &OperationRef, name: &str) -> Option<Vec<i64>> {
    let attr = op.attribute(name).ok()?;
    if let Ok(dense) = DenseI64ArrayAttribute::try_from(attr) {
        return (0..dense.len()).map(|i| dense.element(i).ok()).collect();
    }
    let array = ArrayAttribute::try_from(attr).ok()?;
    (0..array.len())
        .map(|i| {
            IntegerAttribute::try_from(array.element(i).ok()?)
                .ok()
                .map(|a| a.value())
        })
        .collect()
}

/// A comment naming a task: `task 1 (after 0): callee(a, b)`.
pub fn task_comment(call: &OperationRef, callee: &str, operands: &[String]) -> String {
    let id = int_attr(call, "pl.task_id")
        .map(|i| format!("task {i}"))
        .unwrap_or_else(|| "task".into());
    let deps = match i64_list(call, "pl.task_deps") {
        Some(d) if !d.is_empty() => {
            format!(
                " (after {})",
                d.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        _ => String::new(),
    };
    format!("{id}{deps}: {callee}({})", operands.join(", "))
}

/// A C++ array argument: `nullptr` when empty, else a named local array
/// declared on `out` first.
fn array_arg(out: &mut String, ind: &str, name: &str, items: &[String]) -> String {
    if items.is_empty() {
        return "nullptr".into();
    }
    let _ = writeln!(
        out,
        "{ind}const int64_t {name}[{}] = {{{}}};",
        items.len(),
        items.join(", ")
    );
    name.to_string()
}

struct Param {
    decl: String,
    used: bool,
}

/// Emits `func`'s orchestration source. `dispatch_width`: a HOST dispatch
/// gives this callable a runtime launch width (`OrchArgs::dispatch_block_num`),
/// which its calls without `pl.core_num` use.
pub fn emit<'c, 'a>(
    p: &mut Planner<'c, 'a>,
    func: &OperationRef<'c, 'a>,
    dispatch_width: bool,
) -> Option<SubBuild> {
    let name = symbol_name(func)?.to_string();
    let c_name = c_identifier(&name);
    let entry = entry_block(func)?;
    let errors_before = p.errors;
    if func
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.next_in_region())
        .is_some()
    {
        p.error(
            &func,
            &format!("orchestration function @{name} must have a single-block body"),
        );
        return None;
    }

    let mut e = Emitter {
        p,
        fname: name.clone(),
        locals: Locals::default(),
        vals: HashMap::new(),
        params: Vec::new(),
        param_of: HashMap::new(),
        kernels: Vec::new(),
        dispatch_width,
        uses_dispatch_width: false,
        uses_scope: false,
        launch_width: None,
        body: String::new(),
        poisoned: Default::default(),
        read_poison: false,
    };
    let (mut n_tensors, mut n_comms, mut n_scalars) = (0usize, 0usize, 0usize);
    let mut signature = Vec::new();
    for (i, ty) in param_types(func).into_iter().enumerate() {
        let Ok(arg) = entry.argument(i) else { continue };
        let base = loc_name(arg.location()).unwrap_or_else(|| format!("arg{i}"));
        let (val, decl) = if is_comm_ctx(ty) {
            let var = e.locals.fresh(&format!("ctx_{base}"));
            let decl = format!("  pld::rt::CommContext* {var} = args->comm({n_comms});\n");
            n_comms += 1;
            (Val::Ctx(var), decl)
        } else if is_tensor_like(ty) {
            let var = e.locals.fresh(&base);
            let decl = format!("  pld::rt::Tensor& {var} = args->tensor({n_tensors});\n");
            signature.push(param_direction(func, i));
            n_tensors += 1;
            (Val::Tensor(var), decl)
        } else if let Some(bits) = scalar_bits(ty) {
            let var = e.locals.fresh(&base);
            let decl = format!(
                "  const int64_t {var} = pld::rt::sext(args->scalar({n_scalars}), {bits});\n"
            );
            n_scalars += 1;
            (Val::Int(var, bits), decl)
        } else {
            e.p.error(&func,
                &format!(
                    "orchestration function @{name}: parameter #{i} must be a tensor, a CommContext or an integer scalar, got '{ty}'"
                ),
            );
            continue;
        };
        e.param_of.insert(vkey(arg), e.params.len());
        e.params.push(Param { decl, used: false });
        e.vals.insert(vkey(arg), val);
    }
    e.block(&entry, 1);
    if e.p.errors > errors_before {
        return None;
    }

    let mut cpp = String::new();
    let _ = writeln!(
        cpp,
        "// Generated by pld-translate --pld-to-ascend-build: CHIP orchestration @{name}."
    );
    let _ = writeln!(
        cpp,
        "// Tasks are submitted in program order (= dependency order; each submit completes"
    );
    let _ = writeln!(
        cpp,
        "// before it returns). See docs/runtime-api.md and docs/codegen.md."
    );
    let _ = writeln!(cpp, "#include \"pld_runtime/orchestration.h\"\n");
    let _ = writeln!(
        cpp,
        "extern \"C\" int {c_name}(pld::rt::Orchestration* orch, const pld::rt::OrchArgs* args) {{"
    );
    let _ = writeln!(cpp, "  using pld::rt::Dir;");
    let _ = writeln!(cpp, "  using pld::rt::Task;");
    if n_scalars > 0 {
        let _ = writeln!(
            cpp,
            "  if (args->num_tensors != {n_tensors} || args->num_comms != {n_comms} || args->num_scalars != {n_scalars}) {{"
        );
    } else {
        let _ = writeln!(
            cpp,
            "  if (args->num_tensors != {n_tensors} || args->num_comms != {n_comms}) {{"
        );
    }
    let _ = writeln!(
        cpp,
        "    return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);"
    );
    let _ = writeln!(cpp, "  }}");
    if e.uses_dispatch_width {
        let _ = writeln!(
            cpp,
            "  // The launch width the HOST dispatch gave this callable (0: none, one block)."
        );
        let _ = writeln!(cpp, "  const int block_num = args->dispatch_block_num;");
        let _ = writeln!(
            cpp,
            "  if (block_num < 0) return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);"
        );
    }
    if e.uses_scope {
        let _ = writeln!(
            cpp,
            "  // Owns every pl.tensor.create buffer until this call returns."
        );
        let _ = writeln!(cpp, "  pld::rt::AllocScope alloc_scope(orch);");
    }
    for param in e.params.iter().filter(|p| p.used) {
        cpp.push_str(&param.decl);
    }
    cpp.push('\n');
    cpp.push_str(&e.body);
    let _ = writeln!(cpp, "}}");
    Some(SubBuild {
        name,
        c_name,
        cpp,
        kernels: e.kernels,
        signature,
    })
}

struct Emitter<'p, 'c, 'a> {
    p: &'p mut Planner<'c, 'a>,
    fname: String,
    locals: Locals,
    vals: HashMap<usize, Val>,
    params: Vec<Param>,
    /// SSA key of a parameter → index into `params`.
    param_of: HashMap<usize, usize>,
    kernels: Vec<(usize, Rc<Kernel>)>,
    dispatch_width: bool,
    uses_dispatch_width: bool,
    uses_scope: bool,
    /// Inside a `pl.launch`: the C++ expression of its block count.
    launch_width: Option<String>,
    body: String,
    /// Results of ops that failed to emit (an error was reported, or they
    /// read such a result): their uses report nothing more, so one cause
    /// gives one error, not one per later use.
    poisoned: std::collections::HashSet<usize>,
    /// The op being emitted read a poisoned value.
    read_poison: bool,
}

fn ind(depth: usize) -> String {
    "  ".repeat(depth)
}

impl<'p, 'c, 'a> Emitter<'p, 'c, 'a> {
    /// The binding of `v` (marking a parameter used), or a located error.
    fn val(&mut self, op: &OperationRef<'c, 'a>, v: Value<'c, 'a>) -> Option<Val> {
        let key = vkey(v);
        if let Some(&k) = self.param_of.get(&key) {
            self.params[k].used = true;
        }
        if let Some(b) = self.vals.get(&key) {
            return Some(b.clone());
        }
        if self.poisoned.contains(&key) {
            self.read_poison = true;
            return None;
        }
        let what = crate::ir::values::as_result(v)
            .map(|r| crate::diag::msg!("a result of '{}'", op_name(&r.owner())))
            .unwrap_or_else(|| "a value".into());
        self.p.error(
            &op,
            &format!("operand {what} has no runtime form in the orchestration codegen"),
        );
        None
    }

    fn operand(&mut self, op: &OperationRef<'c, 'a>, i: usize) -> Option<Val> {
        let v = op.operand(i).ok()?;
        self.val(op, v)
    }

    fn tensor(&mut self, op: &OperationRef<'c, 'a>, i: usize) -> Option<String> {
        match self.operand(op, i)? {
            Val::Tensor(t) => Some(t),
            other => {
                self.p.error(
                    &op,
                    &format!("operand #{i} must be a tensor, got '{}'", other.expr()),
                );
                None
            }
        }
    }

    fn int(&mut self, op: &OperationRef<'c, 'a>, i: usize) -> Option<(String, u32)> {
        match self.operand(op, i)? {
            Val::Int(e, b) => Some((e, b)),
            _ => {
                self.p
                    .error(&op, &format!("operand #{i} must be an integer scalar"));
                None
            }
        }
    }

    /// A fresh local named after `v`'s location (or `hint`).
    fn fresh(&mut self, v: Value<'c, 'a>, hint: &str) -> String {
        let base = loc_name(v.location()).unwrap_or_else(|| hint.to_string());
        self.locals.fresh(&base)
    }

    /// Declares a local holding `v` (of its type), initialized with `init`
    /// (`None`: default), and binds `v` to it.
    fn declare(
        &mut self,
        op: &OperationRef<'c, 'a>,
        v: Value<'c, 'a>,
        hint: &str,
        init: Option<&str>,
        depth: usize,
    ) -> Option<Val> {
        let ty = v.r#type();
        let var = self.fresh(v, hint);
        let i = format!("{}{}", ind(depth), maybe_unused(v));
        let val = if is_tensor_like(ty) {
            match init {
                Some(x) => {
                    let _ = writeln!(self.body, "{i}pld::rt::Tensor {var} = {x};");
                }
                None => {
                    let _ = writeln!(self.body, "{i}pld::rt::Tensor {var};");
                }
            }
            Val::Tensor(var)
        } else if let Some(bits) = scalar_bits(ty) {
            let _ = writeln!(self.body, "{i}int64_t {var} = {};", init.unwrap_or("0"));
            Val::Int(var, bits)
        } else if is_comm_ctx(ty) {
            let _ = writeln!(
                self.body,
                "{i}pld::rt::CommContext* {var} = {};",
                init.unwrap_or("nullptr")
            );
            Val::Ctx(var)
        } else {
            self.p.error(
                &op,
                &format!("a value of type '{ty}' has no runtime form in the orchestration codegen"),
            );
            return None;
        };
        self.vals.insert(vkey(v), val.clone());
        Some(val)
    }

    fn bind(&mut self, v: Value<'c, 'a>, val: Val) {
        self.vals.insert(vkey(v), val);
    }

    /// `return orch->fail(rc, "<op> at <loc>: <what>")` for a failing runtime call.
    fn fail_msg(op: &OperationRef, what: &str) -> String {
        quoted(&format!(
            "{} at {}: {what}",
            op_name(op),
            loc_text(op.location())
        ))
    }

    /// The runtime arrays hold one entry per dimension of the declared rank: a
    /// tensor that arrives with another rank is refused before they are read.
    fn rank_guard(&mut self, op: &OperationRef<'c, 'a>, t: &str, rank: usize, depth: usize) {
        let msg = Self::fail_msg(
            op,
            &format!("the tensor has another rank than {rank} at run time"),
        );
        let _ = writeln!(
            self.body,
            "{}if ({t}.rank != {rank}) return orch->fail(SIMPLER_ERROR_INVALID_ARGS, {msg});",
            ind(depth)
        );
    }

    fn block(&mut self, block: &BlockRef<'c, 'a>, depth: usize) {
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            self.op(&op, depth);
        }
    }

    fn op(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let errors = self.p.errors;
        let outer_read_poison = std::mem::take(&mut self.read_poison);
        self.emit_op(op, depth);
        if self.p.errors > errors || self.read_poison {
            for r in 0..op.result_count() {
                if let Ok(v) = op.result(r)
                    && !self.vals.contains_key(&vkey(v))
                {
                    self.poisoned.insert(vkey(v));
                }
            }
        }
        // An enclosing op (this one sits in its region) failed too.
        self.read_poison |= outer_read_poison;
    }

    fn emit_op(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let name = op_name(op);
        let Some(kind) = OrchOp::from_name(&name) else {
            if super::orch_ops::is_deferred(op) {
                return; // reported by the plan ("was never lowered")
            }
            self.p.error(&op,
                &format!(
                    "in CHIP orchestration function @{} is not supported by the orchestration codegen (run --legalize-spmd-launches first)",
                    self.fname
                ),
            );
            return;
        };
        let i = ind(depth);
        match kind {
            OrchOp::Return => {
                let _ = writeln!(self.body, "{i}return orch->status();");
            }
            OrchOp::Terminator => {} // emitted by the owner of the region
            OrchOp::Call | OrchOp::Submit => self.task(op, kind == OrchOp::Submit, depth),
            OrchOp::Launch => self.launch(op, depth),
            OrchOp::Require => {
                let Some((cond, _)) = self.int(op, 0) else {
                    return;
                };
                let code = int_attr(op, "code").unwrap_or(5);
                let message = op
                    .attribute("message")
                    .ok()
                    .and_then(crate::ir::attributes::attr_str)
                    .unwrap_or_default();
                let names = crate::ir::attributes::string_list(op, "value_names");
                let mut seen = Vec::new();
                for (k, name) in names.into_iter().enumerate() {
                    let Some((v, _)) = self.int(op, 1 + k) else {
                        return;
                    };
                    seen.push((name, v));
                }
                let text = match super::names::seen_report(&message, &seen) {
                    Some(expr) => format!("({expr}).c_str()"),
                    None => quoted(&message),
                };
                let _ = writeln!(
                    self.body,
                    "{i}if ({cond} == 0) return orch->fail({code}, {text});"
                );
            }
            OrchOp::Cast => {
                if let (Some(v), Ok(r)) = (self.operand(op, 0), op.result(0)) {
                    self.bind(r.into(), v);
                }
            }
            OrchOp::Constant => self.constant(op, depth),
            OrchOp::Binary(b) => self.binary(op, b, depth),
            OrchOp::Cmp => self.cmp(op, depth),
            OrchOp::Select => {
                let Some((c, _)) = self.int(op, 0) else {
                    return;
                };
                let (Some(a), Some(b), Ok(r)) =
                    (self.operand(op, 1), self.operand(op, 2), op.result(0))
                else {
                    return;
                };
                let init = format!("{c} != 0 ? {} : {}", a.expr(), b.expr());
                if let (Val::Int(..), Val::Int(..))
                | (Val::Tensor(_), Val::Tensor(_))
                | (Val::Ctx(_), Val::Ctx(_)) = (&a, &b)
                {
                    self.declare_const(op, r.into(), "sel", &init, depth);
                } else {
                    self.p
                        .error(&op, "both alternatives must have one runtime kind");
                }
            }
            OrchOp::ExtS
            | OrchOp::ExtU
            | OrchOp::Trunc
            | OrchOp::IndexCast
            | OrchOp::IndexCastUi => self.int_cast(op, kind, depth),
            OrchOp::For => self.scf_for(op, depth),
            OrchOp::While => self.scf_while(op, depth),
            OrchOp::If => self.scf_if(op, depth),
            OrchOp::Slice
            | OrchOp::View
            | OrchOp::Reshape
            | OrchOp::Transpose
            | OrchOp::SetValidShape => self.descriptor(op, kind, depth),
            OrchOp::Create => self.create(op, depth),
            OrchOp::Assemble => {
                let (Some(target), Some(src), Ok(r)) =
                    (self.tensor(op, 0), self.tensor(op, 1), op.result(0))
                else {
                    return;
                };
                let offsets: Vec<String> = i64_list(op, "offsets")
                    .unwrap_or_default()
                    .iter()
                    .map(|o| o.to_string())
                    .collect();
                let _ = writeln!(self.body, "{i}{{");
                self.rank_guard(op, &target, offsets.len(), depth + 1);
                let arr = array_arg(&mut self.body, &format!("{i}  "), "offsets", &offsets);
                let _ = writeln!(
                    self.body,
                    "{i}  if (int rc = orch->assemble({target}, {src}, {arr})) return rc;"
                );
                let _ = writeln!(self.body, "{i}}}");
                self.bind(r.into(), Val::Tensor(target));
            }
            OrchOp::Write => {
                let (Some(dst), Some((value, _)), Ok(r)) =
                    (self.tensor(op, 0), self.int(op, 1), op.result(0))
                else {
                    return;
                };
                let mut indices = Vec::new();
                for k in 2..op.operand_count() {
                    let Some((x, _)) = self.int(op, k) else {
                        return;
                    };
                    indices.push(x);
                }
                let _ = writeln!(self.body, "{i}{{");
                self.rank_guard(op, &dst, indices.len(), depth + 1);
                let arr = array_arg(&mut self.body, &format!("{i}  "), "indices", &indices);
                let _ = writeln!(
                    self.body,
                    "{i}  if (int rc = orch->write_int({dst}, {arr}, {value})) return rc;"
                );
                let _ = writeln!(self.body, "{i}}}");
                self.bind(r.into(), Val::Tensor(dst));
            }
        }
    }

    /// `const T name = init;` bound to `v`.
    fn declare_const(
        &mut self,
        op: &OperationRef<'c, 'a>,
        v: Value<'c, 'a>,
        hint: &str,
        init: &str,
        depth: usize,
    ) {
        let ty = v.r#type();
        let var = self.fresh(v, hint);
        let i = format!("{}{}", ind(depth), maybe_unused(v));
        let val = if let Some(bits) = scalar_bits(ty) {
            let _ = writeln!(self.body, "{i}const int64_t {var} = {init};");
            Val::Int(var, bits)
        } else if is_tensor_like(ty) {
            let _ = writeln!(self.body, "{i}const pld::rt::Tensor {var} = {init};");
            Val::Tensor(var)
        } else if is_comm_ctx(ty) {
            let _ = writeln!(self.body, "{i}pld::rt::CommContext* const {var} = {init};");
            Val::Ctx(var)
        } else {
            self.p.error(
                &op,
                &format!("a value of type '{ty}' has no runtime form in the orchestration codegen"),
            );
            return;
        };
        self.bind(v, val);
    }

    fn constant(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let Ok(r) = op.result(0) else { return };
        let Some(bits) = scalar_bits(r.r#type()) else {
            self.p.error(
                &op,
                &format!(
                    "result #0 must be an integer scalar in a CHIP orchestration body, got '{}'",
                    r.r#type()
                ),
            );
            return;
        };
        let Some(value) = op
            .attribute("value")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|a| a.value())
        else {
            self.p
                .error(&op, "attribute 'value' must be an integer attribute");
            return;
        };
        // A constant is a literal at its uses, never a local.
        let v = sext(value, bits);
        let lit = if v == i64::MIN {
            "(-9223372036854775807 - 1)".to_string()
        } else {
            v.to_string()
        };
        let _ = depth;
        self.bind(r.into(), Val::Int(lit, bits));
    }

    fn binary(&mut self, op: &OperationRef<'c, 'a>, b: BinOp, depth: usize) {
        let (Some((x, _)), Some((y, _)), Ok(r)) = (self.int(op, 0), self.int(op, 1), op.result(0))
        else {
            return;
        };
        let Some(bits) = scalar_bits(r.r#type()) else {
            return;
        };
        let i = ind(depth);
        let f = match b {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::DivS => "divs",
            BinOp::DivU => "divu",
            BinOp::RemS => "rems",
            BinOp::RemU => "remu",
            BinOp::MinS => "mins",
            BinOp::MaxS => "maxs",
            BinOp::MinU => "minu",
            BinOp::MaxU => "maxu",
            BinOp::And => "band",
            BinOp::Or => "bor",
            BinOp::Xor => "bxor",
            BinOp::Shl => "shl",
            BinOp::ShrS => "shrs",
            BinOp::ShrU => "shru",
        };
        // A literal non-zero divisor needs no check.
        let literal_nonzero = y.parse::<i64>().is_ok_and(|d| d != 0);
        if matches!(b, BinOp::DivS | BinOp::DivU | BinOp::RemS | BinOp::RemU) && !literal_nonzero {
            let msg = Self::fail_msg(op, "division by zero");
            let _ = writeln!(
                self.body,
                "{i}if ({y} == 0) return orch->fail(SIMPLER_ERROR_INVALID_ARGS, {msg});"
            );
        }
        let init = match b {
            BinOp::MinS | BinOp::MaxS => format!("pld::rt::{f}({x}, {y})"),
            _ => format!("pld::rt::{f}({x}, {y}, {bits})"),
        };
        self.declare_const(op, r.into(), "v", &init, depth);
    }

    fn cmp(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let (Some((x, bits)), Some((y, _)), Ok(r)) =
            (self.int(op, 0), self.int(op, 1), op.result(0))
        else {
            return;
        };
        let Some(pred) = int_attr(op, "predicate") else {
            self.p.error(&op, "attribute 'predicate' must be present");
            return;
        };
        let Some((sym, unsigned)) = super::orch_ops::cmpi_operator(pred) else {
            self.p.error(
                &op,
                &format!("attribute 'predicate' must be a known arith.cmpi predicate, got {pred}"),
            );
            return;
        };
        let init = if unsigned {
            format!(
                "pld::rt::from_bool(pld::rt::zext({x}, {bits}) {sym} pld::rt::zext({y}, {bits}))"
            )
        } else {
            format!("pld::rt::from_bool({x} {sym} {y})")
        };
        self.declare_const(op, r.into(), "cond", &init, depth);
    }

    fn int_cast(&mut self, op: &OperationRef<'c, 'a>, kind: OrchOp, depth: usize) {
        let (Some((x, from)), Ok(r)) = (self.int(op, 0), op.result(0)) else {
            return;
        };
        let Some(to) = scalar_bits(r.r#type()) else {
            return;
        };
        let init = match kind {
            // Sign extension keeps the int64_t as it is (it is sign-extended from `from` bits,
            // hence from any wider width); a narrowing index_cast truncates.
            OrchOp::ExtS | OrchOp::IndexCast if to >= from => x,
            OrchOp::ExtU | OrchOp::IndexCastUi if to >= from => {
                format!("pld::rt::sext(pld::rt::zext({x}, {from}), {to})")
            }
            _ => format!("pld::rt::sext(static_cast<uint64_t>({x}), {to})"),
        };
        self.declare_const(op, r.into(), "v", &init, depth);
    }

    /// Assigns `values` to `vars` as one parallel assignment (each value read
    /// before any variable is written).
    fn assign_all(&mut self, vars: &[Val], values: &[Val], depth: usize) {
        let pairs: Vec<(&Val, &Val)> = vars
            .iter()
            .zip(values)
            .filter(|(d, s)| d.expr() != s.expr())
            .collect();
        let i = ind(depth);
        if pairs.len() == 1 {
            let _ = writeln!(
                self.body,
                "{i}{} = {};",
                pairs[0].0.expr(),
                pairs[0].1.expr()
            );
            return;
        }
        let mut temps = Vec::new();
        for (d, s) in &pairs {
            let t = self.locals.fresh(&format!("next_{}", d.expr()));
            let ty = match d {
                Val::Tensor(_) => "pld::rt::Tensor",
                Val::Int(..) => "int64_t",
                Val::Ctx(_) => "pld::rt::CommContext*",
            };
            let _ = writeln!(self.body, "{i}const {ty} {t} = {};", s.expr());
            temps.push(t);
        }
        for ((d, _), t) in pairs.iter().zip(temps) {
            let _ = writeln!(self.body, "{i}{} = {t};", d.expr());
        }
    }

    /// The operands of the terminator of `block`.
    fn terminator_vals(&mut self, block: &BlockRef<'c, 'a>, skip: usize) -> Option<Vec<Val>> {
        let term = block.terminator()?;
        let mut out = Vec::new();
        for k in skip..term.operand_count() {
            out.push(self.operand(&term, k)?);
        }
        Some(out)
    }

    fn region_block(op: &OperationRef<'c, 'a>, r: usize) -> Option<BlockRef<'c, 'a>> {
        op.region(r).ok()?.first_block()
    }

    fn scf_for(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let i = ind(depth);
        let (Some((lb, bits)), Some((ub, _)), Some((step, _))) =
            (self.int(op, 0), self.int(op, 1), self.int(op, 2))
        else {
            return;
        };
        let Some(body) = Self::region_block(op, 0) else {
            return;
        };
        // Loop-carried variables: the results, initialized with the init operands.
        let mut carried = Vec::new();
        for n in 0..op.result_count() {
            let Some(init) = self.operand(op, 3 + n) else {
                return;
            };
            let Ok(r) = op.result(n) else { return };
            let Some(var) = self.declare(op, r.into(), "carried", Some(init.expr()), depth) else {
                return;
            };
            carried.push(var);
        }
        let unsigned = op.attribute("unsignedCmp").is_ok();
        let msg = Self::fail_msg(op, "the step must be positive");
        let _ = writeln!(self.body, "{i}{{");
        let (lbv, ubv, stv) = (
            self.locals.fresh("lb"),
            self.locals.fresh("ub"),
            self.locals.fresh("step"),
        );
        let Ok(iv_arg) = body.argument(0) else { return };
        let iv = self.fresh(iv_arg.into(), "iv");
        let fail = format!("return orch->fail(SIMPLER_ERROR_INVALID_ARGS, {msg})");
        super::loops::write_header(
            &mut self.body,
            &format!("{i}  "),
            &super::loops::ForLoop {
                lb_var: &lbv,
                ub_var: &ubv,
                step_var: &stv,
                lb: &lb,
                ub: &ub,
                step: &step,
                iv: &iv,
                unsigned_bits: unsigned.then_some(bits),
                fail: &fail,
            },
        );
        self.bind(iv_arg.into(), Val::Int(iv, bits));
        for (n, var) in carried.iter().enumerate() {
            if let Ok(a) = body.argument(n + 1) {
                self.bind(a.into(), var.clone());
            }
        }
        self.block(&body, depth + 2);
        if let Some(yielded) = self.terminator_vals(&body, 0) {
            self.assign_all(&carried, &yielded, depth + 2);
        }
        let _ = writeln!(self.body, "{i}  }}");
        let _ = writeln!(self.body, "{i}}}");
    }

    fn scf_while(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let i = ind(depth);
        let (Some(before), Some(after)) = (Self::region_block(op, 0), Self::region_block(op, 1))
        else {
            return;
        };
        // The before region's arguments: carried, initialized with the operands.
        let mut carried = Vec::new();
        for n in 0..op.operand_count() {
            let Some(init) = self.operand(op, n) else {
                return;
            };
            let Ok(a) = before.argument(n) else { return };
            let Some(var) = self.declare(op, a.into(), "carried", Some(init.expr()), depth) else {
                return;
            };
            carried.push(var);
        }
        // The results: what scf.condition forwards (also the after region's arguments).
        let mut results = Vec::new();
        for n in 0..op.result_count() {
            let Ok(r) = op.result(n) else { return };
            let Some(var) = self.declare(op, r.into(), "result", None, depth) else {
                return;
            };
            results.push(var);
        }
        let _ = writeln!(self.body, "{i}for (;;) {{");
        self.block(&before, depth + 1);
        let Some(term) = before.terminator() else {
            return;
        };
        let Some((cond, _)) = self.int(&term, 0) else {
            return;
        };
        if let Some(forwarded) = self.terminator_vals(&before, 1) {
            self.assign_all(&results, &forwarded, depth + 1);
        }
        let _ = writeln!(self.body, "{i}  if ({cond} == 0) break;");
        for (n, var) in results.iter().enumerate() {
            if let Ok(a) = after.argument(n) {
                self.bind(a.into(), var.clone());
            }
        }
        self.block(&after, depth + 1);
        if let Some(yielded) = self.terminator_vals(&after, 0) {
            self.assign_all(&carried, &yielded, depth + 1);
        }
        let _ = writeln!(self.body, "{i}}}");
    }

    fn scf_if(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let i = ind(depth);
        let Some((cond, _)) = self.int(op, 0) else {
            return;
        };
        let mut results = Vec::new();
        for n in 0..op.result_count() {
            let Ok(r) = op.result(n) else { return };
            let Some(var) = self.declare(op, r.into(), "result", None, depth) else {
                return;
            };
            results.push(var);
        }
        let _ = writeln!(self.body, "{i}if ({cond} != 0) {{");
        if let Some(then) = Self::region_block(op, 0) {
            self.block(&then, depth + 1);
            if let Some(y) = self.terminator_vals(&then, 0) {
                self.assign_all(&results, &y, depth + 1);
            }
        }
        if let Some(other) = Self::region_block(op, 1) {
            let _ = writeln!(self.body, "{i}}} else {{");
            self.block(&other, depth + 1);
            if let Some(y) = self.terminator_vals(&other, 0) {
                self.assign_all(&results, &y, depth + 1);
            }
        }
        let _ = writeln!(self.body, "{i}}}");
    }

    /// The static shape of a tensor-typed value, or a located error.
    fn static_shape(
        &mut self,
        op: &OperationRef<'c, 'a>,
        ty: Type<'c>,
        what: &str,
    ) -> Option<Vec<i64>> {
        let shape = TensorLike::of(ty).and_then(|t| t.static_shape());
        if shape.is_none() {
            self.p.error(
                &op,
                &format!("{what} '{ty}' must have a static shape in a CHIP orchestration body"),
            );
        }
        shape
    }

    fn descriptor(&mut self, op: &OperationRef<'c, 'a>, kind: OrchOp, depth: usize) {
        let i = ind(depth);
        let Some(src) = self.tensor(op, 0) else {
            return;
        };
        let Ok(r) = op.result(0) else { return };
        let lits = |v: Vec<i64>| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let mut pre = String::new();
        let i2 = format!("{i}  ");
        // The source rank the arrays assume (None: any).
        let mut src_rank: Option<usize> = None;
        let (call, what) = match kind {
            OrchOp::Slice => {
                let sizes = lits(i64_list(op, "sizes").unwrap_or_default());
                let offsets = match i64_list(op, "offsets") {
                    Some(o) => lits(o),
                    None => {
                        let mut dynamic = Vec::new();
                        for k in 1..op.operand_count() {
                            let Some((x, _)) = self.int(op, k) else {
                                return;
                            };
                            dynamic.push(x);
                        }
                        dynamic
                    }
                };
                src_rank = Some(sizes.len());
                let o = array_arg(&mut pre, &i2, "offsets", &offsets);
                let s = array_arg(&mut pre, &i2, "sizes", &sizes);
                (
                    format!("pld::rt::slice({src}, {o}, {s}, &{{out}})"),
                    "the slice leaves its source",
                )
            }
            OrchOp::View => {
                let Some(shape) = self.static_shape(op, r.r#type(), "result type") else {
                    return;
                };
                let rank = shape.len();
                let o = match i64_list(op, "offsets") {
                    Some(off) => {
                        src_rank = Some(off.len());
                        array_arg(&mut pre, &i2, "offsets", &lits(off))
                    }
                    None => "nullptr".into(),
                };
                let s = array_arg(&mut pre, &i2, "shape", &lits(shape));
                (
                    format!("pld::rt::view({src}, {o}, {s}, {rank}, &{{out}})"),
                    "the view leaves its source",
                )
            }
            OrchOp::Reshape => {
                let Some(shape) = self.static_shape(op, r.r#type(), "result type") else {
                    return;
                };
                let rank = shape.len();
                let s = array_arg(&mut pre, &i2, "shape", &lits(shape));
                (
                    format!("pld::rt::reshape({src}, {s}, {rank}, &{{out}})"),
                    "the source is not contiguous or its element count differs",
                )
            }
            OrchOp::Transpose => {
                let perm = lits(i64_list(op, "perm").unwrap_or_default());
                src_rank = Some(perm.len());
                let s = array_arg(&mut pre, &i2, "perm", &perm);
                (
                    format!("pld::rt::transpose({src}, {s}, &{{out}})"),
                    "perm is not a permutation of the source's dimensions",
                )
            }
            OrchOp::SetValidShape => {
                let valid = lits(i64_list(op, "valid").unwrap_or_default());
                src_rank = Some(valid.len());
                let s = array_arg(&mut pre, &i2, "valid", &valid);
                (
                    format!("pld::rt::set_validshape({src}, {s}, &{{out}})"),
                    "valid exceeds the source's shape",
                )
            }
            _ => return,
        };
        let Some(Val::Tensor(out)) = self.declare(op, r.into(), "view", None, depth) else {
            return;
        };
        let call = call.replace("{out}", &out);
        let msg = Self::fail_msg(op, what);
        let _ = writeln!(self.body, "{i}{{");
        if let Some(k) = src_rank {
            self.rank_guard(op, &src, k, depth + 1);
        }
        self.body.push_str(&pre);
        let _ = writeln!(
            self.body,
            "{i}  if (int rc = {call}) return orch->fail(rc, {msg});"
        );
        let _ = writeln!(self.body, "{i}}}");
    }

    /// `pl.launch %B { casts; call; pl.yield }`: the call's task with `B`
    /// blocks (sync start when `B > 1`); a `B` outside [1, 2^31-1] returns 5.
    fn launch(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let i = ind(depth);
        let Some((blocks, _)) = self.int(op, 0) else {
            return;
        };
        let Some(body) = Self::region_block(op, 0) else {
            return;
        };
        let msg = Self::fail_msg(op, "the block count is outside [1, 2147483647]");
        let _ = writeln!(
            self.body,
            "{i}if ({blocks} < 1 || {blocks} > 2147483647) return orch->fail(SIMPLER_ERROR_INVALID_ARGS, {msg});"
        );
        let outer = self.launch_width.replace(blocks);
        self.block(&body, depth);
        self.launch_width = outer;
        let Some(yielded) = self.terminator_vals(&body, 0) else {
            return;
        };
        for (n, v) in yielded.into_iter().enumerate() {
            if let Ok(r) = op.result(n) {
                self.bind(r.into(), v);
            }
        }
    }

    /// A fresh zero-filled runtime buffer of `ty`'s static shape, bound to `v`.
    fn alloc(
        &mut self,
        op: &OperationRef<'c, 'a>,
        v: Value<'c, 'a>,
        depth: usize,
    ) -> Option<String> {
        let ty = v.r#type();
        let shape = self.static_shape(op, ty, "allocated type")?;
        let Some(bytes) = TensorLike::of(ty).and_then(|t| element_bytes(t.element)) else {
            self.p.error(
                &op,
                &format!("the element type of '{ty}' has no runtime size"),
            );
            return None;
        };
        let i = ind(depth);
        let Some(Val::Tensor(out)) = self.declare(op, v, "buffer", None, depth) else {
            return None;
        };
        self.uses_scope = true;
        let _ = writeln!(self.body, "{i}{{");
        let dims = array_arg(
            &mut self.body,
            &format!("{i}  "),
            "dims",
            &shape.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
        );
        let _ = writeln!(
            self.body,
            "{i}  if (int rc = orch->create_tensor({bytes}, {dims}, {}, &{out})) return rc;",
            shape.len()
        );
        let _ = writeln!(self.body, "{i}}}");
        Some(out)
    }

    fn create(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        if let Ok(r) = op.result(0) {
            self.alloc(op, r.into(), depth);
        }
    }

    /// A `func.call` / `pl.submit` of an AIV kernel: one task.
    fn task(&mut self, op: &OperationRef<'c, 'a>, submit: bool, depth: usize) {
        let i = ind(depth);
        let Some(callee) = callee_name(op) else {
            return;
        };
        let callee_fn = self.p.functions.get(&callee).copied();
        let Some(kernel) = self.p.kernel(&callee, op) else {
            return;
        };
        let alloc_outs: Vec<i64> = if submit {
            i64_list(op, "runtime_alloc_outs").unwrap_or_default()
        } else {
            Vec::new()
        };
        // Arguments: the operands, then (pl.submit) one runtime-allocated buffer per
        // runtime_alloc_outs result, for the callee's trailing parameters: buffer k
        // is parameter operand_count + k, returned at result runtime_alloc_outs[k]
        // (the pl.submit verifier checks the binding; docs/lowering.md).
        // Only the first pl.abi_arg_count arguments are packed (and so named).
        let abi = int_attr(op, "pl.abi_arg_count")
            .map(|n| n.max(0) as usize)
            .unwrap_or(usize::MAX);
        let mut args: Vec<Val> = Vec::new();
        for k in 0..op.operand_count() {
            let v = if k < abi {
                self.operand(op, k)
            } else {
                op.operand(k)
                    .ok()
                    .and_then(|v| self.vals.get(&vkey(v)).cloned())
            };
            args.push(v.unwrap_or_else(|| Val::Tensor(String::new())));
            if k < abi && args[k].expr().is_empty() {
                return;
            }
        }
        let mut fresh_results: HashMap<usize, String> = HashMap::new();
        for &n in &alloc_outs {
            let Ok(r) = op.result(n as usize) else {
                continue;
            };
            let Some(buf) = self.alloc(op, r.into(), depth) else {
                return;
            };
            fresh_results.insert(n as usize, buf.clone());
            args.push(Val::Tensor(buf));
        }
        // Results: a fresh buffer, else the argument the callee returns (a kernel
        // writes its operands in place).
        let returned = callee_fn
            .map(|f| crate::ir::values::returned_params(&f))
            .unwrap_or_default();
        for n in 0..op.result_count() {
            let Ok(res) = op.result(n) else { continue };
            if let Some(buf) = fresh_results.get(&n) {
                self.bind(res.into(), Val::Tensor(buf.clone()));
                continue;
            }
            match returned
                .get(n)
                .copied()
                .flatten()
                .and_then(|j| args.get(j).cloned())
            {
                Some(v) => self.bind(res.into(), v),
                None => {
                    self.p.error(&op,
                        &format!("result #{n} of @{callee} must be a parameter its body returns, or it has no runtime form"),
                    );
                    return;
                }
            }
        }
        let func_id = match self.kernels.iter().find(|(_, k)| k.name == kernel.name) {
            Some((id, _)) => *id,
            None => {
                self.kernels.push((self.kernels.len(), kernel.clone()));
                self.kernels.len() - 1
            }
        };
        let recorded = recorded_arg_directions(op);
        let mut tensors: Vec<(String, Direction)> = Vec::new();
        let mut comms: Vec<String> = Vec::new();
        for (k, v) in args.iter().enumerate().take(abi) {
            // A runtime-allocated buffer (after the operands) is the callee's
            // `out` parameter: the task writes it (pl.arg_directions covers
            // the operands only).
            let dir = if k >= op.operand_count() {
                Direction::Out
            } else {
                recorded
                    .as_ref()
                    .and_then(|d| d.get(k).copied())
                    .or_else(|| callee_fn.map(|f| param_direction(&f, k)))
                    .unwrap_or(Direction::In)
            };
            match v {
                Val::Tensor(t) => {
                    if !comms.is_empty() {
                        self.p.error(&op,
                            &format!("tensor argument #{k} of @{callee} must come before every CommContext slot (the kernel ABI is all tensors, then the CommContext slots)"),
                        );
                        return;
                    }
                    tensors.push((t.clone(), dir));
                }
                Val::Ctx(c) => comms.push(c.clone()),
                Val::Int(..) => {
                    self.p.error(&op,
                        &format!("argument #{k} of @{callee} must be a tensor or a CommContext (a kernel task takes no scalars), got an integer scalar"),
                    );
                    return;
                }
            }
        }
        // A builtin template kernel reads its CommContext at a fixed ABI slot,
        // right after its tensors: without one there (contexts never
        // materialized, or materialized before the lowering synthesized the
        // kernel), it would read past the task's arguments.
        if let Some(spec) = callee_fn
            .and_then(|f| super::plan::string_attr(&f, "pl.builtin_template_dir"))
            .and_then(|dir| crate::collective::Spec::of_template_dir(&dir))
        {
            let slot = spec.comm_slot();
            if slot < tensors.len() || slot >= tensors.len() + comms.len() {
                self.p.error(&op,
                    &format!(
                        "callee @{callee} must receive a !pld.comm_ctx as args[{slot}], after its {slot} tensor arguments \
                         (its builtin template '{}' reads the CommContext there: run --materialize-dist-tensor-ctx \
                         after the collective lowering, as --pld-lower-collectives does), got {} tensor and {} !pld.comm_ctx arguments",
                        spec.template_dir,
                        tensors.len(),
                        comms.len()
                    ),
                );
                return;
            }
        }
        let all_operands: Vec<String> = tensors
            .iter()
            .map(|(t, _)| t.clone())
            .chain(comms.iter().cloned())
            .collect();
        let _ = writeln!(
            self.body,
            "{i}{{  // {}",
            task_comment(op, &callee, &all_operands)
        );
        if callee_fn.is_some_and(|f| f.attribute("pl.require_contiguous_operands").is_ok()) {
            for (t, _) in &tensors {
                let _ = writeln!(
                    self.body,
                    "{i}  if (!{t}.is_contiguous()) return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);"
                );
            }
        }
        let _ = writeln!(self.body, "{i}  Task task({func_id}, {});", quoted(&callee));
        for (t, d) in &tensors {
            let _ = writeln!(self.body, "{i}  task.add_tensor({t}, {});", dir_cpp(*d));
        }
        for c in &comms {
            let _ = writeln!(self.body, "{i}  task.add_comm_context({c});");
        }
        if let Some(b) = self.launch_width.clone() {
            let _ = writeln!(self.body, "{i}  if ({b} > 1) {{");
            let _ = writeln!(
                self.body,
                "{i}    task.launch_spec().set_block_num(static_cast<int>({b}));"
            );
            let _ = writeln!(
                self.body,
                "{i}    task.launch_spec().set_require_sync_start(true);"
            );
            let _ = writeln!(self.body, "{i}  }}");
        }
        match int_attr(op, "pl.core_num") {
            Some(b) if !(1..=i32::MAX as i64).contains(&b) => {
                self.p.error(&op, &format!("attribute 'pl.core_num' of the call to @{callee} must be a block count in [1, 2147483647], got {b}"));
            }
            Some(b) if b > 1 => {
                let _ = writeln!(self.body, "{i}  task.launch_spec().set_block_num({b});");
                let _ = writeln!(
                    self.body,
                    "{i}  task.launch_spec().set_require_sync_start(true);"
                );
            }
            Some(_) => {}
            None if self.dispatch_width && self.launch_width.is_none() => {
                self.uses_dispatch_width = true;
                let _ = writeln!(self.body, "{i}  if (block_num > 1) {{");
                let _ = writeln!(
                    self.body,
                    "{i}    task.launch_spec().set_block_num(block_num);"
                );
                let _ = writeln!(
                    self.body,
                    "{i}    task.launch_spec().set_require_sync_start(true);"
                );
                let _ = writeln!(self.body, "{i}  }}");
            }
            None => {}
        }
        let _ = writeln!(
            self.body,
            "{i}  if (int rc = orch->submit(task)) return rc;"
        );
        let _ = writeln!(self.body, "{i}}}");
    }
}

/// `[[maybe_unused]] ` for a value nothing reads (g++ -Werror would refuse the local).
fn maybe_unused(v: Value) -> &'static str {
    if unsafe { mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(v.to_raw())) } {
        "[[maybe_unused]] "
    } else {
        ""
    }
}

/// `value` (an integer attribute's) as its `bits`-bit two's complement, sign-extended.
fn sext(value: i64, bits: u32) -> i64 {
    if bits >= 64 {
        return value;
    }
    let s = 64 - bits;
    (value << s) >> s
}

#[cfg(test)]
mod tests {
    use super::sext;

    #[test]
    fn constants_are_sign_extended_from_their_width() {
        assert_eq!(sext(1, 1), -1);
        assert_eq!(sext(255, 8), -1);
        assert_eq!(sext(127, 8), 127);
        assert_eq!(sext(-5, 64), -5);
        assert_eq!(sext(0x8000_0000, 32), i32::MIN as i64);
    }
}
