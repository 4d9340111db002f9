//! Parameter directions (`pl.direction`) and per-call argument directions.
//!
//! An explicit `pl.direction` wins. Otherwise a tensor-like parameter's
//! direction is derived from its function's body, over its alias class
//! ([`crate::analysis::alias`]): it is *written* when a value of its class is returned,
//! passed to an `out`/`inout` argument of a call (or `pl.submit` /
//! `pld.host.dispatch`), is the written operand of a collective
//! (`target`, `signal`, `recv_counts`), of `pl.tensor.assemble` /
//! `pl.tensor.write` (their target) or of a `pld.comm.*` primitive; it is
//! *read* when passed to an `in`/`inout` argument or used by any other op that
//! is not a pure view step. Written and read: `inout`; written only: `out`;
//! otherwise `in`. Non-tensor parameters are `in`. A body-less function's
//! tensor parameters without an explicit direction are `inout`
//! (conservative), as are those of a function in a call cycle -- except a
//! parameter some `pl.submit` leaves to the runtime (`runtime_alloc_outs`:
//! the trailing parameters after its operands), which is `out`: the runtime
//! allocates it uninitialized, so the kernel only writes it (the `pl.submit`
//! binding, docs/lowering.md; an explicit `pl.direction` there must be `out`).

use crate::ir::at::BlockAt as _;
use crate::{
    analysis::alias::AliasClasses,
    analysis::contiguity::ContiguityTrace,
    diag,
    ir::calls::{call_arg_count, callee, runtime_alloc_outs},
    ir::func_kind::symbol_name,
    ir::handle_maps::{NameMap, NameSet, PtrMap},
    ir::op_kind::{OpKind, op_id, op_kind},
    ir::signature::{arg_attr_lists, entry_block, param_types},
    ir::types::is_tensor_like,
    ir::walk::{function_map, ops_in},
};
use melior::ir::{
    BlockLike, Location, ValueLike,
    operation::{OperationLike, OperationRef},
};
use std::rc::Rc;

pub use crate::ir::direction::Direction;

/// Fixed operand directions of a managed collective: its row's parameter
/// directions (the variant table), then `in` for `dynamic_core_num`.
pub fn collective_directions(op: &OperationRef) -> Vec<Direction> {
    let mut dirs: Vec<Direction> =
        crate::collective::Collective::of_op_name(&crate::ir::op_kind::op_name(op))
            .map(|c| c.spec().params.iter().map(|p| p.direction).collect())
            .unwrap_or_default();
    dirs.resize(op.operand_count(), Direction::In);
    dirs
}

/// Direction of operand `i` of a non-call op whose writes we know.
fn known_op_operand(kind: OpKind, i: usize) -> Option<Direction> {
    use Direction::*;
    Some(match (kind, i) {
        (OpKind::Assemble, 0) | (OpKind::Write, 0) => InOut,
        (OpKind::PutRows, 3) => Out,
        (OpKind::Notify, 1) => Out,
        (OpKind::Notify, 3) | (OpKind::Wait, 0) => InOut,
        _ => return None,
    })
}

/// Pure view / value-propagation steps: using a value there is neither a read
/// nor a write (the result, or the block argument it is passed to, is in the
/// same class and carries the access).
fn is_view_op(kind: OpKind) -> bool {
    matches!(
        kind,
        OpKind::Cast
            | OpKind::Reshape
            | OpKind::View
            | OpKind::SetValidshape
            | OpKind::Slice
            | OpKind::Transpose
            | OpKind::ScfYield
            | OpKind::ScfFor
            | OpKind::ScfWhile
            | OpKind::ScfCondition
            | OpKind::CfBr
            | OpKind::CfCondBr
            | OpKind::CfSwitch
    )
}

/// Memoized parameter directions of every function of a module, and the
/// per-function analyses they are derived from (alias classes), so that a
/// pass -- or a pipeline, through [`crate::analysis::pipeline_analyses`] -- computes each once.
///
/// A function's directions need its callees' first, so they are computed in
/// a post-order of the call graph, by an explicit stack (a 20k-deep call
/// chain must not overflow the native one). A callee still being computed (a
/// call cycle, or recursion) counts as its conservative directions: the
/// explicit ones, else `inout` for a tensor.
pub struct Directions<'c, 'a> {
    functions: Rc<crate::ir::walk::FunctionMap<'c, 'a>>,
    trace: ContiguityTrace<'c, 'a>,
    memo: NameMap<String, Vec<Direction>>,
    /// Alias classes by function (op address).
    classes: PtrMap<AliasClasses>,
    /// Each function's ops in program order ([`ops_in`]), by function.
    ops: PtrMap<Rc<[OperationRef<'c, 'a>]>>,
    /// Parsed `pl.arg_directions` lists by attribute (uniqued: each distinct
    /// list is parsed once).
    recorded: PtrMap<Option<Vec<Direction>>>,
    /// The parameters some `pl.submit` leaves to the runtime, by callee
    /// (built on first use: only a body-less function with an undeclared
    /// tensor parameter needs it).
    runtime_allocated: Option<NameMap<String, Vec<usize>>>,
}

impl<'c, 'a> Directions<'c, 'a> {
    pub fn new(
        functions: crate::ir::walk::FunctionMap<'c, 'a>,
        trace: ContiguityTrace<'c, 'a>,
    ) -> Self {
        Self::shared(Rc::new(functions), trace)
    }

    /// The directions of `module`'s functions: one function map, shared
    /// with the contiguity trace.
    pub fn of_module(module: &OperationRef<'c, 'a>) -> Self {
        let functions = Rc::new(function_map(module));
        Self::shared(
            functions.clone(),
            ContiguityTrace::with_functions(functions),
        )
    }

    fn shared(
        functions: Rc<crate::ir::walk::FunctionMap<'c, 'a>>,
        trace: ContiguityTrace<'c, 'a>,
    ) -> Self {
        Self {
            functions,
            trace,
            memo: NameMap::default(),
            classes: PtrMap::default(),
            ops: PtrMap::default(),
            recorded: PtrMap::default(),
            runtime_allocated: None,
        }
    }

    /// The contiguity trace, to query (its verdicts are memoized).
    pub fn trace_mut(&mut self) -> &mut ContiguityTrace<'c, 'a> {
        &mut self.trace
    }

    pub fn functions(&self) -> &crate::ir::walk::FunctionMap<'c, 'a> {
        &self.functions
    }

    /// The function map, shared (to keep while `self` is borrowed mutably).
    pub fn functions_rc(&self) -> Rc<crate::ir::walk::FunctionMap<'c, 'a>> {
        self.functions.clone()
    }

    pub fn trace(&self) -> &ContiguityTrace<'c, 'a> {
        &self.trace
    }

    /// `func`'s ops in program order ([`ops_in`]: not those of a nested
    /// module or function), listed once and kept: every later query filters
    /// this list instead of walking the body again.
    pub fn ops(&mut self, func: &OperationRef<'c, 'a>) -> Rc<[OperationRef<'c, 'a>]> {
        self.ops
            .entry(op_id(func))
            .or_insert_with(|| ops_in(func).into())
            .clone()
    }

    /// `func`'s ops of the kinds `wanted` accepts, in program order.
    pub fn ops_of_kind(
        &mut self,
        func: &OperationRef<'c, 'a>,
        wanted: impl Fn(OpKind) -> bool,
    ) -> Vec<OperationRef<'c, 'a>> {
        self.ops(func)
            .iter()
            .copied()
            .filter(|op| wanted(op_kind(op)))
            .collect()
    }

    /// The alias classes of `func`'s body, computed once and kept; hand them
    /// back with [`Self::put_classes`] to keep them for the next user.
    pub fn take_classes(&mut self, func: &OperationRef<'c, 'a>) -> AliasClasses {
        match self.classes.remove(&op_id(func)) {
            Some(classes) => classes,
            None => {
                let ops = self.ops(func);
                AliasClasses::of_function_ops(func, &ops, &self.trace, &self.functions)
            }
        }
    }

    /// Keeps `func`'s alias classes (from [`Self::take_classes`]).
    pub fn put_classes(&mut self, func: &OperationRef<'c, 'a>, classes: AliasClasses) {
        self.classes.insert(op_id(func), classes);
    }

    /// The directions of `name`'s parameters, or `None` for an unknown symbol.
    pub fn of_symbol(&mut self, name: &str) -> Option<Vec<Direction>> {
        if let Some(d) = self.memo.get(name) {
            return Some(d.clone());
        }
        let func = *self.functions.get(name)?;
        Some(self.of_function(&func))
    }

    /// The directions of `func`'s parameters.
    pub fn of_function(&mut self, func: &OperationRef<'c, 'a>) -> Vec<Direction> {
        // A name that is not UTF-8 cannot key the memo (it would read as another).
        let Some(name) = symbol_name(func) else {
            return self.compute(func);
        };
        if let Some(d) = self.memo.get(name) {
            return d.clone();
        }
        // Only a function of the module's symbol table is memoized by name.
        if self.functions.get(name) != Some(func) {
            return self.compute(func);
        }
        self.compute_reachable(func);
        self.memo
            .get(name)
            .cloned()
            .unwrap_or_else(|| self.compute(func))
    }

    /// Computes and memoizes `root` and every function it reaches through
    /// calls, callees first (iterative DFS).
    fn compute_reachable(&mut self, root: &OperationRef<'c, 'a>) {
        let mut open: NameSet<&'c str> = NameSet::default();
        let mut stack: Vec<(OperationRef<'c, 'a>, Vec<&'c str>, usize)> = Vec::new();
        open.insert(symbol_name(root).unwrap_or(""));
        stack.push((*root, self.callees(root), 0));
        while let Some((_, callees, next)) = stack.last_mut() {
            if let Some(&callee) = callees.get(*next) {
                *next += 1;
                if self.memo.contains_key(callee) || open.contains(callee) {
                    continue;
                }
                if let Some(&f) = self.functions.get(callee) {
                    open.insert(callee);
                    let callees = self.callees(&f);
                    stack.push((f, callees, 0));
                }
                continue;
            }
            let (func, _, _) = stack.pop().expect("the loop saw a frame");
            let name = symbol_name(&func).unwrap_or("");
            let directions = self.compute(&func);
            open.remove(name);
            self.memo.insert(name.to_string(), directions);
        }
    }

    /// The module functions `func` calls (each once).
    fn callees(&mut self, func: &OperationRef<'c, 'a>) -> Vec<&'c str> {
        let mut seen = NameSet::default();
        let ops = self.ops(func);
        ops.iter()
            .filter(|op| op_kind(op).is_call())
            .filter_map(callee)
            .filter(|c| self.functions.contains_key(*c) && seen.insert(*c))
            .collect()
    }

    /// `func`'s directions from its body, its callees looked up in the memo
    /// only (a callee not there yet is taken conservatively).
    fn compute(&mut self, func: &OperationRef<'c, 'a>) -> Vec<Direction> {
        let types = param_types(func);
        let explicit = explicit_directions(func, types.len());
        let Some(entry) = entry_block(func) else {
            let mut directions = conservative(&types, &explicit);
            let undeclared = |i: usize| explicit[i].is_none() && is_tensor_like(types[i]);
            if (0..types.len()).any(undeclared)
                && let Some(name) = symbol_name(func)
            {
                for i in self.runtime_allocated_params(name) {
                    if i < types.len() && undeclared(i) {
                        directions[i] = Direction::Out;
                    }
                }
            }
            return directions;
        };
        // Every parameter explicit: the body has nothing to add.
        if explicit.iter().all(Option::is_some) {
            return explicit.into_iter().flatten().collect();
        }
        let mut classes = self.take_classes(func);
        let access = self.class_accesses(func, &mut classes);
        let directions = types
            .iter()
            .enumerate()
            .map(|(i, ty)| match explicit[i] {
                Some(d) => d,
                None if !is_tensor_like(*ty) => Direction::In,
                None => match entry.argument(i) {
                    Ok(arg) => {
                        let (read, written) = access
                            .get(&classes.class(arg.into()))
                            .copied()
                            .unwrap_or_default();
                        Direction::from_access(read, written)
                    }
                    Err(_) => Direction::InOut,
                },
            })
            .collect();
        self.put_classes(func, classes);
        directions
    }

    /// The parameters of `callee` that some `pl.submit` of the module leaves
    /// to the runtime: after its operands, one per `runtime_alloc_outs` entry.
    fn runtime_allocated_params(&mut self, callee: &str) -> Vec<usize> {
        if self.runtime_allocated.is_none() {
            let mut map: NameMap<String, Vec<usize>> = NameMap::default();
            let functions = self.functions.clone();
            for func in functions.values() {
                let ops = self.ops(func);
                for op in ops.iter().filter(|op| op_kind(op) == OpKind::Submit) {
                    let outs = runtime_alloc_outs(op).len();
                    if outs == 0 {
                        continue;
                    }
                    if let Some(c) = crate::ir::calls::callee(op) {
                        let first = call_arg_count(op);
                        map.entry(c.to_string())
                            .or_default()
                            .extend(first..first + outs);
                    }
                }
            }
            self.runtime_allocated = Some(map);
        }
        self.runtime_allocated
            .as_ref()
            .and_then(|m| m.get(callee))
            .cloned()
            .unwrap_or_default()
    }

    /// Reads and writes of every alias class in `func`'s body, in one walk.
    fn class_accesses(
        &mut self,
        func: &OperationRef<'c, 'a>,
        classes: &mut AliasClasses,
    ) -> PtrMap<(bool, bool)> {
        let mut access: PtrMap<(bool, bool)> = PtrMap::default();
        let ops = self.ops(func);
        for &op in ops.iter() {
            let kind = op_kind(&op);
            if is_view_op(kind) {
                continue;
            }
            let mut operand_dirs: Option<Vec<Direction>> = None;
            for (i, value) in op.operands().enumerate() {
                if !is_tensor_like(value.r#type()) {
                    continue;
                }
                let d = if kind == OpKind::Return {
                    Direction::Out
                } else if kind.is_call() || kind.is_collective() {
                    let dirs = operand_dirs
                        .get_or_insert_with(|| self.operand_directions_from(&op, kind, false));
                    dirs.get(i).copied().unwrap_or(Direction::In)
                } else {
                    known_op_operand(kind, i).unwrap_or(Direction::In)
                };
                let entry = access.entry(classes.class(value)).or_default();
                entry.0 |= d.reads();
                entry.1 |= d.writes();
            }
        }
        access
    }

    /// The direction of every operand of a call-like op or collective: the
    /// callee's parameter directions for its arguments (`pl.arg_directions`
    /// when present and complete), `in` for anything else.
    pub fn operand_directions(&mut self, op: &OperationRef<'c, 'a>) -> Vec<Direction> {
        let kind = op_kind(op);
        self.operand_directions_from(op, kind, true)
    }

    fn operand_directions_from(
        &mut self,
        op: &OperationRef<'c, 'a>,
        kind: OpKind,
        complete: bool,
    ) -> Vec<Direction> {
        if kind.is_collective() {
            return collective_directions(op);
        }
        let n = call_arg_count(op);
        let mut dirs = match self.recorded(op) {
            Some(recorded) if recorded.len() == n => recorded,
            _ => self.callee_arg_directions(op, complete),
        };
        dirs.resize(op.operand_count(), Direction::In);
        dirs
    }

    /// `pl.arg_directions` of a call, if present and well-formed (parsed
    /// once per distinct list).
    fn recorded(&mut self, op: &OperationRef<'c, 'a>) -> Option<Vec<Direction>> {
        let attr = op.attribute("pl.arg_directions").ok()?;
        let k = melior::ir::AttributeLike::to_raw(&attr).ptr as usize;
        self.recorded
            .entry(k)
            .or_insert_with(|| parse_directions(attr))
            .clone()
    }

    /// Directions of a call-like op's callee arguments.
    pub fn call_arg_directions(&mut self, op: &OperationRef<'c, 'a>) -> Vec<Direction> {
        let n = call_arg_count(op);
        if let Some(recorded) = self.recorded(op)
            && recorded.len() == n
        {
            return recorded;
        }
        self.derived_call_arg_directions(op)
    }

    /// Directions of a call-like op's callee arguments from its callee (the
    /// recorded `pl.arg_directions` ignored).
    pub fn derived_call_arg_directions(&mut self, op: &OperationRef<'c, 'a>) -> Vec<Direction> {
        self.callee_arg_directions(op, true)
    }

    /// With `complete`, the callee's directions are computed if needed;
    /// without (inside [`Self::compute`]), only the memo is read.
    fn callee_arg_directions(
        &mut self,
        op: &OperationRef<'c, 'a>,
        complete: bool,
    ) -> Vec<Direction> {
        let n = call_arg_count(op);
        let callee = callee(op);
        if complete
            && let Some(c) = callee
            && !self.memo.contains_key(c)
            && let Some(&func) = self.functions.get(c)
        {
            self.of_function(&func);
        }
        let conservative_params;
        let params: &[Direction] = match callee.and_then(|c| self.memo.get(c).map(|d| (c, d))) {
            Some((_, d)) => d,
            None => match callee.and_then(|c| self.functions.get(c)) {
                // Not memoized (a call cycle, or a name the memo cannot key).
                Some(func) => {
                    conservative_params = if complete {
                        let func = *func;
                        self.compute(&func)
                    } else {
                        let types = param_types(func);
                        conservative(&types, &explicit_directions(func, types.len()))
                    };
                    &conservative_params
                }
                None => &[],
            },
        };
        (0..n)
            .map(|i| {
                params.get(i).copied().unwrap_or_else(|| {
                    // No such parameter: a tensor is conservatively inout.
                    if op.operand(i).is_ok_and(|v| is_tensor_like(v.r#type())) {
                        Direction::InOut
                    } else {
                        Direction::In
                    }
                })
            })
            .collect()
    }
}

/// The directions of an array-of-strings attribute, if every item is one.
fn parse_directions(attr: melior::ir::Attribute) -> Option<Vec<Direction>> {
    let array = melior::ir::attribute::ArrayAttribute::try_from(attr).ok()?;
    (0..array.len())
        .map(|i| {
            array
                .element(i)
                .ok()
                .and_then(crate::ir::attributes::attr_str)
                .and_then(Direction::parse)
        })
        .collect()
}

/// The explicit `pl.direction` of each of `count` parameters.
fn explicit_directions(func: &OperationRef, count: usize) -> Vec<Option<Direction>> {
    let lists = arg_attr_lists(func, count);
    lists
        .iter()
        .map(|list| {
            list.iter()
                .find(|(n, _)| n.as_string_ref().as_str() == Ok("pl.direction"))
                .and_then(|(_, a)| crate::ir::attributes::attr_str(*a))
                .and_then(Direction::parse)
        })
        .collect()
}

/// Directions without a body to derive them from: explicit, else `inout` for
/// a tensor and `in` for anything else.
fn conservative(types: &[melior::ir::Type], explicit: &[Option<Direction>]) -> Vec<Direction> {
    types
        .iter()
        .zip(explicit)
        .map(|(ty, e)| {
            e.unwrap_or(if is_tensor_like(*ty) {
                Direction::InOut
            } else {
                Direction::In
            })
        })
        .collect()
}

/// `pl.arg_directions` of a call, if present and well-formed.
pub fn recorded_arg_directions(op: &OperationRef) -> Option<Vec<Direction>> {
    parse_directions(op.attribute("pl.arg_directions").ok()?)
}

#[cfg(test)]
mod tests {
    use super::Direction;

    #[test]
    fn access_to_direction() {
        assert_eq!(Direction::from_access(false, false), Direction::In);
        assert_eq!(Direction::from_access(true, false), Direction::In);
        assert_eq!(Direction::from_access(false, true), Direction::Out);
        assert_eq!(Direction::from_access(true, true), Direction::InOut);
    }

    #[test]
    fn round_trip_and_access() {
        for d in [Direction::In, Direction::Out, Direction::InOut] {
            assert_eq!(Direction::parse(d.as_str()), Some(d));
        }
        assert!(Direction::InOut.reads() && Direction::InOut.writes());
        assert!(!Direction::Out.reads() && Direction::Out.writes());
        assert!(Direction::In.reads() && !Direction::In.writes());
        assert_eq!(Direction::parse("inOut"), None);
    }
}

/// The refusal of a runtime-allocated parameter `i` of `callee` (named
/// `name`) whose direction `d` is not `out` (`--legalize-spmd-launches`'s and `--derive-call-directions`'s,
/// which must not write such a direction).
pub fn runtime_allocated_not_out(
    callee: &OperationRef,
    name: &str,
    i: usize,
    d: Direction,
) -> String {
    diag::msg!(
        "runtime-allocated parameter '{}' (#{i}) of @{name} must be an out parameter \
         (the runtime allocates it uninitialized for the kernel to write), got {}",
        param_name(callee, i),
        d.as_str()
    )
}

/// The name of parameter `i`: its location's name, else `arg<i>`.
pub fn param_name(func: &OperationRef, i: usize) -> String {
    entry_block(func)
        .and_then(|b| b.argument_at(i))
        .and_then(|arg| location_name(arg.location()))
        .unwrap_or_else(|| format!("arg{i}"))
}

fn location_name(loc: Location) -> Option<String> {
    unsafe {
        let raw = loc.to_raw();
        if !mlir_sys::mlirLocationIsAName(raw) {
            return None;
        }
        let id = mlir_sys::mlirLocationNameGetName(raw);
        let s = mlir_sys::mlirIdentifierStr(id);
        let bytes = std::slice::from_raw_parts(s.data as *const u8, s.length);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}
