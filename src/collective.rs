//! The managed collectives' variant table, [`TABLE`]: one row ([`Spec`]) per
//! collective op of the dialect — `pld.tensor.all_to_all_v`,
//! `pld.tensor.indexed_all_to_all_v` and the family of docs/spec/family.md:
//! `allreduce` (a mesh and a ring template package), `reduce_scatter`,
//! `allgather`, `broadcast`, `all_to_all` and `barrier`. A row holds what
//! every rail derives from it: the kernel's operands in ABI order with their
//! canonical types and directions, the payload element types, the attributes
//! that select a kernel besides the element type (`reduce`, `mode`, `root`),
//! the builtin template package, the launch-width rule, whether a runtime
//! `core_num` is accepted, the architecture the op needs and the rails that
//! lower it. A [`Variant`] is a row, a payload element type and those
//! attributes: one synthesized kernel each (`@__builtin_all_to_all_v__fp32`,
//! `@__builtin_allreduce_ring_sum__fp16`, `@__builtin_barrier`, ...).
//!
//! `--lower-l2-tensor-collectives` plans, checks, synthesizes and rewrites
//! every row's op from this table alone (`src/passes/lower_l2_tensor_collectives.rs`);
//! `--lower-host-tensor-collectives` dispatches the same kernels for every row
//! the HOST rail lowers (all but the indexed op); `--lower-composite-ops`
//! expands the plain all_to_all_v in InCore bodies and refuses the rest; the
//! codegen reads the template packages the rows name.

use crate::ir::direction::Direction;
use melior::ir::{
    Attribute, AttributeLike, BlockLike, Identifier, Location, Type, TypeLike, Value, ValueLike,
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
    r#type::IntegerType,
};

/// A managed collective op (a row of the table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Collective {
    AllToAllV,
    IndexedAllToAllV,
    AllReduce,
    ReduceScatter,
    AllGather,
    Broadcast,
    AllToAll,
    Barrier,
}

/// How the launch width B follows from `core_num` L and the rank count P.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WidthRule {
    /// `B = cal_all_to_all_v_blocks(P, L)` (L is a block limit).
    Folded,
    /// `B = L` (L is the exact launch width).
    Exact,
}

/// The element type of a kernel parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    /// The payload element type of the variant (f32 / f16 / i8 / i32).
    Payload,
    /// i32 (signal, counts, index).
    I32,
}

/// One kernel parameter = one collective operand, in ABI order.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// The operand's name (also the kernel parameter's `NameLoc`).
    pub name: &'static str,
    /// Canonical type `!pld.dtensor<*x…>` (a window) or `!pl.tensor<*x…>`.
    pub distributed: bool,
    pub element: Element,
    pub direction: Direction,
}

/// The attributes that select a variant besides the element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selector {
    /// None (the element type alone).
    None,
    /// `reduce` (reduce_scatter).
    Reduce,
    /// `reduce` and `mode` (allreduce: mesh or ring).
    ReduceMode,
    /// `root` (broadcast).
    Root,
}

/// A row of the table.
#[derive(Debug)]
pub struct Spec {
    pub collective: Collective,
    /// The op name, e.g. `pld.tensor.all_to_all_v`.
    pub op: &'static str,
    /// The short name in symbols and messages, e.g. `all_to_all_v`.
    pub short: &'static str,
    /// The kernel's tensor parameters (the op's tensor operands, in order).
    pub params: &'static [Param],
    /// The parameter whose type the op's result (and the kernel's) has.
    pub result: usize,
    /// The `[NR, S]` i32 signal parameter.
    pub signal: usize,
    /// The payload element types the rails lower (the kernels' dtypes).
    pub dtypes: &'static [Dtype],
    /// What else selects the variant.
    pub selector: Selector,
    /// `pl.builtin_template_dir` (allreduce: of mesh mode).
    pub template_dir: &'static str,
    /// allreduce's ring-mode template package.
    pub ring_template_dir: Option<&'static str>,
    pub width: WidthRule,
    /// Whether the op has the `dynamic_core_num` operand (after its tensor
    /// operands); without one and without the attribute, `core_num` is 1.
    pub core_num_operand: bool,
    /// Whether a runtime (non-folding) `core_num` is lowered (`pl.require` +
    /// `pl.launch`) or refused.
    pub runtime_core_num: bool,
    /// The `pl.arch` the op needs (`None`: any).
    pub arch: Option<&'static str>,
    /// Whether the HOST rail lowers it.
    pub host: bool,
    /// Whether an InCore body expands it (`--lower-composite-ops`).
    pub incore: bool,
}

const fn param(
    name: &'static str,
    distributed: bool,
    element: Element,
    direction: Direction,
) -> Param {
    Param {
        name,
        distributed,
        element,
        direction,
    }
}

use Direction::{In, InOut};
use Element::{I32, Payload};

/// `pld.tensor.all_to_all_v`: the seed's kernel ABI, `args[0..4]`.
pub static ALL_TO_ALL_V: Spec = Spec {
    collective: Collective::AllToAllV,
    op: "pld.tensor.all_to_all_v",
    short: "all_to_all_v",
    params: &[
        param("input", false, Payload, In),
        param("target", true, Payload, InOut),
        param("signal", true, I32, InOut),
        param("send_counts", false, I32, In),
        param("recv_counts", true, I32, InOut),
    ],
    result: 1,
    signal: 2,
    dtypes: &[Dtype::Fp32, Dtype::Int8],
    selector: Selector::None,
    template_dir: ":pypto.runtime.builtins.collectives.all_to_all_v",
    ring_template_dir: None,
    width: WidthRule::Folded,
    core_num_operand: true,
    runtime_core_num: true,
    arch: None,
    host: true,
    incore: true,
};

/// `pld.tensor.indexed_all_to_all_v` (docs/spec/indexed.md): six tensor
/// slots, `send_counts` a window (receivers pull it), `recv_counts` and
/// `index` local; `core_num` is the exact, compile-time launch width.
pub static INDEXED_ALL_TO_ALL_V: Spec = Spec {
    collective: Collective::IndexedAllToAllV,
    op: "pld.tensor.indexed_all_to_all_v",
    short: "indexed_all_to_all_v",
    params: &[
        param("input", false, Payload, In),
        param("target", true, Payload, InOut),
        param("signal", true, I32, InOut),
        param("send_counts", true, I32, In),
        param("recv_counts", false, I32, InOut),
        param("index", false, I32, In),
    ],
    result: 1,
    signal: 2,
    dtypes: &[Dtype::Fp32, Dtype::Int8],
    selector: Selector::None,
    template_dir: ":pypto.runtime.builtins.collectives.indexed_all_to_all_v",
    ring_template_dir: None,
    width: WidthRule::Exact,
    core_num_operand: true,
    runtime_core_num: false,
    arch: Some("a5"),
    host: false,
    incore: false,
};

/// The reducing ops' element types (docs/spec/family.md).
const REDUCING: &[Dtype] = &[Dtype::Fp32, Dtype::Fp16, Dtype::Int32];
/// The moving ops' element types.
const MOVING: &[Dtype] = &[Dtype::Fp32, Dtype::Fp16, Dtype::Int8, Dtype::Int32];
/// `target, signal` (allreduce, reduce_scatter, broadcast).
const TARGET_SIGNAL: &[Param] = &[
    param("target", true, Payload, InOut),
    param("signal", true, I32, InOut),
];
/// `input, target, signal` (allgather, all_to_all): `input` may be local.
const INPUT_TARGET_SIGNAL: &[Param] = &[
    param("input", false, Payload, In),
    param("target", true, Payload, InOut),
    param("signal", true, I32, InOut),
];

/// A row of the collective family (docs/spec/family.md): exact compile-time
/// width, both rails, no InCore expansion.
const fn family(
    collective: Collective,
    op: &'static str,
    short: &'static str,
    params: &'static [Param],
    dtypes: &'static [Dtype],
    selector: Selector,
    template_dir: &'static str,
) -> Spec {
    let n = params.len();
    Spec {
        collective,
        op,
        short,
        params,
        // The target (the signal for the barrier) is the op's result.
        result: if n == 1 { 0 } else { n - 2 },
        signal: n - 1,
        dtypes,
        selector,
        template_dir,
        ring_template_dir: None,
        width: WidthRule::Exact,
        core_num_operand: false,
        runtime_core_num: false,
        arch: None,
        host: true,
        incore: false,
    }
}

/// `pld.tensor.allreduce` (mesh: `allreduce`, ring: `allreduce_ring`).
pub static ALLREDUCE: Spec = Spec {
    ring_template_dir: Some(":pypto.runtime.builtins.collectives.allreduce_ring"),
    ..family(
        Collective::AllReduce,
        "pld.tensor.allreduce",
        "allreduce",
        TARGET_SIGNAL,
        REDUCING,
        Selector::ReduceMode,
        ":pypto.runtime.builtins.collectives.allreduce",
    )
};
pub static REDUCE_SCATTER: Spec = family(
    Collective::ReduceScatter,
    "pld.tensor.reduce_scatter",
    "reduce_scatter",
    TARGET_SIGNAL,
    REDUCING,
    Selector::Reduce,
    ":pypto.runtime.builtins.collectives.reduce_scatter",
);
pub static ALLGATHER: Spec = family(
    Collective::AllGather,
    "pld.tensor.allgather",
    "allgather",
    INPUT_TARGET_SIGNAL,
    MOVING,
    Selector::None,
    ":pypto.runtime.builtins.collectives.allgather",
);
pub static BROADCAST: Spec = family(
    Collective::Broadcast,
    "pld.tensor.broadcast",
    "broadcast",
    TARGET_SIGNAL,
    MOVING,
    Selector::Root,
    ":pypto.runtime.builtins.collectives.broadcast",
);
pub static ALL_TO_ALL: Spec = family(
    Collective::AllToAll,
    "pld.tensor.all_to_all",
    "all_to_all",
    INPUT_TARGET_SIGNAL,
    MOVING,
    Selector::None,
    ":pypto.runtime.builtins.collectives.all_to_all",
);
/// `pld.tensor.barrier`: the signal alone, one block, kernel `@__builtin_barrier`.
pub static BARRIER: Spec = family(
    Collective::Barrier,
    "pld.tensor.barrier",
    "barrier",
    &[param("signal", true, I32, InOut)],
    &[Dtype::Int32],
    Selector::None,
    ":pypto.runtime.builtins.collectives.barrier",
);

/// Every row, in the order their kernels are appended to a module.
pub static TABLE: [&Spec; 8] = [
    &ALL_TO_ALL_V,
    &INDEXED_ALL_TO_ALL_V,
    &ALLREDUCE,
    &REDUCE_SCATTER,
    &ALLGATHER,
    &BROADCAST,
    &ALL_TO_ALL,
    &BARRIER,
];

impl Collective {
    /// The collective's row of the variant table.
    pub fn spec(self) -> &'static Spec {
        TABLE
            .iter()
            .copied()
            .find(|s| s.collective == self)
            .expect("every collective has a row")
    }
    /// The row of an op name.
    pub fn of_op_name(name: &str) -> Option<Self> {
        TABLE.iter().find(|s| s.op == name).map(|s| s.collective)
    }
}

impl Spec {
    /// The row whose kernel template is `dir` (a `pl.builtin_template_dir`).
    pub fn of_template_dir(dir: &str) -> Option<&'static Spec> {
        TABLE
            .iter()
            .copied()
            .find(|s| s.template_dir == dir || s.ring_template_dir == Some(dir))
    }
    /// Every template package of the table.
    pub fn template_dirs() -> impl Iterator<Item = &'static str> {
        TABLE
            .iter()
            .flat_map(|s| std::iter::once(s.template_dir).chain(s.ring_template_dir))
    }
    /// The kernel ABI slot its template reads the `CommContext*` from:
    /// `args[n]`, right after the `n` tensors (the contexts
    /// `--materialize-dist-tensor-ctx` appends; a unit test holds the
    /// template to it).
    pub fn comm_slot(&self) -> usize {
        self.params.len()
    }
    /// The launch width for P ranks and a valid L.
    pub fn blocks(&self, ranks: i64, limit: i64) -> i64 {
        match self.width {
            WidthRule::Folded => crate::ir::launch_width::cal_all_to_all_v_blocks(ranks, limit),
            WidthRule::Exact => limit,
        }
    }
    /// The operand names, in ABI order.
    pub fn operand_names(&self) -> Vec<&'static str> {
        self.params.iter().map(|p| p.name).collect()
    }
    /// The parameter directions, in ABI order.
    pub fn directions(&self) -> Vec<&'static str> {
        self.params.iter().map(|p| p.direction.as_str()).collect()
    }
    /// The parameter whose element type is the variant's payload (`None`:
    /// the barrier, whose one kernel is i32).
    pub fn payload_param(&self) -> Option<usize> {
        self.params
            .iter()
            .position(|p| p.element == Element::Payload)
    }
    /// "f32, f16 or i32": the element types the rails lower, for messages.
    pub fn dtype_list(&self) -> String {
        let names: Vec<&str> = self.dtypes.iter().map(|d| d.element()).collect();
        match names.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

/// The payload element type of a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dtype {
    /// `f32` (`__fp32` kernels, `dtype_cpp=float`).
    Fp32,
    /// `f16` (`__fp16`, `dtype_cpp=half`).
    Fp16,
    /// signless `i8` (`__int8`, `dtype_cpp=int8_t`).
    Int8,
    /// signless `i32` (`__int32`, `dtype_cpp=int32_t`).
    Int32,
}

impl Dtype {
    /// The dtype of an element type (f32, f16, signless i8 / i32).
    pub fn of_element(element: Type) -> Option<Self> {
        let raw = element.to_raw();
        unsafe {
            if mlir_sys::mlirTypeIsAF32(raw) {
                Some(Self::Fp32)
            } else if mlir_sys::mlirTypeIsAF16(raw) {
                Some(Self::Fp16)
            } else if mlir_sys::mlirTypeIsAInteger(raw) && mlir_sys::mlirIntegerTypeIsSignless(raw)
            {
                match mlir_sys::mlirIntegerTypeGetWidth(raw) {
                    8 => Some(Self::Int8),
                    32 => Some(Self::Int32),
                    _ => None,
                }
            } else {
                None
            }
        }
    }
    /// The MLIR element type's spelling.
    pub fn element(self) -> &'static str {
        match self {
            Self::Fp32 => "f32",
            Self::Fp16 => "f16",
            Self::Int8 => "i8",
            Self::Int32 => "i32",
        }
    }
    /// The symbol suffix.
    pub fn suffix(self) -> &'static str {
        match self {
            Self::Fp32 => "fp32",
            Self::Fp16 => "fp16",
            Self::Int8 => "int8",
            Self::Int32 => "int32",
        }
    }
    /// The C++ element type the templates are rendered with (`dtype_cpp`).
    pub fn cpp(self) -> &'static str {
        match self {
            Self::Fp32 => "float",
            Self::Fp16 => "half",
            Self::Int8 => "int8_t",
            Self::Int32 => "int32_t",
        }
    }
    /// The element type in `context`.
    pub fn mlir_type<'c>(self, context: &'c melior::Context) -> Type<'c> {
        match self {
            Self::Fp32 => Type::float32(context),
            Self::Fp16 => Type::float16(context),
            Self::Int8 => IntegerType::new(context, 8).into(),
            Self::Int32 => IntegerType::new(context, 32).into(),
        }
    }
}

/// The reduction of allreduce / reduce_scatter (the dialect's `Pl_Reduce`
/// enum; its verifier admits exactly these spellings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reduce {
    Sum,
    Max,
    Min,
    Prod,
}

impl Reduce {
    pub const ALL: [Reduce; 4] = [Reduce::Sum, Reduce::Max, Reduce::Min, Reduce::Prod];
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Sum => "sum",
            Self::Max => "max",
            Self::Min => "min",
            Self::Prod => "prod",
        }
    }
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.as_str() == text)
    }
}

/// One synthesized kernel: a collective, a payload element type and the
/// attributes that select a kernel (reduce, ring mode, broadcast root).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Variant {
    /// Which collective.
    pub collective: Collective,
    /// Its payload element type.
    pub dtype: Dtype,
    /// allreduce / reduce_scatter: the reduction.
    pub reduce: Option<Reduce>,
    /// allreduce: ring mode.
    pub ring: bool,
    /// broadcast: the root rank.
    pub root: Option<i64>,
}

/// Why an op has no variant: its payload element type is not one the rails
/// lower (the message names the list), or an attribute is malformed.
#[derive(Debug, PartialEq, Eq)]
pub struct NoVariant(pub String);

impl Variant {
    /// The variant of `collective` for `dtype` (no selecting attributes).
    pub fn new(collective: Collective, dtype: Dtype) -> Self {
        Self {
            collective,
            dtype,
            reduce: None,
            ring: false,
            root: None,
        }
    }
    /// The plain `all_to_all_v` variant of a dtype.
    pub fn plain(dtype: Dtype) -> Self {
        Self::new(Collective::AllToAllV, dtype)
    }
    /// The variant of `collective` for a payload element type, if its row
    /// lowers that type (selecting attributes unset).
    pub fn of_element(collective: Collective, element: Type) -> Option<Self> {
        Dtype::of_element(element)
            .filter(|d| collective.spec().dtypes.contains(d))
            .map(|d| Self::new(collective, d))
    }
    /// The variant a collective op lowers to: its row, its payload element
    /// type (the first payload operand's), and its `reduce` / `mode` /
    /// `root`. `rail` names the rail in the element-type message.
    pub fn of_op(op: &OperationRef, rail: &str) -> Result<Self, NoVariant> {
        let name = crate::ir::op_kind::op_name(op);
        let spec = Collective::of_op_name(&name)
            .ok_or_else(|| NoVariant(format!("{name} is not a managed collective")))?
            .spec();
        let dtype = match spec.payload_param() {
            None => spec.dtypes[0],
            Some(i) => {
                let element = op
                    .operand(i)
                    .ok()
                    .and_then(|v| crate::ir::tensor_type::TensorView::of(v.r#type()))
                    .map(|t| t.element)
                    .ok_or_else(|| {
                        NoVariant(format!("operand '{}' is not a tensor", spec.params[i].name))
                    })?;
                match Dtype::of_element(element).filter(|d| spec.dtypes.contains(d)) {
                    Some(d) => d,
                    None => {
                        return Err(NoVariant(format!(
                            "the {rail} rail supports only {}, got {element}",
                            spec.dtype_list()
                        )));
                    }
                }
            }
        };
        let string = |attr: &str| {
            op.attribute(attr)
                .ok()
                .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
                .map(|s| s.value().to_string())
        };
        let mut variant = Self::new(spec.collective, dtype);
        if matches!(spec.selector, Selector::Reduce | Selector::ReduceMode) {
            variant.reduce = Some(
                string("reduce")
                    .as_deref()
                    .and_then(Reduce::parse)
                    .ok_or_else(|| NoVariant("reduce must be one of sum, max, min, prod".into()))?,
            );
        }
        if spec.selector == Selector::ReduceMode {
            variant.ring = string("mode").as_deref() == Some("ring");
        }
        if spec.selector == Selector::Root {
            variant.root = Some(
                op.attribute("root")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map(|i| i.value())
                    .ok_or_else(|| NoVariant("broadcast needs a root".into()))?,
            );
        }
        Ok(variant)
    }
    pub fn spec(self) -> &'static Spec {
        self.collective.spec()
    }
    /// The kernel's symbol (docs/spec/family.md's Lowering table):
    /// `__builtin_<op>[_ring][_<reduce>|_root<R>]__<dt>`, `__builtin_barrier`.
    pub fn symbol(self) -> String {
        let spec = self.spec();
        if self.collective == Collective::Barrier {
            return format!("__builtin_{}", spec.short);
        }
        let mut name = format!("__builtin_{}", spec.short);
        if self.ring {
            name.push_str("_ring");
        }
        if let Some(r) = self.reduce {
            name.push('_');
            name.push_str(r.as_str());
        }
        if let Some(root) = self.root {
            name.push_str(&format!("_root{root}"));
        }
        name.push_str("__");
        name.push_str(self.dtype.suffix());
        name
    }
    /// The payload element type's spelling (`f32`, `i8`, ...).
    pub fn element(self) -> &'static str {
        self.dtype.element()
    }
    /// `pl.builtin_template_vars` of the kernel: `dtype_cpp=<T>`, then
    /// `;reduce=<r>` / `;root=<R>` where they apply (the same on every rail).
    pub fn template_vars(self) -> String {
        let mut vars = format!("dtype_cpp={}", self.dtype.cpp());
        if let Some(r) = self.reduce {
            vars.push_str(&format!(";reduce={}", r.as_str()));
        }
        if let Some(root) = self.root {
            vars.push_str(&format!(";root={root}"));
        }
        vars
    }
    /// `pl.builtin_template_dir` of the kernel.
    pub fn template_dir(self) -> &'static str {
        let spec = self.spec();
        match spec.ring_template_dir {
            Some(ring) if self.ring => ring,
            _ => spec.template_dir,
        }
    }
    /// The canonical types in ABI order, then the result type (`!pld.dtensor<*xT>`).
    pub fn canonical_type_values<'c>(self, context: &'c melior::Context) -> Vec<Type<'c>> {
        let payload = self.dtype.mlir_type(context);
        let i32t: Type = IntegerType::new(context, 32).into();
        let unranked = |distributed: bool, e: Type<'c>| unsafe {
            Type::from_raw(crate::capi::pldTensorLikeGetUnranked(
                distributed,
                e.to_raw(),
            ))
        };
        let mut types: Vec<Type> = self
            .spec()
            .params
            .iter()
            .map(|p| {
                unranked(
                    p.distributed,
                    match p.element {
                        Element::Payload => payload,
                        Element::I32 => i32t,
                    },
                )
            })
            .collect();
        // The result is the window the op returns (the target, the barrier's signal).
        let result = self.spec().result;
        types.push(types[result]);
        types
    }

    /// What every function of the canonical signature shares: its entry
    /// block (arguments named after the operands, at `collective`), the
    /// `arg_attrs` array of their `pl.direction`s and the function type.
    pub fn canonical_entry<'c>(
        self,
        context: &'c melior::Context,
        collective: Location<'c>,
    ) -> (
        melior::ir::Block<'c>,
        Attribute<'c>,
        melior::ir::r#type::FunctionType<'c>,
    ) {
        use melior::ir::{
            Block,
            attribute::{ArrayAttribute, StringAttribute},
            r#type::FunctionType,
        };
        let spec = self.spec();
        let n = spec.params.len();
        let types = self.canonical_type_values(context);
        let params: Vec<(Type, Location)> = types[..n]
            .iter()
            .zip(spec.params)
            .map(|(t, p)| (*t, Location::name(context, p.name, collective)))
            .collect();
        let direction = |d: &str| -> Attribute<'c> {
            let entry = unsafe {
                mlir_sys::mlirNamedAttributeGet(
                    Identifier::new(context, "pl.direction").to_raw(),
                    StringAttribute::new(context, d).to_raw(),
                )
            };
            unsafe {
                Attribute::from_raw(mlir_sys::mlirDictionaryAttrGet(context.to_raw(), 1, &entry))
            }
        };
        let arg_attrs: Vec<Attribute> = spec
            .params
            .iter()
            .map(|p| direction(p.direction.as_str()))
            .collect();
        (
            Block::new(&params),
            ArrayAttribute::new(context, &arg_attrs).into(),
            FunctionType::new(context, &types[..n], &types[n..]),
        )
    }

    /// The synthesized kernel built as ops (the canonical signature, a body
    /// that returns `target`: never compiled, the kernel is the builtin
    /// template; passes that read the function need the return): a `NameLoc`
    /// of its symbol around `collective`, the collective that needed it, so
    /// diagnostics about the kernel point back at that collective.
    pub fn build_kernel<'c>(
        self,
        context: &'c melior::Context,
        collective: Location<'c>,
    ) -> melior::ir::Operation<'c> {
        use melior::ir::{
            Region, RegionLike,
            attribute::{StringAttribute, TypeAttribute},
        };
        let symbol = self.symbol();
        let loc = Location::name(context, &symbol, collective);
        let (block, arg_attrs, function_type) = self.canonical_entry(context, collective);
        let target = block
            .argument(self.spec().result)
            .expect("the returned parameter");
        block.append_operation(melior::dialect::func::r#return(&[target.into()], loc));
        let region = Region::new();
        region.append_block(block);
        let string = |s: &str| -> Attribute<'c> { StringAttribute::new(context, s).into() };
        melior::dialect::func::func(
            context,
            StringAttribute::new(context, &symbol),
            TypeAttribute::new(function_type.into()),
            region,
            &[
                (
                    Identifier::new(context, "sym_visibility"),
                    string("private"),
                ),
                (Identifier::new(context, "arg_attrs"), arg_attrs),
                (
                    Identifier::new(context, "pl.builtin_template_dir"),
                    string(self.template_dir()),
                ),
                (
                    Identifier::new(context, "pl.builtin_template_vars"),
                    string(&self.template_vars()),
                ),
                (Identifier::new(context, "pl.func_kind"), string("aiv")),
                (
                    Identifier::new(context, "pl.require_contiguous_operands"),
                    Attribute::unit(context),
                ),
            ],
            loc,
        )
    }
}

/// The signal's static rank count P and stride S (docs/spec/family.md):
/// `[NR, S]`, `[NR]` (S = 1) for the family, and in allreduce's ring mode
/// `[2*(NR-1)+1, NR]` (P its trailing dimension, one lane). `None` when a
/// needed dimension is not static.
pub fn signal_geometry(
    op: &OperationRef,
    spec: &Spec,
    signal: &crate::ir::tensor_type::TensorView,
) -> Option<(i64, i64)> {
    let shape = signal.static_shape()?;
    let family = spec.width == WidthRule::Exact && !spec.core_num_operand;
    match *shape {
        [rows, columns]
            if spec.selector == Selector::ReduceMode
                && op
                    .attribute("mode")
                    .ok()
                    .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
                    .is_some_and(|m| m.value() == "ring") =>
        {
            let _ = rows;
            Some((columns, 1))
        }
        [ranks, stride] => Some((ranks, stride)),
        [ranks] if family => Some((ranks, 1)),
        _ => None,
    }
}

/// The family's rows a rail checks once the signal's NR is known (the
/// kernels' own limits, so that no accepted program meets a kernel that
/// returns without doing anything): at most 16 ranks, and in ring mode a
/// statically shaped target (the verifier checks its divisibility by NR).
/// `None` for the other rows.
pub fn family_rail_problem(op: &OperationRef, spec: &Spec, ranks: i64) -> Option<String> {
    if spec.core_num_operand {
        return None;
    }
    if ranks > 16 {
        return Some(crate::diag::msg!(
            "{} supports at most 16 ranks (its kernel's limit), got NR={ranks} ranks",
            spec.short
        ));
    }
    let ring = spec.selector == Selector::ReduceMode
        && op
            .attribute("mode")
            .ok()
            .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
            .is_some_and(|m| m.value() == "ring");
    let target = op
        .operand(spec.result)
        .ok()
        .and_then(|v| crate::ir::tensor_type::TensorView::of(v.r#type()));
    if ring && target.is_some_and(|t| t.static_shape().is_none()) {
        return Some(crate::diag::msg!(
            "ring mode needs the element count divisible by NR={ranks}, which a target of dynamic \
             shape does not prove"
        ));
    }
    // The rows rules (reduce_scatter, allgather, all_to_all): the kernel
    // splits the rows by NR, so they must be provable here.
    if matches!(
        spec.collective,
        Collective::ReduceScatter | Collective::AllGather | Collective::AllToAll
    ) {
        for (i, p) in spec.params.iter().enumerate() {
            if p.element != Element::Payload {
                continue;
            }
            let view = op
                .operand(i)
                .ok()
                .and_then(|v| crate::ir::tensor_type::TensorView::of(v.r#type()));
            if view.is_some_and(|t| t.static_shape().is_none()) {
                return Some(crate::diag::msg!(
                    "target rows must be NR*M (NR={ranks} ranks), which operand '{}' of dynamic \
                     shape does not prove",
                    p.name
                ));
            }
        }
    }
    None
}

/// The module's `pl.arch` (`"a2a3"` when absent).
pub fn module_arch<'c>(module: &melior::ir::operation::OperationRef<'c, '_>) -> String {
    // The dialect's reading (`pld::moduleArch`: a2a3 when absent).
    let s = unsafe { crate::capi::pldModuleArch(module.to_raw()) };
    let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// The first rows of indexed.md's diagnostics table that do not depend on
/// the rail: the architecture. `None` when `spec` may be lowered in a module
/// of architecture `arch`; else the message (without the op prefix).
pub fn arch_problem(spec: &Spec, arch: &str) -> Option<String> {
    let needed = spec.arch?;
    if arch == needed {
        return None;
    }
    Some(crate::diag::msg!(
        "{short} needs pl.arch = \"{needed}\" (A5 URMA PER_PEER transport), got pl.arch = \"{arch}\"{default}",
        short = spec.short,
        default = if arch == "a2a3" {
            " (the default when absent)"
        } else {
            ""
        },
    ))
}

/// indexed.md's rows for a collective met in a HOST orchestrator (by any
/// pass): the architecture, then the rail. `None` for the collectives the
/// HOST rail lowers (every row but the indexed op); else the message
/// (without the op prefix).
pub fn host_rail_problem(op_name: &str, arch: &str) -> Option<String> {
    let spec = Collective::of_op_name(op_name).map(|c| c.spec());
    if spec.is_some_and(|s| s.host) {
        return None;
    }
    Some(spec.and_then(|s| arch_problem(s, arch)).unwrap_or_else(|| {
        crate::diag::msg!(
            "{} is not supported on the HOST rail (its lowering is CHIP-only)",
            spec.map_or(op_name, |s| s.short)
        )
    }))
}

#[cfg(test)]
mod tests {

    /// One source per fact: the dialect's collective ops (the ODS trait
    /// `Pld_CollectiveOp`) are exactly the table's rows.
    #[test]
    fn the_table_has_a_row_for_every_collective_op_of_the_dialect() {
        let context = crate::test_context();
        let mut ods = crate::ir::op_kind::collective_op_names(&context);
        let mut rows: Vec<String> = TABLE.iter().map(|s| s.op.to_string()).collect();
        ods.sort();
        rows.sort();
        assert_eq!(rows, ods);
        assert_eq!(ods.len(), 8);
    }

    use super::*;

    #[test]
    fn table_rows() {
        assert_eq!(
            Collective::of_op_name("pld.tensor.all_to_all_v"),
            Some(Collective::AllToAllV)
        );
        assert_eq!(
            Collective::of_op_name("pld.tensor.indexed_all_to_all_v"),
            Some(Collective::IndexedAllToAllV)
        );
        assert_eq!(Collective::of_op_name("pld.tensor.nope"), None);
        assert_eq!(
            ALL_TO_ALL_V.directions(),
            ["in", "inout", "inout", "in", "inout"]
        );
        assert_eq!(
            INDEXED_ALL_TO_ALL_V.directions(),
            ["in", "inout", "inout", "in", "inout", "in"]
        );
        assert_eq!(ALL_TO_ALL_V.blocks(8, 10), 8);
        assert_eq!(INDEXED_ALL_TO_ALL_V.blocks(8, 10), 10);
        assert!(arch_problem(&ALL_TO_ALL_V, "a2a3").is_none());
        assert!(arch_problem(&INDEXED_ALL_TO_ALL_V, "a5").is_none());
        let m = arch_problem(&INDEXED_ALL_TO_ALL_V, "a2a3").unwrap();
        assert!(
            m.contains("indexed_all_to_all_v needs pl.arch = \"a5\" (A5 URMA PER_PEER transport)"),
            "{m}"
        );
    }

    #[test]
    fn variant_names_and_template_vars() {
        let context = crate::test_context();
        let int = |width| melior::ir::r#type::IntegerType::new(&context, width).into();
        let plain = |e| Variant::of_element(Collective::AllToAllV, e);
        assert_eq!(
            plain(Type::float32(&context)),
            Some(Variant::plain(Dtype::Fp32))
        );
        assert_eq!(plain(int(8)), Some(Variant::plain(Dtype::Int8)));
        assert_eq!(plain(int(32)), None);
        assert_eq!(plain(Type::bfloat16(&context)), None);
        assert_eq!(
            Variant::plain(Dtype::Fp32).symbol(),
            "__builtin_all_to_all_v__fp32"
        );
        assert_eq!(
            Variant::plain(Dtype::Int8).template_vars(),
            "dtype_cpp=int8_t"
        );
        let indexed = Variant::new(Collective::IndexedAllToAllV, Dtype::Int8);
        assert_eq!(indexed.symbol(), "__builtin_indexed_all_to_all_v__int8");
        let printed = |v: Variant| -> Vec<String> {
            v.canonical_type_values(&context)
                .iter()
                .map(|t| t.to_string())
                .collect()
        };
        assert_eq!(
            printed(indexed),
            [
                "!pl.tensor<*xi8>",
                "!pld.dtensor<*xi8>",
                "!pld.dtensor<*xi32>",
                "!pld.dtensor<*xi32>",
                "!pl.tensor<*xi32>",
                "!pl.tensor<*xi32>",
                "!pld.dtensor<*xi8>"
            ]
        );
        assert_eq!(
            printed(Variant::plain(Dtype::Fp32)),
            [
                "!pl.tensor<*xf32>",
                "!pld.dtensor<*xf32>",
                "!pld.dtensor<*xi32>",
                "!pl.tensor<*xi32>",
                "!pld.dtensor<*xi32>",
                "!pld.dtensor<*xf32>"
            ]
        );
    }

    #[test]
    fn built_kernel_declares_the_abi() {
        use melior::ir::operation::OperationLike;
        let context = crate::test_context();
        for (v, dirs) in [
            (
                Variant::plain(Dtype::Int8),
                vec!["in", "inout", "inout", "in", "inout"],
            ),
            (
                Variant::new(Collective::IndexedAllToAllV, Dtype::Fp32),
                vec!["in", "inout", "inout", "in", "inout", "in"],
            ),
        ] {
            let kernel = v.build_kernel(&context, Location::unknown(&context));
            assert!(kernel.verify());
            let text = kernel.to_string();
            assert!(
                text.starts_with(&format!("func.func private @{}(", v.symbol())),
                "{text}"
            );
            let directions: Vec<&str> = text
                .split("pl.direction = \"")
                .skip(1)
                .map(|rest| &rest[..rest.find('"').unwrap()])
                .collect();
            assert_eq!(directions, dirs);
            // The body returns `target`, the second parameter.
            assert!(
                text.contains(&format!("return %arg1 : !pld.dtensor<*x{}>", v.element())),
                "{text}"
            );
            assert!(text.contains(v.template_dir()));
            assert!(text.contains(&v.template_vars()));
        }
    }
}

/// The message of the run-time check of a runtime `core_num` (its range and
/// `S >= B`), worded once for both rails' `pl.require` / `pld.host.require`.
pub fn runtime_width_message(op: &str, stride: i64, ranks: i64) -> String {
    crate::diag::msg!(
        "{op}: core_num must be in [1, 2147483647] and the signal stride S={stride} must be at least \
         the admitted block count B (core_num folded for P={ranks} ranks)"
    )
}

/// `aiv-cores`: a compile-time launch width above the target's AIV core
/// count, in the words both rails use (0: unknown, nothing is checked).
pub fn aiv_cores_problem(spec: &Spec, ranks: i64, limit: i64, aiv_cores: u64) -> Option<String> {
    let blocks = spec.blocks(ranks, limit);
    if aiv_cores == 0 || blocks as u64 <= aiv_cores {
        return None;
    }
    Some(match spec.width {
        WidthRule::Folded => format!(
            "launch width B={blocks} exceeds the target's {aiv_cores} AIV cores \
             (core_num L={limit} folded for P={ranks} ranks; option aiv-cores={aiv_cores})"
        ),
        WidthRule::Exact => format!(
            "launch width L={limit} exceeds the target's {aiv_cores} AIV cores (option aiv-cores={aiv_cores})"
        ),
    })
}

/// The plain op's operand names in ABI order (`args[0..4]`, both rails).
pub const ALL_TO_ALL_V_OPERANDS: [&str; 5] =
    ["input", "target", "signal", "send_counts", "recv_counts"];

/// A collective's launch width request `core_num` (L).
pub enum CoreNum {
    /// A compile-time constant (the attribute, or an operand that folds).
    Static(i64),
    /// A runtime value.
    Runtime,
}

/// A collective's `core_num`: the attribute, or the `dynamic_core_num`
/// operand when it folds to a constant (see [`fold_i64`]); anything else is
/// runtime.
pub fn core_num(op: &OperationRef) -> CoreNum {
    if let Ok(attr) = op.attribute("core_num")
        && let Ok(int) = IntegerAttribute::try_from(attr)
    {
        return CoreNum::Static(int.value());
    }
    // Without the attribute: the family's default 1, or the
    // `dynamic_core_num` operand after the op's tensor operands (five for the
    // plain op, six for the indexed one).
    let spec = Collective::of_op_name(&crate::ir::op_kind::op_name(op)).map(|c| c.spec());
    if spec.is_some_and(|s| !s.core_num_operand) {
        return CoreNum::Static(1);
    }
    let index = dynamic_core_num_index(op);
    let Ok(value) = op.operand(index) else {
        return CoreNum::Runtime;
    };
    match fold_i64(value, 0) {
        Some(v) => CoreNum::Static(v),
        None => CoreNum::Runtime,
    }
}

/// The operand index of a collective's `dynamic_core_num` (after its tensor
/// operands, per the variant table).
pub fn dynamic_core_num_index(op: &OperationRef) -> usize {
    let name = op.name();
    name.as_string_ref()
        .as_str()
        .ok()
        .and_then(Collective::of_op_name)
        .map_or(5, |c| c.spec().params.len())
}

/// The constant an integer value folds to: `arith.constant`, and the `arith`
/// integer ops of constants that `arith`'s own folders reduce (add, sub, mul,
/// signed div/rem, min/max, select, extsi/trunci/index_cast), evaluated on
/// i64 with a wrapped result, at most 64 ops deep.
pub fn fold_i64(value: Value, depth: usize) -> Option<i64> {
    if depth > 64 {
        return None;
    }
    let def = crate::ir::value_defs::as_result(value)?.owner();
    let name = def.name();
    let name = name.as_string_ref().as_str().ok()?;
    let arg = |i: usize| def.operand(i).ok().and_then(|v| fold_i64(v, depth + 1));
    Some(match name {
        "arith.constant" => IntegerAttribute::try_from(def.attribute("value").ok()?)
            .ok()?
            .value(),
        "arith.addi" => arg(0)?.wrapping_add(arg(1)?),
        "arith.subi" => arg(0)?.wrapping_sub(arg(1)?),
        "arith.muli" => arg(0)?.wrapping_mul(arg(1)?),
        "arith.divsi" => arg(0)?.checked_div(arg(1)?)?,
        "arith.remsi" => arg(0)?.checked_rem(arg(1)?)?,
        "arith.minsi" => arg(0)?.min(arg(1)?),
        "arith.maxsi" => arg(0)?.max(arg(1)?),
        "arith.select" => {
            if arg(0)? != 0 {
                arg(1)?
            } else {
                arg(2)?
            }
        }
        // Widening a constant of at most 64 bits keeps its value; a narrowing
        // cast is left to run time rather than modelled here.
        "arith.extsi" | "arith.index_cast" => {
            let from = def.operand(0).ok()?.r#type();
            let to = def.result(0).ok()?.r#type();
            if crate::ir::orch_ops::scalar_bits(to)? < crate::ir::orch_ops::scalar_bits(from)? {
                return None;
            }
            arg(0)?
        }
        _ => return None,
    })
}
