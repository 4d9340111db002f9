//! Located diagnostics through MLIR's diagnostic engine (so
//! `--verify-diagnostics` and FileCheck see `file:line:col: error:`).

use melior::ir::Location;

/// The one way a diagnostic leaves pld (`pldEmitDiagnostic`): an error (0),
/// warning (1) or remark (2) at `loc`, with its notes in order.
fn emit(severity: i32, loc: Location, message: &str, notes: &[(Location, &str)]) {
    let text = |s: &str| mlir_sys::MlirStringRef {
        data: s.as_ptr() as *const _,
        length: s.len(),
    };
    let locs: Vec<mlir_sys::MlirLocation> = notes.iter().map(|(l, _)| l.to_raw()).collect();
    let texts: Vec<mlir_sys::MlirStringRef> = notes.iter().map(|(_, n)| text(n)).collect();
    unsafe {
        crate::capi::pldEmitDiagnostic(
            loc.to_raw(),
            severity,
            text(message),
            notes.len() as isize,
            locs.as_ptr(),
            texts.as_ptr(),
        );
    }
}

/// `loc("file":7:8)` as `file:7:8` (the form pld-opt prints); other
/// locations as their text without the `loc(...)` wrapper.
pub fn location_text(loc: Location) -> String {
    let text = loc.to_string();
    let inner = text
        .strip_prefix("loc(")
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(&text);
    inner.replace('"', "")
}

/// An error at `loc`.
pub fn error(loc: Location, message: &str) {
    emit(0, loc, message, &[]);
}

/// An error at `loc` with one attached note.
pub fn error_with_note(loc: Location, message: &str, note_loc: Location, note: &str) {
    emit(0, loc, message, &[(note_loc, note)]);
}

/// A remark at `loc`.
pub fn remark(loc: Location, message: &str) {
    emit(2, loc, message, &[]);
}

/// An error at `loc` with several attached notes, in order.
pub fn error_with_notes(loc: Location, message: &str, notes: &[(Location, String)]) {
    let notes: Vec<(Location, &str)> = notes.iter().map(|(l, n)| (*l, n.as_str())).collect();
    emit(0, loc, message, &notes);
}

// ---- The one diagnostic voice (docs/diagnostics.md) ----------------------
//
// Every diagnostic about an op starts with MLIR's verifier prefix
// `'<op name>' op ` (what `emitOpError` prints), passes and codegen included.
// The prefix is built here, once; callers pass only the rest (subject, rule,
// `, got <value>`). Message templates are written inline at the call or with
// [`msg!`] so tests/diagnostics_style.rs can find them and check each against
// the inventory in docs/diagnostics.md.

/// A diagnostic message template (the text of a message or note that is not
/// written inline at a `diag::` call): `format!`, marked so the style test
/// finds the template.
macro_rules! msg {
    ($($arg:tt)*) => { format!($($arg)*) };
}
pub(crate) use msg;

/// `'<op name>' op <message>`: the prefix of every diagnostic about an op.
pub fn op_message(op_name: &str, message: &str) -> String {
    format!("'{op_name}' op {message}")
}

fn name_of<'c: 'a, 'a>(op: &impl melior::ir::operation::OperationLike<'c, 'a>) -> String {
    op.name()
        .as_string_ref()
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|_| "<invalid op name>".into())
}

/// An error about `op`, at its location: `'<op name>' op <message>`.
pub fn op_error<'c: 'a, 'a>(op: &impl melior::ir::operation::OperationLike<'c, 'a>, message: &str) {
    error(op.location(), &op_message(&name_of(op), message));
}

/// An error about `op` with one attached note.
pub fn op_error_with_note<'c: 'a, 'a>(
    op: &impl melior::ir::operation::OperationLike<'c, 'a>,
    message: &str,
    note_loc: Location,
    note: &str,
) {
    error_with_note(
        op.location(),
        &op_message(&name_of(op), message),
        note_loc,
        note,
    );
}

/// An error about `op` with several attached notes, in order.
pub fn op_error_with_notes<'c: 'a, 'a>(
    op: &impl melior::ir::operation::OperationLike<'c, 'a>,
    message: &str,
    notes: &[(Location<'c>, String)],
) {
    error_with_notes(op.location(), &op_message(&name_of(op), message), notes);
}

/// A remark about `op`, at its location: `'<op name>' op <message>`.
pub fn op_remark<'c: 'a, 'a>(
    op: &impl melior::ir::operation::OperationLike<'c, 'a>,
    message: &str,
) {
    remark(op.location(), &op_message(&name_of(op), message));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_locations_print_as_pld_opt_prints_them() {
        let context = crate::test_context();
        let loc = Location::new(&context, "in.mlir", 7, 8);
        assert_eq!(location_text(loc), "in.mlir:7:8");
        assert_eq!(location_text(Location::unknown(&context)), "unknown");
    }
}
