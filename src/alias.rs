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
//! distinct function parameters are never joined: distinct arguments are
//! distinct storage (the caller's obligation).

use crate::{
    contiguity::ContiguityTrace,
    ir_util::{callee_name, is_call, is_tensor_like, key, op_name},
};
use melior::ir::{
    BlockLike, RegionLike, Value, ValueLike,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
};
use std::collections::HashMap;

#[derive(Default)]
pub struct AliasClasses {
    parent: HashMap<usize, usize>,
}

impl AliasClasses {
    /// Builds the classes of every tensor-like value in `func`.
    pub fn of_function<'c, 'a>(
        func: &OperationRef<'c, 'a>,
        trace: &ContiguityTrace<'c, 'a>,
        functions: &HashMap<String, OperationRef<'c, 'a>>,
    ) -> Self {
        let mut classes = Self::default();
        let mut values: Vec<Value<'c, 'a>> = Vec::new();
        let collect_blocks = |op: &OperationRef<'c, 'a>, values: &mut Vec<Value<'c, 'a>>| {
            for region in op.regions() {
                let mut block = region.first_block();
                while let Some(b) = block {
                    for i in 0..b.argument_count() {
                        if let Ok(arg) = b.argument(i) {
                            values.push(arg.into());
                        }
                    }
                    block = b.next_in_region();
                }
            }
        };
        collect_blocks(func, &mut values);
        let mut raw_ops = Vec::new();
        func.walk(WalkOrder::PreOrder, |op| {
            raw_ops.push(op.to_raw());
            WalkResult::Advance
        });
        for raw in raw_ops {
            let op = unsafe { OperationRef::from_raw(raw) };
            if op == *func {
                continue;
            }
            collect_blocks(&op, &mut values);
            for result in op.results() {
                values.push(result.into());
            }
        }
        for value in values {
            if !is_tensor_like(value.r#type()) {
                continue;
            }
            for source in alias_sources(value, trace, functions) {
                classes.union(key(value), key(source));
            }
        }
        classes
    }

    fn find(&mut self, mut k: usize) -> usize {
        let mut path = Vec::new();
        while let Some(&p) = self.parent.get(&k) {
            if p == k {
                break;
            }
            path.push(k);
            k = p;
        }
        for node in path {
            self.parent.insert(node, k);
        }
        k
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(ra, rb);
        }
    }

    /// The class representative of a value.
    pub fn class(&mut self, value: Value) -> usize {
        self.find(key(value))
    }
}

/// The values a tensor-like value aliases directly (one step).
pub fn alias_sources<'c, 'a>(
    value: Value<'c, 'a>,
    trace: &ContiguityTrace<'c, 'a>,
    functions: &HashMap<String, OperationRef<'c, 'a>>,
) -> Vec<Value<'c, 'a>> {
    if let Some(result) = crate::values::as_result(value) {
        let op = result.owner();
        let tensor_operands = || op.operands().filter(|v| is_tensor_like(v.r#type())).collect::<Vec<_>>();
        if is_call(&op) {
            return call_result_sources(&op, result.result_number(), functions).unwrap_or_else(tensor_operands);
        }
        return trace.sources(value).unwrap_or_else(|_| tensor_operands());
    }
    if crate::values::as_argument(value).is_some() {
        return trace.sources(value).unwrap_or_default();
    }
    Vec::new()
}

/// A call result `n`: the arguments its callee returns there (`Some(vec![])`
/// for a fresh value), or `None` when the callee has no body to tell.
fn call_result_sources<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    n: usize,
    functions: &HashMap<String, OperationRef<'c, 'a>>,
) -> Option<Vec<Value<'c, 'a>>> {
    if op_name(op) == "pl.submit"
        && let Ok(attr) = op.attribute("runtime_alloc_outs")
        && let Ok(outs) = melior::ir::attribute::DenseI64ArrayAttribute::try_from(attr)
        && (0..outs.len()).any(|i| outs.element(i).ok() == Some(n as i64))
    {
        return Some(Vec::new());
    }
    let func = functions.get(&callee_name(op)?)?;
    let entry = func.region(0).ok()?.first_block()?;
    let mut sources = Vec::new();
    let mut block = Some(entry);
    while let Some(b) = block {
        if let Some(ret) = b.terminator()
            && op_name(&ret) == "func.return"
            && let Ok(returned) = ret.operand(n)
            && let Some(arg) = crate::values::as_argument(returned)
            && arg.owner() == entry
            && let Ok(operand) = op.operand(arg.argument_number())
        {
            sources.push(operand);
        }
        block = b.next_in_region();
    }
    Some(sources)
}
