//! pld-sim's integration tests: one test binary, each file a module of it (why: tests/main.rs).
//! One file's tests: `cargo test -p pld-sim --test integration case::`.

mod common;

mod case;
mod golden;
mod independence;
mod sim;
mod sim_family;
mod sim_procs;
