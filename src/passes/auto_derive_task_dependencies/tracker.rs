//! The IR-independent core of `--auto-derive-task-dependencies`: what may be
//! outstanding on each alias class ([`Tracker`]) and the minimal edges it
//! implies ([`Graph`]). Unit-tested here; the IR walk is in the parent module.
//!
//! **Semantics** (TensorMap): a task that reads a class depends on the
//! class's last writer; one that writes it, on the last writer and on every
//! reader since. Alternatives (the regions of an `scf.if`, a loop that may
//! run zero times) each start from the state before them and join after.
//!
//! **Minimality.** A task's `pl.task_deps` keeps only the predecessors that
//! no other listed predecessor already implies (transitively): the edges are
//! a subset of the conservative relation's (the one the pass computed before
//! #16, which kept every task any path may have left outstanding) with the
//! same transitive closure, and in loop-free code its transitive reduction
//! (under loops, see below). Three facts keep the
//! state -- and so every candidate list -- small without losing anything
//! from the closure:
//!
//! 1. A writer depends on everything outstanding before it (last writers
//!    and readers since), so after a write the class's state is just that
//!    writer, even among `cf` blocks whose textual order is not their
//!    execution order (the conservative relation kept every earlier writer
//!    there too, but each of those is implied through the new writer).
//! 2. When one alternative of a fork wrote a class, every writer it left
//!    implies everything outstanding before the fork (1, by induction), so
//!    the join keeps only what the alternatives left: the writers and
//!    readers of those that wrote, and the readers the others added.
//! 3. A task's candidates (the union over the classes it touches) are
//!    reduced to those no other candidate reaches ([`Graph::finish`]), by a
//!    search over earlier tasks only, highest id first, that stops as soon
//!    as every candidate is decided (and never goes below the lowest one).
//!
//! Loops and `cf` regions are visited twice (see the parent module), so a
//! task may also depend on a later task: the previous iteration's. Such
//! loop-carried edges make the relation cyclic, and in a cycle every task
//! reaches every other -- but not every such path orders anything: from task
//! `a`, a path that goes around the loop's back edge reaches an *older*
//! instance of its target, not the latest one. So an edge is implied only
//! through a path within one iteration (each step to an earlier task): an
//! earlier candidate is dropped when another earlier candidate reaches it,
//! a later (loop-carried) candidate when another later candidate does. The
//! closure is the conservative relation's either way; in loop-free code this
//! is the exact transitive reduction. (Example: `for { 0: w x, r y; for
//! { 1: w y, r x } }; 2: r x; 3: w x, r y` -- statically 2 -> 0 -> 1
//! reaches 1, but the 1 that 3 must follow, the last one, runs after the
//! last 0; 3 keeps its edge to 1.)
//!
//! Two more cases of the same kind, where a path within one iteration still
//! reaches an older instance (a missing edge is a miscompile, an extra one
//! only a lost reduction, so both are decided conservatively):
//!
//! - Later candidates carried by different loops. The latest run of a later
//!   candidate `c` is from the previous iteration of the innermost loop
//!   around both `t` and `c` (its *carrier*). In `for i { for j { 0: rw x;
//!   1: rw x }; 2: rw x }`, task 0's candidate 1 is carried by the j loop,
//!   2 by the i loop: the latest 2 ran in the previous i, before every 1 of
//!   this one, so 2 -> 1 implies nothing and 0 keeps `[1, 2]`. Later
//!   candidates are reduced only among those with the same carrier (the
//!   walk tells the graph each loop's range of ids, [`Graph::open`]).
//! - An `scf.while` leaves through its before region: once it is over, the
//!   latest run of a before-region task came after the latest run of an
//!   after-region one, so the search never steps from the after region into
//!   the before region of the same while ([`Graph::back_into_before`]).
//!
//! An edge to a task that may not run (it sits in a branch, or a loop that
//! may run zero times) stands for that task's own dependencies, as in the
//! closure: a scheduler completes a skipped task when its dependencies have.

use std::collections::BinaryHeap;

/// A task: its `pl.task_id` (program order).
pub type TaskId = u32;

/// What one task does to one alias class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// The task reads the class.
    pub read: bool,
    /// The task writes the class.
    pub write: bool,
}

/// What may be outstanding on one alias class.
#[derive(Default)]
struct ClassState {
    /// The tasks that may have written it last.
    writers: Vec<TaskId>,
    /// The tasks that may have read it since (duplicates allowed: a loop
    /// body's second visit adds its readers again; removed when consumed).
    readers: Vec<TaskId>,
    /// The journal (fork serial) holding this class's entry, and its index.
    mark: (u32, u32),
}

/// The state of one class before the current fork changed it.
enum Saved {
    /// Only readers were added since the fork: its length then.
    Appended { readers: usize },
    /// Written since the fork: the whole state before.
    Whole {
        writers: Vec<TaskId>,
        readers: Vec<TaskId>,
    },
}

struct Entry {
    class: u32,
    saved: Saved,
    /// The class's mark before this entry.
    outer: (u32, u32),
}

struct Journal {
    serial: u32,
    entries: Vec<Entry>,
}

/// What one alternative left on one class.
enum Left {
    /// It only added readers.
    Appended(Vec<TaskId>),
    /// It wrote the class: the whole state it left.
    Rewritten {
        writers: Vec<TaskId>,
        readers: Vec<TaskId>,
    },
}

/// What one alternative left on every class it touched.
pub struct Outcome(Vec<(u32, Left)>);

/// The dependency tracker: class states, forks and joins, and the graph of
/// minimal edges it builds.
pub struct Tracker {
    classes: Vec<ClassState>,
    journals: Vec<Journal>,
    serial: u32,
    candidates: Vec<TaskId>,
    pub graph: Graph,
}

impl Tracker {
    /// A tracker for `tasks` tasks over `classes` alias classes.
    pub fn new(tasks: usize, classes: usize) -> Self {
        Self {
            classes: (0..classes).map(|_| ClassState::default()).collect(),
            journals: Vec::new(),
            serial: 0,
            candidates: Vec::new(),
            graph: Graph::new(tasks),
        }
    }

    /// Records `task`'s accesses (class, access) and its edges.
    pub fn access(&mut self, task: TaskId, accesses: &[(u32, Access)]) {
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        for &(class, access) in accesses {
            let state = &self.classes[class as usize];
            if access.read || access.write {
                candidates.extend_from_slice(&state.writers);
            }
            if access.write {
                candidates.extend_from_slice(&state.readers);
            }
        }
        self.graph.add(task, &mut candidates);
        self.candidates = candidates;
        for &(class, access) in accesses {
            if access.write {
                self.rewrite(class, vec![task], Vec::new());
            } else if access.read {
                self.append_readers(class, &[task]);
            }
        }
    }

    /// Replaces `class`'s state, journaling the one before the current fork.
    fn rewrite(&mut self, class: u32, writers: Vec<TaskId>, readers: Vec<TaskId>) {
        let state = &mut self.classes[class as usize];
        let old_writers = std::mem::replace(&mut state.writers, writers);
        let mut old_readers = std::mem::replace(&mut state.readers, readers);
        let Some(journal) = self.journals.last_mut() else {
            return;
        };
        if state.mark.0 == journal.serial {
            let entry = &mut journal.entries[state.mark.1 as usize];
            if let Saved::Appended { readers } = entry.saved {
                old_readers.truncate(readers);
                entry.saved = Saved::Whole {
                    writers: old_writers,
                    readers: old_readers,
                };
            }
            return;
        }
        let saved = Saved::Whole {
            writers: old_writers,
            readers: old_readers,
        };
        journal.entries.push(Entry {
            class,
            saved,
            outer: state.mark,
        });
        state.mark = (journal.serial, journal.entries.len() as u32 - 1);
    }

    /// Adds readers to `class`, journaling its length before the current fork.
    fn append_readers(&mut self, class: u32, readers: &[TaskId]) {
        if readers.is_empty() {
            return;
        }
        let state = &mut self.classes[class as usize];
        if let Some(journal) = self.journals.last_mut()
            && state.mark.0 != journal.serial
        {
            let saved = Saved::Appended {
                readers: state.readers.len(),
            };
            journal.entries.push(Entry {
                class,
                saved,
                outer: state.mark,
            });
            state.mark = (journal.serial, journal.entries.len() as u32 - 1);
        }
        state.readers.extend_from_slice(readers);
    }

    /// Starts an alternative from the current state.
    pub fn fork(&mut self) {
        self.serial += 1;
        self.journals.push(Journal {
            serial: self.serial,
            entries: Vec::new(),
        });
    }

    /// Ends the current alternative: restores the state it started from and
    /// returns what it left.
    pub fn rollback(&mut self) -> Outcome {
        let journal = self.journals.pop().expect("rollback after fork");
        let mut left = Vec::with_capacity(journal.entries.len());
        for entry in journal.entries.into_iter().rev() {
            let state = &mut self.classes[entry.class as usize];
            state.mark = entry.outer;
            let l = match entry.saved {
                Saved::Appended { readers } => Left::Appended(state.readers.split_off(readers)),
                Saved::Whole { writers, readers } => Left::Rewritten {
                    writers: std::mem::replace(&mut state.writers, writers),
                    readers: std::mem::replace(&mut state.readers, readers),
                },
            };
            left.push((entry.class, l));
        }
        Outcome(left)
    }

    /// Continues after one of `outcomes` happened, or none of them (the
    /// state before them is one of the alternatives either way: an
    /// alternative that did not touch a class left it as it was).
    pub fn join(&mut self, outcomes: Vec<Outcome>) {
        let mut all: Vec<(u32, Left)> = outcomes.into_iter().flat_map(|o| o.0).collect();
        all.sort_by_key(|(class, _)| *class);
        let mut i = 0;
        while i < all.len() {
            let class = all[i].0;
            let mut j = i;
            while j < all.len() && all[j].0 == class {
                j += 1;
            }
            let group = &mut all[i..j];
            if group
                .iter()
                .any(|(_, l)| matches!(l, Left::Rewritten { .. }))
            {
                // Fact 2: the writers that alternative left imply everything before the fork.
                let (mut writers, mut readers) = (Vec::new(), Vec::new());
                for (_, l) in group.iter_mut() {
                    match l {
                        Left::Rewritten {
                            writers: w,
                            readers: r,
                        } => {
                            writers.append(w);
                            readers.append(r);
                        }
                        Left::Appended(r) => readers.append(r),
                    }
                }
                self.rewrite(class, writers, readers);
            } else {
                let mut readers = Vec::new();
                for (_, l) in group.iter_mut() {
                    if let Left::Appended(r) = l {
                        readers.append(r);
                    }
                }
                self.append_readers(class, &readers);
            }
            i = j;
        }
    }
}

/// A loop (or a region of several blocks, whose blocks may loop): its tasks
/// are the ids from `first` up to `last`.
struct Loop {
    first: TaskId,
    last: TaskId,
    /// An `scf.while`'s first task of the after region (the before region
    /// is `first..after`).
    after: Option<TaskId>,
    parent: Option<u32>,
}

/// The dependency graph being built: each task's candidates, reduced to
/// its minimal predecessors by [`Self::finish`].
pub struct Graph {
    /// Every earlier task each task was a candidate of (ascending): facts of
    /// reachability, each implied by the task's kept earlier edges.
    facts: Vec<Vec<TaskId>>,
    /// Every later task (a previous iteration's) each task was a candidate of.
    later: Vec<Vec<TaskId>>,
    /// The loops, and the innermost one around each task.
    loops: Vec<Loop>,
    innermost: Vec<Option<u32>>,
    /// The loops the walk is in, innermost last.
    open: Vec<u32>,
    /// The id the next new task will have (the walk's first visit is in
    /// program order).
    next: TaskId,
    /// For a task in the after region of an `scf.while`: the innermost such
    /// while.
    after_of: Vec<Option<u32>>,
    // Scratch of the searches.
    serial: u32,
    seen: Vec<u32>,
    candidate: Vec<u32>,
    heap: BinaryHeap<TaskId>,
}

impl Graph {
    pub fn new(tasks: usize) -> Self {
        Self {
            facts: vec![Vec::new(); tasks],
            later: vec![Vec::new(); tasks],
            loops: Vec::new(),
            innermost: vec![None; tasks],
            open: Vec::new(),
            next: 0,
            after_of: vec![None; tasks],
            serial: 0,
            seen: vec![0; tasks],
            candidate: vec![0; tasks],
            heap: BinaryHeap::new(),
        }
    }

    /// A new loop (or region of several blocks) inside the open one; its
    /// tasks are the ones [`Self::add`]ed until [`Self::close`]. Returns its
    /// number, for [`Self::reopen`] on a later visit.
    pub fn open(&mut self) -> u32 {
        let n = self.loops.len() as u32;
        self.loops.push(Loop {
            first: self.next,
            last: 0,
            after: None,
            parent: self.open.last().copied(),
        });
        self.open.push(n);
        n
    }

    /// Enters loop `n` again (a later visit of it).
    pub fn reopen(&mut self, n: u32) {
        self.open.push(n);
    }

    /// The innermost open loop (an `scf.while`) enters its after region.
    pub fn enter_after(&mut self) {
        let n = *self.open.last().expect("enter_after in a loop");
        let next = self.next;
        self.loops[n as usize].after.get_or_insert(next);
    }

    /// Whether the fact `x -> y` (`y < x`) goes from the after region of an
    /// `scf.while` to its before region. Such a step orders `x` after the
    /// `y` of its own iteration, but a while leaves through its before
    /// region: once it is over, the latest `y` ran after the latest `x`, so
    /// a path through this step says nothing about the latest `y` (it is not
    /// followed; only an edge may be kept that a finer rule would drop).
    fn back_into_before(&self, x: TaskId, y: TaskId) -> bool {
        let mut l = self.after_of[x as usize];
        while let Some(n) = l {
            let lp = &self.loops[n as usize];
            if let Some(after) = lp.after
                && x >= after
            {
                if y >= after {
                    return false;
                }
                if y >= lp.first {
                    return true;
                }
            }
            l = lp.parent;
        }
        false
    }

    /// Leaves the innermost open loop.
    pub fn close(&mut self) {
        let n = self.open.pop().expect("close after open");
        let last = self.loops[n as usize].last;
        if let Some(p) = self.loops[n as usize].parent {
            let parent = &mut self.loops[p as usize];
            parent.last = parent.last.max(last);
        }
    }

    /// The innermost loop around both `t` and the later task `c`: the one
    /// whose back edge carries `c`'s latest run to `t` when that loop is not
    /// in its first iteration.
    fn carrier(&self, t: usize, c: TaskId) -> Option<u32> {
        let mut l = self.innermost[t];
        while let Some(n) = l {
            let lp = &self.loops[n as usize];
            if lp.last >= c {
                return Some(n);
            }
            l = lp.parent;
        }
        None
    }

    /// Adds `candidates` (what `task` may wait for, in any order, with
    /// duplicates, maybe itself) to `task`'s candidates.
    pub fn add(&mut self, task: TaskId, candidates: &mut Vec<TaskId>) {
        candidates.sort_unstable();
        candidates.dedup();
        let t = task as usize;
        if let Some(&n) = self.open.last() {
            self.innermost[t] = Some(n);
            let lp = &mut self.loops[n as usize];
            lp.last = lp.last.max(task);
        }
        self.next = self.next.max(task + 1);
        if self.after_of[t].is_none() {
            self.after_of[t] = self.open.iter().rev().copied().find(|&n| {
                self.loops[n as usize]
                    .after
                    .is_some_and(|after| task >= after)
            });
        }
        let split = candidates.partition_point(|&c| c < task);
        let later_start = candidates.partition_point(|&c| c <= task);
        merge(&mut self.facts[t], &candidates[..split]);
        merge(&mut self.later[t], &candidates[later_start..]);
    }

    /// Each task's edges, ascending: of its earlier candidates, those no
    /// other earlier candidate reaches; of its later (loop-carried) ones,
    /// those no other later candidate carried by the same loop reaches.
    /// Reaching is through earlier tasks only (each step to a smaller id:
    /// within one iteration): a path that goes around a loop's back edge
    /// orders the task after an older instance of the target, not after the
    /// latest one, so it implies nothing. For the same reason a later
    /// candidate carried by an outer loop implies nothing about one carried
    /// by an inner loop: its latest run is from the outer loop's previous
    /// iteration, before every run of the inner loop in this one.
    pub fn finish(mut self) -> Vec<Vec<TaskId>> {
        let mut out = Vec::with_capacity(self.facts.len());
        for t in 0..self.facts.len() {
            let earlier = std::mem::take(&mut self.facts[t]);
            let mut deps = self.antichain(&earlier);
            self.facts[t] = earlier;
            let later = std::mem::take(&mut self.later[t]);
            // Ascending, so the carriers go outward: each group is a run.
            let mut start = 0;
            while start < later.len() {
                let carrier = self.carrier(t, later[start]);
                let mut end = start + 1;
                while end < later.len() && self.carrier(t, later[end]) == carrier {
                    end += 1;
                }
                deps.extend(self.antichain(&later[start..end]));
                start = end;
            }
            self.later[t] = later;
            out.push(deps);
        }
        out
    }

    fn next_serial(&mut self) -> u32 {
        self.serial += 1;
        self.serial
    }

    /// The members of `set` (ascending) that no other member reaches
    /// through facts, ascending. The search visits the highest id first,
    /// never enters anything below the lowest member, and stops once every
    /// member but the highest (which nothing above it can reach) has been
    /// reached.
    fn antichain(&mut self, set: &[TaskId]) -> Vec<TaskId> {
        if set.len() <= 1 {
            return set.to_vec();
        }
        let serial = self.next_serial();
        for &s in set {
            self.candidate[s as usize] = serial;
        }
        let min = set[0];
        // The highest member has nothing above it to be reached from.
        let mut undecided = set.len() - 1;
        let mut dominated: Vec<TaskId> = Vec::new();
        self.heap.clear();
        // A member is decided (reached) as soon as it is seen.
        let reach =
            |u: TaskId, graph: &mut Self, dominated: &mut Vec<TaskId>, undecided: &mut usize| {
                for i in 0..graph.facts[u as usize].len() {
                    let f = graph.facts[u as usize][i];
                    if f >= min && graph.seen[f as usize] != serial && !graph.back_into_before(u, f)
                    {
                        graph.seen[f as usize] = serial;
                        if graph.candidate[f as usize] == serial {
                            dominated.push(f);
                            *undecided -= 1;
                        }
                        graph.heap.push(f);
                    }
                }
            };
        for &s in set {
            reach(s, self, &mut dominated, &mut undecided);
        }
        while undecided > 0
            && let Some(u) = self.heap.pop()
        {
            reach(u, self, &mut dominated, &mut undecided);
        }
        if dominated.is_empty() {
            return set.to_vec();
        }
        dominated.sort_unstable();
        set.iter()
            .copied()
            .filter(|s| dominated.binary_search(s).is_err())
            .collect()
    }
}

/// `into` ∪= `new` (both ascending, deduplicated).
fn merge(into: &mut Vec<TaskId>, new: &[TaskId]) {
    if new.is_empty() {
        return;
    }
    if into.is_empty() {
        into.extend_from_slice(new);
        return;
    }
    if new.iter().all(|c| into.binary_search(c).is_ok()) {
        return;
    }
    into.extend_from_slice(new);
    into.sort_unstable();
    into.dedup();
}

#[cfg(test)]
mod tests {
    use super::{Access, TaskId, Tracker};

    pub(super) const R: Access = Access {
        read: true,
        write: false,
    };
    pub(super) const W: Access = Access {
        read: false,
        write: true,
    };
    pub(super) const RW: Access = Access {
        read: true,
        write: true,
    };

    /// Task `t`'s edges if the walk ended here.
    fn deps(tr: &Tracker, t: TaskId) -> Vec<TaskId> {
        let graph = super::Graph {
            facts: tr.graph.facts.clone(),
            later: tr.graph.later.clone(),
            ..super::Graph::new(tr.graph.facts.len())
        };
        graph.finish().swap_remove(t as usize)
    }

    #[test]
    fn seed_stage_collective_consume_is_a_chain() {
        let (a, c, t, out) = (0, 1, 2, 3);
        let mut tr = Tracker::new(3, 4);
        tr.access(0, &[(a, W), (c, W)]);
        tr.access(1, &[(a, R), (t, RW), (c, R)]);
        tr.access(2, &[(t, R), (out, W)]);
        assert_eq!(deps(&tr, 0), [] as [u32; 0]);
        assert_eq!(deps(&tr, 1), [0]);
        assert_eq!(deps(&tr, 2), [1]);
    }

    #[test]
    fn war_and_waw_keep_only_direct_predecessors() {
        let mut tr = Tracker::new(6, 10);
        tr.access(0, &[(1, W)]);
        tr.access(1, &[(1, R)]);
        tr.access(2, &[(1, R)]);
        // A writer waits for both readers; the last writer is implied by them.
        tr.access(3, &[(1, W)]);
        assert_eq!(deps(&tr, 3), [1, 2]);
        tr.access(4, &[(1, R)]);
        assert_eq!(deps(&tr, 4), [3]);
        tr.access(5, &[(9, RW)]);
        assert!(deps(&tr, 5).is_empty());
    }

    #[test]
    fn across_classes_an_implied_edge_is_dropped() {
        // 0 writes a; 1 reads a, writes b; 2 reads a and b: 0 is implied by 1.
        let mut tr = Tracker::new(3, 2);
        tr.access(0, &[(0, W)]);
        tr.access(1, &[(0, R), (1, W)]);
        tr.access(2, &[(0, R), (1, R)]);
        assert_eq!(deps(&tr, 2), [1]);
    }

    #[test]
    fn a_branch_writer_implies_the_writer_before() {
        // w0; if { w1 } else { r2 }; r3: r3 waits for w1 (which waits for w0) and w0.
        let mut tr = Tracker::new(5, 1);
        tr.access(0, &[(0, W)]);
        tr.fork();
        tr.access(1, &[(0, W)]);
        let then = tr.rollback();
        tr.fork();
        tr.access(2, &[(0, R)]);
        let other = tr.rollback();
        tr.join(vec![then, other]);
        tr.access(3, &[(0, R)]);
        assert_eq!(deps(&tr, 1), [0]);
        assert_eq!(deps(&tr, 2), [0]);
        assert_eq!(deps(&tr, 3), [1]);
        // A writer after it waits for both readers (each implies its writer).
        tr.access(4, &[(0, W)]);
        assert_eq!(deps(&tr, 4), [2, 3]);
    }

    #[test]
    fn guarded_chain_is_linear() {
        // N tasks, each `if { rw x }`: each waits for the previous one only.
        let n = 1000;
        let mut tr = Tracker::new(n, 1);
        for t in 0..n as TaskId {
            tr.fork();
            tr.access(t, &[(0, RW)]);
            let o = tr.rollback();
            tr.join(vec![o]);
        }
        for t in 1..n as TaskId {
            assert_eq!(deps(&tr, t), [t - 1]);
        }
    }

    #[test]
    fn loop_carried_edges() {
        // loop { r0 x; w1 x } visited twice: 0 waits for 1 (previous
        // iteration), 1 for 0.
        let mut tr = Tracker::new(2, 1);
        tr.fork();
        for _ in 0..2 {
            tr.access(0, &[(0, R)]);
            tr.access(1, &[(0, W)]);
        }
        let body = tr.rollback();
        tr.join(vec![body]);
        let deps = tr.graph.finish();
        assert_eq!(deps, [vec![1], vec![0]]);
    }

    #[test]
    fn never_depends_on_itself() {
        let mut tr = Tracker::new(1, 1);
        tr.access(0, &[(0, RW)]);
        tr.access(0, &[(0, RW)]);
        assert!(deps(&tr, 0).is_empty());
    }
}

#[cfg(test)]
mod loop_tests {
    use super::Tracker;
    use super::tests::{R, RW, W};

    #[test]
    fn a_path_around_a_loop_implies_nothing() {
        // for { 0: w x, r y; for { 1: w y, r x } }; 2: r x; 3: w x, r y.
        // Task 3 reads y, last written by the last 1, which may follow the
        // last 0: the static path 2 -> 0 -> 1 (0's loop-carried edge to the
        // previous outer iteration's 1) does not order 3 after the latest 1.
        let (x, y) = (0, 1);
        let mut tr = Tracker::new(4, 2);
        tr.fork();
        for visit in 0..2 {
            tr.access(0, &[(x, RW), (y, R)]);
            tr.fork();
            for _ in 0..(2 - visit) {
                tr.access(1, &[(y, RW), (x, R)]);
            }
            let inner = tr.rollback();
            tr.join(vec![inner]);
        }
        let outer = tr.rollback();
        tr.join(vec![outer]);
        tr.access(2, &[(x, R)]);
        tr.access(3, &[(x, RW), (y, R)]);
        let deps = tr.graph.finish();
        assert_eq!(deps[0], [1]);
        assert_eq!(deps[1], [0]);
        assert_eq!(deps[2], [0]);
        assert_eq!(deps[3], [1, 2]);
    }

    #[test]
    fn an_outer_loop_carried_edge_implies_no_inner_one() {
        // for i { for j { 0: rw x; 1: rw x }; 2: rw x }. In iteration j > 0
        // task 0 must follow the previous j's 1; the latest 2 is from the
        // previous i, before it, so 2 (which statically reaches 1) does not
        // imply that edge.
        let x = 0;
        let mut tr = Tracker::new(3, 1);
        tr.fork();
        tr.graph.open();
        for visit in 0..2 {
            tr.fork();
            if visit == 0 {
                tr.graph.open();
            } else {
                tr.graph.reopen(1);
            }
            for _ in 0..(2 - visit) {
                tr.access(0, &[(x, RW)]);
                tr.access(1, &[(x, RW)]);
            }
            tr.graph.close();
            let inner = tr.rollback();
            tr.join(vec![inner]);
            tr.access(2, &[(x, RW)]);
        }
        tr.graph.close();
        let outer = tr.rollback();
        tr.join(vec![outer]);
        let deps = tr.graph.finish();
        assert_eq!(deps, [vec![1, 2], vec![0], vec![1]]);
    }

    #[test]
    fn later_candidates_reduce_among_themselves() {
        // for { 0: r x, r y; 1: w x; 2: r x, w y }: on the second visit 0
        // waits for 1 and 2 of the previous iteration; 2 implies 1 there.
        // 1 waits for this iteration's reader 0 and the previous one's 2:
        // an earlier and a later candidate never imply each other.
        let (x, y) = (0, 1);
        let mut tr = Tracker::new(3, 2);
        tr.fork();
        for _ in 0..2 {
            tr.access(0, &[(x, R), (y, R)]);
            tr.access(1, &[(x, W)]);
            tr.access(2, &[(x, R), (y, W)]);
        }
        let body = tr.rollback();
        tr.join(vec![body]);
        let deps = tr.graph.finish();
        assert_eq!(deps[0], [2]);
        assert_eq!(deps[1], [0, 2]);
        assert_eq!(deps[2], [1]);
    }

    #[test]
    fn unwritten_classes_do_not_order() {
        let mut tr = Tracker::new(2, 2);
        tr.access(0, &[(0, W)]);
        tr.access(1, &[(1, R)]);
        assert!(tr.graph.finish()[1].is_empty());
    }
}
