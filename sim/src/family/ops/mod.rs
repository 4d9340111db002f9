//! Each op of the collective family in one file: its case rules (which keys it takes, its
//! operands' rows, its kernel symbol), its reference meaning (what every rank's target holds
//! after the last call, family spec "Meaning"; the golden folds and compares,
//! [`super::golden`]) and its rows of the matrix. The rest of pld-sim (the case parser, the
//! module writer, the run, the judge) asks [`FamilyOp::rules`]; a new op is one file here and
//! its line in [`FamilyOp`].

use super::case::{FDType, FamilyCase};
use super::matrix::{Entry, Section};

mod all_to_all;
mod allgather;
mod allreduce;
mod barrier;
mod broadcast;
mod reduce_scatter;

/// The family ops (`"op"`), in the spec's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FamilyOp {
    /// `pld.tensor.allreduce`.
    AllReduce,
    /// `pld.tensor.reduce_scatter`.
    ReduceScatter,
    /// `pld.tensor.allgather`.
    AllGather,
    /// `pld.tensor.broadcast`.
    Broadcast,
    /// `pld.tensor.all_to_all`.
    AllToAll,
    /// `pld.tensor.barrier`.
    Barrier,
}

impl FamilyOp {
    /// Every op, in the spec's order (the matrix's order).
    pub const ALL: [FamilyOp; 6] = [
        FamilyOp::AllReduce,
        FamilyOp::ReduceScatter,
        FamilyOp::AllGather,
        FamilyOp::Broadcast,
        FamilyOp::AllToAll,
        FamilyOp::Barrier,
    ];

    /// The op's rules (its file).
    pub fn rules(self) -> &'static Rules {
        match self {
            FamilyOp::AllReduce => &allreduce::RULES,
            FamilyOp::ReduceScatter => &reduce_scatter::RULES,
            FamilyOp::AllGather => &allgather::RULES,
            FamilyOp::Broadcast => &broadcast::RULES,
            FamilyOp::AllToAll => &all_to_all::RULES,
            FamilyOp::Barrier => &barrier::RULES,
        }
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

    /// Whether it takes `reduce`.
    pub fn reduces(self) -> bool {
        self.takes("reduce")
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

/// Where a target word is, for an op's meaning: rank `rank`'s target row `row`, element `elem`,
/// after the last call.
pub struct At<'a> {
    /// The case.
    pub case: &'a FamilyCase,
    /// The rank whose target it is.
    pub rank: i64,
    /// The target row.
    pub row: i64,
    /// The element of the row.
    pub elem: i64,
    pub(super) payload: &'a dyn Fn(i64, i64, i64) -> i64,
    pub(super) folded: &'a dyn Fn(i64, i64) -> i64,
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
        self.case.rows
    }
}

/// What pld-sim knows about one op.
pub struct Rules {
    /// The case JSON's spelling.
    pub name: &'static str,
    /// The op-specific keys it takes (among `reduce`, `mode`, `root`, `delay_us`).
    pub keys: &'static [&'static str],
    /// Whether it moves a payload (the barrier does not).
    pub payload: bool,
    /// The element types its rows of the matrix's extras cycle through.
    pub dtypes: &'static [FDType],
    /// The rows of its `input` operand for P ranks and M rows per block (`None`: it has none).
    pub input_rows: fn(p: i64, m: i64) -> Option<i64>,
    /// Its target's rows for P ranks and M rows per block.
    pub target_rows: fn(p: i64, m: i64) -> i64,
    /// Its kernel's symbol (family spec, "Lowering"), for the block counts.
    pub symbol: fn(case: &FamilyCase) -> String,
    /// The target word at `at` after the last call (family spec, "Meaning").
    pub meaning: fn(at: &At) -> i64,
    /// Its sections of the matrix (full and CI entries).
    pub sections: &'static [Section],
    /// Its shapes in the extras (`repeat`, `loop`, the HOST rail), by name.
    pub extras: fn() -> Vec<(&'static str, serde_json::Value)>,
}

/// The reducing ops' element types.
pub const REDUCING: [FDType; 3] = [FDType::F32, FDType::F16, FDType::I32];
/// The `reduce` kinds.
pub const REDUCES: [&str; 4] = ["sum", "max", "min", "prod"];

/// Every (reduce, dtype, P) of a reducing op, P in 1..16.
pub(crate) fn reducing(mut each: impl FnMut(&'static str, FDType, usize)) {
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

/// Every (dtype, P, L) of a moving op, P in 1..16.
pub(crate) fn moving_grid(mut each: impl FnMut(FDType, usize, i64)) {
    for dt in FDType::ALL {
        for p in 1..=16 {
            for l in LS {
                each(dt, p, l);
            }
        }
    }
}

/// The entries a grid fills.
pub(crate) fn collect(fill: impl FnOnce(&mut Vec<Entry>)) -> Vec<Entry> {
    let mut out = Vec::new();
    fill(&mut out);
    out
}
