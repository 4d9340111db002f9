//! The simulator's error type: why pld-sim could not give a result. A case's
//! own outcome (a compile error, refused arguments) is a
//! [`SimResult`](crate::result::SimResult), never an error.

use thiserror::Error;

/// What went wrong, by kind; the message is the one-line text pld-sim prints.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SimError {
    /// The case JSON is malformed or breaks a rule of docs/sim.md (pld-sim exits 2).
    #[error("{0}")]
    InvalidCase(String),
    /// The driver ran but did not report what it must (a crash, a bad line).
    #[error("{0}")]
    Driver(String),
    /// A result JSON that does not parse.
    #[error("{0}")]
    BadResult(String),
    /// A result that disagrees with the independent golden or a matrix entry's expectation.
    #[error("{0}")]
    Mismatch(String),
    /// The output could not be written.
    #[error("{0}")]
    Output(String),
}

impl SimError {
    /// pld-sim's exit status for this error: 2 for a bad case, else 1.
    pub fn exit_code(&self) -> u8 {
        match self {
            SimError::InvalidCase(_) => 2,
            _ => 1,
        }
    }
}
