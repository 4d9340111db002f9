//! `--auto-derive-task-dependencies` (AutoDeriveTaskDependencies): in every
//! orchestration body (`orchestration` / `graph`, either level), numbers each
//! task -- `func.call`, `pl.submit`, `pld.host.dispatch`, and a managed
//! collective still left for a later rail -- in program order from 0
//! (`pl.task_id`) and gives it a conservative dependency list
//! (`pl.task_deps`, ascending, never itself).
//!
//! Each tensor-like argument is an access of its alias class
//! ([`crate::alias`]) with the argument's direction (`pl.arg_directions`,
//! else the callee's parameter directions; a collective's are fixed): a read
//! depends on the class's last writer (RAW); a write depends on the last
//! writer (WAW) and on every reader since (WAR). Tasks in both branches of an
//! `scf.if` are treated as if both ran; the body of an `scf.for` /
//! `scf.while` is visited twice, so a task also depends on the previous
//! iteration's accesses (a loop-carried edge may name a later task id). The
//! synthesized collective kernel is a task like any user kernel: its
//! directions `in, inout, inout, in, inout` order it after the task that
//! wrote its input and before the one that reads its target.

use super::{ModulePass, PassId};
use crate::{
    alias::AliasClasses,
    contiguity::ContiguityTrace,
    directions::Directions,
    error::PldError,
    func_kind::is_orchestration_body,
    ir_util::{
        CALL_OPS, COLLECTIVE_OPS, function_map, i64_array_attr, i64_attr, is_tensor_like, module_body,
        module_functions, op_key, op_name, ops_named, set_attr,
    },
};
use melior::ir::{
    BlockLike, BlockRef, RegionLike, ValueLike,
    operation::{OperationLike, OperationRef},
};
use std::collections::{BTreeSet, HashMap};

#[derive(Clone, Default)]
pub struct AutoDeriveTaskDependencies;

static ID: PassId = PassId(4);

impl ModulePass for AutoDeriveTaskDependencies {
    const ARGUMENT: &'static str = "auto-derive-task-dependencies";
    const NAME: &'static str = "AutoDeriveTaskDependencies";
    const DESCRIPTION: &'static str = "Number the tasks of every orchestration body (pl.task_id) and derive their \
         RAW/WAR/WAW dependencies from argument directions over alias classes (pl.task_deps)";

    fn id() -> &'static PassId {
        &ID
    }

    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        let body = module_body(&module)?;
        let mut directions = Directions::new(function_map(&module), ContiguityTrace::new(body));
        let mut plans: Vec<(OperationRef, i64, Vec<i64>)> = Vec::new();
        for func in module_functions(&module).iter().filter(|f| is_orchestration_body(f)) {
            plans.extend(plan_function(func, &mut directions));
        }
        let context_ref = module.context();
        let context = crate::context::borrow(&context_ref);
        for (op, id, deps) in plans {
            set_attr(&op, "pl.task_id", i64_attr(context, id));
            set_attr(&op, "pl.task_deps", i64_array_attr(context, &deps));
        }
        Ok(())
    }
}

/// The tasks of one body: ids and dependency lists.
fn plan_function<'c, 'a>(
    func: &OperationRef<'c, 'a>,
    directions: &mut Directions<'c, 'a>,
) -> Vec<(OperationRef<'c, 'a>, i64, Vec<i64>)> {
    let task_names: Vec<&str> = CALL_OPS.iter().chain(COLLECTIVE_OPS.iter()).copied().collect();
    let tasks = ops_named(func, &task_names);
    if tasks.is_empty() {
        return Vec::new();
    }
    let ids: HashMap<usize, i64> = tasks.iter().enumerate().map(|(i, t)| (op_key(t), i as i64)).collect();
    let mut classes = AliasClasses::of_function(func, directions.trace(), directions.functions());
    let mut walker = Walker { ids: &ids, tracker: Tracker::default(), deps: HashMap::new() };
    if let Some(region) = func.region(0).ok() {
        walker.region(&region, &mut classes, directions);
    }
    tasks
        .into_iter()
        .map(|t| {
            let id = ids[&op_key(&t)];
            let deps = walker.deps.remove(&id).unwrap_or_default().into_iter().collect();
            (t, id, deps)
        })
        .collect()
}

#[derive(Default, Clone)]
struct ClassState {
    last_writer: Option<i64>,
    readers: Vec<i64>,
}

/// What one task does to one alias class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Access {
    pub read: bool,
    pub write: bool,
}

/// The dependency tracker, independent of the IR (unit-tested).
#[derive(Default)]
pub struct Tracker {
    state: HashMap<usize, ClassState>,
}

impl Tracker {
    /// Records `task`'s accesses; returns the tasks it must wait for.
    pub fn access(&mut self, task: i64, accesses: &[(usize, Access)]) -> BTreeSet<i64> {
        let mut deps = BTreeSet::new();
        for (class, access) in accesses {
            let state = self.state.entry(*class).or_default();
            if access.read || access.write {
                deps.extend(state.last_writer);
            }
            if access.write {
                deps.extend(state.readers.iter().copied());
            }
        }
        for (class, access) in accesses {
            let state = self.state.entry(*class).or_default();
            if access.write {
                state.last_writer = Some(task);
                state.readers.clear();
            } else if access.read && !state.readers.contains(&task) {
                state.readers.push(task);
            }
        }
        deps.remove(&task);
        deps
    }
}

struct Walker<'m> {
    ids: &'m HashMap<usize, i64>,
    tracker: Tracker,
    deps: HashMap<i64, BTreeSet<i64>>,
}

impl Walker<'_> {
    fn region<'c, 'a>(
        &mut self,
        region: &melior::ir::RegionRef<'c, 'a>,
        classes: &mut AliasClasses,
        directions: &mut Directions<'c, 'a>,
    ) {
        let mut block = region.first_block();
        while let Some(b) = block {
            self.block(&b, classes, directions);
            block = b.next_in_region();
        }
    }

    fn block<'c, 'a>(&mut self, block: &BlockRef<'c, 'a>, classes: &mut AliasClasses, directions: &mut Directions<'c, 'a>) {
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if let Some(&id) = self.ids.get(&op_key(&op)) {
                self.task(&op, id, classes, directions);
            }
            let name = op_name(&op);
            let visits = if matches!(name.as_str(), "scf.for" | "scf.while") { 2 } else { 1 };
            for _ in 0..visits {
                for region in op.regions() {
                    self.region(&region, classes, directions);
                }
            }
        }
    }

    fn task<'c, 'a>(
        &mut self,
        op: &OperationRef<'c, 'a>,
        id: i64,
        classes: &mut AliasClasses,
        directions: &mut Directions<'c, 'a>,
    ) {
        let dirs = directions.operand_directions(op);
        let mut accesses: Vec<(usize, Access)> = Vec::new();
        for (i, value) in op.operands().enumerate() {
            if !is_tensor_like(value.r#type()) {
                continue;
            }
            let d = dirs.get(i).copied().unwrap_or(crate::directions::Direction::In);
            let class = classes.class(value);
            match accesses.iter_mut().find(|(c, _)| *c == class) {
                Some((_, a)) => {
                    a.read |= d.reads();
                    a.write |= d.writes();
                }
                None => accesses.push((class, Access { read: d.reads(), write: d.writes() })),
            }
        }
        let deps = self.tracker.access(id, &accesses);
        self.deps.entry(id).or_default().extend(deps);
    }
}

#[cfg(test)]
mod tests {
    use super::{Access, Tracker};

    const R: Access = Access { read: true, write: false };
    const W: Access = Access { read: false, write: true };
    const RW: Access = Access { read: true, write: true };

    #[test]
    fn seed_stage_collective_consume_is_a_chain() {
        // stage writes A (stage) and C (counts); the collective reads A and C
        // and writes T (target); consume reads T.
        let (a, c, t, out) = (1, 2, 3, 4);
        let mut tr = Tracker::default();
        assert!(tr.access(0, &[(a, W), (c, W)]).is_empty());
        assert_eq!(tr.access(1, &[(a, R), (t, RW), (c, R)]).into_iter().collect::<Vec<_>>(), [0]);
        assert_eq!(tr.access(2, &[(t, R), (out, W)]).into_iter().collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn war_and_waw() {
        let mut tr = Tracker::default();
        tr.access(0, &[(1, W)]);
        tr.access(1, &[(1, R)]);
        tr.access(2, &[(1, R)]);
        // A writer waits for the last writer and both readers.
        assert_eq!(tr.access(3, &[(1, W)]).into_iter().collect::<Vec<_>>(), [0, 1, 2]);
        // After it, only it matters.
        assert_eq!(tr.access(4, &[(1, R)]).into_iter().collect::<Vec<_>>(), [3]);
        // Independent classes stay independent.
        assert!(tr.access(5, &[(9, RW)]).is_empty());
    }

    #[test]
    fn never_depends_on_itself() {
        let mut tr = Tracker::default();
        tr.access(0, &[(1, RW)]);
        assert!(tr.access(0, &[(1, RW)]).is_empty());
    }
}
