//! `--lower-host-tensor-collectives` (LowerHostTensorCollectives): the HOST
//! rail. In every HOST orchestrator (`pl.func_kind = "orchestration"`,
//! `pl.level = "host"`), each `pld.tensor.all_to_all_v` fans out into P
//! device dispatches (P = the signal's static NR) of a synthesized builtin
//! chip callable:
//!
//! ```text
//! %B  = L < P ? L : L / P * P                       // L: core_num, runtime or constant
//! pld.host.require (1 <= L <= INT32_MAX) && S >= B else error 5, "..."
//! scf.for %dev = 0 to P {
//!   pld.host.dispatch @builtin.tensor.all_to_all_v__fp32(input, target, signal, send_counts, recv_counts)
//!       on %dev core_num(%B) {pl.arg_directions = [...]}
//! }
//! ```
//!
//! `@builtin.tensor.all_to_all_v__{fp32,int8}` is a private CHIP
//! orchestration function (canonical parameter types and directions, as the
//! CHIP rail's kernel) whose body is one `func.call` of the same AIV kernel
//! the CHIP rail synthesizes (`Variant::kernel_source`, shared, with its
//! template attributes). That call carries `pl.abi_arg_count = 6`: the HOST
//! rail packs only `args[0..4]` + `args[5]` (the first CommContext) into the
//! kernel's argument array -- no duplicate context tail -- while a CHIP-rail
//! call (no attribute) packs every argument. The collective's
//! `pl.task_id` / `pl.task_deps`, if any, are copied to each dispatch.
//!
//! Checks, per collective, first failing row reported, nothing rewritten
//! unless all pass:
//!
//! | condition | message contains |
//! |---|---|
//! | an operand not traced to a `pld.window` of a `pld.window_buffer` of this body | `<op> <role> must be a window-bound DistributedTensor` |
//! | two operands sharing a window allocation (two views of one buffer included) | `<op> <a> and <b> must be different window allocations` |
//! | signal NR or S not static | `signal shape must be static on the HOST rail` |
//! | element type not f32 / i8 | `supports only f32 or i8` |
//! | `pld.tensor.indexed_all_to_all_v` in a HOST body, module not `pl.arch = "a5"` | `indexed_all_to_all_v needs pl.arch = "a5" (A5 URMA PER_PEER transport)` |
//! | `pld.tensor.indexed_all_to_all_v` in a HOST body | `indexed_all_to_all_v is not supported on the HOST rail` |
//! | two operands' windows in different communication domains (`pld.window_buffer in %d`; no domain = the implicit one) | `operands of one collective must belong to one communication domain`, a note at each domain |
//! | an explicit domain whose `ranks` is not the signal's NR | `signal has NR=<P> rows but communication domain has <N> ranks`, a note at the domain |
//!
//! (The two indexed rows are indexed.md's, in its order: the architecture
//! first, then the rail.)
//! | a symbol of the callable's / kernel's name that is something else | `symbol '@<name>' already exists` |

use super::{LowerHostTensorCollectivesOptions, LowerHostTensorCollectivesStatistics, ModulePass};
use crate::ir::at::{BlockAt as _, OpAt as _};
use crate::{
    analysis::contiguity::ContiguityTrace,
    collective::{Collective, Variant, WidthRule},
    diag,
    error::PldError,
    ir::attributes::{i64_attr, string_array_attr},
    ir::builders,
    ir::func_kind::is_host_orchestrator,
    ir::mutation::{insert_before, replace_all_uses},
    ir::op_kind::{op_id, op_name, value_id},
    ir::symbols::{SymbolTable, structurally_equal},
    ir::tensor_type::TensorView,
    ir::walk::{enclosing_function, module_body, module_functions},
};
use melior::{
    Context,
    dialect::{func, scf},
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, Region, RegionLike, Type, Value,
        ValueLike,
        attribute::{
            ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute,
            TypeAttribute,
        },
        operation::{Operation, OperationLike, OperationMutLike, OperationRef},
        r#type::IntegerType,
    },
};
use std::collections::{BTreeSet, HashSet};

/// The pass: its option (`Passes.td`) and what its last run counted.
#[derive(Clone, Default)]
pub struct LowerHostTensorCollectives {
    /// `aiv-cores`: the target's AIV core count (0: unknown, not checked).
    pub aiv_cores: u64,
    lowered: u64,
}

/// SIMPLER_ERROR_INVALID_ARGS.
pub const INVALID_ARGS: i64 = 5;
/// SIMPLER_FATAL_SYNC_START_OVER_CAPACITY: a launch wider than the device's
/// AIV cores, refused before any block runs.
pub const OVER_CAPACITY: i64 = 7;

impl ModulePass for LowerHostTensorCollectives {
    fn set_options(&mut self, options: &LowerHostTensorCollectivesOptions) {
        self.aiv_cores = options.aiv_cores;
    }
    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        self.lowered = lower(module, self.aiv_cores)?;
        Ok(())
    }
    fn statistics(&self) -> LowerHostTensorCollectivesStatistics {
        LowerHostTensorCollectivesStatistics {
            collectives_lowered: self.lowered,
        }
    }
    fn effect(&self) -> super::Effect {
        // Nothing to lower: nothing was touched.
        if self.lowered == 0 {
            super::Effect::Unchanged
        } else {
            super::Effect::Changed
        }
    }
}

/// The builtin chip callable of a variant.
pub fn callable_symbol(variant: Variant) -> String {
    // `__builtin_<op>...` -> `builtin.tensor.<op>...`.
    let kernel = variant.symbol();
    format!(
        "{}{}",
        crate::collective::BUILTIN_CALLABLE_PREFIX,
        kernel.strip_prefix("__builtin_").unwrap_or(&kernel)
    )
}

/// The builtin chip callable of a variant, built as ops: a HOST-dispatchable
/// orchestration function of the canonical signature whose one task calls
/// the variant's kernel with the HOST ABI, located by a `NameLoc` of its
/// symbol around `collective`.
pub fn build_callable<'c>(
    context: &'c Context,
    variant: Variant,
    collective: Location<'c>,
) -> Operation<'c> {
    let name = callable_symbol(variant);
    let loc = Location::name(context, &name, collective);
    let (block, arg_attrs, function_type) = variant.canonical_entry(context, collective);
    let args: Vec<Value> = (0..block.argument_count())
        .filter_map(|i| block.argument_at(i).map(Value::from))
        .collect();
    let results: Vec<Type> = (0..function_type.result_count())
        .filter_map(|i| function_type.result(i).ok())
        .collect();
    let mut call = func::call(
        context,
        FlatSymbolRefAttribute::new(context, &variant.symbol()),
        &args,
        &results,
        loc,
    );
    call.set_attribute(
        "pl.abi_arg_count",
        i64_attr(context, variant.spec().comm_slot() as i64 + 1),
    );
    call.set_attribute(
        "pl.arg_directions",
        string_array_attr(context, &variant.spec().directions()),
    );
    call.set_attribute("pl.task_deps", ArrayAttribute::new(context, &[]).into());
    call.set_attribute("pl.task_id", i64_attr(context, 0));
    let call = block.append_operation(call);
    let returned: Vec<Value> = call.results().map(Value::from).collect();
    block.append_operation(func::r#return(&returned, loc));
    let region = Region::new();
    region.append_block(block);
    func::func(
        context,
        StringAttribute::new(context, &name),
        TypeAttribute::new(function_type.into()),
        region,
        &[
            (
                Identifier::new(context, "sym_visibility"),
                StringAttribute::new(context, "private").into(),
            ),
            (Identifier::new(context, "arg_attrs"), arg_attrs),
            (
                Identifier::new(context, "pl.func_kind"),
                StringAttribute::new(context, "orchestration").into(),
            ),
        ],
        loc,
    )
}

struct Plan {
    variant: Variant,
    ranks: i64,
    stride: i64,
    /// `aiv-cores` (0: not checked).
    aiv_cores: u64,
}

/// Returns how many collectives it lowered.
fn lower(module: OperationRef, aiv_cores: u64) -> Result<u64, PldError> {
    let body = module_body(&module)?;
    let arch = crate::collective::module_arch(&module);
    let trace = ContiguityTrace::new(body);
    let mut plans: Vec<(OperationRef, Plan)> = Vec::new();
    // No-ops (a permute without pairs): erased, nothing launched.
    let mut noops: Vec<OperationRef> = Vec::new();
    let mut errors = 0;
    for func in module_functions(&module)
        .iter()
        .filter(|f| is_host_orchestrator(f))
    {
        for op in crate::ir::walk::collectives_in(func) {
            if crate::collective::is_empty_permute(&op) {
                noops.push(op);
                continue;
            }
            if let Some(message) = crate::collective::host_rail_problem(&op_name(&op), &arch) {
                diag::op_error(&op, &message);
                errors += 1;
                continue;
            }
            match plan(&op, func, &trace, aiv_cores) {
                Some(p) => plans.push((op, p)),
                None => errors += 1,
            }
        }
    }
    if errors > 0 {
        return Err(PldError::Diagnosed(errors));
    }
    if plans.is_empty() {
        for op in noops {
            crate::collective::erase_noop(op);
        }
        return Ok(0);
    }

    // Symbols: reuse an identical one, reject anything else of that name.
    let context_ref = module.context();
    let context = crate::ir::context_borrow::borrow(&context_ref);
    let variants: BTreeSet<Variant> = plans.iter().map(|(_, p)| p.variant).collect();
    let symbols = SymbolTable::of(&module).ok_or_else(|| {
        PldError::Internal("the pass runs on a module, which is a symbol table".into())
    })?;
    let mut to_add: Vec<Operation> = Vec::new();
    for &variant in &variants {
        // Located at the first collective that needs them.
        let first = plans
            .iter()
            .find(|(_, p)| p.variant == variant)
            .map(|(op, _)| op.location());
        let at = first.unwrap_or_else(|| module.location());
        for (name, synthesized) in [
            (variant.symbol(), variant.build_kernel(context, at)),
            (
                callable_symbol(variant),
                build_callable(context, variant, at),
            ),
        ] {
            match symbols.lookup(&name) {
                None => to_add.push(synthesized),
                Some(existing) if structurally_equal(&existing, &synthesized) => {}
                Some(existing) => {
                    for (op, _) in plans.iter().filter(|(_, p)| p.variant == variant) {
                        diag::op_error_with_note(
                            op,
                            &format!("symbol '@{name}' already exists"),
                            existing.location(),
                            "this symbol is not the builtin the HOST rail synthesizes",
                        );
                        errors += 1;
                    }
                }
            }
        }
    }
    if errors > 0 {
        return Err(PldError::Diagnosed(errors));
    }
    for op in to_add {
        symbols.insert(op);
    }
    for op in noops {
        crate::collective::erase_noop(op);
    }
    let lowered = plans.len() as u64;
    for (op, plan) in plans {
        rewrite(context, &op, &plan)?;
    }
    Ok(lowered)
}

/// Resolves every operand to its window allocations and checks the rows.
fn plan<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    func: &OperationRef<'c, 'a>,
    trace: &ContiguityTrace<'c, 'a>,
    aiv_cores: u64,
) -> Option<Plan> {
    let loc = op.location();
    let spec = Collective::of_op_name(&op_name(op))?.spec();
    let roles = spec.operand_names();
    let n = roles.len();
    let mut buffers: Vec<Vec<OperationRef>> = Vec::new();
    for (i, role) in roles.iter().enumerate() {
        match window_buffers(op.operand_at(i)?, func, trace) {
            Ok(b) => buffers.push(b),
            Err((culprit, why)) => {
                diag::op_error_with_note(
                    op,
                    &format!(
                        "operand '{role}' must be a window-bound !pld.dtensor (a pld.window of a pld.window_buffer of this HOST orchestrator)"
                    ),
                    culprit,
                    &why,
                );
                return None;
            }
        }
    }
    for a in 0..n {
        for b in a + 1..n {
            if let Some(shared) = buffers[a].iter().find(|x| buffers[b].contains(x)) {
                diag::op_error_with_note(
                    op,
                    &format!(
                        "operands {} and {} must be different window allocations",
                        roles[a], roles[b]
                    ),
                    shared.location(),
                    "both are views of this pld.window_buffer",
                );
                return None;
            }
        }
    }
    let signal = op.operand_at(spec.signal)?;
    let geometry = TensorView::of(signal.r#type())
        .and_then(|t| crate::collective::signal_geometry(op, spec, &t));
    let Some((ranks, stride)) = geometry else {
        diag::op_error(
            op,
            &format!(
                "signal shape must be static on the HOST rail, got '{}'",
                signal.r#type()
            ),
        );
        return None;
    };
    if let Some(problem) = crate::collective::family_rail_problem(op, spec, ranks) {
        diag::op_error(op, &problem);
        return None;
    }
    let variant = match Variant::of_op(op, "HOST") {
        Ok(v) => v,
        Err(e) => {
            diag::op_error(op, &e.0);
            return None;
        }
    };
    // A compile-time core_num that can never pass the runtime check is an error
    // now (the same rows and messages as the CHIP rail), not a certain 5 later.
    if let crate::collective::CoreNum::Static(limit) = crate::collective::core_num(op) {
        if !(1..=i32::MAX as i64).contains(&limit) {
            diag::op_error(
                op,
                &format!("core_num must be in [1, 2147483647], got {limit}"),
            );
            return None;
        }
        // The CHIP rail's row and words (PyPTO refuses it at compile time).
        if let Some(problem) = crate::collective::aiv_cores_problem(spec, ranks, limit, aiv_cores) {
            diag::op_error(op, &problem);
            return None;
        }
        let blocks = spec.blocks(ranks, limit);
        if stride < blocks {
            diag::op_error_with_note(
                op,
                &match spec.width {
                    WidthRule::Folded => format!(
                        "signal stride S={stride} is smaller than the admitted block count B={blocks} \
                         (core_num L={limit} folded for P={ranks} ranks)"
                    ),
                    WidthRule::Exact => format!(
                        "signal stride S={stride} is smaller than the launch width L={limit} \
                         ({} launches exactly core_num blocks)",
                        spec.short
                    ),
                },
                loc,
                "the signal needs one column (lane) per launched block",
            );
            return None;
        }
    }
    // domains.md: after today's checks, one communication domain, then NR = ranks.
    if let Some(f) = crate::analysis::window_checks::check_domains(&roles, &buffers, Some(ranks)) {
        diag::op_error_with_notes(op, &f.message, &f.notes);
        return None;
    }
    Some(Plan {
        variant,
        ranks,
        stride,
        aiv_cores,
    })
}

/// The `pld.window_buffer`s a value is a view of, or the location and reason
/// that breaks the chain.
fn window_buffers<'c, 'a>(
    value: Value<'c, 'a>,
    func: &OperationRef<'c, 'a>,
    trace: &ContiguityTrace<'c, 'a>,
) -> Result<Vec<OperationRef<'c, 'a>>, (Location<'c>, String)> {
    let mut buffers: Vec<OperationRef> = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        if !seen.insert(value_id(v)) {
            continue;
        }
        let sources = trace.sources(v).map_err(|c| (c.location, c.note()))?;
        if !sources.is_empty() {
            stack.extend(sources);
            continue;
        }
        // A root: only a window of a buffer of this body is window-bound.
        let owner = crate::ir::value_defs::as_result(v).map(|r| r.owner());
        let Some(window) = owner.filter(|o| op_name(o) == "pld.window") else {
            let what = owner.map_or("a function parameter".to_string(), |o| {
                format!("'{}'", op_name(&o))
            });
            return Err((
                v.location(),
                diag::msg!("it is traced to {what}, not to a pld.window of this HOST orchestrator"),
            ));
        };
        let buffer = window
            .operand(0)
            .ok()
            .and_then(|b| crate::ir::value_defs::as_result(b))
            .map(|r| r.owner())
            .filter(|b| {
                op_name(b) == "pld.window_buffer"
                    && enclosing_function(b).is_some_and(|f| f == *func)
            });
        let Some(buffer) = buffer else {
            return Err((
                window.location(),
                diag::msg!("this pld.window is not of a pld.window_buffer of this body"),
            ));
        };
        if !buffers.iter().any(|b| op_id(b) == op_id(&buffer)) {
            buffers.push(buffer);
        }
    }
    Ok(buffers)
}

struct Emitter<'c, 'o, 'a> {
    context: &'c Context,
    loc: Location<'c>,
    anchor: &'o OperationRef<'c, 'a>,
}

impl<'c, 'a> Emitter<'c, '_, 'a> {
    /// Inserts `op` before the collective; its first result.
    fn insert(&self, op: Operation<'c>) -> Result<Value<'c, 'a>, PldError> {
        let op = insert_before(self.anchor, op)?;
        Ok(unsafe { Value::from_raw(op.result(0)?.to_raw()) })
    }
    fn constant(&self, value: i64, ty: Type<'c>) -> Result<Value<'c, 'a>, PldError> {
        self.insert(arith::constant(
            self.context,
            IntegerAttribute::new(ty, value).into(),
            self.loc,
        ))
    }
    fn i64(&self) -> Type<'c> {
        IntegerType::new(self.context, 64).into()
    }
    fn cmp(
        &self,
        predicate: CmpiPredicate,
        a: Value<'c, '_>,
        b: Value<'c, '_>,
    ) -> Result<Value<'c, 'a>, PldError> {
        self.insert(arith::cmpi(self.context, predicate, a, b, self.loc))
    }
}

use melior::dialect::arith::{
    self,
    CmpiPredicate::{self, Sge as SGE, Sle as SLE, Slt as SLT},
};

/// The plain op's `B = CalAllToAllVBlocks(P, L)` and the runtime argument
/// check before the collective; returns B.
fn runtime_width<'c, 'a>(
    context: &'c Context,
    op: &OperationRef<'c, 'a>,
    plan: &Plan,
    e: &Emitter<'c, '_, 'a>,
) -> Result<Value<'c, 'a>, PldError> {
    let i64t = e.i64();
    let limit = match op
        .attribute("core_num")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
    {
        Some(l) => e.constant(l.value(), i64t)?,
        None => unsafe {
            Value::from_raw(
                op.operand(crate::collective::dynamic_core_num_index(op))?
                    .to_raw(),
            )
        },
    };
    let ranks = e.constant(plan.ranks, i64t)?;
    let stride = e.constant(plan.stride, i64t)?;
    let one = e.constant(1, i64t)?;
    let int32_max = e.constant(i32::MAX as i64, i64t)?;
    let at_least_one = e.cmp(SGE, limit, one)?;
    let at_most_max = e.cmp(SLE, limit, int32_max)?;
    let in_range = e.insert(arith::andi(at_least_one, at_most_max, e.loc))?;
    let below_ranks = e.cmp(SLT, limit, ranks)?;
    let quotient = e.insert(arith::divsi(limit, ranks, e.loc))?;
    let multiple = e.insert(arith::muli(quotient, ranks, e.loc))?;
    let blocks = e.insert(arith::select(below_ranks, limit, multiple, e.loc))?;
    let fits = e.cmp(SGE, stride, blocks)?;
    let ok = e.insert(arith::andi(in_range, fits, e.loc))?;
    // The CHIP rail's wording of the same check.
    let message =
        crate::collective::runtime_width_message(plan.variant.spec().op, plan.stride, plan.ranks);
    insert_before(
        op,
        builders::host_require(
            context,
            ok,
            INVALID_ARGS,
            &message,
            &[("core_num L", limit), ("B", blocks)],
            e.loc,
        )?,
    )?;
    // `aiv-cores`: a runtime width above the target's cores fails before the
    // dispatches, as the device would refuse the sync-start launch.
    if plan.aiv_cores > 0 {
        let cores = e.constant(plan.aiv_cores.min(i64::MAX as u64) as i64, i64t)?;
        let fits_cores = e.cmp(SLE, blocks, cores)?;
        let message = crate::diag::msg!(
            "{}: the launch width B must not exceed the target's {} AIV cores (core_num folded for P={} ranks; option aiv-cores={})",
            plan.variant.spec().op,
            plan.aiv_cores,
            plan.ranks,
            plan.aiv_cores
        );
        insert_before(
            op,
            builders::host_require(
                context,
                fits_cores,
                OVER_CAPACITY,
                &message,
                &[("core_num L", limit), ("B", blocks)],
                e.loc,
            )?,
        )?;
    }
    Ok(blocks)
}

fn rewrite<'c, 'a>(
    context: &'c Context,
    op: &OperationRef<'c, 'a>,
    plan: &Plan,
) -> Result<(), PldError> {
    let e = Emitter {
        context,
        loc: op.location(),
        anchor: op,
    };
    let i64t = e.i64();

    let spec = plan.variant.spec();
    let blocks = if spec.core_num_operand {
        runtime_width(context, op, plan, &e)?
    } else {
        // The family: the exact compile-time width the plan checked.
        let limit = match crate::collective::core_num(op) {
            crate::collective::CoreNum::Static(l) => l,
            crate::collective::CoreNum::Runtime => 1,
        };
        e.constant(limit, i64t)?
    };

    // Casts to the callable's canonical parameter types.
    let canonical: Vec<Type> = plan.variant.canonical_type_values(context);
    let mut args: Vec<Value> = Vec::new();
    for (i, ty) in canonical.iter().take(spec.params.len()).enumerate() {
        let v = op.operand(i)?;
        args.push(if v.r#type() == *ty {
            v
        } else {
            e.insert(builders::cast(v, *ty, e.loc)?)?
        });
    }

    // One dispatch per device.
    let index: Type = Type::index(context);
    let zero = e.constant(0, index)?;
    let count = e.constant(plan.ranks, index)?;
    let step = e.constant(1, index)?;
    let body = Block::new(&[(index, e.loc)]);
    let device: Value = body.argument(0)?.into();
    let mut attrs: Vec<(&str, Attribute)> = vec![(
        "pl.arg_directions",
        string_array_attr(context, &spec.directions()),
    )];
    for name in ["pl.task_id", "pl.task_deps"] {
        if let Ok(a) = op.attribute(name) {
            attrs.push((name, a));
        }
    }
    let callee = callable_symbol(plan.variant);
    body.append_operation(builders::host_dispatch(
        context,
        &callee,
        &args,
        device,
        Some(blocks),
        &attrs,
        e.loc,
    )?);
    body.append_operation(scf::r#yield(&[], e.loc));
    let region = Region::new();
    region.append_block(body);
    insert_before(op, scf::r#for(zero, count, step, region, e.loc))?;

    // The window-as-result contract: the result is the target (the barrier's signal).
    replace_all_uses(op.result(0)?.into(), op.operand(spec.result)?);
    crate::ir::mutation::erase(unsafe { OperationRef::from_raw(op.to_raw()) });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Variant, build_callable, callable_symbol};
    use crate::collective::Dtype;
    use melior::ir::operation::OperationLike;

    #[test]
    fn callable_names_and_abi() {
        assert_eq!(
            callable_symbol(Variant::plain(Dtype::Fp32)),
            "builtin.tensor.all_to_all_v__fp32"
        );
        assert_eq!(
            callable_symbol(Variant::plain(Dtype::Int8)),
            "builtin.tensor.all_to_all_v__int8"
        );
        let context = crate::test_context();
        let callable = build_callable(
            &context,
            Variant::plain(Dtype::Int8),
            melior::ir::Location::unknown(&context),
        );
        assert!(callable.verify());
        let text = callable.to_string();
        assert!(
            text.contains("call @__builtin_all_to_all_v__int8("),
            "{text}"
        );
        assert!(text.contains("pl.abi_arg_count = 6 : i64"));
        assert!(text.contains("pl.func_kind = \"orchestration\""));
    }
}
