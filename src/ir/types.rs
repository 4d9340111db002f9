//! The `pl`/`pld` types the passes test for: tensor-like, window
//! (`!pld.dtensor`), `!pld.comm_ctx`.

use melior::{
    Context,
    ir::{Type, TypeLike},
};

/// `!pl.tensor` or `!pld.dtensor` (one C call).
pub fn is_tensor_like(ty: Type) -> bool {
    crate::ir::tensor_type::tensor_kind(ty).is_some()
}

/// `!pld.dtensor` (one C call).
pub fn is_dtensor(ty: Type) -> bool {
    crate::ir::tensor_type::tensor_kind(ty) == Some(true)
}

/// Whether `ty` is the `!pld.comm_ctx` type (one C call, an `isa`).
pub fn is_comm_ctx(ty: Type) -> bool {
    unsafe { crate::capi::pldTypeIsCommCtx(ty.to_raw()) }
}

/// The `!pld.comm_ctx` type (the pld dialect is loaded wherever a pass runs on pld IR).
pub fn comm_ctx_type(context: &Context) -> Type<'_> {
    unsafe { Type::from_raw(crate::capi::pldCommCtxTypeGet(context.to_raw())) }
}
