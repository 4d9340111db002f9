//! The dialect library's C API (`dialect/include/pld-c/Dialects.h`).
#![allow(non_snake_case)]

use mlir_sys::{MlirDialectHandle, MlirOperation, MlirType};

/// `PldTensorLikeInfo`: every parameter of a tensor-like type in one call.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PldTensorLikeInfo {
    /// 0: not tensor-like (nothing else set), 1: `!pl.tensor`, 2: `!pld.dtensor`.
    pub kind: std::ffi::c_int,
    /// -1 when unranked.
    pub rank: isize,
    /// `rank` dims in the type's uniqued storage; `i64::MIN` for `?`.
    pub shape: *const i64,
    pub element_type: MlirType,
    pub layout: u32,
    pub has_valid: bool,
    pub has_strides: bool,
    /// `rank` explicit strides in the type's uniqued storage; null when packed.
    pub strides: *const i64,
}

unsafe extern "C" {
    pub fn mlirGetDialectHandle__pl__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__pld__() -> MlirDialectHandle;
    pub fn pldTypeIsCommCtx(ty: MlirType) -> bool;
    pub fn pldCommCtxTypeGet(ctx: mlir_sys::MlirContext) -> MlirType;
    pub fn pldTypeGetTensorLikeKind(ty: MlirType) -> std::ffi::c_int;
    pub fn pldTypeGetTensorLikeInfo(ty: MlirType) -> PldTensorLikeInfo;
    pub fn pldOperationRebuildWithOperands(
        op: MlirOperation,
        index: isize,
        n: isize,
        values: *const mlir_sys::MlirValue,
    ) -> MlirOperation;
    pub fn pldOperationSetDiscardableAttrs(
        op: MlirOperation,
        n: isize,
        names: *const mlir_sys::MlirIdentifier,
        values: *const mlir_sys::MlirAttribute,
    );
    pub fn pldOperationGetDiscardableAttrDictionary(op: MlirOperation) -> mlir_sys::MlirAttribute;
    pub fn pldOperationSetDiscardableAttrDictionary(
        op: MlirOperation,
        dictionary: mlir_sys::MlirAttribute,
    );
    pub fn pldDictionaryAttrWith(
        dictionary: mlir_sys::MlirAttribute,
        n: isize,
        names: *const mlir_sys::MlirIdentifier,
        values: *const mlir_sys::MlirAttribute,
    ) -> mlir_sys::MlirAttribute;
    pub fn pldCastCreate(
        loc: mlir_sys::MlirLocation,
        source: mlir_sys::MlirValue,
        ty: MlirType,
    ) -> MlirOperation;
    pub fn pldRewriteCollectiveAsCall(
        rewriter: mlir_sys::MlirPatternRewriter,
        op: MlirOperation,
        callee: mlir_sys::MlirAttribute,
        n: isize,
        params: *const MlirType,
        result: MlirType,
        discardable: mlir_sys::MlirAttribute,
    ) -> MlirOperation;
    pub fn pldTensorLikeGetUnranked(distributed: bool, element: MlirType) -> MlirType;
    pub fn pldOperationEquivalent(lhs: MlirOperation, rhs: MlirOperation) -> bool;
    pub fn pldOperationIsCollective(op: MlirOperation) -> bool;
    pub fn pldEmitDiagnostic(
        loc: mlir_sys::MlirLocation,
        severity: i32,
        message: mlir_sys::MlirStringRef,
        num_notes: isize,
        note_locs: *const mlir_sys::MlirLocation,
        notes: *const mlir_sys::MlirStringRef,
    );
    pub fn pldFunctionIsOrchestrationBody(func: MlirOperation) -> bool;
    pub fn pldFunctionIsChipOrchestration(func: MlirOperation) -> bool;
    pub fn pldFunctionIsHostOrchestrator(func: MlirOperation) -> bool;
    pub fn pldDirectionFromString(text: mlir_sys::MlirStringRef) -> i32;
    pub fn pldDirectionToString(direction: i32) -> mlir_sys::MlirStringRef;
    pub fn pldModuleArch(module: MlirOperation) -> mlir_sys::MlirStringRef;
    pub fn pldCollectiveOpNames(
        context: mlir_sys::MlirContext,
        callback: mlir_sys::MlirStringCallback,
        user_data: *mut std::ffi::c_void,
    ) -> isize;
}
