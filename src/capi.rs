//! The dialect library's C API (`dialect/include/pld-c/Dialects.h`).
#![allow(non_snake_case)]

use mlir_sys::{MlirDialectHandle, MlirDialectRegistry, MlirOperation, MlirType};

unsafe extern "C" {
    pub fn mlirGetDialectHandle__pl__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__pld__() -> MlirDialectHandle;
    pub fn pldRegisterDialects(registry: MlirDialectRegistry);
    pub fn pldTypeIsTensor(ty: MlirType) -> bool;
    pub fn pldTypeIsDTensor(ty: MlirType) -> bool;
    pub fn pldTensorLikeGetRank(ty: MlirType) -> isize;
    pub fn pldTensorLikeGetDim(ty: MlirType, pos: isize) -> i64;
    pub fn pldTensorLikeGetElementType(ty: MlirType) -> MlirType;
    pub fn pldTensorLikeGetLayout(ty: MlirType) -> u32;
    pub fn pldTensorLikeHasValid(ty: MlirType) -> bool;
    pub fn pldTensorLikeHasStrides(ty: MlirType) -> bool;
    pub fn pldTensorLikeGetUnranked(distributed: bool, element: MlirType) -> MlirType;
    pub fn pldOperationEquivalent(lhs: MlirOperation, rhs: MlirOperation) -> bool;
}

/// Registers every pass of this crate (C entry point for C/C++ drivers that
/// link the Rust library).
#[unsafe(no_mangle)]
pub extern "C" fn pldRegisterPasses() {
    crate::passes::register_passes();
}
