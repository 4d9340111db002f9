//! `--lower-l2-tensor-collectives` (LowerL2TensorCollectives): the CHIP/L2
//! rail for managed collectives.
//!
//! In every CHIP orchestration body, each `pld.tensor.all_to_all_v` and
//! `pld.tensor.indexed_all_to_all_v` becomes a `func.call` to a synthesized
//! AIV builtin kernel (`@__builtin_all_to_all_v__fp32` / `__int8`,
//! `@__builtin_indexed_all_to_all_v__fp32` / `__int8`), so the collective is
//! one ordinary task of the caller's pipeline. Both ops are driven by one
//! variant table (`crate::collective`: operands, canonical types,
//! directions, template package, width rule, runtime core_num, architecture);
//! nothing below is specific to either op. Like upstream MathToFuncs it runs
//! in phases: (1) check every collective and plan its variant and launch
//! width B, reporting every failure at its location; (2) the residual check;
//! (3) synthesize each variant's kernel once; (4) rewrite with a melior
//! `RewritePattern`. Nothing is modified unless phases 1 and 2 pass, so a
//! failing run leaves the module as it was.

use super::{LowerL2TensorCollectivesOptions, LowerL2TensorCollectivesStatistics, ModulePass};
use crate::ir::at::OpAt as _;
use crate::{
    analysis::contiguity::ContiguityTrace,
    collective::{
        Collective, CoreNum, WidthRule, arch_problem, core_num, dynamic_core_num_index, module_arch,
    },
    diag,
    error::PldError,
    ir::func_kind::{is_chip_orchestration, is_host_orchestrator, symbol_name},
    ir::handle_maps::PtrMap,
    ir::symbols::{SymbolTable, structurally_equal},
    ir::tensor_type::TensorView,
    ir::walk::{collectives_in, module_body, module_functions},
};
use melior::{
    PatternRewriter, RewritePatternSet, create_op_rewrite_pattern,
    ir::{
        Attribute, AttributeLike, Location, Type, TypeLike, Value, ValueLike,
        attribute::{FlatSymbolRefAttribute, IntegerAttribute},
        operation::{OperationLike, OperationRef},
        r#type::IntegerType,
    },
    walk_and_apply_patterns,
};
use mlir_sys::{MlirAttribute, MlirType};
use std::collections::{BTreeSet, HashMap};

pub(crate) use crate::collective::Variant;

/// The plain op.
pub const ALL_TO_ALL_V: &str = crate::collective::ALL_TO_ALL_V.op;
/// The builtin template package of the plain op (both rails render it).
pub const TEMPLATE_DIR: &str = crate::collective::ALL_TO_ALL_V.template.name;
/// The plain op's operand names in ABI order (`args[0..4]`).
pub const OPERANDS: [&str; 5] = crate::collective::ALL_TO_ALL_V_OPERANDS;

/// What phase 1 decided for one collective.
#[derive(Clone, Copy, Debug)]
struct Plan {
    variant: Variant,
    width: Width,
}

/// The admitted block count B of a planned collective.
#[derive(Clone, Copy, Debug)]
enum Width {
    /// Folded at compile time.
    Static(i64),
    /// Computed in the body from a runtime core_num, checked by a `pl.require`
    /// and launched through `pl.launch`; P and S are the signal's static dims.
    Runtime { ranks: i64, stride: i64 },
}

/// The pass: its option (`Passes.td`) and what its last run counted.
#[derive(Clone, Default)]
pub struct LowerL2TensorCollectives {
    /// `aiv-cores`: the target's AIV core count (0: unknown, not checked).
    pub aiv_cores: u64,
    /// `window-provenance=false`: skip phase 1b (benchmarking only; the
    /// default, false here, runs it).
    pub skip_window_provenance: bool,
    /// `provenance-timing`: print phase 1b's and the pass's wall time.
    pub provenance_timing: bool,
    statistics: LowerL2TensorCollectivesStatistics,
}

impl ModulePass for LowerL2TensorCollectives {
    fn set_options(&mut self, options: &LowerL2TensorCollectivesOptions) {
        self.aiv_cores = options.aiv_cores;
        self.skip_window_provenance = !options.window_provenance;
        self.provenance_timing = options.provenance_timing;
    }
    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        self.statistics = run(module, self)?;
        Ok(())
    }
    fn statistics(&self) -> LowerL2TensorCollectivesStatistics {
        self.statistics
    }
    fn effect(&self) -> super::Effect {
        // Nothing planned: the pass returned before touching the module.
        if self.statistics.collectives_lowered == 0 {
            super::Effect::Unchanged
        } else {
            super::Effect::Changed
        }
    }
}

/// Runs the pass on `module` (a `builtin.module`). `aiv_cores` is the
/// target's AIV core count (0: unknown, not checked). Returns the counts of
/// the pass's statistics.
pub fn lower_l2_tensor_collectives(
    module: OperationRef,
    aiv_cores: u64,
) -> Result<LowerL2TensorCollectivesStatistics, PldError> {
    run(
        module,
        &LowerL2TensorCollectives {
            aiv_cores,
            ..Default::default()
        },
    )
}

/// The pass with its options (`settings`).
fn run(
    module: OperationRef,
    settings: &LowerL2TensorCollectives,
) -> Result<LowerL2TensorCollectivesStatistics, PldError> {
    let aiv_cores = settings.aiv_cores;
    let started = std::time::Instant::now();
    let body = module_body(&module)?;
    let functions = module_functions(&module);
    let arch = module_arch(&module);

    // Phase 1: check and plan every CHIP-rail collective.
    let mut trace = ContiguityTrace::new(body);
    let mut plans: PtrMap<Plan> = PtrMap::default();
    let mut planned_ops: Vec<OperationRef> = Vec::new();
    // The planned collectives with their CHIP function and signal NR (phase 1b groups them by
    // function; the NR is the one phase 1 read from the signal's static shape).
    let mut planned_in: Vec<(OperationRef, OperationRef, i64)> = Vec::new();
    // Each operand's roots inside its body (the provable-aliasing check).
    let mut local_roots = crate::analysis::provenance::RootSets::default();
    let mut errors = 0;
    // Every collective of a CHIP orchestration body, with its function (for phase 2).
    let mut seen: Vec<(OperationRef, OperationRef)> = Vec::new();
    // No-ops (a permute without pairs): erased before the rewrite, nothing launched.
    let mut noops: Vec<OperationRef> = Vec::new();
    for func in &functions {
        if is_host_orchestrator(func) {
            // indexed.md: a collective the HOST rail cannot lower is an error
            // for any pass that meets it (the plain op is the HOST rail's).
            for op in collectives_in(func) {
                if let Some(message) =
                    crate::collective::host_rail_problem(&crate::ir::op_kind::op_name(&op), &arch)
                {
                    diag::op_error(&op, &message);
                    errors += 1;
                }
            }
            continue;
        }
        if !is_chip_orchestration(func) {
            continue;
        }
        for op in collectives_in(func) {
            if crate::collective::is_empty_permute(&op) {
                noops.push(op);
                continue;
            }
            seen.push((*func, op));
            match plan_collective(&op, &mut trace, aiv_cores, &arch)
                .filter(|_| distinct_in_body(&op, &mut local_roots, &trace))
            {
                Some((plan, rows)) => {
                    plans.insert(op.to_raw().ptr as usize, plan);
                    planned_ops.push(op);
                    planned_in.push((*func, op, rows));
                }
                None => errors += 1,
            }
        }
    }

    // Phase 1b: window provenance (domains.md): each collective's operands
    // resolved through every HOST dispatch of its function to the window
    // buffers bound there, checked per dispatch site.
    let phase_1b = std::time::Instant::now();
    if !settings.skip_window_provenance {
        for (op, failure) in crate::analysis::window_checks::check_dispatched_collectives(
            &functions,
            &planned_in,
            &trace,
        ) {
            diag::op_error_with_notes(&op, &failure.message, &failure.notes);
            errors += 1;
        }
    }
    let phase_1b = phase_1b.elapsed();

    // A symbol of a variant's name that is not exactly its kernel is a clash.
    let context_ref = module.context();
    let context = crate::ir::context_borrow::borrow(&context_ref);
    let mut existing: BTreeSet<Variant> = BTreeSet::new();
    // Each variant's kernel, located at the first collective that needs it.
    let mut built: HashMap<Variant, melior::ir::Operation> = HashMap::new();
    let symbols = SymbolTable::of(&module).ok_or_else(|| {
        PldError::Internal("the pass runs on a module, which is a symbol table".into())
    })?;
    // The first collective of each variant, in program order (a handful of
    // variants: a linear scan beats hashing every collective).
    let mut first: Vec<(Variant, Location)> = Vec::new();
    for op in &planned_ops {
        let variant = plans[&(op.to_raw().ptr as usize)].variant;
        if !first.iter().any(|(v, _)| *v == variant) {
            first.push((variant, op.location()));
        }
    }
    let variants: BTreeSet<Variant> = first.iter().map(|(v, _)| *v).collect();
    for (variant, loc) in first {
        built.insert(variant, variant.build_kernel(context, loc));
    }
    for &variant in &variants {
        let Some(symbol) = symbols.lookup(&variant.symbol()) else {
            continue;
        };
        if structurally_equal(&symbol, &built[&variant]) {
            existing.insert(variant);
            continue;
        }
        for op in planned_ops
            .iter()
            .filter(|op| plans[&(op.to_raw().ptr as usize)].variant == variant)
        {
            diag::op_error_with_note(
                op,
                &format!("symbol '@{}' already exists", variant.symbol()),
                symbol.location(),
                "this symbol is not the synthesized builtin kernel the collective lowers to",
            );
            errors += 1;
        }
    }
    if errors > 0 {
        return Err(PldError::Diagnosed(errors));
    }

    // Phase 2: the residual check (postcondition), decided before any rewrite:
    // over the collectives of phase 1 (the bodies `is_orchestration_body &&
    // !is_host_level` are exactly the CHIP orchestration bodies it walked).
    for (func, op) in &seen {
        if plans.contains_key(&(op.to_raw().ptr as usize)) {
            continue;
        }
        diag::op_error_with_note(
            op,
            &format!(
                "in orchestration function @{} was not lowered",
                symbol_name(func).unwrap_or("?")
            ),
            op.location(),
            "--lower-l2-tensor-collectives lowers only the collectives of its variant table on the CHIP rail",
        );
        errors += 1;
    }
    if errors > 0 {
        return Err(PldError::Diagnosed(errors));
    }
    // Benchmarking only (`provenance-timing`, benches/bench_provenance.py): phase 1b's own time and the
    // pass's, measured in one process so both see the same machine load.
    let report_timing = || {
        if settings.provenance_timing {
            eprintln!(
                "pld-provenance-timing: phase-1b {:.3} ms pass {:.3} ms",
                phase_1b.as_secs_f64() * 1e3,
                started.elapsed().as_secs_f64() * 1e3
            );
        }
    };
    let mut statistics = LowerL2TensorCollectivesStatistics {
        collectives_lowered: plans.len() as u64,
        contiguity_steps_traced: trace.steps(),
        ..Default::default()
    };
    // Every check passed: the no-ops go (their results are their targets).
    for op in noops {
        crate::collective::erase_noop(op);
    }
    if plans.is_empty() {
        report_timing();
        return Ok(statistics);
    }
    // The checks' memory goes back to the allocator before the rewrite
    // allocates the new ops, which then reuse it (issue #16, peak RSS).
    drop((trace, seen, planned_in));

    // Phase 3: everything the rewrite needs is built before the module is
    // touched: one kernel per missing variant (shared by every call site) and
    // the canonical types (raw handles: the pattern callback must be 'static).
    let mut kernels = Vec::new();
    let mut canonical: HashMap<Variant, Vec<MlirType>> = HashMap::new();
    for &variant in &variants {
        if let Some(kernel) = built.remove(&variant)
            && !existing.contains(&variant)
        {
            kernels.push(kernel);
        }
        canonical.insert(
            variant,
            variant
                .canonical_type_values(context)
                .iter()
                .map(|t| t.to_raw())
                .collect(),
        );
    }
    statistics.kernels_synthesized = kernels.len() as u64;
    for kernel in kernels {
        symbols.insert(kernel);
    }
    // What every call of a variant shares, built once: its callee and, per
    // static launch width B > 1, its `{pl.core_num = B, pl.sync_start}`.
    let callees: HashMap<Variant, MlirAttribute> = variants
        .iter()
        .map(|&v| {
            let callee: Attribute = FlatSymbolRefAttribute::new(context, &v.symbol()).into();
            (v, callee.to_raw())
        })
        .collect();
    let mut launch_attrs: HashMap<i64, MlirAttribute> = HashMap::new();
    for plan in plans.values() {
        if let Width::Static(blocks) = plan.width
            && blocks > 1
        {
            launch_attrs
                .entry(blocks)
                .or_insert_with(|| launch_attributes(context, blocks).to_raw());
        }
    }

    // Phase 4: the rewrite, one pattern per row of the table (same callback).
    let plans = std::rc::Rc::new(plans);
    let canonical = std::rc::Rc::new(canonical);
    let shared = std::rc::Rc::new((callees, launch_attrs));
    let patterns = RewritePatternSet::new(context);
    for spec in crate::collective::TABLE {
        let (plans, canonical, shared) = (plans.clone(), canonical.clone(), shared.clone());
        patterns.add(create_op_rewrite_pattern(
            spec.op,
            1,
            context,
            move |_, op, rewriter| {
                let op = unsafe { OperationRef::from_raw(op) };
                let Some(plan) = plans.get(&(op.to_raw().ptr as usize)).copied() else {
                    return false;
                };
                match plan.width {
                    // The common case in one C call (casts, call, cast back).
                    Width::Static(blocks) => {
                        let types = &canonical[&plan.variant];
                        let (params, result) = types.split_at(types.len() - 1);
                        let (callees, launch_attrs) = &*shared;
                        let callee = unsafe { Attribute::from_raw(callees[&plan.variant]) };
                        crate::ir::builders::replace_collective_with_call(
                            rewriter,
                            op,
                            callee,
                            params,
                            result[0],
                            launch_attrs.get(&blocks).copied(),
                        )
                        .is_ok()
                    }
                    Width::Runtime { ranks, stride } => {
                        let rewriter = unsafe { PatternRewriter::from_raw(rewriter) };
                        let types: Vec<Type> = canonical[&plan.variant]
                            .iter()
                            .map(|raw| unsafe { Type::from_raw(*raw) })
                            .collect();
                        rewrite_runtime_width(&rewriter, op, plan.variant, (ranks, stride), &types)
                            .is_ok()
                    }
                }
            },
            &["func.call", "pl.cast"],
        ));
    }
    walk_and_apply_patterns(module, patterns.freeze());
    report_timing();
    Ok(statistics)
}

/// Phase 1 for one collective: the spec's rows, in order (ir.md's table for
/// the plain op, indexed.md's for the indexed one, driven by the op's row of
/// the variant table); the first failing one is reported at the op's location.
/// Returns the plan and the signal's NR (its static row count).
fn plan_collective<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    trace: &mut ContiguityTrace<'c, 'a>,
    aiv_cores: u64,
    arch: &str,
) -> Option<(Plan, i64)> {
    let loc = op.location();
    let name = op.name();
    let spec = Collective::of_op_name(name.as_string_ref().as_str().ok()?)?.spec();
    let fail = |message: String| {
        diag::op_error(op, &message);
        None
    };
    let fail_with_note = |message: String, note: &str| {
        diag::op_error_with_note(op, &message, loc, note);
        None
    };
    let operand = |i: usize| op.operand_at(i);
    // The ODS verifier made every operand tensor-like; only the signal's and
    // (plain op) send_counts' views are read here.
    let view = |i: usize| operand(i).and_then(|v| TensorView::of(v.r#type()));

    // The architecture the op needs (indexed: A5 URMA only).
    if let Some(problem) = arch_problem(spec, arch) {
        return fail(problem);
    }

    // Signal shape: P (ranks) and S (stride) must be compile-time values.
    let signal_type = operand(spec.signal)?.r#type();
    let Some((ranks, stride)) = crate::collective::signal_geometry(op, spec, &view(spec.signal)?)
    else {
        return fail(format!(
            "signal shape must be static on the CHIP rail, got '{signal_type}'"
        ));
    };

    if let Some(problem) = crate::collective::family_rail_problem(op, spec, ranks) {
        return fail(problem);
    }

    // core_num: the attribute, or an operand that folds to a constant; else a
    // runtime value whose B is computed and checked in the body (where the
    // row accepts one).
    let width = match core_num(op) {
        CoreNum::Runtime if !spec.runtime_core_num => {
            return fail(format!(
                "a runtime core_num is not supported for {short}: its core_num is the exact launch width L, \
                 which must be a compile-time constant on the CHIP rail",
                short = spec.short
            ));
        }
        CoreNum::Static(limit) => {
            if !(1..=i32::MAX as i64).contains(&limit) {
                return fail(format!("core_num must be in [1, 2147483647], got {limit}"));
            }
            let blocks = spec.blocks(ranks, limit);
            if let Some(problem) =
                crate::collective::aiv_cores_problem(spec, ranks, limit, aiv_cores)
                    .or_else(|| crate::collective::launch_spec_problem(spec, ranks, limit))
            {
                return fail(problem);
            }
            if stride < blocks {
                return fail_with_note(
                    match spec.width {
                        WidthRule::Folded => format!(
                            "signal stride S={stride} is smaller than the admitted block count \
                             B={blocks} (core_num L={limit} folded for P={ranks} ranks)"
                        ),
                        WidthRule::Exact => format!(
                            "signal stride S={stride} is smaller than the launch width L={limit} \
                             ({short} launches exactly core_num blocks)",
                            short = spec.short
                        ),
                    },
                    "the signal needs one column (lane) per launched block",
                );
            }
            Width::Static(blocks)
        }
        CoreNum::Runtime => Width::Runtime { ranks, stride },
    };

    let variant = match Variant::of_op(op, "CHIP") {
        Ok(v) => v,
        Err(e) => return fail(e.0),
    };
    // A local operand the kernel's type admits but peers read remotely on
    // the CHIP rail (the plain op's send_counts): the row says which.
    for (i, param) in spec.params.iter().enumerate() {
        if param.chip_window && !view(i)?.distributed {
            return fail(format!(
                "{} must be a DistributedTensor (a !pld.dtensor window that peers read remotely), got '{}'",
                param.name,
                operand(i)?.r#type()
            ));
        }
    }

    for (i, param) in spec.params.iter().enumerate() {
        if let Err(culprit) = trace.check(operand(i)?) {
            diag::op_error_with_note(
                op,
                &format!("operand '{}' is not provably contiguous", param.name),
                culprit.location,
                &culprit.note(),
            );
            return None;
        }
    }
    Some((Plan { variant, width }, ranks))
}

/// Inside its body, no two operands of `op` provably share one root (a
/// parameter, a local allocation): reported at the op, as the HOST rail
/// words it. False when reported.
fn distinct_in_body<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    roots: &mut crate::analysis::provenance::RootSets,
    trace: &ContiguityTrace<'c, 'a>,
) -> bool {
    let Some(spec) = op
        .name()
        .as_string_ref()
        .as_str()
        .ok()
        .and_then(Collective::of_op_name)
        .map(|c| c.spec())
    else {
        return true;
    };
    let roles: Vec<&str> = spec.params.iter().map(|p| p.name).collect();
    match crate::analysis::window_checks::check_local_distinct(op, &roles, roots, trace) {
        Some(failure) => {
            diag::op_error_with_notes(op, &failure.message, &failure.notes);
            false
        }
        None => true,
    }
}

/// Phase 4 for a collective whose launch width is a runtime value (a
/// static width takes `replace_collective_with_call`): casts to the
/// canonical types, B computed and checked in the body, the call inside a
/// `pl.launch` of B blocks, the result cast back. `canonical` holds the
/// kernel's parameter types, then its result type.
fn rewrite_runtime_width(
    rewriter: &PatternRewriter,
    op: OperationRef,
    variant: Variant,
    (ranks, stride): (i64, i64),
    canonical: &[Type],
) -> Result<(), PldError> {
    let base = rewriter.as_rewriter_base();
    let context_ref = op.context();
    let context = crate::ir::context_borrow::borrow(&context_ref);
    let loc = op.location();
    base.set_insertion_point_before(op);

    let cast = |value: Value<'_, '_>, to: Type<'_>| -> Result<mlir_sys::MlirValue, PldError> {
        if value.r#type() == to {
            return Ok(value.to_raw());
        }
        let cast = crate::ir::builders::cast(value, to, loc)?;
        Ok(base.insert(cast).result(0)?.to_raw())
    };
    let (params, result) = canonical.split_at(canonical.len() - 1);
    let mut args = Vec::with_capacity(params.len());
    for (i, ty) in params.iter().enumerate() {
        args.push(cast(op.operand(i)?, *ty)?);
    }
    let args: Vec<Value> = args
        .into_iter()
        .map(|raw| unsafe { Value::from_raw(raw) })
        .collect();

    let call = melior::dialect::func::call(
        context,
        FlatSymbolRefAttribute::new(context, &variant.symbol()),
        &args,
        result,
        loc,
    );
    let blocks = runtime_width(
        &base,
        context,
        op.operand(dynamic_core_num_index(&op))?,
        ranks,
        stride,
        loc,
    )?;
    let call = launch(&base, context, blocks, call, result[0], loc)?;
    let result = cast(unsafe { Value::from_raw(call) }, op.result(0)?.r#type())?;
    base.replace_op_with_values(op, &[unsafe { Value::from_raw(result) }]);
    Ok(())
}

/// `{pl.core_num = B : i64, pl.sync_start}`: the launch spec of a call
/// launched on B > 1 blocks.
fn launch_attributes(context: &melior::Context, blocks: i64) -> Attribute<'_> {
    melior::ir::attribute::DictionaryAttribute::new(
        context,
        &[
            (
                melior::ir::Identifier::new(context, "pl.core_num"),
                IntegerAttribute::new(IntegerType::new(context, 64).into(), blocks).into(),
            ),
            (
                melior::ir::Identifier::new(context, "pl.sync_start"),
                Attribute::unit(context),
            ),
        ],
    )
    .into()
}

/// `B = L < P ? L : L / P * P` in `arith` ops before the collective, then
/// `pl.require (1 <= L <= 2^31-1) && S >= B else error 5` (one check: L and S
/// are the same on every rank, so all ranks take the same branch). Returns B.
fn runtime_width<'c>(
    base: &melior::RewriterBase<'c, '_>,
    context: &'c melior::Context,
    limit: Value<'c, '_>,
    ranks: i64,
    stride: i64,
    loc: Location<'c>,
) -> Result<mlir_sys::MlirValue, PldError> {
    use melior::dialect::arith::{self, CmpiPredicate};
    let i64t: Type = IntegerType::new(context, 64).into();
    let constant = |v: i64| -> Result<Value<'c, '_>, PldError> {
        let op = arith::constant(context, IntegerAttribute::new(i64t, v).into(), loc);
        Ok(unsafe { Value::from_raw(base.insert(op).result(0)?.to_raw()) })
    };
    let insert = |op: melior::ir::Operation<'c>| -> Result<Value<'c, '_>, PldError> {
        Ok(unsafe { Value::from_raw(base.insert(op).result(0)?.to_raw()) })
    };
    let p = constant(ranks)?;
    let below = insert(arith::cmpi(context, CmpiPredicate::Slt, limit, p, loc))?;
    let quotient = insert(arith::divsi(limit, p, loc))?;
    let multiple = insert(arith::muli(quotient, p, loc))?;
    let blocks = insert(arith::select(below, limit, multiple, loc))?;
    let one = constant(1)?;
    let max = constant(i32::MAX as i64)?;
    let s = constant(stride)?;
    let at_least_one = insert(arith::cmpi(context, CmpiPredicate::Sge, limit, one, loc))?;
    let at_most_max = insert(arith::cmpi(context, CmpiPredicate::Sle, limit, max, loc))?;
    let fits = insert(arith::cmpi(context, CmpiPredicate::Sge, s, blocks, loc))?;
    let in_range = insert(arith::andi(at_least_one, at_most_max, loc))?;
    let ok = insert(arith::andi(in_range, fits, loc))?;
    let message = crate::collective::runtime_width_message(ALL_TO_ALL_V, stride, ranks);
    base.insert(crate::ir::builders::require(
        context,
        ok,
        5,
        &message,
        &[("core_num L", limit), ("B", blocks)],
        loc,
    )?);
    Ok(blocks.to_raw())
}

/// `%r = pl.launch %B -> T { %c = <call>; pl.yield %c }`; returns `%r`.
fn launch<'c>(
    base: &melior::RewriterBase<'c, '_>,
    context: &'c melior::Context,
    blocks: mlir_sys::MlirValue,
    call: melior::ir::Operation<'c>,
    result: Type<'c>,
    loc: Location<'c>,
) -> Result<mlir_sys::MlirValue, PldError> {
    let _ = context;
    let launch =
        crate::ir::builders::launch(unsafe { Value::from_raw(blocks) }, call, &[result], loc)?;
    Ok(base.insert(launch).result(0)?.to_raw())
}

// The variant table's unit tests (names, template vars, canonical types,
// kernel text) are in `crate::collective`.
