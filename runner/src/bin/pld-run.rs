//! pld-run: runs one function of a pld module on the CPU host runtime and checks its outputs
//! (docs/running.md; `pld-run --help`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    ExitCode::from(pld_run::main(&args))
}
