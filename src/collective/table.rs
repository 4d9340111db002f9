//! The table: one row ([`Spec`]) per collective op, the payload element
//! types ([`Dtype`]) and reductions ([`Reduce`]) a row names.

use crate::ir::direction::Direction;
use melior::ir::{Type, TypeLike, r#type::IntegerType};

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
    Reduce,
    Gather,
    Scatter,
    Permute,
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
    /// Whether the CHIP rail needs a window here although the kernel's type
    /// admits a local tensor (peers read it remotely there).
    pub chip_window: bool,
}

/// An attribute that selects a variant besides the element type (a row lists
/// its own, in the order the symbol and the template variables name them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    /// `reduce` (`_<reduce>`, `;reduce=<r>`).
    Reduce,
    /// `mode` (allreduce: mesh or ring; ring selects the ring package).
    Mode,
    /// `root` (`_root<R>`, `;root=<R>`).
    Root,
    /// `pairs` (permute: `_<s>to<d>...`, `;pairs=<s>:<d>,...`).
    Pairs,
}

/// A builtin kernel template package: its `:dotted.name` (what
/// `pl.builtin_template_dir` names) and its `kernel.cpp.in`, embedded in the
/// binary so `pld-translate` works from any directory.
#[derive(Clone, Copy, Debug)]
pub struct Package {
    pub name: &'static str,
    /// Path of the template in the source tree (a unit test holds it to the
    /// name).
    pub path: &'static str,
    pub text: &'static str,
}

/// The package of `templates/pypto/runtime/builtins/collectives/<name>/`.
macro_rules! package {
    ($name:literal) => {
        Package {
            name: concat!(":pypto.runtime.builtins.collectives.", $name),
            path: concat!(
                "templates/pypto/runtime/builtins/collectives/",
                $name,
                "/kernel.cpp.in"
            ),
            text: include_str!(concat!(
                "../../templates/pypto/runtime/builtins/collectives/",
                $name,
                "/kernel.cpp.in"
            )),
        }
    };
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
    pub selector: &'static [Select],
    /// The kernel template package (allreduce: of mesh mode).
    pub template: Package,
    /// allreduce's ring-mode template package.
    pub ring_template: Option<Package>,
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
    /// Whether the kernel splits the payload's rows by NR (target rows
    /// `NR*M`), so a payload operand needs a static shape.
    pub rows_by_nr: bool,
    /// Whether the kernel symbol ends in `__<dtype>` (one kernel per element
    /// type; the barrier has none).
    pub symbol_dtype: bool,
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
        chip_window: false,
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
        Param {
            chip_window: true,
            ..param("send_counts", false, I32, In)
        },
        param("recv_counts", true, I32, InOut),
    ],
    result: 1,
    signal: 2,
    dtypes: &[Dtype::Fp32, Dtype::Int8],
    selector: &[],
    template: package!("all_to_all_v"),
    ring_template: None,
    width: WidthRule::Folded,
    core_num_operand: true,
    runtime_core_num: true,
    arch: None,
    host: true,
    incore: true,
    rows_by_nr: false,
    symbol_dtype: true,
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
    selector: &[],
    template: package!("indexed_all_to_all_v"),
    ring_template: None,
    width: WidthRule::Exact,
    core_num_operand: true,
    runtime_core_num: false,
    arch: Some("a5"),
    host: false,
    incore: false,
    rows_by_nr: false,
    symbol_dtype: true,
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
    selector: &'static [Select],
    template: Package,
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
        template,
        ring_template: None,
        width: WidthRule::Exact,
        core_num_operand: false,
        runtime_core_num: false,
        arch: None,
        host: true,
        incore: false,
        rows_by_nr: false,
        symbol_dtype: true,
    }
}

/// `pld.tensor.allreduce` (mesh: `allreduce`, ring: `allreduce_ring`).
pub static ALLREDUCE: Spec = Spec {
    ring_template: Some(package!("allreduce_ring")),
    ..family(
        Collective::AllReduce,
        "pld.tensor.allreduce",
        "allreduce",
        TARGET_SIGNAL,
        REDUCING,
        &[Select::Reduce, Select::Mode],
        package!("allreduce"),
    )
};
pub static REDUCE_SCATTER: Spec = Spec {
    rows_by_nr: true,
    ..family(
        Collective::ReduceScatter,
        "pld.tensor.reduce_scatter",
        "reduce_scatter",
        TARGET_SIGNAL,
        REDUCING,
        &[Select::Reduce],
        package!("reduce_scatter"),
    )
};
pub static ALLGATHER: Spec = Spec {
    rows_by_nr: true,
    ..family(
        Collective::AllGather,
        "pld.tensor.allgather",
        "allgather",
        INPUT_TARGET_SIGNAL,
        MOVING,
        &[],
        package!("allgather"),
    )
};
pub static BROADCAST: Spec = family(
    Collective::Broadcast,
    "pld.tensor.broadcast",
    "broadcast",
    TARGET_SIGNAL,
    MOVING,
    &[Select::Root],
    package!("broadcast"),
);
pub static ALL_TO_ALL: Spec = Spec {
    rows_by_nr: true,
    ..family(
        Collective::AllToAll,
        "pld.tensor.all_to_all",
        "all_to_all",
        INPUT_TARGET_SIGNAL,
        MOVING,
        &[],
        package!("all_to_all"),
    )
};
/// `pld.tensor.reduce`: the mesh fold into the root's target.
pub static REDUCE: Spec = family(
    Collective::Reduce,
    "pld.tensor.reduce",
    "reduce",
    TARGET_SIGNAL,
    REDUCING,
    &[Select::Reduce, Select::Root],
    package!("reduce"),
);
/// `pld.tensor.gather`: every rank's input into the root's target rows.
pub static GATHER: Spec = Spec {
    rows_by_nr: true,
    ..family(
        Collective::Gather,
        "pld.tensor.gather",
        "gather",
        INPUT_TARGET_SIGNAL,
        MOVING,
        &[Select::Root],
        package!("gather"),
    )
};
/// `pld.tensor.scatter`: the root's input row blocks, one per rank.
pub static SCATTER: Spec = Spec {
    rows_by_nr: true,
    ..family(
        Collective::Scatter,
        "pld.tensor.scatter",
        "scatter",
        INPUT_TARGET_SIGNAL,
        MOVING,
        &[Select::Root],
        package!("scatter"),
    )
};
/// `pld.tensor.permute`: point-to-point transfers along `pairs` (no pairs:
/// erased by both rails).
pub static PERMUTE: Spec = family(
    Collective::Permute,
    "pld.tensor.permute",
    "permute",
    INPUT_TARGET_SIGNAL,
    MOVING,
    &[Select::Pairs],
    package!("permute"),
);
/// `pld.tensor.barrier`: the signal alone, one block, kernel `@__builtin_barrier`.
pub static BARRIER: Spec = Spec {
    symbol_dtype: false,
    ..family(
        Collective::Barrier,
        "pld.tensor.barrier",
        "barrier",
        &[param("signal", true, I32, InOut)],
        &[Dtype::Int32],
        &[],
        package!("barrier"),
    )
};

/// Every row, in the order their kernels are appended to a module.
pub static TABLE: [&Spec; 12] = [
    &ALL_TO_ALL_V,
    &INDEXED_ALL_TO_ALL_V,
    &ALLREDUCE,
    &REDUCE_SCATTER,
    &ALLGATHER,
    &BROADCAST,
    &ALL_TO_ALL,
    &BARRIER,
    &REDUCE,
    &GATHER,
    &SCATTER,
    &PERMUTE,
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
            .find(|s| s.template.name == dir || s.ring_template.is_some_and(|r| r.name == dir))
    }
    /// Which dimension of the signal is NR for a kernel of template `dir`:
    /// 1 for allreduce's ring (`[2*(NR-1)+1, NR]`), else 0 (`[NR]`, `[NR, S]`).
    pub fn nr_axis(&self, dir: &str) -> usize {
        usize::from(self.ring_template.is_some_and(|r| r.name == dir))
    }
    /// Every template package of the table.
    pub fn packages() -> impl Iterator<Item = &'static Package> {
        TABLE
            .iter()
            .flat_map(|s| std::iter::once(&s.template).chain(s.ring_template.as_ref()))
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
    /// Whether `attribute` selects the row's variant.
    pub fn selects(&self, attribute: Select) -> bool {
        self.selector.contains(&attribute)
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
