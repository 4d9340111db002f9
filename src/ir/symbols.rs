//! MLIR's `SymbolTable` over the C API, and structural op equality.

use melior::ir::operation::{Operation, OperationLike, OperationRef};

/// MLIR's `SymbolTable` of a symbol-table op (a `builtin.module`): one build,
/// then lookups by name without scanning, and insertions that keep it current.
pub struct SymbolTable<'c, 'a> {
    raw: mlir_sys::MlirSymbolTable,
    _ops: std::marker::PhantomData<OperationRef<'c, 'a>>,
}

impl<'c, 'a> SymbolTable<'c, 'a> {
    /// The table of `op`, or `None` when `op` is not a symbol table.
    pub fn of(op: &OperationRef<'c, 'a>) -> Option<Self> {
        let raw = unsafe { mlir_sys::mlirSymbolTableCreate(op.to_raw()) };
        (!raw.ptr.is_null()).then_some(Self {
            raw,
            _ops: std::marker::PhantomData,
        })
    }

    /// The symbol named `name` directly in the table's op.
    pub fn lookup(&self, name: &str) -> Option<OperationRef<'c, 'a>> {
        let name = mlir_sys::MlirStringRef {
            data: name.as_ptr() as *const _,
            length: name.len(),
        };
        let raw = unsafe { mlir_sys::mlirSymbolTableLookup(self.raw, name) };
        (!raw.ptr.is_null()).then(|| unsafe { OperationRef::from_raw(raw) })
    }

    /// Appends `op` (a symbol whose name the caller has checked is free) to the
    /// table's body and registers it.
    pub fn insert(&self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        let raw = op.into_raw();
        // With no parent yet, MLIR's `SymbolTable::insert` places it at the
        // end of the body (before a terminator, if any).
        unsafe { mlir_sys::mlirSymbolTableInsert(self.raw, raw) };
        unsafe { OperationRef::from_raw(raw) }
    }
}

impl Drop for SymbolTable<'_, '_> {
    fn drop(&mut self) {
        unsafe { mlir_sys::mlirSymbolTableDestroy(self.raw) }
    }
}

/// Whether two ops are structurally equal (attributes, types, regions),
/// locations aside (MLIR's `OperationEquivalence`).
pub fn structurally_equal(a: &OperationRef, b: &Operation) -> bool {
    unsafe { crate::capi::pldOperationEquivalent(a.to_raw(), b.to_raw()) }
}
