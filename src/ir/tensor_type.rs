//! A Rust view of `!pl.tensor` / `!pld.dtensor` through the dialect's C API:
//! one C call per query (`pldTypeGetTensorLikeKind` for "which tensor type",
//! `pldTypeGetTensorLikeInfo` for every parameter at once).

use crate::capi;
use melior::ir::{Type, TypeLike};

/// PyPTO's TensorLayout: the dialect's `pld::Layout` (TensorLike.h), whose
/// values the C API hands over (a unit test checks the mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Layout {
    /// Row-major (`nd`, the default).
    Nd = 0,
    /// Column-major (`dn`).
    Dn = 1,
    /// Fractal (`nz`).
    Nz = 2,
}

impl Layout {
    fn from_raw(raw: u32) -> Self {
        [Layout::Nd, Layout::Dn, Layout::Nz]
            .into_iter()
            .find(|l| *l as u32 == raw)
            .unwrap_or(Layout::Nd)
    }
}

/// `Some(distributed)` for `!pl.tensor` (false) / `!pld.dtensor` (true),
/// `None` for any other type: one C call.
pub fn tensor_kind(ty: Type) -> Option<bool> {
    match unsafe { capi::pldTypeGetTensorLikeKind(ty.to_raw()) } {
        1 => Some(false),
        2 => Some(true),
        _ => None,
    }
}

/// The parameters of a tensor-like type, borrowed from its uniqued storage
/// (no allocation): what the hot paths read.
#[derive(Clone, Copy, Debug)]
pub struct TensorView<'c> {
    /// `!pld.dtensor` rather than `!pl.tensor`.
    pub distributed: bool,
    /// `None` when unranked; `i64::MIN` dims are `?`.
    pub shape: Option<&'c [i64]>,
    /// The element type.
    pub element: Type<'c>,
    /// The layout.
    pub layout: Layout,
    /// An explicit valid_shape.
    pub has_valid: bool,
    /// Explicit strides.
    pub has_strides: bool,
    /// The explicit strides (`None`: packed row-major); `i64::MIN` for `?`.
    pub strides: Option<&'c [i64]>,
}

impl<'c> TensorView<'c> {
    /// Reads `ty` in one C call, or `None` when it is not tensor-like.
    pub fn of(ty: Type<'c>) -> Option<Self> {
        let info = unsafe { capi::pldTypeGetTensorLikeInfo(ty.to_raw()) };
        if info.kind == 0 {
            return None;
        }
        let shape = (info.rank >= 0).then(|| {
            if info.rank == 0 {
                &[][..]
            } else {
                // The type's storage is uniqued in the context and lives as long as it.
                unsafe { std::slice::from_raw_parts::<'c, i64>(info.shape, info.rank as usize) }
            }
        });
        Some(Self {
            distributed: info.kind == 2,
            shape,
            element: unsafe { Type::from_raw(info.element_type) },
            layout: Layout::from_raw(info.layout),
            has_valid: info.has_valid,
            has_strides: info.has_strides,
            strides: (info.has_strides && info.rank > 0 && !info.strides.is_null()).then(|| {
                // Uniqued with the type, as the shape.
                unsafe { std::slice::from_raw_parts::<'c, i64>(info.strides, info.rank as usize) }
            }),
        })
    }

    /// Why a value of this type cannot be the device's tensor descriptor (simpler's
    /// `ChipTensor`, docs/spec/device.md "Layouts": at most 5 dimensions, 32-bit extents and
    /// strides, every stride > 0), or `None` when it can. Dynamic extents and strides are left to
    /// the runtime (it refuses them with status 5 at the launch).
    pub fn chip_tensor_refusal(&self) -> Option<String> {
        const LIMIT: i64 = 1 << 32;
        let shape = self.shape?;
        if shape.len() > 5 {
            return Some(format!(
                "a ChipTensor holds at most 5 dimensions, this type has {}",
                shape.len()
            ));
        }
        if let Some((k, &d)) = shape.iter().enumerate().find(|&(_, &d)| d >= LIMIT) {
            return Some(format!(
                "extent {d} of dimension {k} does not fit a ChipTensor's 32-bit extents"
            ));
        }
        let strides: Vec<i64> = match self.strides {
            Some(s) => s.to_vec(),
            None => {
                // The packed row-major strides, as far as the extents are static.
                let mut out = vec![i64::MIN; shape.len()];
                let mut acc: i64 = 1;
                for k in (0..shape.len()).rev() {
                    out[k] = acc;
                    if shape[k] == i64::MIN {
                        break;
                    }
                    acc = acc.saturating_mul(shape[k].max(1));
                }
                out
            }
        };
        if shape.contains(&0) {
            return None; // an empty tensor: its strides are never used
        }
        for (k, &s) in strides.iter().enumerate() {
            if s == i64::MIN || shape[k] == 1 {
                continue; // dynamic, or the stride of an extent-1 dimension (never used)
            }
            if s <= 0 {
                return Some(format!(
                    "stride {s} of dimension {k} is not a ChipTensor stride (every stride is > 0)"
                ));
            }
            if s >= LIMIT {
                return Some(format!(
                    "stride {s} of dimension {k} does not fit a ChipTensor's 32-bit strides"
                ));
            }
        }
        None
    }

    /// The shape, if ranked and every dim is static.
    pub fn static_shape(&self) -> Option<&'c [i64]> {
        self.shape.filter(|s| s.iter().all(|&d| d != i64::MIN))
    }

    /// A packed, full, row-major view (nd, no explicit strides or valid_shape).
    pub fn is_packed_nd(&self) -> bool {
        self.layout == Layout::Nd && !self.has_strides && !self.has_valid
    }
}

/// The refusal of `subject` (e.g. `parameter #2`) of type `ty` when a value of that type cannot
/// be the device's tensor descriptor (both rails pass every tensor to kernels as one).
pub fn chip_tensor_problem(subject: &str, ty: Type) -> Option<String> {
    let why = TensorView::of(ty)?.chip_tensor_refusal()?;
    Some(crate::diag::msg!(
        "{subject} cannot be the device's tensor descriptor (a ChipTensor, docs/spec/device.md): {why}, got '{ty}'"
    ))
}

/// The parameters of a tensor-like type.
#[derive(Clone, Debug)]
pub struct TensorLike<'c> {
    /// `!pld.dtensor` (a window view) rather than `!pl.tensor`.
    pub distributed: bool,
    /// `None` when unranked; `None` dims are `?`.
    pub shape: Option<Vec<Option<i64>>>,
    /// The element type.
    pub element: Type<'c>,
    /// The layout.
    pub layout: Layout,
    /// An explicit valid_shape (defaults are normalized away by the dialect).
    pub has_valid: bool,
    /// Explicit strides (packed row-major ones are normalized away).
    pub has_strides: bool,
}

impl<'c> TensorLike<'c> {
    /// Reads `ty`, or `None` when it is not a tensor-like type.
    pub fn of(ty: Type<'c>) -> Option<Self> {
        let view = TensorView::of(ty)?;
        Some(Self {
            distributed: view.distributed,
            shape: view
                .shape
                .map(|s| s.iter().map(|&d| (d != i64::MIN).then_some(d)).collect()),
            element: view.element,
            layout: view.layout,
            has_valid: view.has_valid,
            has_strides: view.has_strides,
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

#[cfg(test)]
mod layout_tests {
    use super::{Layout, TensorLike};
    use melior::ir::Type;

    /// The mirror of `pld::Layout`: each spelling parses to its variant.
    #[test]
    fn layouts_mirror_the_dialects() {
        let context = crate::test_context();
        for (text, want) in [("nd", Layout::Nd), ("dn", Layout::Dn), ("nz", Layout::Nz)] {
            let ty =
                Type::parse(&context, &format!("!pl.tensor<4x4xf32, layout = {text}>")).unwrap();
            assert_eq!(TensorLike::of(ty).unwrap().layout, want, "{text}");
        }
    }
}
