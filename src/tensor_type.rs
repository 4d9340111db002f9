//! A Rust view of `!pl.tensor` / `!pld.dtensor` through the dialect's C API.

use crate::capi;
use melior::ir::{Type, TypeLike};

/// PyPTO's TensorLayout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Nd,
    Dn,
    Nz,
}

/// The parameters of a tensor-like type.
#[derive(Clone, Debug)]
pub struct TensorLike<'c> {
    /// `!pld.dtensor` (a window view) rather than `!pl.tensor`.
    pub distributed: bool,
    /// `None` when unranked; `None` dims are `?`.
    pub shape: Option<Vec<Option<i64>>>,
    pub element: Type<'c>,
    pub layout: Layout,
    /// An explicit valid_shape (defaults are normalized away by the dialect).
    pub has_valid: bool,
    /// Explicit strides (packed row-major ones are normalized away).
    pub has_strides: bool,
}

impl<'c> TensorLike<'c> {
    /// Reads `ty`, or `None` when it is not a tensor-like type.
    pub fn of(ty: Type<'c>) -> Option<Self> {
        let raw = ty.to_raw();
        let distributed = unsafe { capi::pldTypeIsDTensor(raw) };
        if !distributed && !unsafe { capi::pldTypeIsTensor(raw) } {
            return None;
        }
        let rank = unsafe { capi::pldTensorLikeGetRank(raw) };
        let shape = (rank >= 0).then(|| {
            (0..rank)
                .map(|i| {
                    let dim = unsafe { capi::pldTensorLikeGetDim(raw, i) };
                    (dim != i64::MIN).then_some(dim)
                })
                .collect()
        });
        let layout = match unsafe { capi::pldTensorLikeGetLayout(raw) } {
            1 => Layout::Dn,
            2 => Layout::Nz,
            _ => Layout::Nd,
        };
        Some(Self {
            distributed,
            shape,
            element: unsafe { Type::from_raw(capi::pldTensorLikeGetElementType(raw)) },
            layout,
            has_valid: unsafe { capi::pldTensorLikeHasValid(raw) },
            has_strides: unsafe { capi::pldTensorLikeHasStrides(raw) },
        })
    }

    /// The static shape, if ranked and every dim is static.
    pub fn static_shape(&self) -> Option<Vec<i64>> {
        self.shape.as_ref()?.iter().copied().collect()
    }

    /// A packed, full, row-major view (nd, no explicit strides or valid_shape).
    pub fn is_packed_nd(&self) -> bool {
        self.layout == Layout::Nd && !self.has_strides && !self.has_valid
    }
}
