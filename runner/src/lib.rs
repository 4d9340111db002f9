//! pld-run: runs one function of a pld module on the CPU host runtime and checks its outputs,
//! like `iree-run-module` (docs/running.md). The `pld-run` binary is a thin CLI over
//! [`main`]. This crate is the one executor: pld-sim (the `sim/` crate) builds and runs its
//! cases through [`build`] and [`engine`], and nothing here knows of a case, a golden or a
//! matrix (the crate graph keeps it so).
//!
//! - [`options`]: the command line and how `--input`s bind the entry's parameters;
//! - [`manifest`]: the entry's parameters, windows and checks, from the tree's manifest.json
//!   and the names the user's text gives them;
//! - [`value`]: tensors, literals, `.npy` / `.npz` (through `npyz`), comparisons;
//! - [`build`]: lowering, rendering and compiling, cached by content;
//! - [`engine`]: one run of the engine (`runner/driver/driver.cpp`, the one C++ main
//!   over the runtime): its spec and its report;
//! - [`exec`]: one pld-run: the build, the engine run, the printed report and the checks;
//! - [`toolchain`]: where the tools, the runtime and the content-hash cache are (pld-sim's
//!   cache too), and the cache's keys and locks;
//! - [`elem`]: the element types (pld-run's tensors, pld-sim's case `dtype`).
#![deny(missing_docs)]

pub mod build;
pub mod elem;
pub mod engine;
pub mod exec;
pub mod manifest;
pub mod options;
pub mod toolchain;
pub mod value;

use crate::toolchain::BuildError;

/// Why pld-run stopped before (or instead of) reporting a run.
#[derive(Debug)]
pub enum RunError {
    /// A malformed command line or input (exit 2).
    Usage(String),
    /// pld-opt or pld-translate rejected the module (exit 3, their diagnostics).
    Compile {
        /// The tool's exit code.
        code: i64,
        /// Its diagnostics.
        message: String,
    },
    /// A missing tool, an I/O failure, the generated C++ not compiling, the driver crashing
    /// (exit 3).
    Tool(String),
}

impl RunError {
    /// A toolchain error.
    pub fn from_build(e: BuildError) -> RunError {
        match e {
            BuildError::Compile { code, message } => RunError::Compile { code, message },
            BuildError::Internal(m) => RunError::Tool(m),
        }
    }

    /// The process exit code.
    pub fn exit_code(&self) -> u8 {
        match self {
            RunError::Usage(_) => 2,
            RunError::Compile { .. } | RunError::Tool(_) => 3,
        }
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Usage(m) | RunError::Tool(m) => write!(f, "{m}"),
            RunError::Compile { code, message } => {
                write!(f, "the module did not compile (exit {code}):\n{message}")
            }
        }
    }
}

impl From<std::io::Error> for RunError {
    fn from(e: std::io::Error) -> RunError {
        RunError::Tool(e.to_string())
    }
}

/// Runs pld-run with `args` (without the program name); returns the exit code.
pub fn main(args: &[String]) -> u8 {
    let opts = match options::Options::parse(args) {
        Ok(Some(o)) => o,
        Ok(None) => {
            println!("{}", options::USAGE);
            return 0;
        }
        Err(e) => {
            eprintln!("pld-run: {e}\n{}", options::USAGE_SHORT);
            return e.exit_code();
        }
    };
    match exec::run(&opts) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("pld-run: {e}");
            e.exit_code()
        }
    }
}
