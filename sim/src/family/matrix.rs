//! The family's case matrix and how each entry is judged (docs/sim.md, "The collective family").
//!
//! - **full** (`pld-sim --matrix family`): every reduce × dtype (f32, f16, i32) × P ∈ 1..16 ×
//!   L ∈ {1, 2, 4} for allreduce mesh and reduce_scatter; every reduce × dtype × P for allreduce
//!   ring (L = 1); every dtype (f32, f16, i8, i32) × P × L for allgather and all_to_all, and
//!   for broadcast with the roots 0, P/2 and P-1; barrier for every P with and without delays;
//!   `repeat` / `loop` / HOST extras for every op; the compile_error rows.
//! - **ci** (`pld-sim --matrix family-ci`, sim/tests/sim_family.rs): a slice covering every op,
//!   both rails, every dtype, ring, repeat, loop, a barrier with delays, and three
//!   compile_errors.
//!
//! An `ok` entry must match the golden (sim/src/family/golden.rs), have started exactly P × B ×
//! repeat blocks of the collective's kernel and P × repeat of the stage step, and every rank's
//! stage counter must read `repeat`.

use serde_json::{Value, json};

use super::case::{Elem, FamilyCase, FamilyOp};
use super::golden;
use super::ops::{base, with};
use super::run::run_family;
use crate::SimError;
use crate::result::SimResult;
use crate::suite::{self, Section, SimCase};
pub use crate::suite::{Expect, judge};
use pld_run::toolchain::Toolchain;

/// One family matrix entry.
pub type Entry = suite::Entry<FamilyCase>;

pub(crate) fn entry(name: String, case: Value, expect: Expect) -> Entry {
    let case = FamilyCase::from_value(&case)
        .unwrap_or_else(|e| panic!("matrix entry {name}: {e}: {case}"));
    Entry { name, case, expect }
}

/// An entry that must match the golden.
pub(crate) fn golden(name: String, case: Value) -> Entry {
    entry(name, case, Expect::Golden)
}

/// The refusals a family case can reach: (name, op, P, dtype, keys beyond the base case of
/// 2 rows of 2 elements, pld-opt's message).
#[rustfmt::skip]
const COMPILE_ERRORS: &[(&str, &str, usize, Elem, &str, &str)] = &[
    ("gather_root_out_of_range", "gather", 3, Elem::F32, r#"{"root": 3}"#, "root must be in [0, NR=3), got 3"),
    ("scatter_root_missing", "scatter", 2, Elem::I8, "{}", "requires attribute 'root'"),
    ("reduce_i8", "reduce", 2, Elem::I8, r#"{"reduce": "sum", "root": 0}"#, "supports only f32, f16 or i32, got i8"),
    ("permute_rank_outside", "permute", 4, Elem::F32, r#"{"pairs": [[0, 1], [3, 4]]}"#, "pairs entry 1 names rank 4 outside [0, NR=4)"),
    ("permute_dest_twice", "permute", 4, Elem::F32, r#"{"pairs": [[0, 2], [1, 2]]}"#, "pairs has rank 2 as a destination twice"),
    ("permute_source_twice", "permute", 4, Elem::I32, r#"{"pairs": [[1, 2], [1, 3]]}"#, "pairs has rank 1 as a source twice"),
    ("permute_pairs_missing", "permute", 2, Elem::F16, "{}", "requires attribute 'pairs'"),
    // family.md's example, verbatim.
    ("allreduce_i8", "allreduce", 2, Elem::I8, r#"{"reduce": "sum"}"#, "supports only f32, f16 or i32, got i8"),
    ("reduce_missing", "reduce_scatter", 2, Elem::F32, "{}", "reduce must be one of sum, max, min, prod"),
    ("core_num_0", "allgather", 2, Elem::F32, r#"{"core_num": 0}"#, "core_num must be in [1, 2147483647], got 0"),
    ("S_lt_L", "all_to_all", 2, Elem::F16, r#"{"core_num": 2, "signal_stride": 1}"#, "signal stride S=1 is smaller than the launch width L=2"),
    ("ring_core_num_2", "allreduce", 2, Elem::F32, r#"{"reduce": "sum", "mode": "ring", "core_num": 2}"#, "ring mode needs core_num = 1"),
    ("ring_not_divisible", "allreduce", 3, Elem::F32, r#"{"reduce": "sum", "mode": "ring"}"#, "ring mode needs the element count divisible by NR=3"),
    ("broadcast_root_out_of_range", "broadcast", 4, Elem::I32, r#"{"root": 5}"#, "root must be in [0, NR=4), got 5"),
];

fn compile_errors() -> Vec<Entry> {
    COMPILE_ERRORS
        .iter()
        .map(|&(name, op, p, dt, keys, msg)| {
            let keys = serde_json::from_str(keys).expect("a table row's keys are JSON");
            entry(
                format!("compile_error:{name}"),
                with(base(op, p, dt, 2, 2), keys),
                Expect::CompileError(msg.into()),
            )
        })
        .collect()
}

/// `repeat`, `loop` and the HOST rail for every op (and ring mode), at a few P.
fn extras() -> Vec<Entry> {
    let mut out = Vec::new();
    // Every op's shapes, in the ops' order, with the element types each cycles through.
    let shapes: Vec<(&str, Value, &[Elem])> = FamilyOp::ALL
        .iter()
        .flat_map(|op| {
            let rules = op.rules();
            (rules.extras)()
                .into_iter()
                .map(move |(name, shape)| (name, shape, rules.dtypes))
        })
        .collect();
    for (i, (name, shape, dtypes)) in shapes.iter().enumerate() {
        for (j, p) in [2usize, 4, 8].into_iter().enumerate() {
            let mut c = with(shape.clone(), json!({"ranks": p}));
            let tag = match dtypes.get((i + j) % dtypes.len().max(1)) {
                Some(dt) => {
                    c = with(c, json!({"dtype": dt.name()}));
                    format!("_{}", dt.name())
                }
                None => String::new(),
            };
            for (variant, extra) in [
                ("rep5", json!({"repeat": 5})),
                ("loop20", json!({"repeat": 20, "loop": true})),
                ("host", json!({"rail": "host"})),
                ("host_rep3", json!({"rail": "host", "repeat": 3})),
                (
                    "host_loop5",
                    json!({"rail": "host", "repeat": 5, "loop": true}),
                ),
            ] {
                out.push(golden(
                    format!("{variant}:{name}{tag}_P{p}"),
                    with(c.clone(), extra),
                ));
            }
        }
    }
    out
}

/// One of the matrix's closing sections (the extras, the refusals) and its entries.
struct Closing {
    /// The entry-name prefix of the section's entries.
    name: &'static str,
    /// Its entries in the full matrix (`pld-sim --matrix family`).
    full: fn() -> Vec<Entry>,
    /// Its entries in the CI slice (`pld-sim --matrix family-ci`, sim/tests/sim_family.rs).
    ci: fn() -> Vec<Entry>,
}

/// The sections after the ops' own: the extras (`repeat`, `loop`, the HOST rail for every op)
/// and the refusals.
const CLOSING: [Closing; 2] = [
    Closing {
        name: "extras",
        full: extras,
        ci: || {
            let pick = [
                "loop20:allreduce_f32_P2",
                "rep5:reduce_scatter_i32_P2",
                "loop20:all_to_all_i32_P8",
                "rep5:barrier_P8",
                "loop20:allreduce_ring_f32_P8",
                "host:allreduce_f32_P2",
                "host:allreduce_ring_i32_P4",
                "host_loop5:all_to_all_i8_P4",
                "host_rep3:broadcast_f32_P2",
                "host_loop5:barrier_P4",
                "host:allgather_f32_P4",
                "host:reduce_i32_P4",
                "loop20:reduce_f16_P2",
                "host_rep3:gather_i8_P8",
                "rep5:gather_f16_P4",
                "host_loop5:scatter_i8_P4",
                "loop20:permute_i32_P4",
                "host:permute_i8_P2",
            ];
            extras()
                .into_iter()
                .filter(|e| pick.contains(&e.name.as_str()))
                .collect()
        },
    },
    Closing {
        name: "compile_error",
        full: compile_errors,
        ci: || {
            let pick = [
                "allreduce_i8",
                "ring_core_num_2",
                "broadcast_root_out_of_range",
                "permute_dest_twice",
                "scatter_root_missing",
            ];
            compile_errors()
                .into_iter()
                .filter(|e| pick.iter().any(|n| e.name.ends_with(n)))
                .collect()
        },
    },
];

/// The family matrix: every op's sections (its file's rows, each an entry that must match the
/// golden, in the ops' order), then the extras and the refusals.
pub fn sections() -> Vec<Section<FamilyCase>> {
    let rows = |rows: Vec<(String, Value)>| -> Vec<Entry> {
        rows.into_iter()
            .map(|(name, case)| golden(name, case))
            .collect()
    };
    FamilyOp::ALL
        .iter()
        .flat_map(|op| op.rules().sections.iter())
        .map(|s| Section {
            name: s.name,
            full: rows((s.full)()),
            ci: rows((s.ci)()),
        })
        .chain(CLOSING.iter().map(|s| Section {
            name: s.name,
            full: (s.full)(),
            ci: (s.ci)(),
        }))
        .collect()
}

/// The full matrix: every section's full entries.
pub fn full() -> Vec<Entry> {
    suite::entries(sections(), false)
}

/// The CI slice: every op, both rails, every dtype, ring, repeat, loop, a delayed barrier and
/// three compile_errors, in shapes whose kernels the entries share.
pub fn ci() -> Vec<Entry> {
    suite::entries(sections(), true)
}

impl SimCase for FamilyCase {
    fn to_json(&self) -> Value {
        FamilyCase::to_json(self)
    }

    fn dtype(&self) -> Elem {
        self.dtype
    }

    fn run(&self, tc: &Toolchain) -> Result<SimResult, SimError> {
        run_family(tc, self)
    }

    fn check(&self, expect: &Expect, r: &SimResult) -> Result<(), String> {
        if *expect != Expect::Golden {
            return Err(format!(
                "a family entry expects {expect:?}: only Golden and CompileError apply"
            ));
        }
        golden::check(self, r)?;
        let c = self;
        let p = c.ranks as i64;
        let want = p * c.blocks() * c.repeat as i64;
        let got = r.kernels.get(&c.kernel_symbol()).copied().unwrap_or(0);
        if got != want {
            return Err(format!(
                "{} started {got} blocks, expected P x B x repeat = {want} ({})",
                c.kernel_symbol(),
                r.message
            ));
        }
        if c.op.moves_payload() {
            // The stage step before every call and the record step after it.
            for k in ["family_stage", "family_record"] {
                let n = r.kernels.get(k).copied().unwrap_or(0);
                if n != p * c.repeat as i64 {
                    return Err(format!(
                        "{k} started {n} blocks, expected P x repeat = {}",
                        p * c.repeat as i64
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_the_slice_is_in_the_full_matrix() {
        let full = full();
        let mut names: Vec<&str> = full.iter().map(|e| e.name.as_str()).collect();
        names.sort();
        let n = names.len();
        names.dedup();
        assert_eq!(n, names.len(), "duplicate names");
        let ci = ci();
        assert_eq!(ci.len(), 116);
        for e in &ci {
            assert!(names.binary_search(&e.name.as_str()).is_ok(), "{}", e.name);
        }
    }

    #[test]
    fn every_collective_is_a_section_of_its_own_entries() {
        for op in FamilyOp::ALL {
            assert!(
                sections().iter().any(|s| s.name == op.name()),
                "{} has no section",
                op.name()
            );
        }
        for s in sections() {
            let (full, ci) = (s.full, s.ci);
            assert!(!full.is_empty() && !ci.is_empty(), "{}", s.name);
            if s.name != "extras" {
                for e in full.iter().chain(&ci) {
                    assert!(e.name.starts_with(&format!("{}:", s.name)), "{}", e.name);
                }
            }
        }
    }
}
