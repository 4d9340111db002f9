//! The contiguity trace: an allow-list proof that a collective operand is a
//! packed row-major view.
//!
//! Every value that can reach the operand is visited (the operand's "sources"
//! graph: SSA definitions, loop-carried values, initializers, branch results,
//! callee returns). The operand is provably contiguous when every reachable
//! value is either a row-major root or an allowed step, and none of them has a
//! non-nd layout or explicit strides. Anything else is a [`Culprit`]: the op
//! that broke the chain. Loops make the graph cyclic, so verdicts are computed
//! per strongly connected component (iterative Tarjan, memoized across
//! queries): linear in the IR size, and safe on 10k-deep chains.

use crate::ir::at::OpAt as _;
use crate::{ir::func_kind::symbol_name, ir::tensor_type::TensorView};
use crate::{
    ir::handle_maps::PtrMap,
    ir::op_kind::{OpKind, op_kind, op_name, value_id},
};
use melior::ir::{
    BlockLike, BlockRef, Location, RegionLike, Value, ValueLike,
    attribute::{Attribute, DenseI64ArrayAttribute},
    block::BlockArgument,
    operation::{OperationLike, OperationRef},
};
use std::rc::Rc;

/// The op (or block owner) that broke an operand's chain.
#[derive(Clone, Debug)]
pub struct Culprit<'c> {
    /// Where the op (or block owner) is.
    pub location: Location<'c>,
    /// The op's name, e.g. `pl.tensor.transpose`.
    pub op_name: String,
    /// Why it is not followed.
    pub reason: String,
}

impl Culprit<'_> {
    /// The note text attached to the diagnostic.
    pub fn note(&self) -> String {
        crate::diag::msg!("the chain is broken by '{}': {}", self.op_name, self.reason)
    }
}

type Key = usize;

fn culprit<'c>(op: &OperationRef<'c, '_>, reason: impl Into<String>) -> Culprit<'c> {
    Culprit {
        location: op.location(),
        op_name: op_name(op),
        reason: reason.into(),
    }
}

fn i64_array(op: &OperationRef, name: &str) -> Option<Vec<i64>> {
    let attr: Attribute = op.attribute(name).ok()?;
    let array = DenseI64ArrayAttribute::try_from(attr).ok()?;
    Some(
        (0..array.len())
            .map(|i| array.element(i).unwrap_or(0))
            .collect(),
    )
}

/// The sources of a value: `Ok(vec![])` for a root, `Ok(sources)` for an
/// allowed step, `Err` when the value is not provably contiguous by itself.
pub type Sources<'c, 'a> = Result<Vec<Value<'c, 'a>>, Culprit<'c>>;

/// Memoized trace over one module.
pub struct ContiguityTrace<'c, 'a> {
    /// `func.func` symbols of the module, for call/submit results.
    functions: Rc<crate::ir::walk::FunctionMap<'c, 'a>>,
    /// Final verdict per visited value (`None`: contiguous).
    /// (Shared culprits keep an entry at two words: the map is as large as
    /// the traced IR, #23.)
    done: PtrMap<Option<Rc<Culprit<'c>>>>,
    /// Values stepped through so far (each traced once: the statistic
    /// `contiguity-steps-traced`).
    steps: u64,
}

struct Frame<'c, 'a> {
    value: Value<'c, 'a>,
    sources: Vec<Value<'c, 'a>>,
    next: usize,
    bad: Option<Rc<Culprit<'c>>>,
}

impl<'c, 'a> ContiguityTrace<'c, 'a> {
    /// A trace over the functions of `module_body` (a module's body block):
    /// call results are followed into their callees.
    pub fn new(module_body: BlockRef<'c, 'a>) -> Self {
        let mut functions = crate::ir::walk::FunctionMap::default();
        let mut next = module_body.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if op_kind(&op) == OpKind::Func
                && let Some(name) = symbol_name(&op)
            {
                functions.insert(name.to_string(), op);
            }
        }
        Self::with_functions(Rc::new(functions))
    }

    /// A trace over the module whose `func.func`s by symbol are `functions`
    /// (shared with whoever built them, e.g. `crate::analysis::directions::Directions`).
    pub fn with_functions(functions: Rc<crate::ir::walk::FunctionMap<'c, 'a>>) -> Self {
        Self {
            functions,
            done: PtrMap::default(),
            steps: 0,
        }
    }

    /// How many values the trace has stepped through (memoized values once).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// `Ok(())` when `value` is provably a packed row-major view.
    pub fn check(&mut self, value: Value<'c, 'a>) -> Result<(), Culprit<'c>> {
        match self.verdict(value) {
            None => Ok(()),
            Some(c) => Err(Rc::unwrap_or_clone(c)),
        }
    }

    fn verdict(&mut self, root: Value<'c, 'a>) -> Option<Rc<Culprit<'c>>> {
        if let Some(v) = self.done.get(&value_id(root)) {
            return v.clone();
        }
        self.steps += 1;
        let first = self.sources(root);
        // The common case, without the component machinery: a root, a
        // refused step, or a step to values already decided.
        let decided = match &first {
            Err(culprit) => Some(Some(Rc::new(culprit.clone()))),
            Ok(sources) => sources
                .iter()
                .try_fold(None, |bad: Option<Rc<Culprit<'c>>>, s| {
                    let verdict = self.done.get(&value_id(*s))?;
                    Some(bad.or_else(|| verdict.clone()))
                }),
        };
        if let Some(verdict) = decided {
            self.done.insert(value_id(root), verdict.clone());
            return verdict;
        }
        let mut tarjan = Tarjan::default();
        let mut frames: Vec<Frame<'c, 'a>> = vec![tarjan.open(root, first)];
        while let Some(frame) = frames.last_mut() {
            if frame.next < frame.sources.len() {
                let source = frame.sources[frame.next];
                frame.next += 1;
                let k = value_id(source);
                if let Some(verdict) = self.done.get(&k) {
                    if frame.bad.is_none() {
                        frame.bad = verdict.clone();
                    }
                } else if let Some(&i) = tarjan.index.get(&k) {
                    // On the stack: a cycle back into the open component.
                    let v = value_id(frame.value);
                    let low = tarjan.low[&v].min(i);
                    tarjan.low.insert(v, low);
                } else {
                    self.steps += 1;
                    let sources = self.sources(source);
                    frames.push(tarjan.open(source, sources));
                }
                continue;
            }
            let frame = frames.pop().expect("a frame is open");
            let v = value_id(frame.value);
            if tarjan.low[&v] == tarjan.index[&v] {
                // `v` roots a component: every member shares its verdict.
                loop {
                    let member = tarjan.stack.pop().expect("v is on the stack");
                    tarjan.index.remove(&member);
                    self.done.insert(member, frame.bad.clone());
                    if member == v {
                        break;
                    }
                }
            }
            if let Some(parent) = frames.last_mut() {
                let p = value_id(parent.value);
                if let Some(&low_v) = tarjan.low.get(&v)
                    && tarjan.index.contains_key(&v)
                {
                    // Same component as the parent: merge low-link and verdict.
                    let low = tarjan.low[&p].min(low_v);
                    tarjan.low.insert(p, low);
                    if parent.bad.is_none() {
                        parent.bad = frame.bad.clone();
                    }
                } else if parent.bad.is_none() {
                    parent.bad = self.done[&v].clone();
                }
            }
        }
        self.done[&value_id(root)].clone()
    }

    /// One step of the allow-list: what `value` is traced to.
    pub fn sources(&self, value: Value<'c, 'a>) -> Sources<'c, 'a> {
        self.step(value).map_err(Fail::culprit)
    }

    /// [`Self::sources`] without the culprit (nothing is formatted or
    /// allocated when the trace refuses the step): for the analyses that only
    /// ask whether the step is followed.
    pub fn followed(&self, value: Value<'c, 'a>) -> Option<Vec<Value<'c, 'a>>> {
        self.step(value).ok()
    }

    fn step(&self, value: Value<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, Fail<'c, 'a>> {
        if let Some(arg) = crate::ir::value_defs::as_argument(value) {
            return self.argument_sources(value, arg);
        }
        let Some(result) = crate::ir::value_defs::as_result(value) else {
            return Err(Fail::Value(
                value,
                "value",
                "it is neither a block argument nor an op result",
            ));
        };
        let op = result.owner();
        if let Some(t) = TensorView::of(value.r#type())
            && !t.is_packed_nd()
        {
            return Err(Fail::ResultNotPacked(op, value));
        }
        let n = result.result_number();
        let operand = |i: usize| op.operand(i).map_err(|_| Fail::Op(op, "missing operand"));
        match op_kind(&op) {
            OpKind::Create | OpKind::Window => Ok(vec![]),
            OpKind::Reshape | OpKind::SetValidshape | OpKind::Cast | OpKind::Assemble => {
                Ok(vec![operand(0)?])
            }
            // A view keeps its parent's strides: followed only under the slice rule.
            OpKind::View => self.view_sources(&op),
            // A collective's result is its target, the barrier's its signal (the
            // window-as-result contract).
            OpKind::Collective => Ok(vec![operand(
                crate::collective::Collective::of_op_name(&crate::ir::op_kind::op_name(&op))
                    .map_or(1, |c| c.spec().result),
            )?]),
            OpKind::Slice => self.slice_sources(&op),
            OpKind::ScfFor => {
                // The yielded value, and the initializer a zero-trip loop returns.
                let init = operand(3 + n)?;
                let yielded = terminator_operand(&op, 0, n)?;
                Ok(vec![init, yielded])
            }
            OpKind::ScfWhile => Ok(vec![terminator_operand(&op, 0, n + 1)?]),
            OpKind::ScfIf => {
                let mut sources = vec![terminator_operand(&op, 0, n)?];
                if op.region_at(1).and_then(|r| r.first_block()).is_some() {
                    sources.push(terminator_operand(&op, 1, n)?);
                }
                Ok(sources)
            }
            // Off the contract's allow-list (ir.md), though canonicalize folds an
            // allowed `scf.if` that only yields outer values into one: say so.
            OpKind::Select => Err(Fail::Op(
                op,
                "it is not on the contiguity allow-list (an scf.if choosing between the same \
                 values is, and canonicalize folds such an scf.if into arith.select: run \
                 canonicalize after the pipeline)",
            )),
            OpKind::Call => self.callee_return_sources(&op, n),
            OpKind::Submit => {
                if i64_array(&op, "runtime_alloc_outs")
                    .is_some_and(|outs| outs.contains(&(n as i64)))
                {
                    Ok(vec![])
                } else {
                    self.callee_return_sources(&op, n)
                }
            }
            _ => Err(Fail::Op(op, "it is not on the contiguity allow-list")),
        }
    }

    fn argument_sources(
        &self,
        value: Value<'c, 'a>,
        arg: BlockArgument<'c, 'a>,
    ) -> Result<Vec<Value<'c, 'a>>, Fail<'c, 'a>> {
        // `BlockArgument::owner` borrows the argument; the block lives as long as the IR.
        let block: BlockRef<'c, 'a> =
            unsafe { BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(value.to_raw())) };
        let Some(parent) = block.parent_operation() else {
            return Err(Fail::Value(
                value,
                "block argument",
                "it has no parent operation",
            ));
        };
        if let Some(t) = TensorView::of(value.r#type())
            && !t.is_packed_nd()
        {
            return Err(Fail::ArgNotPacked(parent, value));
        }
        let n = arg.argument_number();
        let kind = op_kind(&parent);
        // Only these owners are followed: the region index is asked of them alone.
        if !matches!(kind, OpKind::Func | OpKind::ScfFor | OpKind::ScfWhile) {
            return Err(Fail::Op(
                parent,
                "a block argument of this op is not on the contiguity allow-list",
            ));
        }
        let region = region_index(&parent, &block);
        match (kind, region) {
            // A function parameter: row-major by the caller's contract (the
            // codegen backstop checks it at runtime).
            (OpKind::Func, Some(0)) if is_entry(&block) => Ok(vec![]),
            (OpKind::ScfFor, Some(0)) if n >= 1 => {
                let init = parent
                    .operand(3 + n - 1)
                    .map_err(|_| Fail::Op(parent, "missing initializer"))?;
                Ok(vec![init, terminator_operand(&parent, 0, n - 1)?])
            }
            (OpKind::ScfWhile, Some(0)) => {
                let init = parent
                    .operand(n)
                    .map_err(|_| Fail::Op(parent, "missing initializer"))?;
                Ok(vec![init, terminator_operand(&parent, 1, n)?])
            }
            (OpKind::ScfWhile, Some(1)) => Ok(vec![terminator_operand(&parent, 0, n + 1)?]),
            _ => Err(Fail::Op(
                parent,
                "a block argument of this op is not on the contiguity allow-list",
            )),
        }
    }

    fn slice_sources(&self, op: &OperationRef<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, Fail<'c, 'a>> {
        let source = op.operand(0).map_err(|_| Fail::Op(*op, "missing source"))?;
        let reject = || {
            Fail::Op(
                *op,
                "only a slice that narrows the leading dimension of a statically shaped tensor at literal offsets is followed",
            )
        };
        let shape = TensorView::of(source.r#type())
            .and_then(|t| t.static_shape())
            .ok_or_else(reject)?;
        let (Some(offsets), Some(sizes)) = (i64_array(op, "offsets"), i64_array(op, "sizes"))
        else {
            return Err(reject());
        };
        let trailing_full =
            (1..shape.len()).all(|i| offsets.get(i) == Some(&0) && sizes.get(i) == Some(&shape[i]));
        if op.operand_count() == 1 && trailing_full {
            Ok(vec![source])
        } else {
            Err(reject())
        }
    }

    /// A view is a slice with the result's shape at `offsets` (default all 0):
    /// followed when it narrows only the leading dimension of a statically
    /// shaped source of the same rank.
    fn view_sources(&self, op: &OperationRef<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, Fail<'c, 'a>> {
        let source = op.operand(0).map_err(|_| Fail::Op(*op, "missing source"))?;
        let reject = || {
            Fail::Op(
                *op,
                "only a view that narrows the leading dimension of a statically shaped tensor (same rank, trailing dimensions whole at offset 0) is followed",
            )
        };
        let shape = TensorView::of(source.r#type())
            .and_then(|t| t.static_shape())
            .ok_or_else(reject)?;
        let result = op.result(0).map_err(|_| reject())?;
        let sizes = TensorView::of(result.r#type())
            .and_then(|t| t.static_shape())
            .ok_or_else(reject)?;
        let offsets = i64_array(op, "offsets").unwrap_or_else(|| vec![0; shape.len()]);
        let trailing_full = sizes.len() == shape.len()
            && offsets.len() == shape.len()
            && (1..shape.len()).all(|i| offsets[i] == 0 && sizes[i] == shape[i]);
        if trailing_full {
            Ok(vec![source])
        } else {
            Err(reject())
        }
    }

    /// A call's result `n` traced to the argument the callee returns there.
    fn callee_return_sources(
        &self,
        op: &OperationRef<'c, 'a>,
        n: usize,
    ) -> Result<Vec<Value<'c, 'a>>, Fail<'c, 'a>> {
        let Some(callee) = op
            .attribute("callee")
            .ok()
            .filter(|a| unsafe {
                mlir_sys::mlirAttributeIsAFlatSymbolRef(melior::ir::AttributeLike::to_raw(a))
            })
            .and_then(crate::ir::attributes::attr_str)
        else {
            return Err(Fail::Op(*op, "it has no callee"));
        };
        let Some(func) = self.functions.get(callee) else {
            return Err(Fail::Text(
                *op,
                crate::diag::msg!("callee @{callee} is not a func.func of this module"),
            ));
        };
        let body = func.region_at(0).and_then(|r| r.first_block());
        let Some(entry) = body else {
            return Err(Fail::Text(
                *op,
                crate::diag::msg!("callee @{callee} has no body to show what it returns"),
            ));
        };
        let mut sources = Vec::new();
        let mut block = Some(entry);
        while let Some(b) = block {
            if let Some(ret) = b.terminator()
                && op_kind(&ret) == OpKind::Return
            {
                let returned = ret
                    .operand(n)
                    .map_err(|_| Fail::Op(*op, "callee returns fewer values"))?;
                let param = crate::ir::value_defs::as_argument(returned)
                    .filter(|a| a.owner() == entry)
                    .ok_or_else(|| {
                        Fail::Text(
                            *op,
                            crate::diag::msg!(
                                "callee @{callee} does not return a parameter as result #{n}"
                            ),
                        )
                    })?;
                sources.push(
                    op.operand(param.argument_number())
                        .map_err(|_| Fail::Op(*op, "missing argument"))?,
                );
            }
            block = b.next_in_region();
        }
        Ok(sources)
    }
}

/// Why the trace refused a step, cheap to build: turned into a [`Culprit`]
/// (names and types formatted) only when one is asked for.
enum Fail<'c, 'a> {
    /// An op broke the chain, for a fixed reason.
    Op(OperationRef<'c, 'a>, &'static str),
    /// An op broke the chain, for a reason naming something.
    Text(OperationRef<'c, 'a>, String),
    /// An op produces a value that is not packed nd.
    ResultNotPacked(OperationRef<'c, 'a>, Value<'c, 'a>),
    /// An op's block argument is not packed nd.
    ArgNotPacked(OperationRef<'c, 'a>, Value<'c, 'a>),
    /// A value without an op to blame: what to call it, and why.
    Value(Value<'c, 'a>, &'static str, &'static str),
}

impl<'c> Fail<'c, '_> {
    fn culprit(self) -> Culprit<'c> {
        match self {
            Fail::Op(op, reason) => culprit(&op, reason),
            Fail::Text(op, reason) => culprit(&op, reason),
            Fail::ResultNotPacked(op, value) => culprit(
                &op,
                crate::diag::msg!("it produces '{}', not a packed nd value", value.r#type()),
            ),
            Fail::ArgNotPacked(parent, value) => Culprit {
                location: value.location(),
                op_name: op_name(&parent),
                reason: crate::diag::msg!(
                    "its argument is '{}', not a packed nd value",
                    value.r#type()
                ),
            },
            Fail::Value(value, name, reason) => Culprit {
                location: value.location(),
                op_name: name.into(),
                reason: reason.into(),
            },
        }
    }
}

/// Open Tarjan bookkeeping for one query.
#[derive(Default)]
struct Tarjan {
    counter: usize,
    /// Values on the stack (removed when their component closes).
    index: PtrMap<usize>,
    low: PtrMap<usize>,
    stack: Vec<Key>,
}

impl Tarjan {
    fn open<'c, 'a>(&mut self, value: Value<'c, 'a>, sources: Sources<'c, 'a>) -> Frame<'c, 'a> {
        let k = value_id(value);
        self.index.insert(k, self.counter);
        self.low.insert(k, self.counter);
        self.counter += 1;
        self.stack.push(k);
        let (sources, bad) = match sources {
            Ok(s) => (s, None),
            Err(c) => (Vec::new(), Some(Rc::new(c))),
        };
        Frame {
            value,
            sources,
            next: 0,
            bad,
        }
    }
}

/// Whether `value` is a parameter of a function (an argument of a
/// `func.func`'s entry block): a root of the trace, or refused when its type
/// is not packed; either way it traces to nothing but itself.
pub fn is_function_param(value: Value) -> bool {
    if !value.is_block_argument() {
        return false;
    }
    // The block lives as long as the IR.
    let block: BlockRef =
        unsafe { BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(value.to_raw())) };
    block
        .parent_operation()
        .is_some_and(|parent| op_kind(&parent) == OpKind::Func)
        && is_entry(&block)
}

fn is_entry(block: &BlockRef) -> bool {
    block
        .parent_region()
        .and_then(|r| r.first_block())
        .is_some_and(|first| first == *block)
}

fn region_index(op: &OperationRef, block: &BlockRef) -> Option<usize> {
    let region = block.parent_region()?;
    (0..op.region_count()).find(|&i| op.region(i).is_ok_and(|r| r == region))
}

/// Operand `n` of the terminator of region `region`'s first block.
fn terminator_operand<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    region: usize,
    n: usize,
) -> Result<Value<'c, 'a>, Fail<'c, 'a>> {
    op.region(region)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.terminator())
        .and_then(|t| t.operand_at(n))
        .ok_or(Fail::Op(
            *op,
            "its region does not yield a value for this result",
        ))
}
