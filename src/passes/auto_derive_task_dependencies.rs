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
//! writer (WAW) and on every reader since (WAR). The regions of an `scf.if`
//! (or any other multi-region op) are alternatives: each starts from the
//! state before it, and after it every writer or reader any branch may have
//! left stays outstanding. A loop (`scf.for` / `scf.while`) may run zero
//! times, so what came before it stays outstanding too; its body is visited
//! twice, so a task also depends on the previous iteration's accesses (a
//! loop-carried edge may name a later task id). The blocks of a region with
//! several blocks (`cf` branches) run in any order and may loop: they are
//! visited twice, and a write there supersedes nothing. Only a loop's or
//! region's first encounter is doubled: a visit from any state leaves the
//! same state as two, and the second visit's extra edges do not depend on
//! the state it started from, so re-doubling a loop nested in another
//! loop's second visit adds nothing -- and would make a nest of depth d cost
//! 2^d visits. The synthesized collective kernel is a task like any user kernel: its
//! directions `in, inout, inout, in, inout` order it after the task that
//! wrote its input and before the one that reads its target.

use super::{ModulePass, PassStatistics};
use crate::{
    alias::AliasClasses,
    contiguity::ContiguityTrace,
    directions::Directions,
    error::PldError,
    func_kind::is_orchestration_body,
    ir_util::{
        CALL_OPS, COLLECTIVE_OPS, NESTED_SCOPES, function_map, i64_array_attr, i64_attr, is_tensor_like, module_body,
        module_functions, op_key, ops_named, set_attr,
    },
};
use melior::ir::{
    BlockLike, BlockRef, RegionLike, ValueLike,
    operation::{OperationLike, OperationRef},
};
use std::collections::{BTreeSet, HashMap, HashSet};

/// The pass, with what its last run counted.
#[derive(Clone, Default)]
pub struct AutoDeriveTaskDependencies {
    statistics: PassStatistics,
}

impl ModulePass for AutoDeriveTaskDependencies {
    const ARGUMENT: &'static str = "auto-derive-task-dependencies";
    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        let body = module_body(&module)?;
        let mut directions = Directions::new(function_map(&module), ContiguityTrace::new(body));
        let mut plans: Vec<(OperationRef, i64, Vec<i64>)> = Vec::new();
        for func in module_functions(&module).iter().filter(|f| is_orchestration_body(f)) {
            plans.extend(plan_function(func, &mut directions));
        }
        let context_ref = module.context();
        let context = crate::context::borrow(&context_ref);
        self.statistics.tasks_numbered = plans.len() as u64;
        self.statistics.task_dependencies = plans.iter().map(|(_, _, deps)| deps.len() as u64).sum();
        for (op, id, deps) in plans {
            set_attr(&op, "pl.task_id", i64_attr(context, id));
            set_attr(&op, "pl.task_deps", i64_array_attr(context, &deps));
        }
        Ok(())
    }
    fn statistics(&self) -> PassStatistics {
        self.statistics
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
    let mut walker = Walker { ids: &ids, tracker: Tracker::default(), deps: HashMap::new(), doubled: HashSet::new() };
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

/// What may be outstanding on one alias class: the tasks that may have
/// written it last, and the tasks that may have read it since.
#[derive(Default, Clone, Debug, PartialEq, Eq)]
struct ClassState {
    writers: BTreeSet<i64>,
    readers: BTreeSet<i64>,
}

impl ClassState {
    fn join(&mut self, other: &ClassState) {
        self.writers.extend(other.writers.iter().copied());
        self.readers.extend(other.readers.iter().copied());
    }
}

/// What one task does to one alias class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Access {
    pub read: bool,
    pub write: bool,
}

/// The changes of one fork: each touched class's state before it.
type Journal = HashMap<usize, Option<ClassState>>;

/// The dependency tracker, independent of the IR (unit-tested).
///
/// A write normally supersedes what came before it (later accesses wait for
/// it, and it waited for the earlier ones). Alternatives (the regions of an
/// `scf.if`, a loop that may run zero times) are [`Self::fork`]ed from the
/// same state and [`Self::join`]ed: every task any path may have left
/// outstanding stays outstanding. While [`Self::unordered`] is non-zero (the
/// blocks of a `cf` region, whose textual order is not their execution
/// order) a write supersedes nothing.
#[derive(Default)]
pub struct Tracker {
    state: HashMap<usize, ClassState>,
    journals: Vec<Journal>,
    unordered: usize,
}

/// The state a fork left on every class it touched.
pub struct Outcome(HashMap<usize, ClassState>);

impl Tracker {
    /// Records `task`'s accesses; returns the tasks it must wait for.
    pub fn access(&mut self, task: i64, accesses: &[(usize, Access)]) -> BTreeSet<i64> {
        let mut deps = BTreeSet::new();
        for (class, access) in accesses {
            if let Some(state) = self.state.get(class) {
                if access.read || access.write {
                    deps.extend(state.writers.iter().copied());
                }
                if access.write {
                    deps.extend(state.readers.iter().copied());
                }
            }
        }
        for &(class, access) in accesses {
            if !access.read && !access.write {
                continue;
            }
            self.touch(class);
            let ordered = self.unordered == 0;
            let state = self.state.entry(class).or_default();
            if access.write {
                if ordered {
                    state.writers.clear();
                    state.readers.clear();
                }
                state.writers.insert(task);
            } else {
                state.readers.insert(task);
            }
        }
        deps.remove(&task);
        deps
    }

    /// Records `class`'s state before its first change in the current fork.
    fn touch(&mut self, class: usize) {
        if let Some(journal) = self.journals.last_mut()
            && !journal.contains_key(&class)
        {
            journal.insert(class, self.state.get(&class).cloned());
        }
    }

    /// Starts an alternative from the current state.
    pub fn fork(&mut self) {
        self.journals.push(Journal::new());
    }

    /// Ends the current alternative: restores the state it started from and
    /// returns what it left.
    pub fn rollback(&mut self) -> Outcome {
        let journal = self.journals.pop().unwrap_or_default();
        let mut left = HashMap::new();
        for (class, before) in journal {
            let after = match before {
                Some(s) => self.state.insert(class, s),
                None => self.state.remove(&class),
            };
            left.insert(class, after.unwrap_or_default());
        }
        Outcome(left)
    }

    /// Continues after one of `outcomes` (or, with `or_none`, none of them)
    /// happened: every class joins what each alternative left.
    pub fn join(&mut self, outcomes: &[Outcome], or_none: bool) {
        let classes: BTreeSet<usize> = outcomes.iter().flat_map(|o| o.0.keys().copied()).collect();
        for class in classes {
            let current = self.state.get(&class).cloned().unwrap_or_default();
            let mut joined = if or_none { current.clone() } else { ClassState::default() };
            for outcome in outcomes {
                joined.join(outcome.0.get(&class).unwrap_or(&current));
            }
            self.touch(class);
            self.state.insert(class, joined);
        }
    }
}

struct Walker<'m> {
    ids: &'m HashMap<usize, i64>,
    tracker: Tracker,
    deps: HashMap<i64, BTreeSet<i64>>,
    /// Loops (ops) and multi-block regions already visited twice.
    doubled: HashSet<usize>,
}

impl Walker<'_> {
    fn region<'c, 'a>(
        &mut self,
        region: &melior::ir::RegionRef<'c, 'a>,
        classes: &mut AliasClasses,
        directions: &mut Directions<'c, 'a>,
    ) {
        let several = region.first_block().and_then(|b| b.next_in_region()).is_some();
        let visits = if several && self.doubled.insert(region.to_raw().ptr as usize) { 2 } else { 1 };
        // Blocks run in any order, any number of times.
        self.tracker.unordered += usize::from(several);
        for _ in 0..visits {
            let mut block = region.first_block();
            while let Some(b) = block {
                self.block(&b, classes, directions);
                block = b.next_in_region();
            }
        }
        self.tracker.unordered -= usize::from(several);
    }

    fn block<'c, 'a>(&mut self, block: &BlockRef<'c, 'a>, classes: &mut AliasClasses, directions: &mut Directions<'c, 'a>) {
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if let Some(&id) = self.ids.get(&op_key(&op)) {
                self.task(&op, id, classes, directions);
            }
            let regions: Vec<_> = op.regions().collect();
            if regions.is_empty() || NESTED_SCOPES.contains(&op.name().as_string_ref().as_str().unwrap_or("")) {
                continue;
            }
            if matches!(op.name().as_string_ref().as_str(), Ok("scf.for" | "scf.while")) {
                // Zero or more iterations.
                let visits = if self.doubled.insert(op_key(&op)) { 2 } else { 1 };
                self.tracker.fork();
                for _ in 0..visits {
                    for region in &regions {
                        self.region(region, classes, directions);
                    }
                }
                let outcome = self.tracker.rollback();
                self.tracker.join(&[outcome], true);
            } else if regions.len() == 1 {
                self.region(&regions[0], classes, directions);
            } else {
                // One of the regions (an scf.if without else has an empty one).
                let mut outcomes = Vec::new();
                for region in &regions {
                    self.tracker.fork();
                    self.region(region, classes, directions);
                    outcomes.push(self.tracker.rollback());
                }
                self.tracker.join(&outcomes, false);
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

/// Ops whose regions are not part of the enclosing body.

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
    fn alternatives_join() {
        // w0; if { w1 } else { r2 }; r3: r3 waits for w0 (else path) and w1.
        let mut tr = Tracker::default();
        tr.access(0, &[(1, W)]);
        tr.fork();
        tr.access(1, &[(1, W)]);
        let then = tr.rollback();
        tr.fork();
        assert_eq!(tr.access(2, &[(1, R)]).into_iter().collect::<Vec<_>>(), [0]);
        let other = tr.rollback();
        tr.join(&[then, other], false);
        assert_eq!(tr.access(3, &[(1, R)]).into_iter().collect::<Vec<_>>(), [0, 1]);
        // A writer after it waits for both possible writers and both readers.
        assert_eq!(tr.access(4, &[(1, W)]).into_iter().collect::<Vec<_>>(), [0, 1, 2, 3]);
    }

    #[test]
    fn zero_trip_loop_keeps_the_state_before() {
        let mut tr = Tracker::default();
        tr.access(0, &[(1, W)]);
        tr.fork();
        tr.access(1, &[(1, W)]);
        let body = tr.rollback();
        tr.join(&[body], true);
        assert_eq!(tr.access(2, &[(1, R)]).into_iter().collect::<Vec<_>>(), [0, 1]);
    }

    #[test]
    fn unordered_writes_supersede_nothing() {
        let mut tr = Tracker::default();
        tr.unordered = 1;
        tr.access(0, &[(1, R)]);
        tr.access(1, &[(1, W)]);
        assert_eq!(tr.access(2, &[(1, W)]).into_iter().collect::<Vec<_>>(), [0, 1]);
    }

    #[test]
    fn never_depends_on_itself() {
        let mut tr = Tracker::default();
        tr.access(0, &[(1, RW)]);
        assert!(tr.access(0, &[(1, RW)]).is_empty());
    }
}
