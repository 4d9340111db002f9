//! Parameter directions (`pl.direction`) and per-call argument directions.
//!
//! An explicit `pl.direction` wins. Otherwise a tensor-like parameter's
//! direction is derived from its function's body, over its alias class
//! ([`crate::alias`]): it is *written* when a value of its class is returned,
//! passed to an `out`/`inout` argument of a call (or `pl.submit` /
//! `pld.host.dispatch`), is the written operand of a collective
//! (`target`, `signal`, `recv_counts`), of `pl.tensor.assemble` /
//! `pl.tensor.write` (their target) or of a `pld.comm.*` primitive; it is
//! *read* when passed to an `in`/`inout` argument or used by any other op that
//! is not a pure view step. Written and read: `inout`; written only: `out`;
//! otherwise `in`. Non-tensor parameters are `in`. A body-less function's
//! tensor parameters without an explicit direction are `inout`
//! (conservative), as are those of a function in a call cycle.

use crate::{
    alias::AliasClasses,
    contiguity::ContiguityTrace,
    func_kind::symbol_name,
    ir_util::{
        CALL_OPS, arg_attr_lists, call_arg_count, callee_name, entry_block, is_call, is_tensor_like, op_name, ops_in,
        ops_named, param_types, string_array,
    },
};
use melior::ir::{
    BlockLike, ValueLike,
    operation::{OperationLike, OperationRef},
};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    In,
    Out,
    InOut,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::In => "in",
            Self::Out => "out",
            Self::InOut => "inout",
        }
    }
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "in" => Some(Self::In),
            "out" => Some(Self::Out),
            "inout" => Some(Self::InOut),
            _ => None,
        }
    }
    pub fn reads(self) -> bool {
        self != Self::Out
    }
    pub fn writes(self) -> bool {
        self != Self::In
    }
    /// The direction of a parameter that is `read` and/or `written`.
    pub fn from_access(read: bool, written: bool) -> Self {
        match (read, written) {
            (_, false) => Self::In,
            (false, true) => Self::Out,
            (true, true) => Self::InOut,
        }
    }
}

/// Fixed operand directions of a managed collective (input, target, signal,
/// send_counts, recv_counts, [index], [dynamic_core_num]).
pub fn collective_directions(op: &OperationRef) -> Vec<Direction> {
    use Direction::*;
    let mut dirs = vec![In, InOut, InOut, In, InOut];
    dirs.resize(op.operand_count(), In);
    dirs
}

/// Direction of operand `i` of a non-call op whose writes we know.
fn known_op_operand(name: &str, i: usize) -> Option<Direction> {
    use Direction::*;
    Some(match (name, i) {
        ("pl.tensor.assemble", 0) | ("pl.tensor.write", 0) => InOut,
        ("pld.comm.put_rows", 3) => Out,
        ("pld.comm.notify", 1) => Out,
        ("pld.comm.notify", 3) | ("pld.comm.wait", 0) => InOut,
        _ => return None,
    })
}

/// Pure view / value-propagation steps: using a value there is neither a read
/// nor a write (the result, or the block argument it is passed to, is in the
/// same class and carries the access).
const VIEW_OPS: [&str; 13] = [
    "pl.cast",
    "pl.tensor.reshape",
    "pl.tensor.view",
    "pl.tensor.set_validshape",
    "pl.tensor.slice",
    "pl.tensor.transpose",
    "scf.yield",
    "scf.for",
    "scf.while",
    "scf.condition",
    "cf.br",
    "cf.cond_br",
    "cf.switch",
];

/// Memoized parameter directions of every function of a module.
///
/// A function's directions need its callees' first, so they are computed in
/// a post-order of the call graph, by an explicit stack (a 20k-deep call
/// chain must not overflow the native one). A callee still being computed (a
/// call cycle, or recursion) counts as its conservative directions: the
/// explicit ones, else `inout` for a tensor.
pub struct Directions<'c, 'a> {
    functions: HashMap<String, OperationRef<'c, 'a>>,
    trace: ContiguityTrace<'c, 'a>,
    memo: HashMap<String, Vec<Direction>>,
}

impl<'c, 'a> Directions<'c, 'a> {
    pub fn new(functions: HashMap<String, OperationRef<'c, 'a>>, trace: ContiguityTrace<'c, 'a>) -> Self {
        Self { functions, trace, memo: HashMap::new() }
    }

    pub fn functions(&self) -> &HashMap<String, OperationRef<'c, 'a>> {
        &self.functions
    }

    pub fn trace(&self) -> &ContiguityTrace<'c, 'a> {
        &self.trace
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
        let Some(name) = symbol_name(func) else { return self.compute(func) };
        if let Some(d) = self.memo.get(name) {
            return d.clone();
        }
        // Only a function of the module's symbol table is memoized by name.
        if self.functions.get(name) != Some(func) {
            return self.compute(func);
        }
        self.compute_reachable(func);
        self.memo.get(name).cloned().unwrap_or_else(|| self.compute(func))
    }

    /// Computes and memoizes `root` and every function it reaches through
    /// calls, callees first (iterative DFS).
    fn compute_reachable(&mut self, root: &OperationRef<'c, 'a>) {
        let mut open: HashSet<String> = HashSet::new();
        let mut stack: Vec<(OperationRef<'c, 'a>, Vec<String>, usize)> = Vec::new();
        let name = symbol_name(root).unwrap_or("").to_string();
        open.insert(name);
        stack.push((*root, self.callees(root), 0));
        while let Some((func, callees, next)) = stack.last_mut() {
            if let Some(callee) = callees.get(*next) {
                *next += 1;
                if self.memo.contains_key(callee) || open.contains(callee) {
                    continue;
                }
                if let Some(&f) = self.functions.get(callee) {
                    open.insert(callee.clone());
                    let callees = self.callees(&f);
                    stack.push((f, callees, 0));
                }
                continue;
            }
            let func = *func;
            stack.pop();
            let name = symbol_name(&func).unwrap_or("").to_string();
            let directions = self.compute(&func);
            open.remove(&name);
            self.memo.insert(name, directions);
        }
    }

    /// The module functions `func` calls (each once).
    fn callees(&self, func: &OperationRef<'c, 'a>) -> Vec<String> {
        let mut seen = HashSet::new();
        ops_named(func, &CALL_OPS)
            .iter()
            .filter_map(callee_name)
            .filter(|c| self.functions.contains_key(c) && seen.insert(c.clone()))
            .collect()
    }

    /// `func`'s directions from its body, its callees looked up in the memo
    /// only (a callee not there yet is taken conservatively).
    fn compute(&mut self, func: &OperationRef<'c, 'a>) -> Vec<Direction> {
        let types = param_types(func);
        let explicit = explicit_directions(func, types.len());
        let Some(entry) = entry_block(func) else {
            return conservative(&types, &explicit);
        };
        let mut classes = AliasClasses::of_function(func, &self.trace, &self.functions);
        let access = self.class_accesses(func, &mut classes);
        types
            .iter()
            .enumerate()
            .map(|(i, ty)| match explicit[i] {
                Some(d) => d,
                None if !is_tensor_like(*ty) => Direction::In,
                None => match entry.argument(i) {
                    Ok(arg) => {
                        let (read, written) = access.get(&classes.class(arg.into())).copied().unwrap_or_default();
                        Direction::from_access(read, written)
                    }
                    Err(_) => Direction::InOut,
                },
            })
            .collect()
    }

    /// Reads and writes of every alias class in `func`'s body, in one walk.
    fn class_accesses(&mut self, func: &OperationRef<'c, 'a>, classes: &mut AliasClasses) -> HashMap<usize, (bool, bool)> {
        let mut access: HashMap<usize, (bool, bool)> = HashMap::new();
        for op in ops_in(func) {
            let name = op_name(&op);
            if VIEW_OPS.contains(&name.as_str()) {
                continue;
            }
            let mut operand_dirs: Option<Vec<Direction>> = None;
            for (i, value) in op.operands().enumerate() {
                if !is_tensor_like(value.r#type()) {
                    continue;
                }
                let d = if name == "func.return" {
                    Direction::Out
                } else if is_call(&op) || crate::ir_util::COLLECTIVE_OPS.contains(&name.as_str()) {
                    let dirs = operand_dirs.get_or_insert_with(|| self.operand_directions_from(&op, false));
                    dirs.get(i).copied().unwrap_or(Direction::In)
                } else {
                    known_op_operand(&name, i).unwrap_or(Direction::In)
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
        self.operand_directions_from(op, true)
    }

    fn operand_directions_from(&mut self, op: &OperationRef<'c, 'a>, complete: bool) -> Vec<Direction> {
        if crate::ir_util::COLLECTIVE_OPS.contains(&op_name(op).as_str()) {
            return collective_directions(op);
        }
        let n = call_arg_count(op);
        let mut dirs = match recorded_arg_directions(op) {
            Some(recorded) if recorded.len() == n => recorded,
            _ => self.callee_arg_directions(op, complete),
        };
        dirs.resize(op.operand_count(), Direction::In);
        dirs
    }

    /// Directions of a call-like op's callee arguments.
    pub fn call_arg_directions(&mut self, op: &OperationRef<'c, 'a>) -> Vec<Direction> {
        let n = call_arg_count(op);
        if let Some(recorded) = recorded_arg_directions(op)
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
    fn callee_arg_directions(&mut self, op: &OperationRef<'c, 'a>, complete: bool) -> Vec<Direction> {
        let n = call_arg_count(op);
        let params = callee_name(op)
            .and_then(|c| {
                if complete {
                    return self.of_symbol(&c);
                }
                let func = self.functions.get(&c)?;
                Some(self.memo.get(&c).cloned().unwrap_or_else(|| {
                    let types = param_types(func);
                    conservative(&types, &explicit_directions(func, types.len()))
                }))
            })
            .unwrap_or_default();
        (0..n)
            .map(|i| {
                params.get(i).copied().unwrap_or_else(|| {
                    // No such parameter: a tensor is conservatively inout.
                    if op.operand(i).is_ok_and(|v| is_tensor_like(v.r#type())) { Direction::InOut } else { Direction::In }
                })
            })
            .collect()
    }
}

/// The explicit `pl.direction` of each of `count` parameters.
fn explicit_directions(func: &OperationRef, count: usize) -> Vec<Option<Direction>> {
    let lists = arg_attr_lists(func, count);
    lists
        .iter()
        .map(|list| {
            list.iter()
                .find(|(n, _)| n.as_string_ref().as_str() == Ok("pl.direction"))
                .and_then(|(_, a)| crate::ir_util::attr_str(*a))
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
        .map(|(ty, e)| e.unwrap_or(if is_tensor_like(*ty) { Direction::InOut } else { Direction::In }))
        .collect()
}

/// `pl.arg_directions` of a call, if present and well-formed.
pub fn recorded_arg_directions(op: &OperationRef) -> Option<Vec<Direction>> {
    let strings = string_array(op.attribute("pl.arg_directions").ok()?)?;
    strings.iter().map(|s| Direction::parse(s)).collect()
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
