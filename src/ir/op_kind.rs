//! What an op is: [`OpKind`] (classified once per op class), the managed
//! collectives (the dialect's `Pld_CollectiveOp` trait), op names and handle keys.

use melior::ir::{
    ValueLike,
    operation::{OperationLike, OperationRef},
};

/// Whether `op` is a managed collective: the dialect says so (the ODS trait
/// `Pld_CollectiveOp`), so no Rust list of op names can drift from it.
pub fn is_collective_op(op: &OperationRef) -> bool {
    unsafe { crate::capi::pldOperationIsCollective(op.to_raw()) }
}

/// Checks an op-name table (what a body may hold, by name): every name maps
/// back to its kind through `from_name`, is listed once, and no collective op
/// is in it (a collective is lowered before any body reaches these lists).
#[cfg(test)]
pub fn assert_name_table<K: Copy + PartialEq + std::fmt::Debug>(
    table: &[(&str, K)],
    from_name: impl Fn(&str) -> Option<K>,
) {
    for (i, (name, kind)) in table.iter().enumerate() {
        assert_eq!(from_name(name), Some(*kind), "{name}");
        assert!(
            table[..i].iter().all(|(n, _)| n != name),
            "{name} listed twice"
        );
    }
    for name in collective_op_names(&crate::test_context()) {
        assert_eq!(from_name(&name), None, "{name}");
    }
}

/// The names of every managed collective op registered in `context` (the ops
/// with the ODS trait `Pld_CollectiveOp`), in name order (the variant table's
/// test checks its rows against them; `pld::collective_op_names` for users).
pub fn collective_op_names(context: &melior::Context) -> Vec<String> {
    unsafe extern "C" fn push(text: mlir_sys::MlirStringRef, data: *mut std::ffi::c_void) {
        let names = unsafe { &mut *(data as *mut Vec<String>) };
        let bytes = unsafe { std::slice::from_raw_parts(text.data as *const u8, text.length) };
        names.push(String::from_utf8_lossy(bytes).into_owned());
    }
    let mut names: Vec<String> = Vec::new();
    unsafe {
        crate::capi::pldCollectiveOpNames(
            context.to_raw(),
            Some(push),
            &mut names as *mut Vec<String> as *mut std::ffi::c_void,
        );
    }
    names
}

/// An op's name as a `String` (for messages; hot paths classify ops with
/// [`op_kind`] instead).
pub fn op_name(op: &OperationRef) -> String {
    op.name()
        .as_string_ref()
        .as_str()
        .unwrap_or("?")
        .to_string()
}

/// The ops the passes tell apart. [`op_kind`] classifies an op by its op
/// class's TypeID (one C call and a lookup; the name is read once per class,
/// not per op).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum OpKind {
    Call,
    Submit,
    HostDispatch,
    /// A managed collective ([`is_collective_op`]).
    Collective,
    Func,
    Module,
    Return,
    ScfFor,
    ScfWhile,
    ScfIf,
    ScfYield,
    ScfCondition,
    /// `arith.select` (canonicalize folds an `scf.if` that only yields
    /// outer values into one).
    Select,
    CfBr,
    CfCondBr,
    CfSwitch,
    Cast,
    Reshape,
    View,
    SetValidshape,
    Slice,
    Transpose,
    Assemble,
    Write,
    Create,
    Window,
    PutRows,
    Notify,
    Wait,
    Other,
}

impl OpKind {
    /// Every kind, by discriminant.
    const ALL: [OpKind; 30] = [
        Self::Call,
        Self::Submit,
        Self::HostDispatch,
        Self::Collective,
        Self::Func,
        Self::Module,
        Self::Return,
        Self::ScfFor,
        Self::ScfWhile,
        Self::ScfIf,
        Self::ScfYield,
        Self::ScfCondition,
        Self::Select,
        Self::CfBr,
        Self::CfCondBr,
        Self::CfSwitch,
        Self::Cast,
        Self::Reshape,
        Self::View,
        Self::SetValidshape,
        Self::Slice,
        Self::Transpose,
        Self::Assemble,
        Self::Write,
        Self::Create,
        Self::Window,
        Self::PutRows,
        Self::Notify,
        Self::Wait,
        Self::Other,
    ];

    pub fn from_name(name: &str) -> Self {
        match name {
            "func.call" => Self::Call,
            "pl.submit" => Self::Submit,
            "pld.host.dispatch" => Self::HostDispatch,
            "func.func" => Self::Func,
            "builtin.module" => Self::Module,
            "func.return" => Self::Return,
            "scf.for" => Self::ScfFor,
            "scf.while" => Self::ScfWhile,
            "scf.if" => Self::ScfIf,
            "scf.yield" => Self::ScfYield,
            "scf.condition" => Self::ScfCondition,
            "arith.select" => Self::Select,
            "cf.br" => Self::CfBr,
            "cf.cond_br" => Self::CfCondBr,
            "cf.switch" => Self::CfSwitch,
            "pl.cast" => Self::Cast,
            "pl.tensor.reshape" => Self::Reshape,
            "pl.tensor.view" => Self::View,
            "pl.tensor.set_validshape" => Self::SetValidshape,
            "pl.tensor.slice" => Self::Slice,
            "pl.tensor.transpose" => Self::Transpose,
            "pl.tensor.assemble" => Self::Assemble,
            "pl.tensor.write" => Self::Write,
            "pl.tensor.create" => Self::Create,
            "pld.window" => Self::Window,
            "pld.comm.put_rows" => Self::PutRows,
            "pld.comm.notify" => Self::Notify,
            "pld.comm.wait" => Self::Wait,
            _ => Self::Other,
        }
    }

    /// `func.call`, `pl.submit`, `pld.host.dispatch` ([`CALL_OPS`]).
    pub fn is_call(self) -> bool {
        matches!(self, Self::Call | Self::Submit | Self::HostDispatch)
    }

    /// A managed collective ([`is_collective_op`]).
    pub fn is_collective(self) -> bool {
        self == Self::Collective
    }

    /// A nested scope ([`NESTED_SCOPES`]).
    pub fn is_nested_scope(self) -> bool {
        matches!(self, Self::Module | Self::Func)
    }
}

/// Op kinds by op-class TypeID (process-wide, never reused): a lock-free
/// direct-mapped cache, each slot one word holding the TypeID's address
/// (48 bits) and the kind + 1 (the top byte); a miss, or a slot another
/// class took, reads the name.
static KINDS: [std::sync::atomic::AtomicU64; 256] =
    [const { std::sync::atomic::AtomicU64::new(0) }; 256];
const ADDRESS: u64 = (1 << 56) - 1;

/// The kind of `op`: by its TypeID when registered (cached), else by name.
pub fn op_kind(op: &OperationRef) -> OpKind {
    use std::sync::atomic::Ordering::Relaxed;
    let raw = op.to_raw();
    let id = unsafe { mlir_sys::mlirOperationGetTypeID(raw) }.ptr as u64;
    let by_name = || {
        let name = unsafe { mlir_sys::mlirIdentifierStr(mlir_sys::mlirOperationGetName(raw)) };
        let bytes = unsafe { std::slice::from_raw_parts(name.data as *const u8, name.length) };
        match std::str::from_utf8(bytes).map_or(OpKind::Other, OpKind::from_name) {
            // The collectives are the dialect's to name (its ODS trait).
            OpKind::Other if unsafe { crate::capi::pldOperationIsCollective(raw) } => {
                OpKind::Collective
            }
            kind => kind,
        }
    };
    if id == 0 || id & !ADDRESS != 0 {
        return by_name();
    }
    let slot = &KINDS[((id >> 3) ^ (id >> 11)) as usize & 255];
    let word = slot.load(Relaxed);
    if word & ADDRESS == id && word >> 56 != 0 {
        return OpKind::ALL[(word >> 56) as usize - 1];
    }
    let kind = by_name();
    slot.store(id | ((kind as u64 + 1) << 56), Relaxed);
    kind
}

/// A value's identity as a map key (its handle's address; the IR outlives
/// every pass step). [`op_id`] is an op's; `op_from_id` turns one back.
pub fn value_id<'c>(value: impl ValueLike<'c>) -> usize {
    value.to_raw().ptr as usize
}

/// An op's identity as a map key (its handle's address).
pub fn op_id(op: &OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// Re-borrows an op from its raw handle (the IR outlives every pass step).
pub fn reborrow_op<'c, 'a>(op: &OperationRef<'c, 'a>) -> OperationRef<'c, 'a> {
    unsafe { OperationRef::from_raw(op.to_raw()) }
}

#[cfg(test)]
mod op_kind_tests {
    use super::OpKind;

    #[test]
    fn every_kind_is_listed_at_its_discriminant() {
        for (i, kind) in OpKind::ALL.iter().enumerate() {
            assert_eq!(*kind as usize, i);
        }
        assert_eq!(OpKind::ALL.len(), OpKind::Other as usize + 1);
    }
}
