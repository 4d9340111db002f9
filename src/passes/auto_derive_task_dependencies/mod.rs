//! `--auto-derive-task-dependencies` (AutoDeriveTaskDependencies): in every
//! orchestration body (`orchestration` / `graph`, either level), numbers each
//! task -- `func.call`, `pl.submit`, `pld.host.dispatch`, a managed
//! collective still left for a later rail, and in a CHIP body a
//! `pl.tensor.assemble` (target inout, source in: pld-translate makes it a
//! task of the builtin copy kernel) -- in program order from 0
//! (`pl.task_id`) and gives it its minimal dependency list (`pl.task_deps`,
//! ascending, never itself).
//!
//! Each tensor-like argument is an access of its alias class
//! (`crate::analysis::alias`) with the argument's direction (`pl.arg_directions`,
//! else the callee's parameter directions; a collective's are fixed), and each
//! result a `pl.submit` leaves to the runtime (`runtime_alloc_outs`) is a
//! write of its own (fresh) class, with
//! TensorMap semantics: a read depends on the class's last writer (RAW); a
//! write depends on the last writer (WAW) and on every reader since (WAR).
//! The regions of an `scf.if` (or any other multi-region op) are
//! alternatives: each starts from the state before it, and after it every
//! writer or reader any branch may have left stays outstanding. A loop
//! (`scf.for` / `scf.while`) may run zero times, so what came before it stays
//! outstanding too; its body is visited twice, so a task also depends on the
//! previous iteration's accesses (a loop-carried edge may name a later task
//! id). An `scf.while` runs its before region at least once and leaves
//! through it: it is walked as before, then (after, before) zero or more
//! times, so what follows it waits for the before region's last accesses. The blocks of a region with several blocks (`cf` branches) run in any
//! order and may loop: they are visited twice. Only a loop's or region's
//! first encounter is doubled: a visit from any state leaves the same state
//! as two, and the second visit's extra edges do not depend on the state it
//! started from, so re-doubling a loop nested in another loop's second visit
//! adds nothing -- and would make a nest of depth d cost 2^d visits.
//!
//! `pl.task_deps` then keeps only the direct predecessors that no other
//! listed predecessor already implies: the transitive reduction of that
//! relation, with the same transitive closure (how, and why it stays linear
//! under branches, loops and `cf` joins: `tracker`). The synthesized
//! collective kernel is a task like any user kernel: its directions
//! `in, inout, inout, in, inout` order it after the task that wrote its input
//! and before the one that reads its target.

mod tracker;

#[cfg(test)]
mod reference;

use super::{Analyses, AutoDeriveTaskDependenciesStatistics, Effect, ModulePass};
use crate::ir::at::OpAt as _;
use crate::{
    analysis::alias::AliasClasses,
    analysis::directions::{Direction, Directions},
    error::PldError,
    ir::attributes::{DiscardableAttrSetter, i64_attr},
    ir::calls::runtime_alloc_outs,
    ir::func_kind::{is_chip_orchestration, is_orchestration_body},
    ir::handle_maps::{NameMap, PtrMap},
    ir::op_kind::{OpKind, op_id, op_kind},
    ir::types::is_tensor_like,
    ir::walk::{module_body, module_functions},
};
use melior::ir::{
    Attribute, BlockLike, BlockRef, Identifier, RegionLike, RegionRef, ValueLike,
    attribute::ArrayAttribute,
    operation::{OperationLike, OperationRef},
};
use std::collections::{HashMap, HashSet};
use tracker::Tracker;
pub use tracker::{Access, TaskId};

/// The pass, with what its last run counted.
#[derive(Clone, Default)]
pub struct AutoDeriveTaskDependencies {
    statistics: AutoDeriveTaskDependenciesStatistics,
}

impl ModulePass for AutoDeriveTaskDependencies {
    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        self.run_with(module, &mut Analyses::default())
    }
    fn run_with(&mut self, module: OperationRef, analyses: &mut Analyses) -> Result<(), PldError> {
        module_body(&module)?;
        let directions = analyses.directions(&module);
        let mut plans: Vec<(OperationRef, i64, Vec<i64>)> = Vec::new();
        for func in module_functions(&module)
            .iter()
            .filter(|f| is_orchestration_body(f))
        {
            plans.extend(plan_function(func, directions));
        }
        let context_ref = module.context();
        let context = crate::ir::context_borrow::borrow(&context_ref);
        self.statistics.tasks_numbered = plans.len() as u64;
        self.statistics.task_dependencies =
            plans.iter().map(|(_, _, deps)| deps.len() as u64).sum();
        let (task_id, task_deps) = (
            Identifier::new(context, "pl.task_id"),
            Identifier::new(context, "pl.task_deps"),
        );
        // Functions of the same shape number their tasks alike: each id,
        // list and resulting dictionary is built once (all are uniqued).
        let mut ints: NameMap<i64, Attribute> = NameMap::default();
        let mut int = |v: i64| *ints.entry(v).or_insert_with(|| i64_attr(context, v));
        let mut lists: NameMap<Vec<i64>, Attribute> = NameMap::default();
        let mut setter = DiscardableAttrSetter::default();
        for (op, id, deps) in plans {
            let id = int(id);
            let deps = match lists.get(&deps) {
                Some(&list) => list,
                None => {
                    let items: Vec<Attribute> = deps.iter().map(|&d| int(d)).collect();
                    let list = ArrayAttribute::new(context, &items).into();
                    lists.insert(deps, list);
                    list
                }
            };
            setter.set_all(&op, &[(task_id, id), (task_deps, deps)]);
        }
        Ok(())
    }
    fn statistics(&self) -> AutoDeriveTaskDependenciesStatistics {
        self.statistics
    }
    fn effect(&self) -> Effect {
        // Attributes only (pl.task_id, pl.task_deps).
        Effect::KeepsAnalyses
    }
}

/// The tasks of one body: ids and minimal dependency lists.
fn plan_function<'c, 'a>(
    func: &OperationRef<'c, 'a>,
    directions: &mut Directions<'c, 'a>,
) -> Vec<(OperationRef<'c, 'a>, i64, Vec<i64>)> {
    // In a CHIP body a pl.tensor.assemble is a task too: it becomes a task of the builtin copy
    // kernel (docs/codegen.md), which only its tensors and these dependencies order.
    let chip = is_chip_orchestration(func);
    let tasks = directions.ops_of_kind(func, |k| {
        k.is_call() || k.is_collective() || (chip && k == OpKind::Assemble)
    });
    if tasks.is_empty() {
        return Vec::new();
    }
    let ids: PtrMap<TaskId> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (op_id(t), i as TaskId))
        .collect();
    let mut classes = directions.take_classes(func);
    // Each task's accesses, once (every visit of a loop body reuses them),
    // over dense class numbers.
    let mut dense: PtrMap<u32> = PtrMap::default();
    let accesses: Vec<Vec<(u32, Access)>> = tasks
        .iter()
        .map(|t| task_accesses(t, &mut classes, directions, &mut dense))
        .collect();
    directions.put_classes(func, classes);
    let mut walker = Walker {
        ids: &ids,
        accesses: &accesses,
        tracker: Tracker::new(tasks.len(), dense.len()),
        doubled: HashSet::new(),
        loops: HashMap::new(),
    };
    if let Some(region) = func.region_at(0) {
        walker.region(&region);
    }
    let deps = walker.tracker.graph.finish();
    tasks
        .into_iter()
        .zip(deps)
        .enumerate()
        .map(|(id, (t, deps))| (t, id as i64, deps.into_iter().map(i64::from).collect()))
        .collect()
}

/// What a task does to each alias class it touches.
fn task_accesses<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    classes: &mut AliasClasses,
    directions: &mut Directions<'c, 'a>,
    dense: &mut PtrMap<u32>,
) -> Vec<(u32, Access)> {
    let dirs = if op_kind(op) == OpKind::Assemble {
        // Its target is read and written (outside the box it keeps), its source read.
        vec![Direction::InOut, Direction::In]
    } else {
        directions.operand_directions(op)
    };
    let mut accesses: Vec<(u32, Access)> = Vec::new();
    // The operands with their directions, then (pl.submit) each result the
    // runtime allocates: the task writes it (it is the callee's `out`
    // parameter), so a later reader or writer of it is ordered after the task.
    let written_results = runtime_alloc_outs(op)
        .into_iter()
        .filter_map(|n| usize::try_from(n).ok())
        .filter_map(|n| op.result_at(n))
        .map(|r| (r.into(), Direction::Out));
    let operands = op
        .operands()
        .enumerate()
        .map(|(i, value)| (value, dirs.get(i).copied().unwrap_or(Direction::In)));
    for (value, d) in operands.chain(written_results) {
        if !is_tensor_like(value.r#type()) {
            continue;
        }
        let next = dense.len() as u32;
        let class = *dense.entry(classes.class(value)).or_insert(next);
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
    accesses
}

struct Walker<'m> {
    ids: &'m PtrMap<TaskId>,
    accesses: &'m [Vec<(u32, Access)>],
    tracker: Tracker,
    /// Loops (ops) and multi-block regions already visited twice.
    doubled: HashSet<usize>,
    /// The graph's number of each loop and multi-block region.
    loops: HashMap<usize, u32>,
}

impl Walker<'_> {
    /// Enters the loop (or multi-block region) `key` in the graph's loop tree.
    fn open_loop(&mut self, key: usize) {
        match self.loops.get(&key) {
            Some(&n) => self.tracker.graph.reopen(n),
            None => {
                let n = self.tracker.graph.open();
                self.loops.insert(key, n);
            }
        }
    }

    fn region(&mut self, region: &RegionRef) {
        let several = region
            .first_block()
            .and_then(|b| b.next_in_region())
            .is_some();
        let key = region.to_raw().ptr as usize;
        let visits = if several && self.doubled.insert(key) {
            2
        } else {
            1
        };
        // Blocks run in any order, any number of times: a loop.
        if several {
            self.open_loop(key);
        }
        for _ in 0..visits {
            let mut block = region.first_block();
            while let Some(b) = block {
                self.block(&b);
                block = b.next_in_region();
            }
        }
        if several {
            self.tracker.graph.close();
        }
    }

    fn block(&mut self, block: &BlockRef) {
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if let Some(&id) = self.ids.get(&op_id(&op)) {
                self.task(id);
            }
            if op.region_count() == 0 {
                continue;
            }
            let kind = op_kind(&op);
            if kind.is_nested_scope() {
                continue;
            }
            let regions: Vec<_> = op.regions().collect();
            if matches!(kind, OpKind::ScfFor | OpKind::ScfWhile) {
                let visits = if self.doubled.insert(op_id(&op)) {
                    2
                } else {
                    1
                };
                // An scf.for runs its body zero or more times; an scf.while
                // its before region once, then the after region and the
                // before region again zero or more times: it leaves through
                // the before region.
                let while_loop = kind == OpKind::ScfWhile && regions.len() == 2;
                let (exit, body) = regions.split_at(usize::from(while_loop));
                self.open_loop(op_id(&op));
                for region in exit {
                    self.region(region);
                }
                self.tracker.fork();
                for _ in 0..visits {
                    if while_loop {
                        self.tracker.graph.enter_after();
                    }
                    for region in body.iter().chain(exit) {
                        self.region(region);
                    }
                }
                self.tracker.graph.close();
                let outcome = self.tracker.rollback();
                self.tracker.join(vec![outcome]);
            } else if regions.len() == 1 {
                self.region(&regions[0]);
            } else {
                // One of the regions (an scf.if without else has an empty one).
                let mut outcomes = Vec::with_capacity(regions.len());
                for region in &regions {
                    self.tracker.fork();
                    self.region(region);
                    outcomes.push(self.tracker.rollback());
                }
                self.tracker.join(outcomes);
            }
        }
    }

    fn task(&mut self, id: TaskId) {
        self.tracker.access(id, &self.accesses[id as usize]);
    }
}

#[cfg(test)]
mod tests;
