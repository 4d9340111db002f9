//! pld-run's integration tests: one test binary, each file a module of it (why: tests/main.rs).
//! One file's tests: `cargo test -p pld-run --test integration a2a3sim::`.

mod common;
#[path = "../../tests/conformance/shared.rs"]
mod shared;

mod a2a3sim;
mod examples;
mod run;
