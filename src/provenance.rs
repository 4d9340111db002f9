//! Window provenance and communication domains (`shared/spec/domains.md`).
//!
//! - [`RootSets`]: which roots a value is traced to through the contiguity
//!   trace's steps ([`ContiguityTrace::sources`]) — a function parameter
//!   index on the CHIP side, a `pld.window_buffer` on the HOST side. Memoized
//!   over the module and computed per strongly connected component (loops make
//!   the graph cyclic), so every value is visited once: one provenance map,
//!   not one trace per query.
//! - The domain of a window buffer (its `pld.comm_domain` operand, or the
//!   implicit domain), and the checks both rails run over a collective's
//!   resolved windows: pairwise-distinct allocations, one domain, NR = ranks.
//! - [`check_dispatched_collectives`]: the CHIP rail's interprocedural phase.

use crate::{
    contiguity::ContiguityTrace,
    diag,
    func_kind::{is_chip_orchestration, symbol_name},
    ir_util::{key, op_key, op_name},
    ptr_map::PtrMap,
    tensor_type::TensorLike,
};
use melior::ir::{
    Location, Value, ValueLike,
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
};
use std::{collections::HashMap, rc::Rc};

/// Memoized root sets of values (see the module doc).
#[derive(Default)]
pub struct RootSets {
    done: PtrMap<Rc<[usize]>>,
    /// Values stepped through (each once).
    pub steps: u64,
}

#[derive(Default)]
struct Open {
    counter: usize,
    index: PtrMap<usize>,
    low: PtrMap<usize>,
    stack: Vec<usize>,
}

struct Frame<'c, 'a> {
    value: Value<'c, 'a>,
    sources: Vec<Value<'c, 'a>>,
    next: usize,
    acc: Vec<usize>,
}

impl RootSets {
    /// The sorted, deduplicated roots `start` is traced to. `leaf` names the
    /// root of a value the trace has no sources for (a root of the trace);
    /// a value the trace rejects has no roots.
    pub fn get<'c, 'a>(
        &mut self,
        start: Value<'c, 'a>,
        trace: &ContiguityTrace<'c, 'a>,
        leaf: &dyn Fn(Value<'c, 'a>) -> Option<usize>,
    ) -> Rc<[usize]> {
        if let Some(set) = self.done.get(&key(start)) {
            return set.clone();
        }
        // A root (e.g. a `pld.window`): no component to open.
        if let Ok(sources) = trace.sources(start)
            && sources.is_empty()
        {
            self.steps += 1;
            let set: Rc<[usize]> = leaf(start).into_iter().collect();
            self.done.insert(key(start), set.clone());
            return set;
        }
        let mut t = Open::default();
        let open = |t: &mut Open, v: Value<'c, 'a>, steps: &mut u64| -> Frame<'c, 'a> {
            *steps += 1;
            let k = key(v);
            t.index.insert(k, t.counter);
            t.low.insert(k, t.counter);
            t.counter += 1;
            t.stack.push(k);
            match trace.sources(v) {
                Ok(s) if s.is_empty() => Frame { value: v, sources: s, next: 0, acc: leaf(v).into_iter().collect() },
                Ok(s) => Frame { value: v, sources: s, next: 0, acc: Vec::new() },
                Err(_) => Frame { value: v, sources: Vec::new(), next: 0, acc: Vec::new() },
            }
        };
        let mut frames = vec![open(&mut t, start, &mut self.steps)];
        loop {
            let Some(frame) = frames.last_mut() else { break };
            if frame.next < frame.sources.len() {
                let source = frame.sources[frame.next];
                frame.next += 1;
                let k = key(source);
                if let Some(set) = self.done.get(&k) {
                    frame.acc.extend(set.iter().copied());
                } else if let Some(&i) = t.index.get(&k) {
                    let v = key(frame.value);
                    let l = t.low[&v].min(i);
                    t.low.insert(v, l);
                } else {
                    let f = open(&mut t, source, &mut self.steps);
                    frames.push(f);
                }
                continue;
            }
            let mut frame = frames.pop().expect("a frame is open");
            let v = key(frame.value);
            frame.acc.sort_unstable();
            frame.acc.dedup();
            if t.low[&v] == t.index[&v] {
                let set: Rc<[usize]> = frame.acc.into();
                loop {
                    let member = t.stack.pop().expect("v is on the stack");
                    t.index.remove(&member);
                    self.done.insert(member, set.clone());
                    if member == v {
                        break;
                    }
                }
                if let Some(parent) = frames.last_mut() {
                    parent.acc.extend(set.iter().copied());
                }
            } else if let Some(parent) = frames.last_mut() {
                let p = key(parent.value);
                let l = t.low[&p].min(t.low[&v]);
                t.low.insert(p, l);
                parent.acc.extend(frame.acc);
            }
        }
        self.done[&key(start)].clone()
    }
}

/// Re-borrows an op from its key (an op handle's address; the IR outlives
/// every pass step).
pub fn op_of<'c, 'a>(k: usize) -> OperationRef<'c, 'a> {
    unsafe { OperationRef::from_raw(mlir_sys::MlirOperation { ptr: k as *mut _ }) }
}

/// HOST-side leaf: a `pld.window` of a `pld.window_buffer` is that buffer.
pub fn window_buffer_leaf(value: Value) -> Option<usize> {
    let window = crate::values::as_result(value)?.owner();
    if !is_op(&window, "pld.window") {
        return None;
    }
    let buffer = crate::values::as_result(window.operand(0).ok()?)?.owner();
    is_op(&buffer, "pld.window_buffer").then(|| op_key(&buffer))
}

/// `op` is named `name` (without allocating).
fn is_op(op: &OperationRef, name: &str) -> bool {
    op.name().as_string_ref().as_str() == Ok(name)
}

/// CHIP-side leaf: a function parameter is its index (the trace roots a
/// block argument only at a `func.func` entry).
pub fn parameter_leaf(value: Value) -> Option<usize> {
    crate::values::as_argument(value).map(|a| a.argument_number())
}

/// The explicit domain (`pld.comm_domain`) of a window buffer; `None`: the
/// HOST orchestrator's implicit domain.
pub fn buffer_domain<'c, 'a>(buffer: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let domain = buffer.operand(0).ok()?;
    let op = crate::values::as_result(domain)?.owner();
    is_op(&op, "pld.comm_domain").then_some(op)
}

/// `ranks` of a `pld.comm_domain`.
pub fn domain_ranks(domain: &OperationRef) -> Option<i64> {
    IntegerAttribute::try_from(domain.attribute("ranks").ok()?).ok().map(|a| a.value())
}

/// A failed check: the message and its notes (after any the caller adds).
pub struct Failure<'c> {
    pub message: String,
    pub notes: Vec<(Location<'c>, String)>,
}

/// Pairwise-distinct allocations over `buffers` (per operand, by role):
/// `'<op>' <a> and <b> must be different window allocations`.
pub fn check_distinct<'c>(op: &str, roles: &[&str], buffers: &[Vec<OperationRef<'c, '_>>]) -> Option<Failure<'c>> {
    for a in 0..buffers.len() {
        for b in a + 1..buffers.len() {
            if let Some(shared) = buffers[a].iter().find(|x| buffers[b].iter().any(|y| op_key(y) == op_key(x))) {
                return Some(Failure {
                    message: format!("'{op}' {} and {} must be different window allocations", roles[a], roles[b]),
                    notes: vec![(shared.location(), "both are views of this pld.window_buffer".into())],
                });
            }
        }
    }
    None
}

/// One domain over every resolved buffer, then NR = that domain's ranks (an
/// explicit domain only: the implicit one's rank count is the signal's NR).
pub fn check_domains<'c>(
    op: &str,
    roles: &[&str],
    buffers: &[Vec<OperationRef<'c, '_>>],
    signal_rows: Option<i64>,
) -> Option<Failure<'c>> {
    // Distinct domains in operand order: (domain key or 0, role, buffer).
    let mut seen: Vec<(usize, &str, &OperationRef)> = Vec::new();
    for (role, list) in roles.iter().zip(buffers) {
        for buffer in list {
            let d = buffer_domain(buffer).map_or(0, |d| op_key(&d));
            if !seen.iter().any(|(k, _, _)| *k == d) {
                seen.push((d, role, buffer));
            }
        }
    }
    if seen.len() > 1 {
        let mut notes = Vec::new();
        for &(_, role, buffer) in &seen {
            match buffer_domain(buffer) {
                Some(domain) => {
                    notes.push((buffer.location(), format!("operand '{role}' is a view of this pld.window_buffer")));
                    notes.push((
                        domain.location(),
                        format!(
                            "which is in this communication domain (ranks = {})",
                            domain_ranks(&domain).unwrap_or(0)
                        ),
                    ));
                }
                None => notes.push((
                    buffer.location(),
                    format!(
                        "operand '{role}' is a view of this pld.window_buffer, in the HOST orchestrator's \
                         implicit communication domain"
                    ),
                )),
            }
        }
        return Some(Failure {
            message: format!("'{op}': operands of one collective must belong to one communication domain"),
            notes,
        });
    }
    let (_, _, buffer) = seen.first()?;
    let domain = buffer_domain(buffer)?;
    let ranks = domain_ranks(&domain)?;
    let rows = signal_rows?;
    // The signal's own window, when it is resolved.
    let signal = roles.iter().position(|r| *r == "signal").and_then(|i| buffers[i].first());
    let mut notes = vec![(domain.location(), format!("this communication domain has {ranks} ranks"))];
    if let Some(b) = signal {
        notes.push((b.location(), "the signal is a view of this pld.window_buffer".into()));
    }
    (rows != ranks).then_some(Failure {
        message: format!("'{op}': signal has NR={rows} rows but communication domain has {ranks} ranks"),
        notes,
    })
}

/// The static NR of a collective's signal (operand 2).
pub fn signal_rows(op: &OperationRef) -> Option<i64> {
    let shape = TensorLike::of(op.operand(2).ok()?.r#type())?.static_shape()?;
    shape.first().copied()
}

/// Whether the CHIP rail's provenance phase is off (benchmarking only:
/// `PLD_NO_WINDOW_PROVENANCE=1` measures the pass without it on the same module).
pub fn disabled() -> bool {
    std::env::var_os("PLD_NO_WINDOW_PROVENANCE").is_some_and(|v| v == "1")
}

/// Collectives of one CHIP function whose operands trace to the same
/// parameter sets (and whose op and signal NR agree): one check per dispatch
/// site covers them all.
struct Group<'c, 'a> {
    sets: Vec<Rc<[usize]>>,
    rows: Option<i64>,
    name: String,
    roles: Vec<&'static str>,
    members: Vec<OperationRef<'c, 'a>>,
}

/// The CHIP rail's window provenance (domains.md): for every
/// `pld.host.dispatch` of a CHIP orchestration function holding one of the
/// `planned` collectives, each collective operand traced to a parameter is
/// resolved to the window buffers bound at that dispatch, and the three
/// checks run per dispatch site. One error per collective (its first failing
/// dispatch site, in module order), at the collective, with a note at the
/// dispatch and at the buffers / domains involved. Returns the error count.
///
/// Linear: each function's parameter provenance and each HOST value's window
/// provenance are computed once ([`RootSets`]); a dispatch site costs one
/// check per group of collectives with the same parameter sets, on keys.
pub fn check_dispatched_collectives<'c, 'a>(
    functions: &[OperationRef<'c, 'a>],
    planned: &[OperationRef<'c, 'a>],
    trace: &ContiguityTrace<'c, 'a>,
) -> usize {
    // The planned collectives of each CHIP function, by symbol.
    let mut by_callee: HashMap<&str, Vec<OperationRef<'c, 'a>>> = HashMap::new();
    for op in planned {
        if let Some(name) = crate::ir_util::enclosing_function(op)
            .filter(|f| is_chip_orchestration(f))
            .and_then(|f| symbol_name(&f))
        {
            by_callee.entry(name).or_default().push(crate::ir_util::op_ref(op));
        }
    }
    if by_callee.is_empty() {
        return 0;
    }
    let mut params = RootSets::default();
    let mut windows = RootSets::default();
    // Per callee: its groups (computed on the first dispatch of it).
    let mut groups: HashMap<&str, Vec<Group<'c, 'a>>> = HashMap::new();
    // Per buffer: its domain's key (0: implicit) and ranks.
    let mut domains: PtrMap<(usize, Option<i64>)> = PtrMap::default();
    let mut failed: PtrMap<()> = PtrMap::default();
    let mut errors = 0;
    let mut buffers: Vec<Vec<usize>> = Vec::new();
    for func in functions {
        if !crate::func_kind::is_host_level(func) {
            continue;
        }
        for dispatch in dispatches(func) {
            let Some(callee) = dispatch
                .attribute("callee")
                .ok()
                .and_then(|a| melior::ir::attribute::FlatSymbolRefAttribute::try_from(a).ok())
            else {
                continue;
            };
            let callee = callee.value();
            let Some((&callee_key, collectives)) = by_callee.get_key_value(callee) else { continue };
            let callee_groups = groups.entry(callee_key).or_insert_with(|| {
                let mut out: Vec<Group> = Vec::new();
                for op in collectives {
                    let name = op_name(op);
                    let Some(spec) = crate::collective::Collective::of_op_name(&name).map(|c| c.spec()) else { continue };
                    let sets: Vec<Rc<[usize]>> = (0..spec.params.len())
                        .map(|i| op.operand(i).map_or_else(|_| Rc::from(Vec::new()), |v| params.get(v, trace, &parameter_leaf)))
                        .collect();
                    let rows = signal_rows(op);
                    match out.iter_mut().find(|g| g.name == name && g.rows == rows && g.sets == sets) {
                        Some(g) => g.members.push(crate::ir_util::op_ref(op)),
                        None => out.push(Group {
                            sets,
                            rows,
                            name,
                            roles: spec.params.iter().map(|p| p.name).collect(),
                            members: vec![crate::ir_util::op_ref(op)],
                        }),
                    }
                }
                out
            });
            for group in callee_groups.iter() {
                // Resolve each operand to buffer keys at this site.
                buffers.resize_with(group.sets.len(), Vec::new);
                buffers.truncate(group.sets.len());
                for (set, list) in group.sets.iter().zip(buffers.iter_mut()) {
                    list.clear();
                    for &p in set.iter() {
                        if let Ok(arg) = dispatch.operand(p) {
                            // A window passed as is (the common case) needs no trace.
                            match window_buffer_leaf(arg) {
                                Some(b) => list.push(b),
                                None => list.extend(windows.get(arg, trace, &window_buffer_leaf).iter().copied()),
                            }
                        }
                    }
                    if set.len() > 1 {
                        list.sort_unstable();
                        list.dedup();
                    }
                }
                if passes_on_keys(&buffers, group.rows, &mut domains) {
                    continue;
                }
                // A failure: build the diagnostic once per member not yet reported.
                let refs: Vec<Vec<OperationRef>> = buffers.iter().map(|l| l.iter().map(|&k| op_of(k)).collect()).collect();
                let Some(f) = check_distinct(&group.name, &group.roles, &refs)
                    .or_else(|| check_domains(&group.name, &group.roles, &refs, group.rows))
                else {
                    continue;
                };
                for op in &group.members {
                    if failed.insert(op_key(op), ()).is_some() {
                        continue;
                    }
                    let mut notes = vec![(
                        dispatch.location(),
                        format!("at this dispatch of '@{callee}', which binds the collective's windows"),
                    )];
                    notes.extend(f.notes.iter().cloned());
                    diag::error_with_notes(op.location(), &f.message, &notes);
                    errors += 1;
                }
            }
        }
    }
    errors
}

/// The `pld.host.dispatch` ops of a function, in program order (nested
/// regions included, nested functions and modules not).
fn dispatches<'c, 'a>(func: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    use melior::ir::operation::{WalkOrder, WalkResult};
    let root = func.to_raw().ptr;
    let mut raw = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        if op.to_raw().ptr == root {
            return WalkResult::Advance;
        }
        match op.name().as_string_ref().as_str() {
            Ok("pld.host.dispatch") => raw.push(op.to_raw()),
            Ok("func.func" | "builtin.module") => return WalkResult::Skip,
            _ => {}
        }
        WalkResult::Advance
    });
    raw.into_iter().map(|r| unsafe { OperationRef::from_raw(r) }).collect()
}

/// The three checks on buffer keys (the fast path: no diagnostic is built).
fn passes_on_keys(buffers: &[Vec<usize>], rows: Option<i64>, domains: &mut PtrMap<(usize, Option<i64>)>) -> bool {
    for a in 0..buffers.len() {
        for b in a + 1..buffers.len() {
            if buffers[a].iter().any(|x| buffers[b].contains(x)) {
                return false;
            }
        }
    }
    let mut first: Option<(usize, Option<i64>)> = None;
    for &k in buffers.iter().flatten() {
        let d = *domains.entry(k).or_insert_with(|| match buffer_domain(&op_of(k)) {
            Some(d) => (op_key(&d), domain_ranks(&d)),
            None => (0, None),
        });
        match first {
            None => first = Some(d),
            Some(f) if f.0 != d.0 => return false,
            Some(_) => {}
        }
    }
    match (first, rows) {
        (Some((_, Some(ranks))), Some(rows)) => ranks == rows,
        _ => true,
    }
}
