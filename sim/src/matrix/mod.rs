//! The pld-sim case matrix of the all_to_all_v rows (`pld-sim --matrix full|ci`,
//! sim/tests/sim.rs) as one table, [`sections`]: each section names what it covers and gives
//! its entries in the full matrix and in the CI slice; `judge.rs` is the all_to_all_v case's
//! verdict ([`suite::SimCase::check`]). The entries, sections and verdict model are
//! [`crate::suite`]'s, shared with the collective family's matrix, [`crate::family::matrix`].

mod domains;
mod extras;
mod grid;
mod indexed;
mod judge;
mod layers;
mod patterns;
mod raw;
mod runtime;

pub use crate::suite::{Expect, judge};
pub use domains::{domains_case, domains_entries};
pub use extras::extras;
pub use grid::{LS, PS, case};
pub use indexed::{indexed_case, indexed_extras, indexed_full, indexed_ls};
pub use layers::LAYERS;
pub use patterns::{IndexPattern, Pattern, counts, index_lists};
pub use runtime::{RUNTIME_PS, runtime_case, runtime_extras, runtime_ls};

use crate::SimError;
use crate::case::{Case, Domain, Elem, Op, Operand};
use crate::golden;
use crate::suite::{self, Section};
use grid::{SHAPES, kind_entry};

/// One all_to_all_v matrix entry.
pub type Entry = suite::Entry<Case>;

/// The matrix, section by section, in the order entries run.
pub fn sections() -> Vec<Section<Case>> {
    let section = |name, full: Vec<Entry>, ci: Vec<Entry>| Section { name, full, ci };
    vec![
        section("grid", grid::grid_full(), grid::grid_ci()),
        section("layers", layers::layers_full(), layers::layers_ci()),
        section("runtime", runtime::runtime_full(), runtime::runtime_ci()),
        section("runtime_extras", runtime_extras(), runtime_extras()),
        section("extras", extras(100), extras(100)),
        section("indexed", indexed_full(), indexed::indexed_ci()),
        section("indexed_extras", indexed_extras(100), indexed_extras(20)),
        section("domains", domains_entries(true), domains_entries(false)),
        section("raw", raw::raw_full(), raw::raw_ci()),
        section("repeat_max", grid::repeat_max(), Vec::new()),
    ]
}

/// The full matrix (`pld-sim --matrix full`): every section's full entries.
pub fn full() -> Vec<Entry> {
    suite::entries(sections(), false)
}

/// The CI slice (`pld-sim --matrix ci`, sim/tests/sim.rs): every section's CI entries.
pub fn ci_slice() -> Vec<Entry> {
    suite::entries(sections(), true)
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
        assert_eq!(indexed_extras(100).len(), 18);
        // The raw launches: all_to_all_v's grid (5 P x 6 L, the CI slice 2 L) and 21 extras,
        // the indexed op's grid (22 (P, L), the CI slice 2 L per P) and 7 extras.
        assert_eq!(raw::raw_full().len(), 30 + 21 + 22 + 7);
        assert_eq!(raw::raw_ci().len(), 10 + 21 + 10 + 7);
        assert_eq!(full().len(), 360 + 72 + 50 + 1320 + extras + 5 + 1 + 80);
        let slice = ci_slice();
        assert_eq!(slice.len(), 30 + 3 + 4 + 10 + extras + 3 + 48);
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
