//! `--lower-composite-ops` (LowerCompositeOps), the InCore rail's
//! all_to_all_v part: in InCore bodies (`pl.func_kind` `incore`, `aic`,
//! `aiv`) each `pld.tensor.all_to_all_v` expands into explicit per-peer
//! transfers. Collectives in orchestration bodies are left for their rails
//! (CHIP: `--lower-l2-tensor-collectives`, HOST:
//! `--lower-host-tensor-collectives`).
//!
//! The expansion (push model; `MAX_RECV = target rows / NR`, `P` from
//! `pld.system.nranks`, `me` from `pld.system.rank`):
//!
//! ```text
//! scf.for %peer = 0 to P {                       // send phase
//!   %rows = clamp(read_count(send_counts[%peer]), 0, MAX_RECV)
//!   scf.if %rows > 0 {
//!     pld.comm.put_rows %rows of input[%peer * MAX_RECV] to target[me * MAX_RECV] on rank %peer
//!   }
//!   pld.comm.notify %rows to recv_counts[me] signal signal on rank %peer   // outside the guard
//! }
//! scf.for %peer = 0 to P { pld.comm.wait signal[%peer] }   // receive phase
//! ```
//!
//! The count is clamped at runtime (a negative count sends nothing, an
//! over-capacity one sends MAX_RECV rows), and the notify is unconditional so
//! a peer that receives zero rows still learns its count and is released.
//! The op's result is its `target` (the window-as-result contract).
//!
//! Diagnostics (one per collective, the first failing row; nothing is
//! rewritten unless every collective passes):
//!
//! | condition | message contains |
//! |---|---|
//! | core_num not the constant 1 | `requires core_num=1` |
//! | target rows or signal NR not static | `needs a static target row count and signal NR` |
//! | target rows not a multiple of NR | (rejected by the op verifier) |
//! | `pld.tensor.indexed_all_to_all_v`, module not `pl.arch = "a5"` | `indexed_all_to_all_v needs pl.arch = "a5" (A5 URMA PER_PEER transport)` |
//! | `pld.tensor.indexed_all_to_all_v` | `indexed_all_to_all_v is not supported in an InCore body` |
//! | a family collective (allreduce, reduce_scatter, allgather, broadcast, all_to_all, barrier) | `<op> is not supported in an InCore body` |
//!
//! (The indexed rows are indexed.md's, in its order: the architecture first,
//! then the rail. The indexed op has no InCore expansion.)

use super::{LowerCompositeOpsStatistics, ModulePass};
use crate::{
    collective::{CoreNum, core_num},
    diag,
    error::PldError,
    ir::attributes::i64_attr,
    ir::builders,
    ir::func_kind::func_kind,
    ir::mutation::{insert_before, replace_all_uses},
    ir::tensor_type::TensorLike,
    ir::walk::{module_functions, ops_named},
};
use melior::{
    Context,
    dialect::{
        arith::{self, CmpiPredicate},
        scf,
    },
    ir::{
        Block, BlockLike, Location, Region, RegionLike, Type, Value, ValueLike,
        operation::{Operation, OperationLike, OperationRef},
        r#type::IntegerType,
    },
};

/// The pass, with what its last run counted.
#[derive(Clone, Default)]
pub struct LowerCompositeOps {
    lowered: u64,
}

impl ModulePass for LowerCompositeOps {
    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        let mut plans: Vec<(OperationRef, i64)> = Vec::new();
        let mut errors = 0;
        let arch = crate::collective::module_arch(&module);
        for func in module_functions(&module) {
            if !matches!(func_kind(&func), Some("incore" | "aic" | "aiv")) {
                continue;
            }
            // Every row without an InCore expansion is refused at the op
            // (indexed.md, family.md): the architecture first, then the rail.
            for op in crate::ir::walk::collectives_in(&func) {
                let Some(spec) =
                    crate::collective::Collective::of_op_name(&crate::ir::op_kind::op_name(&op))
                        .map(|c| c.spec())
                        .filter(|s| !s.incore)
                else {
                    continue;
                };
                let problem = crate::collective::arch_problem(spec, &arch).unwrap_or_else(|| {
                    diag::msg!("{} is not supported in an InCore body", spec.short)
                });
                diag::op_error(&op, &problem);
                errors += 1;
            }
            for op in ops_named(&func, &[crate::collective::ALL_TO_ALL_V.op]) {
                match plan(&op) {
                    Ok(max_recv) => plans.push((op, max_recv)),
                    Err(message) => {
                        diag::op_error(&op, &message);
                        errors += 1;
                    }
                }
            }
        }
        if errors > 0 {
            return Err(PldError::Diagnosed(errors));
        }
        let context_ref = module.context();
        let context = crate::ir::context_borrow::borrow(&context_ref);
        self.lowered = plans.len() as u64;
        for (op, max_recv) in plans {
            expand(context, &op, max_recv)?;
        }
        Ok(())
    }
    fn statistics(&self) -> LowerCompositeOpsStatistics {
        LowerCompositeOpsStatistics {
            collectives_lowered: self.lowered,
        }
    }
    fn effect(&self) -> super::Effect {
        if self.lowered == 0 {
            super::Effect::Unchanged
        } else {
            super::Effect::Changed
        }
    }
}

/// The static core_num, if it is one.
fn static_core_num(op: &OperationRef) -> Option<i64> {
    match core_num(op) {
        CoreNum::Static(limit) => Some(limit),
        CoreNum::Runtime => None,
    }
}

/// Checks one InCore collective; returns MAX_RECV.
fn plan(op: &OperationRef) -> Result<i64, String> {
    match static_core_num(op) {
        Some(1) => {}
        Some(l) => {
            return Err(diag::msg!(
                "core_num must be 1 in an InCore body (the InCore rail runs on the calling core), got {l}"
            ));
        }
        None => {
            return Err(diag::msg!(
                "core_num must be 1 in an InCore body (the InCore rail runs on the calling core), got a runtime value"
            ));
        }
    }
    let shape_of = |i: usize| {
        op.operand(i)
            .ok()
            .and_then(|v| TensorLike::of(v.r#type()))
            .and_then(|t| t.shape)
    };
    // pld.comm.put_rows copies whole rows, so its verifier requires input and
    // target rows of one shape: check it here, before the module is touched.
    if let (Some(input), Some(target)) = (shape_of(0), shape_of(1)) {
        let differs = input.len() != target.len()
            || input
                .iter()
                .zip(&target)
                .skip(1)
                .any(|(a, b)| matches!((a, b), (Some(a), Some(b)) if a != b));
        if differs {
            let dims = |s: &[Option<i64>]| {
                s.iter()
                    .skip(1)
                    .map(|d| d.map_or("?".to_string(), |d| d.to_string()))
                    .collect::<Vec<_>>()
                    .join("x")
            };
            return Err(diag::msg!(
                "operand 'input' row shape [{}] differs from the row shape of 'target' [{}] (the InCore rail copies whole rows)",
                dims(&input),
                dims(&target)
            ));
        }
    }
    let rows = shape_of(1).and_then(|s| s.first().copied().flatten());
    let ranks = shape_of(2).and_then(|s| s.first().copied().flatten());
    match (rows, ranks) {
        (Some(rows), Some(ranks)) if ranks >= 1 => Ok(rows / ranks),
        _ => Err(diag::msg!(
            "target row count and signal row count NR must be static on the InCore rail (MAX_RECV = rows / NR)"
        )),
    }
}

struct Builder<'c> {
    context: &'c Context,
    loc: Location<'c>,
    i64: Type<'c>,
}

impl<'c> Builder<'c> {
    fn constant(&self, value: i64) -> Result<Operation<'c>, PldError> {
        Ok(arith::constant(
            self.context,
            i64_attr(self.context, value),
            self.loc,
        ))
    }
}

fn expand<'c>(
    context: &'c Context,
    op: &OperationRef<'c, '_>,
    max_recv: i64,
) -> Result<(), PldError> {
    let b = Builder {
        context,
        loc: op.location(),
        i64: IntegerType::new(context, 64).into(),
    };
    let [input, target, signal, send_counts, recv_counts] = [0, 1, 2, 3, 4].map(|i| {
        op.operand(i)
            .expect("the verifier guarantees five operands")
    });
    let before = |new: Operation<'c>| -> Result<Value<'c, '_>, PldError> {
        let inserted = insert_before(op, new)?;
        Ok(unsafe { Value::from_raw(inserted.result(0)?.to_raw()) })
    };
    let ranks = before(builders::system_nranks(context, b.loc)?)?;
    let me = before(builders::system_rank(context, b.loc)?)?;
    let zero = before(b.constant(0)?)?;
    let one = before(b.constant(1)?)?;
    let max = before(b.constant(max_recv)?)?;
    let dst_row = before(arith::muli(me, max, b.loc))?;

    // Send phase.
    let body = Block::new(&[(b.i64, b.loc)]);
    let peer: Value = body.argument(0)?.into();
    let count = body.append_operation(builders::comm_read_count(
        context,
        send_counts,
        peer,
        b.loc,
    )?);
    let wide = body.append_operation(arith::extsi(count.result(0)?.into(), b.i64, b.loc));
    let low = body.append_operation(arith::maxsi(wide.result(0)?.into(), zero, b.loc));
    let rows = body.append_operation(arith::minsi(low.result(0)?.into(), max, b.loc));
    let rows: Value = rows.result(0)?.into();
    let any = body.append_operation(arith::cmpi(context, CmpiPredicate::Sgt, rows, zero, b.loc));
    let then_block = Block::new(&[]);
    let src_row = then_block.append_operation(arith::muli(peer, max, b.loc));
    then_block.append_operation(builders::comm_put_rows(
        rows,
        input,
        src_row.result(0)?.into(),
        target,
        dst_row,
        peer,
        b.loc,
    )?);
    then_block.append_operation(scf::r#yield(&[], b.loc));
    let then_region = Region::new();
    then_region.append_block(then_block);
    body.append_operation(scf::r#if(
        any.result(0)?.into(),
        &[],
        then_region,
        Region::new(),
        b.loc,
    ));
    body.append_operation(builders::comm_notify(
        rows,
        recv_counts,
        me,
        signal,
        peer,
        b.loc,
    )?);
    body.append_operation(scf::r#yield(&[], b.loc));
    let region = Region::new();
    region.append_block(body);
    insert_before(op, scf::r#for(zero, ranks, one, region, b.loc))?;

    // Receive phase.
    let body = Block::new(&[(b.i64, b.loc)]);
    let peer: Value = body.argument(0)?.into();
    body.append_operation(builders::comm_wait(signal, peer, b.loc)?);
    body.append_operation(scf::r#yield(&[], b.loc));
    let region = Region::new();
    region.append_block(body);
    insert_before(op, scf::r#for(zero, ranks, one, region, b.loc))?;

    let result = op.result(0)?;
    replace_all_uses(result.into(), target);
    crate::ir::mutation::erase(unsafe { OperationRef::from_raw(op.to_raw()) });
    Ok(())
}
