//! pld-rust-driver: parse a file, run a pipeline (default
//! `pld-lower-collectives`) and print the module; errors print as pld-opt's
//! (`file:line:col: error: ...`, then each note), exit code 1.
//!
//! ```sh
//! cargo run -p pld-rust-driver -- in.mlir ['builtin.module(pass{option=value})']
//! ```

use melior::{pass::PassManager, utility::parse_pass_pipeline};
use std::{path::Path, process::ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(input), pipeline) = (args.first(), args.get(1)) else {
        eprintln!("usage: pld-rust-driver in.mlir ['builtin.module(...)']");
        return ExitCode::from(2);
    };
    let pipeline = pipeline.map_or("builtin.module(pld-lower-collectives)", String::as_str);
    match run(Path::new(input), pipeline) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("pld-rust-driver: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(input: &Path, pipeline: &str) -> Result<String, String> {
    let context = pld::create_context(); // every dialect pld's IR uses + pld's printer
    pld::register_passes();
    let mut module = pld::parse_file(&context, input).map_err(|e| e.to_string())?;
    let pm = PassManager::new(&context);
    parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline).map_err(|e| e.to_string())?;
    pm.run(&mut module)
        .map_err(|_| format!("{pipeline} failed"))?; // errors already printed
    Ok(module.as_operation().to_string())
}
