//! pld-sim for the collective family (docs/sim.md, "The collective family"): allreduce (mesh and
//! ring), reduce_scatter, allgather, broadcast, all_to_all and barrier, on the CHIP and the HOST
//! rail, kept apart from the all_to_all_v paths.
//!
//! - [`ops`]: each op in one file (its case rules, its meaning, its matrix rows);
//! - [`case`]: the case JSON (`"op"` one of the ops' names) and its validation;
//! - [`module`]: the CHIP / HOST module written for a case;
//! - [`run`]: build (the shared toolchain and cache), the family driver, the result;
//! - [`golden`]: the independent expected outcome (family spec, "Meaning");
//! - [`bench`](mod@bench): `pld-sim --bench --family`, each op's program timed on the engine;
//! - [`matrix`]: the full matrix, the CI slice and the verdicts.

pub mod bench;
pub mod case;
pub mod golden;
pub mod matrix;
pub mod module;
pub mod ops;
pub mod run;
