//! Window provenance (`docs/spec/domains.md`): the analysis.
//!
//! - [`RootSets`]: which roots a value is traced to through the contiguity
//!   trace's steps ([`ContiguityTrace::followed`]) — a function parameter
//!   index on the CHIP side, a `pld.window_buffer` on the HOST side. Memoized
//!   over the module and computed per strongly connected component (loops make
//!   the graph cyclic), so every value is visited once: one provenance map,
//!   not one trace per query.
//! - The leaves (a window buffer, a parameter) and the domain of a window
//!   buffer (its `pld.comm_domain` operand, or the implicit domain).
//!
//! The checks both rails run over a collective's resolved windows are
//! `window_checks`'.

use crate::ir::at::OpAt as _;
use crate::{
    analysis::contiguity::ContiguityTrace,
    ir::handle_maps::PtrMap,
    ir::op_kind::{op_id, value_id},
};
use melior::ir::{
    Value,
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
};
use std::rc::Rc;

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
        if let Some(set) = self.done.get(&value_id(start)) {
            return set.clone();
        }
        // One step of the trace per value (`followed`: a refused step formats no culprit).
        self.steps += 1;
        let first = trace.followed(start);
        // The common cases, without the component machinery: a root (e.g. a `pld.window` or a
        // parameter), a refused step, or a step to values already decided (a chain of
        // collectives through their targets, each operand asked in program order).
        let decided: Option<Rc<[usize]>> = match &first {
            None => Some(Rc::from(Vec::new())),
            Some(sources) if sources.is_empty() => Some(leaf(start).into_iter().collect()),
            Some(sources) => match sources.as_slice() {
                [one] => self.done.get(&value_id(*one)).cloned(),
                many => {
                    let mut acc = Vec::new();
                    many.iter()
                        .try_for_each(|s| {
                            self.done
                                .get(&value_id(*s))
                                .map(|set| acc.extend(set.iter().copied()))
                        })
                        .map(|()| {
                            acc.sort_unstable();
                            acc.dedup();
                            Rc::from(acc)
                        })
                }
            },
        };
        if let Some(set) = decided {
            self.done.insert(value_id(start), set.clone());
            return set;
        }
        let mut t = Open::default();
        let open = |t: &mut Open,
                    v: Value<'c, 'a>,
                    sources: Option<Vec<Value<'c, 'a>>>|
         -> Frame<'c, 'a> {
            let k = value_id(v);
            t.index.insert(k, t.counter);
            t.low.insert(k, t.counter);
            t.counter += 1;
            t.stack.push(k);
            match sources {
                Some(s) if s.is_empty() => Frame {
                    value: v,
                    sources: s,
                    next: 0,
                    acc: leaf(v).into_iter().collect(),
                },
                Some(s) => Frame {
                    value: v,
                    sources: s,
                    next: 0,
                    acc: Vec::new(),
                },
                None => Frame {
                    value: v,
                    sources: Vec::new(),
                    next: 0,
                    acc: Vec::new(),
                },
            }
        };
        let mut frames = vec![open(&mut t, start, first)];
        loop {
            let Some(frame) = frames.last_mut() else {
                break;
            };
            if frame.next < frame.sources.len() {
                let source = frame.sources[frame.next];
                frame.next += 1;
                let k = value_id(source);
                if let Some(set) = self.done.get(&k) {
                    frame.acc.extend(set.iter().copied());
                } else if let Some(&i) = t.index.get(&k) {
                    let v = value_id(frame.value);
                    let l = t.low[&v].min(i);
                    t.low.insert(v, l);
                } else {
                    self.steps += 1;
                    let f = open(&mut t, source, trace.followed(source));
                    frames.push(f);
                }
                continue;
            }
            let mut frame = frames.pop().expect("a frame is open");
            let v = value_id(frame.value);
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
                let p = value_id(parent.value);
                let l = t.low[&p].min(t.low[&v]);
                t.low.insert(p, l);
                parent.acc.extend(frame.acc);
            }
        }
        self.done[&value_id(start)].clone()
    }
}

/// Re-borrows an op from its key (an op handle's address; the IR outlives
/// every pass step).
pub fn op_from_id<'c, 'a>(k: usize) -> OperationRef<'c, 'a> {
    unsafe { OperationRef::from_raw(mlir_sys::MlirOperation { ptr: k as *mut _ }) }
}

/// HOST-side leaf: a `pld.window` of a `pld.window_buffer` is that buffer.
pub fn window_buffer_leaf(value: Value) -> Option<usize> {
    let window = crate::ir::value_defs::as_result(value)?.owner();
    if !is_op(&window, "pld.window") {
        return None;
    }
    let buffer = crate::ir::value_defs::as_result(window.operand_at(0)?)?.owner();
    is_op(&buffer, "pld.window_buffer").then(|| op_id(&buffer))
}

/// `op` is named `name` (without allocating).
fn is_op(op: &OperationRef, name: &str) -> bool {
    op.name().as_string_ref().as_str() == Ok(name)
}

/// CHIP-side leaf: a function parameter is its index (the trace roots a
/// block argument only at a `func.func` entry).
pub fn parameter_leaf(value: Value) -> Option<usize> {
    crate::ir::value_defs::as_argument(value).map(|a| a.argument_number())
}

/// The explicit domain (`pld.comm_domain`) of a window buffer; `None`: the
/// HOST orchestrator's implicit domain.
pub fn buffer_domain<'c, 'a>(buffer: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    // Checked first: melior's out-of-range error prints the op, which costs the whole module.
    let domain = (buffer.operand_count() > 0).then(|| buffer.operand_at(0))??;
    let op = crate::ir::value_defs::as_result(domain)?.owner();
    is_op(&op, "pld.comm_domain").then_some(op)
}

/// `ranks` of a `pld.comm_domain`.
pub fn domain_ranks(domain: &OperationRef) -> Option<i64> {
    IntegerAttribute::try_from(domain.attribute("ranks").ok()?)
        .ok()
        .map(|a| a.value())
}
