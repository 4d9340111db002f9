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
        arg_attr, call_arg_count, callee_name, entry_block, is_call, is_tensor_like, op_name, param_types,
        string_array,
    },
};
use melior::ir::{
    BlockLike, ValueLike,
    attribute::StringAttribute,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
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
/// nor a write (the result, in the same class, carries the access).
const VIEW_OPS: [&str; 11] = [
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
];

/// Memoized parameter directions of every function of a module.
pub struct Directions<'c, 'a> {
    functions: HashMap<String, OperationRef<'c, 'a>>,
    trace: ContiguityTrace<'c, 'a>,
    memo: HashMap<String, Vec<Direction>>,
    in_progress: HashSet<String>,
}

impl<'c, 'a> Directions<'c, 'a> {
    pub fn new(functions: HashMap<String, OperationRef<'c, 'a>>, trace: ContiguityTrace<'c, 'a>) -> Self {
        Self { functions, trace, memo: HashMap::new(), in_progress: HashSet::new() }
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
        let name = symbol_name(func).unwrap_or("").to_string();
        if let Some(d) = self.memo.get(&name) {
            return d.clone();
        }
        let types = param_types(func);
        let explicit: Vec<Option<Direction>> = (0..types.len())
            .map(|i| {
                arg_attr(func, i, "pl.direction")
                    .and_then(|a| StringAttribute::try_from(a).ok())
                    .and_then(|s| Direction::parse(s.value()))
            })
            .collect();
        let cyclic = !self.in_progress.insert(name.clone());
        let body = entry_block(func);
        let mut derived = Vec::with_capacity(types.len());
        let mut classes = (!cyclic && body.is_some()).then(|| AliasClasses::of_function(func, &self.trace, &self.functions));
        for (i, ty) in types.iter().enumerate() {
            let d = match explicit[i] {
                Some(d) => d,
                None if !is_tensor_like(*ty) => Direction::In,
                None => match (&mut classes, &body) {
                    (Some(classes), Some(entry)) => match entry.argument(i) {
                        Ok(arg) => {
                            let class = classes.class(arg.into());
                            self.derive(func, classes, class)
                        }
                        Err(_) => Direction::InOut,
                    },
                    _ => Direction::InOut,
                },
            };
            derived.push(d);
        }
        if !cyclic {
            self.in_progress.remove(&name);
            self.memo.insert(name, derived.clone());
        }
        derived
    }

    /// Reads and writes of alias class `class` in `func`'s body.
    fn derive(&mut self, func: &OperationRef<'c, 'a>, classes: &mut AliasClasses, class: usize) -> Direction {
        let mut raw = Vec::new();
        func.walk(WalkOrder::PreOrder, |op| {
            raw.push(op.to_raw());
            WalkResult::Advance
        });
        let (mut read, mut written) = (false, false);
        for r in raw {
            let op = unsafe { OperationRef::from_raw(r) };
            if op == *func {
                continue;
            }
            let name = op_name(&op);
            let mut operand_dirs: Option<Vec<Direction>> = None;
            for (i, value) in op.operands().enumerate() {
                if !is_tensor_like(value.r#type()) || classes.class(value) != class {
                    continue;
                }
                let access = if name == "func.return" {
                    Some(Direction::Out)
                } else if VIEW_OPS.contains(&name.as_str()) {
                    None
                } else if is_call(&op) || crate::ir_util::COLLECTIVE_OPS.contains(&name.as_str()) {
                    let dirs = operand_dirs.get_or_insert_with(|| self.operand_directions(&op));
                    Some(dirs.get(i).copied().unwrap_or(Direction::In))
                } else {
                    Some(known_op_operand(&name, i).unwrap_or(Direction::In))
                };
                if let Some(d) = access {
                    read |= d.reads();
                    written |= d.writes();
                }
            }
        }
        Direction::from_access(read, written)
    }

    /// The direction of every operand of a call-like op or collective: the
    /// callee's parameter directions for its arguments (`pl.arg_directions`
    /// when present and complete), `in` for anything else.
    pub fn operand_directions(&mut self, op: &OperationRef<'c, 'a>) -> Vec<Direction> {
        if crate::ir_util::COLLECTIVE_OPS.contains(&op_name(op).as_str()) {
            return collective_directions(op);
        }
        let mut dirs = self.call_arg_directions(op);
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
        let n = call_arg_count(op);
        let params = callee_name(op).and_then(|c| self.of_symbol(&c)).unwrap_or_default();
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
