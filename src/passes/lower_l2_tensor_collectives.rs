//! `--lower-l2-tensor-collectives` (LowerL2TensorCollectives): the CHIP/L2
//! rail for managed collectives.
//!
//! In every CHIP orchestration body, each `pld.tensor.all_to_all_v` becomes a
//! `func.call` to a synthesized AIV builtin kernel
//! (`@__builtin_all_to_all_v__fp32` / `__int8`), so the collective is one
//! ordinary task of the caller's pipeline. Like upstream MathToFuncs it runs
//! in phases: (1) check every collective and plan its variant and launch
//! width B, reporting every failure at its location; (2) the residual check;
//! (3) synthesize each variant's kernel once; (4) rewrite with a melior
//! `RewritePattern`. Nothing is modified unless phases 1 and 2 pass, so a
//! failing run leaves the module as it was.

use super::{ModulePass, PassId};
use crate::{
    cal_all_to_all_v_blocks,
    contiguity::ContiguityTrace,
    diag,
    error::PldError,
    ir_util::{find_symbol, module_body, module_functions, ops_named, same_text},
    ptr_map::PtrMap,
    func_kind::{is_chip_orchestration, is_host_level, is_orchestration_body, symbol_name},
    tensor_type::TensorLike,
};
use melior::{
    PatternRewriter, RewritePatternSet, create_op_rewrite_pattern,
    ir::{
        Attribute, BlockLike, Identifier, Location, Type, TypeLike, Value, ValueLike,
        attribute::{FlatSymbolRefAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike, OperationRef},
        r#type::IntegerType,
    },
    walk_and_apply_patterns,
};
use mlir_sys::MlirType;
use std::collections::{BTreeSet, HashMap};

/// The op this pass lowers.
pub const ALL_TO_ALL_V: &str = "pld.tensor.all_to_all_v";
/// Every managed collective the residual check looks for.
pub const COLLECTIVES: [&str; 2] = crate::ir_util::COLLECTIVE_OPS;
/// The builtin template package both rails render.
pub const TEMPLATE_DIR: &str = ":pypto.runtime.builtins.collectives.all_to_all_v";
/// Operand names in ABI order (`args[0..4]`).
pub const OPERANDS: [&str; 5] = ["input", "target", "signal", "send_counts", "recv_counts"];

/// One synthesized kernel per payload element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Variant {
    Fp32,
    Int8,
}

impl Variant {
    /// The variant of a payload element type (f32 / signless i8).
    pub fn of_element(element: Type) -> Option<Self> {
        let raw = element.to_raw();
        unsafe {
            if mlir_sys::mlirTypeIsAF32(raw) {
                Some(Self::Fp32)
            } else if mlir_sys::mlirTypeIsAInteger(raw)
                && mlir_sys::mlirIntegerTypeIsSignless(raw)
                && mlir_sys::mlirIntegerTypeGetWidth(raw) == 8
            {
                Some(Self::Int8)
            } else {
                None
            }
        }
    }
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Fp32 => "__builtin_all_to_all_v__fp32",
            Self::Int8 => "__builtin_all_to_all_v__int8",
        }
    }
    pub fn element(self) -> &'static str {
        match self {
            Self::Fp32 => "f32",
            Self::Int8 => "i8",
        }
    }
    /// The one template substitution (the same on the HOST rail).
    pub fn template_vars(self) -> &'static str {
        match self {
            Self::Fp32 => "dtype_cpp=float",
            Self::Int8 => "dtype_cpp=int8_t",
        }
    }
    /// Canonical parameter types (`input`/`send_counts` plain, the other
    /// three windows), then the result type.
    pub fn canonical_types(self) -> [String; 6] {
        let t = self.element();
        [
            format!("!pl.tensor<*x{t}>"),
            format!("!pld.dtensor<*x{t}>"),
            "!pld.dtensor<*xi32>".into(),
            "!pl.tensor<*xi32>".into(),
            "!pld.dtensor<*xi32>".into(),
            format!("!pld.dtensor<*x{t}>"),
        ]
    }
    /// The synthesized kernel, in the IR's own syntax: directions `in, inout,
    /// inout, in, inout`, a body that returns `target` (never compiled: the
    /// kernel is the builtin template; passes that read the function need the
    /// return).
    pub fn kernel_source(self) -> String {
        format!(
            "func.func private @{name}{signature} \
             attributes {{pl.builtin_template_dir = \"{TEMPLATE_DIR}\", \
             pl.builtin_template_vars = \"{vars}\", pl.func_kind = \"aiv\", \
             pl.require_contiguous_operands}} {{\n  return %target : {result}\n}}",
            name = self.symbol(),
            signature = self.canonical_signature(),
            vars = self.template_vars(),
            result = self.canonical_types()[5],
        )
    }

    /// The canonical types as types (no text parsing): parameters then result.
    pub fn canonical_type_values<'c>(self, context: &'c melior::Context) -> [Type<'c>; 6] {
        let element: Type = match self {
            Self::Fp32 => Type::float32(context),
            Self::Int8 => IntegerType::new(context, 8).into(),
        };
        let i32t: Type = IntegerType::new(context, 32).into();
        let unranked = |distributed: bool, e: Type<'c>| unsafe {
            Type::from_raw(crate::capi::pldTensorLikeGetUnranked(distributed, e.to_raw()))
        };
        [
            unranked(false, element),
            unranked(true, element),
            unranked(true, i32t),
            unranked(false, i32t),
            unranked(true, i32t),
            unranked(true, element),
        ]
    }

    /// The synthesized kernel built as ops (see [`Variant::kernel_source`] for
    /// its text), at `location`: a `NameLoc` of its symbol around the
    /// collective that needed it, so diagnostics about the kernel point back
    /// at that collective.
    pub fn build_kernel<'c>(self, context: &'c melior::Context, collective: Location<'c>) -> melior::ir::Operation<'c> {
        use melior::ir::{
            Block, Region, RegionLike,
            attribute::{ArrayAttribute, AttributeLike, StringAttribute, TypeAttribute},
            r#type::FunctionType,
        };
        let loc = Location::name(context, self.symbol(), collective);
        let types = self.canonical_type_values(context);
        // Parameters are named after the operands (`input`, `target`, ...).
        let params: Vec<(Type, Location)> =
            types[..5].iter().zip(OPERANDS).map(|(t, name)| (*t, Location::name(context, name, collective))).collect();
        let block = Block::new(&params);
        let target = block.argument(1).expect("five arguments");
        block.append_operation(melior::dialect::func::r#return(&[target.into()], loc));
        let region = Region::new();
        region.append_block(block);
        let direction = |d: &str| -> Attribute<'c> {
            let entry = unsafe {
                mlir_sys::mlirNamedAttributeGet(
                    Identifier::new(context, "pl.direction").to_raw(),
                    StringAttribute::new(context, d).to_raw(),
                )
            };
            unsafe { Attribute::from_raw(mlir_sys::mlirDictionaryAttrGet(context.to_raw(), 1, &entry)) }
        };
        let arg_attrs: Vec<Attribute> = ["in", "inout", "inout", "in", "inout"].iter().map(|d| direction(d)).collect();
        let function_type = FunctionType::new(context, &types[..5], &types[5..]);
        let string = |s: &str| -> Attribute<'c> { StringAttribute::new(context, s).into() };
        melior::dialect::func::func(
            context,
            StringAttribute::new(context, self.symbol()),
            TypeAttribute::new(function_type.into()),
            region,
            &[
                (Identifier::new(context, "sym_visibility"), string("private")),
                (Identifier::new(context, "arg_attrs"), ArrayAttribute::new(context, &arg_attrs).into()),
                (Identifier::new(context, "pl.builtin_template_dir"), string(TEMPLATE_DIR)),
                (Identifier::new(context, "pl.builtin_template_vars"), string(self.template_vars())),
                (Identifier::new(context, "pl.func_kind"), string("aiv")),
                (Identifier::new(context, "pl.require_contiguous_operands"), Attribute::unit(context)),
            ],
            loc,
        )
    }

    /// `(%input: T {pl.direction = "in"}, ...) -> R`: the canonical parameter
    /// list with its directions, shared by every function that takes the
    /// collective's five operands (the kernel, the HOST rail's callable).
    pub fn canonical_signature(self) -> String {
        let [input, target, signal, send, recv, result] = self.canonical_types();
        format!(
            "(%input: {input} {{pl.direction = \"in\"}}, \
             %target: {target} {{pl.direction = \"inout\"}}, \
             %signal: {signal} {{pl.direction = \"inout\"}}, \
             %send_counts: {send} {{pl.direction = \"in\"}}, \
             %recv_counts: {recv} {{pl.direction = \"inout\"}}) -> {result}"
        )
    }
}

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

#[derive(Clone, Default)]
pub struct LowerL2TensorCollectives;

static ID: PassId = PassId(1);

impl ModulePass for LowerL2TensorCollectives {
    const ARGUMENT: &'static str = "lower-l2-tensor-collectives";
    const NAME: &'static str = "LowerL2TensorCollectives";
    const DESCRIPTION: &'static str = "Lower pld.tensor.all_to_all_v in CHIP orchestration bodies to a \
         func.call of a synthesized AIV builtin kernel (launch width folded from core_num)";

    fn id() -> &'static PassId {
        &ID
    }

    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        lower_l2_tensor_collectives(module)
    }
}

/// Runs the pass on `module` (a `builtin.module`).
pub fn lower_l2_tensor_collectives(module: OperationRef) -> Result<(), PldError> {
    let body = module_body(&module)?;
    let functions = module_functions(&module);

    // Phase 1: check and plan every CHIP-rail collective.
    let mut trace = ContiguityTrace::new(body);
    let mut plans: PtrMap<Plan> = PtrMap::default();
    let mut planned_ops: Vec<OperationRef> = Vec::new();
    let mut errors = 0;
    for func in functions.iter().filter(|f| is_chip_orchestration(f)) {
        for op in ops_named(func, &[ALL_TO_ALL_V]) {
            match plan_collective(&op, &mut trace) {
                Some(plan) => {
                    plans.insert(op.to_raw().ptr as usize, plan);
                    planned_ops.push(op);
                }
                None => errors += 1,
            }
        }
    }

    // A symbol of a variant's name that is not exactly its kernel is a clash.
    let context_ref = module.context();
    let context = crate::context::borrow(&context_ref);
    let variants: BTreeSet<Variant> = plans.values().map(|p| p.variant).collect();
    let mut existing: BTreeSet<Variant> = BTreeSet::new();
    // Each variant's kernel, located at the first collective that needs it.
    let mut built: HashMap<Variant, melior::ir::Operation> = HashMap::new();
    for op in &planned_ops {
        let variant = plans[&(op.to_raw().ptr as usize)].variant;
        built.entry(variant).or_insert_with(|| variant.build_kernel(context, op.location()));
    }
    for &variant in &variants {
        let Some(symbol) = find_symbol(&body, variant.symbol()) else {
            continue;
        };
        if same_text(&symbol, &built[&variant]) {
            existing.insert(variant);
            continue;
        }
        for op in planned_ops.iter().filter(|op| plans[&(op.to_raw().ptr as usize)].variant == variant) {
            diag::error_with_note(
                op.location(),
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

    // Phase 2: the residual check (postcondition), decided before any rewrite.
    for func in functions.iter().filter(|f| is_orchestration_body(f) && !is_host_level(f)) {
        for op in ops_named(func, &COLLECTIVES) {
            if plans.contains_key(&(op.to_raw().ptr as usize)) {
                continue;
            }
            diag::error(
                op.location(),
                &format!(
                    "'{}' in orchestration function '@{}' was not lowered: \
                     --lower-l2-tensor-collectives lowers only '{ALL_TO_ALL_V}' on the CHIP rail",
                    op.name().as_string_ref().as_str().unwrap_or("?"),
                    symbol_name(func).unwrap_or("?"),
                ),
            );
            errors += 1;
        }
    }
    if errors > 0 {
        return Err(PldError::Diagnosed(errors));
    }
    if plans.is_empty() {
        return Ok(());
    }

    // Phase 3: everything the rewrite needs is built before the module is
    // touched: one kernel per missing variant (shared by every call site) and
    // the canonical types (raw handles: the pattern callback must be 'static).
    let mut kernels = Vec::new();
    let mut canonical: HashMap<Variant, [MlirType; 6]> = HashMap::new();
    for &variant in &variants {
        if let Some(kernel) = built.remove(&variant)
            && !existing.contains(&variant)
        {
            kernels.push(kernel);
        }
        canonical.insert(variant, variant.canonical_type_values(context).map(|t| t.to_raw()));
    }
    for kernel in kernels {
        body.append_operation(kernel);
    }

    // Phase 4: the rewrite.
    let patterns = RewritePatternSet::new(context);
    patterns.add(create_op_rewrite_pattern(
        ALL_TO_ALL_V,
        1,
        context,
        move |_, op, rewriter| {
            let op = unsafe { OperationRef::from_raw(op) };
            let Some(plan) = plans.get(&(op.to_raw().ptr as usize)).copied() else {
                return false;
            };
            let rewriter = unsafe { PatternRewriter::from_raw(rewriter) };
            let types = canonical[&plan.variant].map(|raw| unsafe { Type::from_raw(raw) });
            rewrite_collective(&rewriter, op, plan, &types).is_ok()
        },
        &["func.call", "pl.cast"],
    ));
    walk_and_apply_patterns(module, patterns.freeze());
    Ok(())
}

/// Phase 1 for one collective: the spec's rows, in order; the first failing
/// one is reported at the op's location.
fn plan_collective<'c, 'a>(op: &OperationRef<'c, 'a>, trace: &mut ContiguityTrace<'c, 'a>) -> Option<Plan> {
    let loc = op.location();
    let fail = |message: String| {
        diag::error(loc, &format!("'{ALL_TO_ALL_V}': {message}"));
        None
    };
    let operand = |i: usize| op.operand(i).ok();
    let types: Vec<TensorLike> = (0..5).map(|i| operand(i).and_then(|v| TensorLike::of(v.r#type()))).collect::<Option<_>>()?;

    // Signal shape: P (ranks) and S (stride) must be compile-time values.
    let signal_type = operand(2)?.r#type();
    let Some(&[ranks, stride]) = types[2].static_shape().as_deref() else {
        return fail(format!("operand 'signal': signal shape must be static on the CHIP rail, got '{signal_type}'"));
    };

    // core_num: the attribute, or an operand that folds to a constant; else a
    // runtime value whose B is computed and checked in the body.
    let width = match core_num(op) {
        CoreNum::Static(limit) => {
            if !(1..=i32::MAX as i64).contains(&limit) {
                return fail(format!("core_num must be in [1, 2147483647], got {limit}"));
            }
            let blocks = cal_all_to_all_v_blocks(ranks, limit);
            if stride < blocks {
                return fail(format!(
                    "signal stride S={stride} is smaller than the admitted block count B={blocks} \
                     (core_num L={limit} folded for P={ranks} ranks); the signal needs one lane per block"
                ));
            }
            Width::Static(blocks)
        }
        CoreNum::Runtime(_) => Width::Runtime { ranks, stride },
    };

    let Some(variant) = Variant::of_element(types[1].element) else {
        return fail(format!("the CHIP rail supports only f32 or i8, got {}", types[1].element));
    };
    if !types[3].distributed {
        return fail(format!(
            "send_counts must be a DistributedTensor (peers read it remotely), got '{}'",
            operand(3)?.r#type()
        ));
    }

    for (i, name) in OPERANDS.iter().enumerate() {
        if let Err(culprit) = trace.check(operand(i)?) {
            diag::error_with_note(
                loc,
                &format!("'{ALL_TO_ALL_V}': operand '{name}' is not provably contiguous"),
                culprit.location,
                &culprit.note(),
            );
            return None;
        }
    }
    Some(Plan { variant, width })
}

pub enum CoreNum<'c> {
    Static(i64),
    /// A runtime value, with the location that defines it.
    Runtime(Location<'c>),
}

/// A collective's `core_num`: the attribute, or the `dynamic_core_num`
/// operand when it folds to a constant (see [`fold_i64`]); anything else is
/// runtime.
pub fn core_num<'c>(op: &OperationRef<'c, '_>) -> CoreNum<'c> {
    if let Ok(attr) = op.attribute("core_num")
        && let Ok(int) = IntegerAttribute::try_from(attr)
    {
        return CoreNum::Static(int.value());
    }
    let Ok(value) = op.operand(5) else {
        return CoreNum::Runtime(op.location());
    };
    match fold_i64(value, 0) {
        Some(v) => CoreNum::Static(v),
        None => CoreNum::Runtime(value.location()),
    }
}

/// The constant an integer value folds to: `arith.constant`, and the `arith`
/// integer ops of constants that `arith`'s own folders reduce (add, sub, mul,
/// signed div/rem, min/max, select, extsi/trunci/index_cast), evaluated on
/// i64 with a wrapped result, at most 64 ops deep.
pub fn fold_i64(value: Value, depth: usize) -> Option<i64> {
    if depth > 64 {
        return None;
    }
    let def = crate::values::as_result(value)?.owner();
    let name = def.name();
    let name = name.as_string_ref().as_str().ok()?;
    let arg = |i: usize| def.operand(i).ok().and_then(|v| fold_i64(v, depth + 1));
    Some(match name {
        "arith.constant" => IntegerAttribute::try_from(def.attribute("value").ok()?).ok()?.value(),
        "arith.addi" => arg(0)?.wrapping_add(arg(1)?),
        "arith.subi" => arg(0)?.wrapping_sub(arg(1)?),
        "arith.muli" => arg(0)?.wrapping_mul(arg(1)?),
        "arith.divsi" => arg(0)?.checked_div(arg(1)?)?,
        "arith.remsi" => arg(0)?.checked_rem(arg(1)?)?,
        "arith.minsi" => arg(0)?.min(arg(1)?),
        "arith.maxsi" => arg(0)?.max(arg(1)?),
        "arith.select" => {
            if arg(0)? != 0 { arg(1)? } else { arg(2)? }
        }
        // Widening a constant of at most 64 bits keeps its value; a narrowing
        // cast is left to run time rather than modelled here.
        "arith.extsi" | "arith.index_cast" => {
            let from = def.operand(0).ok()?.r#type();
            let to = def.result(0).ok()?.r#type();
            if crate::codegen::orch_ops::scalar_bits(to)? < crate::codegen::orch_ops::scalar_bits(from)? {
                return None;
            }
            arg(0)?
        }
        _ => return None,
    })
}

/// Phase 4 for one planned collective: casts to the canonical types, the
/// call (with the launch spec when B > 1), the result cast back.
fn rewrite_collective(
    rewriter: &PatternRewriter,
    op: OperationRef,
    plan: Plan,
    canonical: &[Type; 6],
) -> Result<(), PldError> {
    let base = rewriter.as_rewriter_base();
    let context_ref = op.context();
    let context = crate::context::borrow(&context_ref);
    let loc = op.location();
    base.set_insertion_point_before(op);

    let cast = |value: Value<'_, '_>, to: Type<'_>| -> Result<mlir_sys::MlirValue, PldError> {
        if value.r#type() == to {
            return Ok(value.to_raw());
        }
        let cast = OperationBuilder::new("pl.cast", loc).add_operands(&[value]).add_results(&[to]).build()?;
        Ok(base.insert(cast).result(0)?.to_raw())
    };
    let mut args = Vec::with_capacity(5);
    for (i, ty) in canonical.iter().take(5).enumerate() {
        args.push(cast(op.operand(i)?, *ty)?);
    }
    let args: Vec<Value> = args.into_iter().map(|raw| unsafe { Value::from_raw(raw) }).collect();

    let mut attributes: Vec<(Identifier, Attribute)> =
        vec![(Identifier::new(context, "callee"), FlatSymbolRefAttribute::new(context, plan.variant.symbol()).into())];
    if let Width::Static(blocks) = plan.width
        && blocks > 1
    {
        attributes.push((
            Identifier::new(context, "pl.core_num"),
            IntegerAttribute::new(IntegerType::new(context, 64).into(), blocks).into(),
        ));
        attributes.push((Identifier::new(context, "pl.sync_start"), Attribute::unit(context)));
    }
    let call = OperationBuilder::new("func.call", loc)
        .add_attributes(&attributes)
        .add_operands(&args)
        .add_results(&[canonical[5]])
        .build()?;
    let call = match plan.width {
        Width::Static(_) => base.insert(call).result(0)?.to_raw(),
        Width::Runtime { ranks, stride } => {
            let blocks = runtime_width(&base, context, op.operand(5)?, ranks, stride, loc)?;
            launch(&base, context, blocks, call, canonical[5], loc)?
        }
    };
    let result = cast(unsafe { Value::from_raw(call) }, op.result(0)?.r#type())?;
    base.replace_op_with_values(op, &[unsafe { Value::from_raw(result) }]);
    Ok(())
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
    let message = format!(
        "{ALL_TO_ALL_V}: core_num must be in [1, 2147483647] and the signal stride S={stride} must be at least \
         the admitted block count B (core_num folded for P={ranks} ranks)"
    );
    let require = OperationBuilder::new("pl.require", loc)
        .add_operands(&[ok])
        .add_attributes(&[
            (Identifier::new(context, "code"), IntegerAttribute::new(i64t, 5).into()),
            (Identifier::new(context, "message"), melior::ir::attribute::StringAttribute::new(context, &message).into()),
        ])
        .build()?;
    base.insert(require);
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
    use melior::ir::{Block, Region, RegionLike};
    let _ = context;
    let block = Block::new(&[]);
    let call = block.append_operation(call);
    let value = call.result(0)?;
    block.append_operation(OperationBuilder::new("pl.yield", loc).add_operands(&[value.into()]).build()?);
    let region = Region::new();
    region.append_block(block);
    let launch = OperationBuilder::new("pl.launch", loc)
        .add_operands(&[unsafe { Value::from_raw(blocks) }])
        .add_regions([region])
        .add_results(&[result])
        .build()?;
    Ok(base.insert(launch).result(0)?.to_raw())
}

#[cfg(test)]
mod tests {
    use super::Variant;
    use melior::ir::Type;

    #[test]
    fn variant_names_and_template_vars() {
        let context = melior::Context::new();
        let int = |width| melior::ir::r#type::IntegerType::new(&context, width).into();
        assert_eq!(Variant::of_element(Type::float32(&context)), Some(Variant::Fp32));
        assert_eq!(Variant::of_element(int(8)), Some(Variant::Int8));
        assert_eq!(Variant::of_element(int(32)), None);
        assert_eq!(Variant::of_element(Type::bfloat16(&context)), None);
        assert_eq!(Variant::Fp32.symbol(), "__builtin_all_to_all_v__fp32");
        assert_eq!(Variant::Int8.template_vars(), "dtype_cpp=int8_t");
    }

    #[test]
    fn kernel_source_declares_the_abi() {
        let text = Variant::Int8.kernel_source();
        assert!(text.starts_with("func.func private @__builtin_all_to_all_v__int8("));
        let directions: Vec<&str> = text
            .split("pl.direction = \"")
            .skip(1)
            .map(|rest| &rest[..rest.find('"').unwrap()])
            .collect();
        assert_eq!(directions, ["in", "inout", "inout", "in", "inout"]);
        assert!(text.contains("return %target : !pld.dtensor<*xi8>"));
    }
}
