//! Each op of the collective family in one file: its case rules (which keys it takes, its
//! operands' rows, its kernel symbol), its reference meaning (what every rank's target holds
//! after the last call, family spec "Meaning"; the golden folds and compares,
//! [`super::golden`]) and its rows of the matrix (as case JSON; [`super::matrix`] judges them).
//! The rest of pld-sim (the case parser, the module writer, the run, the judge) asks
//! [`FamilyOp::rules`]; a new op is one file here and its line in [`FamilyOp::ALL`]. This folder is
//! the family's bottom layer: it knows the element types and JSON, nothing of pld-sim's other
//! modules.

use serde_json::{Value, json};

mod all_to_all;
mod allgather;
mod allreduce;
mod barrier;
mod broadcast;
mod gather;
mod permute;
mod reduce;
mod reduce_scatter;
mod scatter;

/// A family op (`"op"`): its rules, the file that says everything pld-sim knows of it.
#[derive(Clone, Copy)]
pub struct FamilyOp(&'static Rules);

impl PartialEq for FamilyOp {
    fn eq(&self, other: &FamilyOp) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for FamilyOp {}

impl std::hash::Hash for FamilyOp {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.name().hash(h)
    }
}

impl std::fmt::Debug for FamilyOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FamilyOp({})", self.name())
    }
}

impl FamilyOp {
    /// Every op, in the spec's order (the matrix's order): a new op is its file, its `mod`
    /// line above and its entry here.
    pub const ALL: [FamilyOp; 10] = [
        FamilyOp(&allreduce::RULES),
        FamilyOp(&reduce_scatter::RULES),
        FamilyOp(&allgather::RULES),
        FamilyOp(&broadcast::RULES),
        FamilyOp(&all_to_all::RULES),
        FamilyOp(&barrier::RULES),
        FamilyOp(&reduce::RULES),
        FamilyOp(&gather::RULES),
        FamilyOp(&scatter::RULES),
        FamilyOp(&permute::RULES),
    ];

    /// The op's rules (its file).
    pub fn rules(self) -> &'static Rules {
        self.0
    }

    /// The case JSON's spelling (the op's mnemonic after `pld.tensor.`).
    pub fn name(self) -> &'static str {
        self.rules().name
    }

    /// The op named `name`.
    pub fn from_name(name: &str) -> Option<FamilyOp> {
        FamilyOp::ALL.into_iter().find(|o| o.name() == name)
    }

    /// Whether it takes `key`, one of the op-specific case keys (`reduce`, `mode`, `root`,
    /// `delay_us`).
    pub fn takes(self, key: &str) -> bool {
        self.rules().keys.contains(&key)
    }

    /// Whether it moves a payload (`dtype`, `rows`, `row_elems` and `core_num` apply; the
    /// barrier moves none).
    pub fn moves_payload(self) -> bool {
        self.rules().payload
    }

    /// Whether it reads an `input` operand (the stage step writes it).
    pub fn has_input(self) -> bool {
        (self.rules().input_rows)(1, 1).is_some()
    }
}

pub use pld_run::elem::Elem;

/// The family's element types (its payload rules; a case may name any [`Elem`], pld-opt refuses
/// the others).
pub const FAMILY_DTYPES: [Elem; 4] = [Elem::F32, Elem::F16, Elem::I8, Elem::I32];

/// Where a target word is, for an op's meaning: rank `rank`'s target row `row`, element `elem`,
/// after the last call.
pub struct At<'a> {
    /// M, the rows per rank block.
    pub m: i64,
    /// `root` (0 where the op takes none).
    pub root: i64,
    /// permute: each rank's source (the rank whose input lands in its target), if any.
    pub sources: &'a [Option<i64>],
    /// The rank whose target it is.
    pub rank: i64,
    /// The target row.
    pub row: i64,
    /// The element of the row.
    pub elem: i64,
    pub(super) payload: &'a dyn Fn(i64, i64, i64) -> i64,
    pub(super) folded: &'a dyn Fn(i64, i64) -> i64,
    pub(super) initial: &'a dyn Fn(i64, i64, i64) -> i64,
}

impl At<'_> {
    /// The word rank `rank` staged in row `row` (this element) for the last call.
    pub fn payload(&self, rank: i64, row: i64) -> i64 {
        (self.payload)(rank, row, self.elem)
    }
    /// The reduction over every rank's staged row `row` (this element): the left fold in rank
    /// order.
    pub fn folded(&self, row: i64) -> i64 {
        (self.folded)(row, self.elem)
    }
    /// M, the rows per rank block.
    pub fn m(&self) -> i64 {
        self.m
    }
    /// What this target word held before call 0 (zeros, or the `prefill` rule): what a target
    /// no call writes keeps.
    pub fn initial(&self) -> i64 {
        (self.initial)(self.rank, self.row, self.elem)
    }
}

/// What selects an op's kernel: its symbol's parts.
pub struct Selected<'a> {
    /// The element type.
    pub dtype: Elem,
    /// `reduce` (empty when absent).
    pub reduce: &'a str,
    /// allreduce: ring mode.
    pub ring: bool,
    /// `root`.
    pub root: i64,
    /// permute: `[source, dest]` pairs, in order.
    pub pairs: &'a [(i64, i64)],
}

/// A matrix section of an op: its entries as (name, case JSON).
pub struct Section {
    /// The entry-name prefix of the section's entries.
    pub name: &'static str,
    /// Its entries in the full matrix (`pld-sim --matrix family`).
    pub full: fn() -> Vec<(String, Value)>,
    /// Its entries in the CI slice (`pld-sim --matrix family-ci`, sim/tests/sim_family.rs).
    pub ci: fn() -> Vec<(String, Value)>,
}

/// The case of `op` on `p` ranks with M = `rows` rows of `e` elements of `dt`.
pub fn base(op: &str, p: usize, dt: Elem, rows: i64, e: i64) -> Value {
    json!({"op": op, "ranks": p, "dtype": dt.name(), "rows": rows, "row_elems": e})
}

/// `case` with the keys of `extra` added.
pub fn with(mut case: Value, extra: Value) -> Value {
    if let (Value::Object(m), Value::Object(x)) = (&mut case, extra) {
        m.extend(x);
    }
    case
}

/// A moving op's row: M = 2 rows of 5 elements, L = `l`.
pub fn moving(op: &str, dt: Elem, p: usize, l: i64) -> (String, Value) {
    (
        format!("{op}:{}_P{p}_L{l}", dt.name()),
        with(base(op, p, dt, 2, 5), json!({"core_num": l})),
    )
}

/// What pld-sim knows about one op.
pub struct Rules {
    /// The case JSON's spelling.
    pub name: &'static str,
    /// The op-specific keys it takes (among `reduce`, `mode`, `root`, `delay_us`, `pairs`).
    pub keys: &'static [&'static str],
    /// `root` when a case leaves it out (broadcast: 0; `None`: the attribute is left out, which
    /// the dialect refuses).
    pub root_default: Option<i64>,
    /// Whether it moves a payload (the barrier does not).
    pub payload: bool,
    /// The element types its rows of the matrix's extras cycle through.
    pub dtypes: &'static [Elem],
    /// The rows of its `input` operand for P ranks and M rows per block (`None`: it has none).
    pub input_rows: fn(p: i64, m: i64) -> Option<i64>,
    /// Its target's rows for P ranks and M rows per block.
    pub target_rows: fn(p: i64, m: i64) -> i64,
    /// Its kernel's symbol (family spec, "Lowering"), for the block counts.
    pub symbol: fn(selected: &Selected) -> String,
    /// The target word at `at` after the last call (family spec, "Meaning").
    pub meaning: fn(at: &At) -> i64,
    /// Its sections of the matrix (full and CI entries).
    pub sections: &'static [Section],
    /// Its shapes in the extras (`repeat`, `loop`, the HOST rail), by name.
    pub extras: fn() -> Vec<(&'static str, Value)>,
}

/// The reducing ops' element types.
pub const REDUCING: [Elem; 3] = [Elem::F32, Elem::F16, Elem::I32];
/// The `reduce` kinds.
pub const REDUCES: [&str; 4] = ["sum", "max", "min", "prod"];

/// Every (reduce, dtype, P) of a reducing op, P in 1..16.
pub(crate) fn reducing(mut each: impl FnMut(&'static str, Elem, usize)) {
    for reduce in REDUCES {
        for dt in REDUCING {
            for p in 1..=16 {
                each(reduce, dt, p);
            }
        }
    }
}

/// The launch widths the matrix tries.
pub const LS: [i64; 3] = [1, 2, 4];

/// One entry per (reduce, dtype) of a reducing op: every kernel variant it renders, once (the CI
/// slice's share of the full matrix's variants).
pub(crate) fn every_reducing(
    each: impl Fn(&'static str, Elem) -> (String, Value),
) -> Vec<(String, Value)> {
    REDUCES
        .iter()
        .flat_map(|&r| REDUCING.map(|dt| (r, dt)))
        .map(|(r, dt)| each(r, dt))
        .collect()
}

/// Every (dtype, P, L) of a moving op, P in 1..16.
pub(crate) fn moving_grid(mut each: impl FnMut(Elem, usize, i64)) {
    for dt in FAMILY_DTYPES {
        for p in 1..=16 {
            for l in LS {
                each(dt, p, l);
            }
        }
    }
}

/// The rows a grid fills.
pub(crate) fn collect(fill: impl FnOnce(&mut Vec<(String, Value)>)) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    fill(&mut out);
    out
}
