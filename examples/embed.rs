//! Embedding pld in a Rust program: register the dialects and passes, parse
//! a module, run the CHIP-rail lowering through melior's PassManager, verify
//! and print the result.
//!
//! ```sh
//! cargo run --example embed                      # examples/chip_pipeline.mlir
//! cargo run --example embed -- other.mlir 'builtin.module(lower-l2-tensor-collectives)'
//! ```
//!
//! See docs/embedding.md for the API this uses.

use melior::{ir::operation::OperationLike, pass::PassManager, utility::parse_pass_pipeline};
use std::{path::PathBuf, process::ExitCode};

const DEFAULT_PIPELINE: &str = "builtin.module(lower-l2-tensor-collectives)";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let input = args.next().map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/chip_pipeline.mlir")
    });
    let pipeline = args.next().unwrap_or_else(|| DEFAULT_PIPELINE.to_string());
    match run(&input, &pipeline) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("embed: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Parses `input`, runs `pipeline` on it and returns the printed result.
/// Located diagnostics (parse, verifier and pass errors, with their notes) go
/// to stderr as `file:line:col: error: ...`, the way pld-opt prints them.
fn run(input: &std::path::Path, pipeline: &str) -> Result<String, String> {
    // 1. A context with every dialect pld's IR uses (pl, pld, func, arith,
    //    scf, cf) and pld's diagnostic printer.
    let context = pld::create_context();

    // 2. The pld passes, by flag name, in MLIR's global pass registry.
    pld::register_passes();

    // 3. Parse the file (its locations name it).
    let mut module = pld::parse_file(&context, input).map_err(|e| e.to_string())?;

    // 4. Build the pass manager from pipeline text and run it (the pass
    //    manager verifies the IR after each pass).
    let pass_manager = PassManager::new(&context);
    parse_pass_pipeline(pass_manager.as_operation_pass_manager(), pipeline)
        .map_err(|e| format!("bad pipeline `{pipeline}`: {e}"))?;
    pass_manager
        .run(&mut module)
        .map_err(|_| format!("pipeline `{pipeline}` failed"))?;

    // 5. Verify and print.
    if !module.as_operation().verify() {
        return Err("the result does not verify".into());
    }
    Ok(format!("{}\n", module.as_operation()))
}
