//! Located diagnostics through MLIR's diagnostic engine (so
//! `--verify-diagnostics` and FileCheck see `file:line:col: error:`).

use crate::bridge::{LocationHandle, ffi};
use melior::ir::Location;

fn emit(severity: u8, loc: Location, message: &str, note: Option<(Location, &str)>) {
    let (note_loc, note_text) = note.unwrap_or((loc, ""));
    ffi::emit_diagnostic(
        LocationHandle(loc.to_raw()),
        severity,
        message,
        LocationHandle(note_loc.to_raw()),
        note_text,
    );
}

/// An error at `loc`.
pub fn error(loc: Location, message: &str) {
    emit(0, loc, message, None);
}

/// An error at `loc` with one attached note.
pub fn error_with_note(loc: Location, message: &str, note_loc: Location, note: &str) {
    emit(0, loc, message, Some((note_loc, note)));
}

/// A remark at `loc`.
pub fn remark(loc: Location, message: &str) {
    emit(2, loc, message, None);
}
