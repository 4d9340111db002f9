//! One CHIP orchestration function → `orchestration/<fn>.cpp`, written against
//! simpler's orchestration API (`pto_orchestration_api.h`, docs/spec/device.md,
//! "Orchestration text").
//!
//! Code is emitted per op, not per pattern (`docs/spec/orchestration.md`):
//! every op of [`OrchOp`] has one arm in [`Emitter::op`], regions recurse, so
//! nested loops, loops inside branches and tasks inside both come out as C++
//! loops and branches. SSA values become C++ locals: a tensor is a
//! `ChipTensor` (a parameter by reference, everything else by value), an
//! integer scalar an `int64_t` kept sign-extended from its width
//! (`pld_runtime/scalar_semantics.inc`, spliced into the text), a CommContext
//! its `uint64_t` scalar slot. Values that carry across region boundaries
//! (`scf.for` iter_args, `scf.while` arguments, `scf.if` and loop results)
//! are variables declared before the op and assigned at its terminator (all
//! yielded values are read before any is assigned). A failure reports its
//! located message with `rt_report_fatal` and returns.

use super::{
    cpp_names::{Locals, c_identifier, quoted},
    orch_ops::{BinOp, OrchOp, element_bytes, scalar_bits},
    planner::{Kernel, Planner, param_direction},
    tensor_kernels::{COPY_OFFSETS, TensorKernel},
    values::{Bindings, RtValue},
};
use crate::ir::at::{BlockAt as _, OpAt as _};
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

mod control_flow;
mod descriptors;
mod scalars;
mod tasks;

/// One planned sub-build: its orchestration source and the kernels it launches.
#[derive(Clone)]
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
    /// The kernels that are managed collectives, by func_id (chip_entries.cpp).
    pub collectives: std::collections::BTreeMap<usize, Collective>,
    /// A builtin callable of a HOST dispatch: two more scalars (width, site).
    pub dispatch_args: bool,
}

/// A collective kernel of a sub-build: what pld's runtime names in its
/// timeout reports.
#[derive(Clone, Debug, Default)]
pub struct Collective {
    pub op: String,
    /// Every site that launches it, in program order.
    pub sites: Vec<String>,
    pub signal_slot: usize,
    pub nr_axis: usize,
}

pub use crate::ir::op_kind::value_id;

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

/// Where the user wrote the op, as `file:line:col`: a `NameLoc` (a
/// synthesized builtin's name around its collective) is looked through to
/// its child, a call site (inlined code) to its callee.
pub(crate) fn source_site(loc: Location) -> String {
    let mut raw = loc.to_raw();
    unsafe {
        for _ in 0..16 {
            if mlir_sys::mlirLocationIsAName(raw) {
                raw = mlir_sys::mlirLocationNameGetChildLoc(raw);
            } else if mlir_sys::mlirLocationIsACallSite(raw) {
                raw = mlir_sys::mlirLocationCallSiteGetCallee(raw);
            } else {
                break;
            }
        }
        loc_text(Location::from_raw(raw))
    }
}

/// The quoted runtime message `"<op> at <loc>: <what>"` of a check that
/// fails at `op` (both rails word their runtime failures so).
pub(crate) fn fail_message(op: &OperationRef, what: &str) -> String {
    quoted(&format!(
        "{} at {}: {what}",
        op_name(op),
        loc_text(op.location())
    ))
}

/// The `CoreTaskArgs` adder of a tensor argument of direction `d`.
fn adder(d: Direction) -> &'static str {
    match d {
        Direction::In => "add_input",
        Direction::Out => "add_output",
        Direction::InOut => "add_inout",
    }
}

/// simpler's code for invalid arguments (a failed check, a bad view).
pub(crate) const INVALID_ARGS: &str = "PTO2_ERROR_INVALID_ARGS";
/// simpler's code for a launch its sync start cannot hold (here: a width an
/// `int16_t` cannot hold).
pub(crate) const SYNC_START_INVALID: &str = "PTO2_ERROR_REQUIRE_SYNC_START_INVALID";

/// The statement a failing check runs: the located message `msg` (a C string
/// expression) reported with `code`, then the orchestration returns.
pub(crate) fn fatal(code: &str, msg: &str) -> String {
    format!("{{ rt_report_fatal({code}, \"%s\", {msg}); return; }}")
}

/// The text every rendered orchestration carries before its entry points:
/// pld's integer semantics (in `pld::rt`, as the HOST rail has them from
/// `pld_runtime/scalar.h`) and its descriptor ops on `ChipTensor`
/// (`pld_orch`), so the file includes nothing of pld's.
const ORCHESTRATION_PRELUDE_SCALARS: &str =
    include_str!("../../../runtime/include/pld_runtime/scalar_semantics.inc");
const ORCHESTRATION_PRELUDE_VIEWS: &str =
    include_str!("../../../runtime/include/pld_runtime/chip_views.inc");

fn prelude() -> String {
    format!(
        "namespace pld {{\nnamespace rt {{\n\n{ORCHESTRATION_PRELUDE_SCALARS}\n}}  // namespace rt\n}}  // namespace pld\n\n{ORCHESTRATION_PRELUDE_VIEWS}"
    )
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

    // An assemble is a task of its own, ordered by pld's derived dependencies; a write is
    // the orchestration's own store: the alias classes (views, casts, task results, loop-carried
    // values and their initializers, branch results) it may store into.
    // The module's function map, shared: building one per function was quadratic.
    let trace = crate::analysis::contiguity::ContiguityTrace::with_functions(p.functions.clone());
    let mut aliases = crate::analysis::alias::AliasClasses::of_function(func, &trace, &p.functions);
    let stored_classes = crate::ir::walk::ops_named(func, &["pl.tensor.write"])
        .iter()
        .filter_map(|w| w.operand_at(0))
        .map(|v| aliases.class(v))
        .collect();
    let mut e = Emitter {
        p,
        fname: name.clone(),
        locals: Locals::default(),
        vals: Bindings::default(),
        params: Vec::new(),
        param_of: HashMap::new(),
        kernels: Vec::new(),
        kernel_ids: HashMap::new(),
        seen_sites: HashMap::new(),
        dispatch_width,
        uses_comm_context: false,
        collectives: Default::default(),
        aliases,
        stored_classes,
        loop_depth: 0,
        task_ids: Default::default(),
        launch_width: None,
        body: String::new(),
        poisoned: Default::default(),
        read_poison: false,
    };
    // simpler's calling convention: the tensors in order, then the scalars
    // (integers, then CommContexts) in order.
    let (mut n_tensors, mut n_scalars) = (0usize, 0usize);
    let mut seen_ctx = false;
    let mut signature = Vec::new();
    for (i, ty) in param_types(func).into_iter().enumerate() {
        let Some(arg) = entry.argument_at(i) else {
            continue;
        };
        let base = loc_name(arg.location()).unwrap_or_else(|| format!("arg{i}"));
        let (val, decl) = if is_comm_ctx(ty) {
            let var = e.locals.fresh(&format!("ctx_{base}"));
            let decl = format!("  const uint64_t {var} = orch_args.scalar({n_scalars});\n");
            n_scalars += 1;
            seen_ctx = true;
            (RtValue::Ctx(var), decl)
        } else if is_tensor_like(ty) {
            let var = e.locals.fresh(&base);
            let decl =
                format!("  const ChipTensor& {var} = orch_args.tensor({n_tensors}).ref();\n");
            signature.push(param_direction(func, i));
            n_tensors += 1;
            (RtValue::Tensor(var), decl)
        } else if let Some(bits) = scalar_bits(ty) {
            if seen_ctx {
                e.p.error(&func,
                    &format!(
                        "orchestration function @{name}: integer parameter #{i} must come before every !pld.comm_ctx parameter (a runner passes the integer scalars first, then the CommContexts)"
                    ),
                );
                continue;
            }
            let var = e.locals.fresh(&base);
            let decl = format!(
                "  const int64_t {var} = pld::rt::sext(orch_args.scalar({n_scalars}), {bits});\n"
            );
            n_scalars += 1;
            (RtValue::Int(var, bits), decl)
        } else {
            e.p.error(&func,
                &format!(
                    "orchestration function @{name}: parameter #{i} must be a tensor, a CommContext or an integer scalar, got '{ty}'"
                ),
            );
            continue;
        };
        e.param_of.insert(value_id(arg), e.params.len());
        e.params.push(Param { decl, used: false });
        e.vals.bind(arg, val);
    }
    // pld's derived order names tasks by pl.task_id: an id given twice, or a dependency on an id
    // no task of this body has, would silently order the wrong tasks (or none).
    let mut numbered: HashMap<i64, OperationRef> = HashMap::new();
    for op in crate::ir::walk::ops_in(func) {
        if let Some(id) = int_attr(&op, "pl.task_id")
            && let Some(first) = numbered.insert(id, op)
        {
            e.p.error_with_note(
                &op,
                &format!("pl.task_id {id} is given to two tasks of @{name}"),
                first.location(),
                "the other task",
            );
        }
    }
    for op in crate::ir::walk::ops_in(func) {
        for d in i64_list(&op, "pl.task_deps").unwrap_or_default() {
            if !numbered.contains_key(&d) {
                e.p.error(
                    &op,
                    &format!(
                        "pl.task_deps names task {d}, but no task of @{name} has that pl.task_id"
                    ),
                );
            }
        }
    }
    e.block(&entry, 2);
    if e.p.errors > errors_before {
        return None;
    }

    let dispatch_scalars = if dispatch_width { 2 } else { 0 };
    let mut cpp = String::new();
    let _ = writeln!(
        cpp,
        "// Generated by pld-translate --pld-to-ascend-build: CHIP orchestration @{name}, written\n\
         // against simpler's orchestration API (docs/device.md). Tasks run asynchronously, ordered\n\
         // by the tensors they name and by pld's derived task order (set_dependencies)."
    );
    let _ = writeln!(cpp, "#include <cstdint>\n#include <string>\n");
    if e.uses_comm_context {
        let _ = writeln!(cpp, "#include \"platform_comm/comm_context.h\"");
    }
    let _ = writeln!(cpp, "#include \"pto_orchestration_api.h\"\n");
    cpp.push_str(&prelude());
    let _ = writeln!(cpp, "\nextern \"C\" {{\n");
    let _ = writeln!(
        cpp,
        "__attribute__((visibility(\"default\"))) PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {{"
    );
    let _ = writeln!(cpp, "  (void)orch_args;");
    let _ = writeln!(
        cpp,
        "  return PTO2OrchestrationConfig{{{}}};",
        n_tensors + n_scalars + dispatch_scalars
    );
    let _ = writeln!(cpp, "}}\n");
    let _ = writeln!(
        cpp,
        "__attribute__((visibility(\"default\"))) void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {{"
    );
    let _ = writeln!(
        cpp,
        "  if (orch_args.tensor_count() != {n_tensors} || orch_args.scalar_count() != {}) {{",
        n_scalars + dispatch_scalars
    );
    let _ = writeln!(
        cpp,
        "    rt_report_fatal({INVALID_ARGS}, \"orchestration @%s: %d tensors and %d scalars, expected {n_tensors} and {}\", {}, orch_args.tensor_count(), orch_args.scalar_count());",
        n_scalars + dispatch_scalars,
        quoted(&name)
    );
    let _ = writeln!(cpp, "    return;\n  }}");
    if dispatch_width {
        let _ = writeln!(
            cpp,
            "  // The launch width (0: none, one block) and the collective's site the HOST dispatch gave\n  \
             // this callable: its last two scalars."
        );
        let _ = writeln!(
            cpp,
            "  [[maybe_unused]] const int64_t block_num = static_cast<int64_t>(orch_args.scalar({n_scalars}));"
        );
        let _ = writeln!(
            cpp,
            "  [[maybe_unused]] const char* const dispatch_site = reinterpret_cast<const char*>(static_cast<uintptr_t>(orch_args.scalar({})));",
            n_scalars + 1
        );
        let msg = quoted(&format!("orchestration @{name}: a negative launch width"));
        let _ = writeln!(cpp, "  if (block_num < 0) {}", fatal(INVALID_ARGS, &msg));
    }
    for param in e.params.iter().filter(|p| p.used) {
        cpp.push_str(&param.decl);
    }
    for id in &e.task_ids {
        let _ = writeln!(
            cpp,
            "  [[maybe_unused]] PTO2TaskId pld_task_{id} = PTO2TaskId::invalid();"
        );
    }
    let _ = writeln!(cpp, "  PTO2_SCOPE() {{");
    cpp.push_str(&e.body);
    let _ = writeln!(cpp, "  }}");
    let _ = writeln!(cpp, "}}\n\n}}  // extern \"C\"");
    Some(SubBuild {
        name,
        c_name,
        cpp,
        kernels: e.kernels,
        signature,
        collectives: e.collectives,
        dispatch_args: dispatch_width,
    })
}

struct Emitter<'p, 'c, 'a> {
    p: &'p mut Planner<'c, 'a>,
    fname: String,
    locals: Locals,
    vals: Bindings,
    params: Vec<Param>,
    /// SSA key of a parameter → index into `params`.
    param_of: HashMap<usize, usize>,
    kernels: Vec<(usize, Rc<Kernel>)>,
    /// A kernel's name → its func_id in `kernels` (one lookup per launch, not a scan).
    kernel_ids: HashMap<String, usize>,
    /// Per collective func_id, the sites already in its `sites`.
    seen_sites: HashMap<usize, std::collections::HashSet<String>>,
    dispatch_width: bool,
    uses_comm_context: bool,
    collectives: std::collections::BTreeMap<usize, Collective>,
    /// The function's alias classes, and those the body stores into with
    /// `pl.tensor.write`.
    aliases: crate::analysis::alias::AliasClasses,
    stored_classes: std::collections::HashSet<usize>,
    /// How many loops (`scf.for`, `scf.while`) enclose the op being emitted.
    loop_depth: usize,
    /// The `pl.task_id`s of the tasks, each a `PTO2TaskId pld_task_<id>` local.
    task_ids: std::collections::BTreeSet<i64>,
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
    fn val(&mut self, op: &OperationRef<'c, 'a>, v: Value<'c, 'a>) -> Option<RtValue> {
        let key = value_id(v);
        if let Some(&k) = self.param_of.get(&key) {
            self.params[k].used = true;
        }
        if let Some(b) = self.vals.get(v) {
            return Some(b.clone());
        }
        if self.poisoned.contains(&key) {
            self.read_poison = true;
            return None;
        }
        let what = crate::ir::value_defs::as_result(v)
            .map(|r| crate::diag::msg!("a result of '{}'", op_name(&r.owner())))
            .unwrap_or_else(|| "a value".into());
        self.p.error(
            &op,
            &format!("operand {what} has no runtime form in the orchestration codegen"),
        );
        None
    }

    fn operand(&mut self, op: &OperationRef<'c, 'a>, i: usize) -> Option<RtValue> {
        let v = op.operand_at(i)?;
        self.val(op, v)
    }

    fn tensor(&mut self, op: &OperationRef<'c, 'a>, i: usize) -> Option<String> {
        match self.operand(op, i)? {
            RtValue::Tensor(t) => Some(t),
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
            RtValue::Int(e, b) => Some((e, b)),
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

    /// A fresh local for `v`, of its type's runtime kind (else a located error).
    fn local_for(
        &mut self,
        op: &OperationRef<'c, 'a>,
        v: Value<'c, 'a>,
        hint: &str,
    ) -> Option<RtValue> {
        let var = self.fresh(v, hint);
        let val = RtValue::for_type(v.r#type(), var);
        if val.is_none() {
            self.p.error(
                &op,
                &format!(
                    "a value of type '{}' has no runtime form in the orchestration codegen",
                    v.r#type()
                ),
            );
        }
        val
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
    ) -> Option<RtValue> {
        let val = self.local_for(op, v, hint)?;
        let (ty, var) = (val.chip_cpp_type(), val.expr());
        let i = format!("{}{}", ind(depth), maybe_unused(v));
        let _ = match (init, &val) {
            (Some(x), _) => writeln!(self.body, "{i}{ty} {var} = {x};"),
            (None, RtValue::Int(..)) => writeln!(self.body, "{i}{ty} {var} = 0;"),
            (None, RtValue::Ctx(_)) => writeln!(self.body, "{i}{ty} {var} = 0;"),
            (None, _) => writeln!(self.body, "{i}{ty} {var};"),
        };
        self.vals.bind(v, val.clone());
        Some(val)
    }

    fn bind(&mut self, v: Value<'c, 'a>, val: RtValue) {
        self.vals.bind(v, val);
    }

    /// The quoted message `"<op> at <loc>: <what>"` of a check that fails at `op`.
    fn fail_msg(op: &OperationRef, what: &str) -> String {
        fail_message(op, what)
    }

    /// The runtime arrays hold one entry per dimension of the declared rank: a
    /// tensor that arrives with another rank is refused before they are read.
    fn rank_guard(&mut self, op: &OperationRef<'c, 'a>, t: &str, rank: usize, depth: usize) {
        let msg = Self::fail_msg(
            op,
            &format!("the tensor has another rank than {rank} at run time"),
        );
        // A ChipTensor has at least one dimension: rank 0 is the one-element [1].
        let _ = writeln!(
            self.body,
            "{}if ({t}.ndims != {}) {}",
            ind(depth),
            rank.max(1),
            fatal(INVALID_ARGS, &msg)
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
                    && !self.vals.contains(v)
                {
                    self.poisoned.insert(value_id(v));
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
                let _ = writeln!(self.body, "{i}return;");
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
                let text = match super::cpp_names::seen_report(&message, &seen) {
                    Some(expr) => format!("({expr}).c_str()"),
                    None => quoted(&message),
                };
                let _ = writeln!(
                    self.body,
                    "{i}if ({}) {}",
                    crate::codegen::scalars::is_false(&cond),
                    fatal(&code.to_string(), &text)
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
                let init = crate::codegen::scalars::select(&c, a.expr(), b.expr());
                if a.same_kind(&b) {
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
            OrchOp::Assemble => self.assemble(op, depth),
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
                let msg = Self::fail_msg(op, "an index is outside the tensor");
                let _ = writeln!(
                    self.body,
                    "{i}  if (int rc = pld_orch::write_int({dst}, {arr}, {}, {value})) {}",
                    indices.len(),
                    fatal("rc", &msg)
                );
                let _ = writeln!(self.body, "{i}}}");
                self.bind(r.into(), RtValue::Tensor(dst));
            }
        }
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
