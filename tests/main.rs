//! pld's integration tests: one test binary, each file a module of it. One binary links MLIR once
//! (not once per file), and its tests share one pool of threads: a file whose last tests run
//! long no longer leaves the other core idle. Run one file's tests with its module path,
//! e.g. `cargo test --test integration bytecode::`.

mod common;
#[path = "conformance/shared.rs"]
mod shared;

mod bytecode;
mod contiguity;
mod device_conformance;
mod diagnostics_style;
mod docs_fresh;
mod embed;
mod examples;
mod generated_docs;
mod layers;
mod lit;
mod lsp;
mod operand_ranks;
mod orchestration_ops;
mod pass_registry;
mod plugin_artifacts;
mod reduce;
mod types;
