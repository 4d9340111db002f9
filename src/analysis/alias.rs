//! Alias classes of one function: a conservative union-find over its
//! tensor-like values.
//!
//! Two values are in one class when the contiguity trace relates them (a
//! `pl.cast` / reshape / view / set_validshape / slice / assemble result and
//! its source, a collective's result and its target, a call or `pl.submit`
//! result and the argument its callee returns, loop-carried values and their
//! initializers and yields, branch results and their yields). Where the trace
//! refuses a step (e.g. `pl.tensor.transpose`, `pl.tensor.write`), the result
//! is conservatively joined with every tensor-like operand of its op; a call
//! to a body-less callee joins its results with every tensor argument. Two
//! distinct function parameters are never joined by themselves: distinct
//! arguments are distinct storage (the caller's obligation); only a value
//! that may be either of them (a block argument both reach) joins them.
//!
//! Control flow the trace does not follow is joined conservatively too: a
//! block argument of a non-entry block (a `cf` successor) with every
//! tensor-like operand of every terminator that branches to its block, an
//! entry-block argument of any other region-holding op (and a result of such
//! an op) with the op's tensor-like operands and every tensor-like value its
//! regions' terminators pass on. Ops of a nested `builtin.module` /
//! `func.func` are not part of the function.

use crate::ir::at::{BlockAt as _, OpAt as _};
use crate::{
    analysis::contiguity::ContiguityTrace,
    ir::calls::callee,
    ir::handle_maps::PtrMap,
    ir::op_kind::{OpKind, op_id, op_kind, value_id},
    ir::types::is_tensor_like,
    ir::walk::ops_in,
};
use melior::ir::{
    BlockLike, BlockRef, RegionLike, Value, ValueLike,
    operation::{OperationLike, OperationRef},
};

#[derive(Default)]
pub struct AliasClasses {
    parent: PtrMap<usize>,
}

/// Terminators by the address of a block they branch to.
type Predecessors<'c, 'a> = PtrMap<Vec<OperationRef<'c, 'a>>>;

impl AliasClasses {
    /// Builds the classes of every tensor-like value in `func`, in one walk
    /// over its ops (each value's sources are one step away: linear in the
    /// ops, their operands and the predecessors of `cf` blocks).
    pub fn of_function<'c, 'a>(
        func: &OperationRef<'c, 'a>,
        trace: &ContiguityTrace<'c, 'a>,
        functions: &crate::ir::walk::FunctionMap<'c, 'a>,
    ) -> Self {
        Self::of_function_ops(func, &ops_in(func), trace, functions)
    }

    /// [`Self::of_function`] over `ops`, `func`'s ops as [`ops_in`] lists them.
    pub fn of_function_ops<'c, 'a>(
        func: &OperationRef<'c, 'a>,
        ops: &[OperationRef<'c, 'a>],
        trace: &ContiguityTrace<'c, 'a>,
        functions: &crate::ir::walk::FunctionMap<'c, 'a>,
    ) -> Self {
        let mut classes = Self::default();
        let mut predecessors: Predecessors = PtrMap::default();
        for op in ops {
            let raw = op.to_raw();
            for i in 0..unsafe { mlir_sys::mlirOperationGetNumSuccessors(raw) } {
                let successor = unsafe { mlir_sys::mlirOperationGetSuccessor(raw, i) };
                predecessors
                    .entry(successor.ptr as usize)
                    .or_default()
                    .push(*op);
            }
        }
        // A group every member of which joins one class (an op's whole flow, a
        // block's incoming operands) is unioned once, by the first value that
        // needs it; later ones join its first member: linear, however many
        // results or block arguments share the group.
        let mut groups: PtrMap<Option<usize>> = PtrMap::default();
        let mut visit = |value: Value<'c, 'a>, classes: &mut Self| {
            if !is_tensor_like(value.r#type()) {
                return;
            }
            let k = value_id(value);
            // Windows of one pld.window_buffer may overlap (any offsets):
            // they join the buffer's class, one class per allocation.
            if let Some(result) = crate::ir::value_defs::as_result(value)
                && crate::ir::op_kind::op_kind(&result.owner())
                    == crate::ir::op_kind::OpKind::Window
                && let Some(buffer) = result.owner().operand_at(0)
            {
                classes.union(k, value_id(buffer));
            }
            match alias_sources(value, trace, functions) {
                Sources::Values(sources) => {
                    for source in sources {
                        classes.union(k, value_id(source));
                    }
                }
                Sources::Group(group, members) => {
                    let first = *groups.entry(group).or_insert_with(|| {
                        let members = members(&predecessors);
                        let first = members.first().map(|v| value_id(*v));
                        if let Some(first) = first {
                            for m in &members[1..] {
                                classes.union(first, value_id(*m));
                            }
                        }
                        first
                    });
                    if let Some(first) = first {
                        classes.union(k, first);
                    }
                }
            }
        };
        for_each_block_argument(func, |arg| visit(arg, &mut classes));
        for op in ops {
            if op.region_count() > 0 {
                for_each_block_argument(op, |arg| visit(arg, &mut classes));
            }
            for result in op.results() {
                visit(result.into(), &mut classes);
            }
        }
        classes
    }

    fn find(&mut self, mut k: usize) -> usize {
        // Path halving: every node on the way points to its grandparent.
        loop {
            let Some(&p) = self.parent.get(&k) else {
                return k;
            };
            if p == k {
                return k;
            }
            match self.parent.get(&p) {
                Some(&g) if g != p => {
                    self.parent.insert(k, g);
                    k = g;
                }
                _ => return p,
            }
        }
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(ra, rb);
        }
    }

    /// The class representative of a value.
    pub fn class(&mut self, value: Value) -> usize {
        self.find(value_id(value))
    }
}

/// What a tensor-like value aliases directly (one step).
enum Sources<'c, 'a> {
    /// These values.
    Values(Vec<Value<'c, 'a>>),
    /// Every member of a group (keyed by the op or block it belongs to),
    /// listed by the function when the group is first needed.
    Group(
        usize,
        Box<dyn Fn(&Predecessors<'c, 'a>) -> Vec<Value<'c, 'a>> + 'a>,
    ),
}

fn alias_sources<'c: 'a, 'a>(
    value: Value<'c, 'a>,
    trace: &ContiguityTrace<'c, 'a>,
    functions: &crate::ir::walk::FunctionMap<'c, 'a>,
) -> Sources<'c, 'a> {
    if let Some(result) = crate::ir::value_defs::as_result(value) {
        let op = result.owner();
        let kind = op_kind(&op);
        if kind.is_call() {
            return Sources::Values(
                call_result_sources(&op, kind, result.result_number(), functions)
                    .unwrap_or_else(|| tensor_operands(&op).collect()),
            );
        }
        return match trace.followed(value) {
            Some(sources) => Sources::Values(sources),
            None => flow_group(op),
        };
    }
    if crate::ir::value_defs::as_argument(value).is_none() {
        return Sources::Values(Vec::new());
    }
    if let Some(sources) = trace.followed(value) {
        return Sources::Values(sources);
    }
    // `BlockArgument::owner` borrows the argument; the block lives as long as the IR.
    let block: BlockRef<'c, 'a> =
        unsafe { BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(value.to_raw())) };
    let Some(parent) = block.parent_operation() else {
        return Sources::Values(Vec::new());
    };
    let is_entry = block
        .parent_region()
        .and_then(|r| r.first_block())
        .is_some_and(|first| first == block);
    if !is_entry {
        // A successor block: whatever its predecessors pass.
        let k = block.to_raw().ptr as usize;
        return Sources::Group(
            k,
            Box::new(move |predecessors: &Predecessors<'c, 'a>| {
                predecessors
                    .get(&k)
                    .into_iter()
                    .flatten()
                    .flat_map(|t| tensor_operands(t))
                    .collect()
            }),
        );
    }
    if op_kind(&parent) == OpKind::Func {
        // A parameter: distinct from every other parameter.
        return Sources::Values(Vec::new());
    }
    flow_group(parent)
}

/// The flow of a region-holding op ([`op_flow`]), as a group.
fn flow_group<'c: 'a, 'a>(op: OperationRef<'c, 'a>) -> Sources<'c, 'a> {
    Sources::Group(
        op_id(&op),
        Box::new(move |_: &Predecessors<'c, 'a>| op_flow(&op)),
    )
}

/// Calls `f` on every argument of every block of `op`'s regions.
fn for_each_block_argument<'c, 'a>(op: &OperationRef<'c, 'a>, mut f: impl FnMut(Value<'c, 'a>)) {
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            for i in 0..b.argument_count() {
                if let Some(arg) = b.argument_at(i) {
                    f(arg.into());
                }
            }
            block = b.next_in_region();
        }
    }
}

fn tensor_operands<'c, 'a>(op: &OperationRef<'c, 'a>) -> impl Iterator<Item = Value<'c, 'a>> {
    op.operands().filter(|v| is_tensor_like(v.r#type()))
}

/// Everything that can flow into a region-holding op's results or region
/// arguments: its tensor-like operands and those of its regions' terminators.
fn op_flow<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    let mut out: Vec<Value<'c, 'a>> = tensor_operands(op).collect();
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            if let Some(terminator) = b.terminator() {
                out.extend(tensor_operands(&terminator));
            }
            block = b.next_in_region();
        }
    }
    out
}

/// A call result `n`: the arguments its callee returns there (`Some(vec![])`
/// for a fresh value), or `None` when the callee has no body to tell.
fn call_result_sources<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    kind: OpKind,
    n: usize,
    functions: &crate::ir::walk::FunctionMap<'c, 'a>,
) -> Option<Vec<Value<'c, 'a>>> {
    if kind == OpKind::Submit
        && let Ok(attr) = op.attribute("runtime_alloc_outs")
        && let Ok(outs) = melior::ir::attribute::DenseI64ArrayAttribute::try_from(attr)
        && (0..outs.len()).any(|i| outs.element(i).ok() == Some(n as i64))
    {
        return Some(Vec::new());
    }
    let func = functions.get(callee(op)?)?;
    let entry = func.region_at(0)?.first_block()?;
    let mut sources = Vec::new();
    let mut block = Some(entry);
    while let Some(b) = block {
        if let Some(ret) = b.terminator()
            && op_kind(&ret) == OpKind::Return
            && let Ok(returned) = ret.operand(n)
            && let Some(param) = crate::ir::value_defs::returned_param(returned, entry)
            && let Some(operand) = op.operand_at(param)
        {
            sources.push(operand);
        }
        block = b.next_in_region();
    }
    Some(sources)
}
