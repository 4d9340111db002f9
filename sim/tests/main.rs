//! pld-sim's integration tests: one test binary, each file a module of it. One binary links MLIR once
//! (not once per file), and its tests share one pool of threads: a file whose last tests run
//! long no longer leaves the other core idle. Run one file's tests with its module path,
//! e.g. `cargo test -p pld-sim --test integration case::`.

mod common;

mod case;
mod golden;
mod independence;
mod sim;
mod sim_family;
mod sim_procs;
