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
//! no other listed predecessor already implies (transitively), so the list
//! is the transitive reduction of the conservative relation (the one the
//! pass computed before #16, which kept every task any path may have left
//! outstanding) and has the same transitive closure. Three facts keep the
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
//!    reduced to those no other candidate reaches ([`Graph::add`]), by a
//!    search over earlier tasks only, highest id first, that stops as soon
//!    as every candidate is decided.
//!
//! Loops and `cf` regions are visited twice (see the parent module), so a
//! task may also depend on a later task (the previous iteration's). Such
//! loop-carried edges make the relation cyclic; [`Graph::finish`] then
//! removes, greedily, every edge another listed predecessor implies through
//! a path that avoids the task itself (the reduction of a cyclic relation is
//! not unique; this one keeps the closure and leaves no implied edge). The
//! search is bounded by the id range of the outermost loop around each task
//! ([`Graph::set_cyclic_range`]): nothing reachable from a task lies past
//! the end of its outermost loop.
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
    pub read: bool,
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
    Whole { writers: Vec<TaskId>, readers: Vec<TaskId> },
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
    Rewritten { writers: Vec<TaskId>, readers: Vec<TaskId> },
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
        let Some(journal) = self.journals.last_mut() else { return };
        if state.mark.0 == journal.serial {
            let entry = &mut journal.entries[state.mark.1 as usize];
            if let Saved::Appended { readers } = entry.saved {
                old_readers.truncate(readers);
                entry.saved = Saved::Whole { writers: old_writers, readers: old_readers };
            }
            return;
        }
        let saved = Saved::Whole { writers: old_writers, readers: old_readers };
        journal.entries.push(Entry { class, saved, outer: state.mark });
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
            let saved = Saved::Appended { readers: state.readers.len() };
            journal.entries.push(Entry { class, saved, outer: state.mark });
            state.mark = (journal.serial, journal.entries.len() as u32 - 1);
        }
        state.readers.extend_from_slice(readers);
    }

    /// Starts an alternative from the current state.
    pub fn fork(&mut self) {
        self.serial += 1;
        self.journals.push(Journal { serial: self.serial, entries: Vec::new() });
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
            if group.iter().any(|(_, l)| matches!(l, Left::Rewritten { .. })) {
                // Fact 2: the writers that alternative left imply everything before the fork.
                let (mut writers, mut readers) = (Vec::new(), Vec::new());
                for (_, l) in group.iter_mut() {
                    match l {
                        Left::Rewritten { writers: w, readers: r } => {
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

/// The dependency graph being built: each task's minimal predecessors.
pub struct Graph {
    /// The kept edges of each task (ascending once finished).
    deps: Vec<Vec<TaskId>>,
    /// Every earlier task each task was a candidate of (ascending): facts of
    /// reachability (each is implied by the kept edges), searched by
    /// [`Self::add`] for the shortest way to a candidate.
    facts: Vec<Vec<TaskId>>,
    visited: Vec<bool>,
    /// A task got new edges on a second visit: [`Self::finish`] has work.
    revisited: bool,
    /// The last task of the outermost loop (or `cf` region) around each task
    /// (the task itself outside any).
    horizon: Vec<TaskId>,
    // Scratch of the searches.
    serial: u32,
    seen: Vec<u32>,
    candidate: Vec<u32>,
    heap: BinaryHeap<TaskId>,
    stack: Vec<TaskId>,
}

impl Graph {
    pub fn new(tasks: usize) -> Self {
        Self {
            deps: vec![Vec::new(); tasks],
            facts: vec![Vec::new(); tasks],
            visited: vec![false; tasks],
            revisited: false,
            horizon: (0..tasks as TaskId).collect(),
            serial: 0,
            seen: vec![0; tasks],
            candidate: vec![0; tasks],
            heap: BinaryHeap::new(),
            stack: Vec::new(),
        }
    }

    /// Tasks `first..=last` form one outermost loop (or `cf` region).
    pub fn set_cyclic_range(&mut self, first: TaskId, last: TaskId) {
        for t in first..=last {
            self.horizon[t as usize] = last;
        }
    }

    fn next_serial(&mut self) -> u32 {
        self.serial += 1;
        self.serial
    }

    /// Adds `candidates` (what `task` may wait for, in any order, with
    /// duplicates) to `task`'s edges, keeping only those no other earlier
    /// candidate reaches (loop-carried ones are left to [`Self::finish`]).
    pub fn add(&mut self, task: TaskId, candidates: &mut Vec<TaskId>) {
        candidates.sort_unstable();
        candidates.dedup();
        let t = task as usize;
        let split = candidates.partition_point(|&c| c < task);
        let later_start = candidates.partition_point(|&c| c <= task);
        let (earlier, later) = (&candidates[..split], &candidates[later_start..]);
        if self.visited[t] {
            let known = |c: &TaskId| self.facts[t].binary_search(c).is_ok();
            let known_later = |c: &TaskId| self.deps[t].binary_search(c).is_ok();
            if earlier.iter().all(known) && later.iter().all(known_later) {
                return;
            }
            self.revisited = true;
        }
        self.visited[t] = true;
        let mut facts = std::mem::take(&mut self.facts[t]);
        if facts.is_empty() {
            facts.extend_from_slice(earlier);
        } else {
            facts.extend_from_slice(earlier);
            facts.sort_unstable();
            facts.dedup();
        }
        let mut later_deps: Vec<TaskId> = self.deps[t].iter().copied().filter(|&d| d > task).collect();
        if !later.is_empty() {
            later_deps.extend_from_slice(later);
            later_deps.sort_unstable();
            later_deps.dedup();
        }
        let mut deps = self.antichain(&facts);
        deps.extend(later_deps);
        self.facts[t] = facts;
        self.deps[t] = deps;
    }

    /// The members of `set` (ascending, all earlier than the task asking)
    /// that no other member reaches through earlier tasks' facts.
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
        for &s in set {
            for &f in &self.facts[s as usize] {
                if f >= min && self.seen[f as usize] != serial {
                    self.seen[f as usize] = serial;
                    self.heap.push(f);
                }
            }
        }
        // Highest id first: a member is decided once everything above it is.
        while undecided > 0
            && let Some(u) = self.heap.pop()
        {
            if self.candidate[u as usize] == serial {
                dominated.push(u);
                undecided -= 1;
            }
            for &f in &self.facts[u as usize] {
                if f >= min && self.seen[f as usize] != serial {
                    self.seen[f as usize] = serial;
                    self.heap.push(f);
                }
            }
        }
        if dominated.is_empty() {
            return set.to_vec();
        }
        dominated.sort_unstable();
        set.iter().copied().filter(|s| dominated.binary_search(s).is_err()).collect()
    }

    /// Removes every edge that another edge of the same task implies through
    /// a path avoiding the task (only needed when loops added edges on a
    /// second visit), and returns each task's edges, ascending.
    pub fn finish(mut self) -> Vec<Vec<TaskId>> {
        if self.revisited {
            for t in 0..self.deps.len() {
                if self.deps[t].len() >= 2 {
                    self.reduce_cyclic(t as TaskId);
                }
            }
        }
        self.deps
    }

    fn reduce_cyclic(&mut self, task: TaskId) {
        let mut deps = std::mem::take(&mut self.deps[task as usize]);
        // Loop-carried edges first (latest first), then the earlier ones
        // oldest first: an older edge is the likelier to be implied.
        let mut order: Vec<TaskId> = deps.iter().copied().filter(|&d| d > task).rev().collect();
        order.extend(deps.iter().copied().filter(|&d| d < task));
        for d in order {
            if deps.len() < 2 {
                break;
            }
            if self.reaches(&deps, d, task) {
                if std::env::var("PLD_DBG").is_ok() { eprintln!("DBG remove {} {} {}", task, d, if d > task {"back"} else {"fwd"}); }
                deps.retain(|&x| x != d);
            }
        }
        self.deps[task as usize] = deps;
    }

    /// Whether a member of `from` other than `target` reaches `target` over
    /// the kept edges without passing through `avoid`.
    fn reaches(&mut self, from: &[TaskId], target: TaskId, avoid: TaskId) -> bool {
        let serial = self.next_serial();
        self.seen[avoid as usize] = serial;
        self.stack.clear();
        for &s in from {
            if s != target && self.seen[s as usize] != serial {
                self.seen[s as usize] = serial;
                self.stack.push(s);
            }
        }
        while let Some(u) = self.stack.pop() {
            for i in 0..self.deps[u as usize].len() {
                let v = self.deps[u as usize][i];
                if v == target {
                    return true;
                }
                // Nothing past the end of its outermost loop is reachable from v.
                if self.seen[v as usize] == serial || v.max(self.horizon[v as usize]) < target {
                    continue;
                }
                self.seen[v as usize] = serial;
                self.stack.push(v);
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::{Access, TaskId, Tracker};

    const R: Access = Access { read: true, write: false };
    const W: Access = Access { read: false, write: true };
    const RW: Access = Access { read: true, write: true };

    fn deps(tr: &Tracker, t: TaskId) -> Vec<TaskId> {
        let mut d = tr.graph.deps[t as usize].clone();
        d.sort_unstable();
        d
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
    fn loop_carried_edges_are_reduced() {
        // loop { r0 x; w1 x } visited twice: 0 waits for 1 (previous
        // iteration), 1 for 0.
        let mut tr = Tracker::new(2, 1);
        tr.graph.set_cyclic_range(0, 1);
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
