//! The dependency derivation as it was before issue #16 (conservative: every
//! task any path may have left outstanding), kept verbatim as the reference
//! the minimal edges are checked against: the same transitive closure, and
//! every minimal edge one of these.

use crate::ir::at::OpAt as _;
use crate::{
    analysis::alias::AliasClasses, analysis::directions::Directions, ir::op_kind::op_id,
    ir::types::is_tensor_like, ir::walk::ops_of_kind,
};
use melior::ir::{
    BlockLike, BlockRef, RegionLike, ValueLike,
    operation::{OperationLike, OperationRef},
};
use std::collections::{BTreeSet, HashMap, HashSet};

/// The ops that run a callee as one task (the reference names them; the pass
/// asks `OpKind`).

/// Ops that open a scope of their own: not part of the enclosing function.
const NESTED_SCOPES: [&str; 2] = ["builtin.module", "func.func"];

/// The tasks of one body: ids and dependency lists.
pub fn plan_function<'c, 'a>(
    func: &OperationRef<'c, 'a>,
    directions: &mut Directions<'c, 'a>,
) -> Vec<(OperationRef<'c, 'a>, i64, Vec<i64>)> {
    let tasks = ops_of_kind(func, |k| k.is_call() || k.is_collective());
    if tasks.is_empty() {
        return Vec::new();
    }
    let ids: HashMap<usize, i64> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (op_id(t), i as i64))
        .collect();
    let mut classes = AliasClasses::of_function(func, directions.trace(), directions.functions());
    let mut walker = Walker {
        ids: &ids,
        tracker: Tracker::default(),
        deps: HashMap::new(),
        doubled: HashSet::new(),
    };
    if let Some(region) = func.region_at(0) {
        walker.region(&region, &mut classes, directions);
    }
    tasks
        .into_iter()
        .map(|t| {
            let id = ids[&op_id(&t)];
            let deps = walker
                .deps
                .remove(&id)
                .unwrap_or_default()
                .into_iter()
                .collect();
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
            let mut joined = if or_none {
                current.clone()
            } else {
                ClassState::default()
            };
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
        let several = region
            .first_block()
            .and_then(|b| b.next_in_region())
            .is_some();
        let visits = if several && self.doubled.insert(region.to_raw().ptr as usize) {
            2
        } else {
            1
        };
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

    fn block<'c, 'a>(
        &mut self,
        block: &BlockRef<'c, 'a>,
        classes: &mut AliasClasses,
        directions: &mut Directions<'c, 'a>,
    ) {
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if let Some(&id) = self.ids.get(&op_id(&op)) {
                self.task(&op, id, classes, directions);
            }
            let regions: Vec<_> = op.regions().collect();
            if regions.is_empty()
                || NESTED_SCOPES.contains(&op.name().as_string_ref().as_str().unwrap_or(""))
            {
                continue;
            }
            if matches!(
                op.name().as_string_ref().as_str(),
                Ok("scf.for" | "scf.while")
            ) {
                // Zero or more iterations. (Not verbatim: an scf.while runs
                // its before region once, then after and before zero or more
                // times; it was walked as one body, left after the after
                // region.)
                let visits = if self.doubled.insert(op_id(&op)) {
                    2
                } else {
                    1
                };
                let while_loop =
                    op.name().as_string_ref().as_str() == Ok("scf.while") && regions.len() == 2;
                let (exit, body) = regions.split_at(usize::from(while_loop));
                for region in exit {
                    self.region(region, classes, directions);
                }
                self.tracker.fork();
                for _ in 0..visits {
                    for region in body.iter().chain(exit) {
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
        // (Not verbatim: the runtime-allocated results of a pl.submit are
        // writes too, as in the pass.)
        let written_results = crate::ir::calls::runtime_alloc_outs(op)
            .into_iter()
            .filter_map(|n| usize::try_from(n).ok())
            .filter_map(|n| op.result_at(n))
            .map(|r| (r.into(), crate::ir::direction::Direction::Out));
        let operands = op.operands().enumerate().map(|(i, value)| {
            let d = dirs
                .get(i)
                .copied()
                .unwrap_or(crate::ir::direction::Direction::In);
            (value, d)
        });
        for (value, d) in operands.chain(written_results) {
            if !is_tensor_like(value.r#type()) {
                continue;
            }
            let class = classes.class(value);
            match accesses.iter_mut().find(|(c, _)| *c == class) {
                Some((_, a)) => {
                    a.read |= d.reads();
                    a.write |= d.writes();
                }
                None => accesses.push((
                    class,
                    Access {
                        read: d.reads(),
                        write: d.writes(),
                    },
                )),
            }
        }
        let deps = self.tracker.access(id, &accesses);
        self.deps.entry(id).or_default().extend(deps);
    }
}
