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

mod notes_ffi {
    use mlir_sys::{MlirLocation, MlirStringRef};
    unsafe extern "C" {
        // dialect/lib/CAPI.cpp (pld-c/Dialects.h)
        pub fn pldEmitErrorWithNotes(
            loc: MlirLocation,
            message: MlirStringRef,
            num_notes: isize,
            note_locs: *const MlirLocation,
            notes: *const MlirStringRef,
        );
    }
}

/// An error at `loc` with several attached notes, in order.
pub fn error_with_notes(loc: Location, message: &str, notes: &[(Location, String)]) {
    let text = |s: &str| mlir_sys::MlirStringRef { data: s.as_ptr() as *const _, length: s.len() };
    let locs: Vec<mlir_sys::MlirLocation> = notes.iter().map(|(l, _)| l.to_raw()).collect();
    let texts: Vec<mlir_sys::MlirStringRef> = notes.iter().map(|(_, n)| text(n)).collect();
    unsafe {
        notes_ffi::pldEmitErrorWithNotes(loc.to_raw(), text(message), notes.len() as isize, locs.as_ptr(), texts.as_ptr());
    }
}
