//! The pld-sim case matrix of the all_to_all_v rows (`pld-sim --matrix full|ci`,
//! sim/tests/sim.rs) as one table, [`SECTIONS`]: each section names what it covers and gives
//! its entries in the full matrix and in the CI slice; [`judge`] says how each entry's result is
//! judged. The collective family's matrix is [`crate::family::matrix`].

mod domains;
mod extras;
mod grid;
mod indexed;
mod judge;
mod layers;
mod patterns;
mod runtime;

pub use domains::{domains_case, domains_entries};
pub use extras::extras;
pub use grid::{LS, PS, case};
pub use indexed::{indexed_case, indexed_extras, indexed_full, indexed_ls};
pub use judge::judge;
pub use layers::LAYERS;
pub use patterns::{IndexPattern, Pattern, counts, index_lists};
pub use runtime::{RUNTIME_PS, runtime_case, runtime_extras, runtime_ls};

use crate::SimError;
use crate::case::{Case, Domain, Elem, Op, Operand};
use crate::golden;
use crate::result::SimResult;
use crate::run::{blocks_started, case_kernel};
use grid::{SHAPES, kind_entry};

/// What an entry must produce.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// status ok, and the golden (targets, recv_counts, zero signal); the collective ran
    /// P × B × repeat × layers blocks, stage_step and consume_step P × repeat × layers.
    Golden,
    /// compile_error whose message contains the text.
    CompileError(&'static str),
    /// fatal / invalid_args with the code, and nothing of the collective or after it ran:
    /// zero targets, recv_counts and signals, no collective or consume_step block started.
    Refused {
        /// `fatal` or `invalid_args`.
        status: &'static str,
        /// The runtime's error code.
        code: i64,
    },
    /// A `domains` case: status ok, every domain's windows equal its own exchange's golden on its
    /// devices and are untouched (zero) on every other device of the world
    /// ([`golden::check_domains`]); the collective ran Σ N·B_N × repeat × layers blocks over the
    /// domains, stage_step and consume_step Σ N × repeat × layers.
    Domains,
}

/// One matrix entry.
#[derive(Clone, Debug)]
pub struct Entry {
    /// A unique name (`--filter` matches it).
    pub name: String,
    /// The case run.
    pub case: Case,
    /// How its result is judged.
    pub expect: Expect,
}

/// One section of the matrix: a kind of case and its entries.
pub struct Section {
    /// What the section covers (entry names of most sections start with it).
    pub name: &'static str,
    /// Its entries in the full matrix (`pld-sim --matrix full`).
    pub full: fn() -> Vec<Entry>,
    /// Its entries in the CI slice (`pld-sim --matrix ci`, sim/tests/sim.rs).
    pub ci: fn() -> Vec<Entry>,
}

/// The matrix, section by section, in the order entries run.
pub const SECTIONS: [Section; 9] = [
    Section {
        name: "grid",
        full: grid::grid_full,
        ci: grid::grid_ci,
    },
    Section {
        name: "layers",
        full: layers::layers_full,
        ci: layers::layers_ci,
    },
    Section {
        name: "runtime",
        full: runtime::runtime_full,
        ci: runtime::runtime_ci,
    },
    Section {
        name: "runtime_extras",
        full: runtime_extras,
        ci: runtime_extras,
    },
    Section {
        name: "extras",
        full: || extras(100),
        ci: || extras(100),
    },
    Section {
        name: "indexed",
        full: indexed_full,
        ci: indexed::indexed_ci,
    },
    Section {
        name: "indexed_extras",
        full: || indexed_extras(100),
        ci: || indexed_extras(20),
    },
    Section {
        name: "domains",
        full: || domains_entries(true),
        ci: || domains_entries(false),
    },
    Section {
        name: "repeat_max",
        full: grid::repeat_max,
        ci: Vec::new,
    },
];

/// The full matrix: every section's full entries.
pub fn full() -> Vec<Entry> {
    SECTIONS.iter().flat_map(|s| (s.full)()).collect()
}

/// The CI slice: every section's CI entries.
pub fn ci_slice() -> Vec<Entry> {
    SECTIONS.iter().flat_map(|s| (s.ci)()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrix_sizes() {
        let extras = extras(100).len() + runtime_extras().len() + indexed_extras(100).len();
        assert_eq!(domains_entries(false).len(), 3);
        assert_eq!(domains_entries(true).len(), 5);
        for e in domains_entries(true) {
            assert_eq!(
                Case::from_value(&e.case.to_json()).unwrap(),
                e.case,
                "{}",
                e.name
            );
        }
        assert_eq!(runtime_extras().len(), 9);
        assert_eq!(indexed_extras(100).len(), 16);
        assert_eq!(full().len(), 360 + 72 + 50 + 1320 + extras + 5 + 1);
        let slice = ci_slice();
        assert_eq!(slice.len(), 30 + 3 + 4 + 10 + extras + 3);
        // Every layers × P × dtype × pattern once in the full matrix; the slice has each N.
        let looped: Vec<_> = full()
            .into_iter()
            .filter(|e| e.name.starts_with("layers:"))
            .collect();
        assert_eq!(looped.len(), 72);
        for n in LAYERS {
            for p in [2, 4] {
                for pat in Pattern::ALL {
                    for dtype in [Elem::F32, Elem::I8] {
                        assert_eq!(
                            looped
                                .iter()
                                .filter(|e| e.case.layers == n
                                    && e.case.ranks == p
                                    && e.case.dtype == dtype
                                    && e.name.contains(&format!("_{}_", pat.name())))
                                .count(),
                            1
                        );
                    }
                }
            }
            assert!(
                slice
                    .iter()
                    .any(|e| e.name.starts_with("layers:") && e.case.layers == n),
                "layers {n}"
            );
        }
        // The slice covers every P, L, dtype and pattern.
        for p in PS {
            assert!(slice.iter().any(|e| e.case.ranks == p));
        }
        for l in LS {
            assert!(slice.iter().any(|e| e.case.core_num == l), "L={l}");
        }
        for pat in Pattern::ALL {
            assert!(
                slice
                    .iter()
                    .any(|e| e.name.contains(&format!("_{}_", pat.name()))),
                "{}",
                pat.name()
            );
        }
        // Names are unique.
        let names: std::collections::BTreeSet<_> = full().into_iter().map(|e| e.name).collect();
        assert_eq!(names.len(), full().len());
    }
}
