//! What an SSA value is in the generated C++, on both rails: the one value
//! model the CHIP orchestration emitter (`chip/`) and the HOST orchestrator
//! emitter (`host.rs`) bind a function's values to. Integer scalars follow
//! [`super::scalars`]; tensors are `pld::rt::Tensor` descriptors on both
//! rails; the HOST rail adds its window and domain handles.

use crate::ir::{
    op_kind::value_id,
    orch_ops::scalar_bits,
    types::{is_comm_ctx, is_tensor_like},
};
use melior::ir::{Type, ValueLike};
use std::collections::HashMap;

/// The runtime form of one SSA value: the C++ expression (usually a local)
/// that holds it, by kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RtValue {
    /// An integer scalar (`i1`..`i64`, `index`): an `int64_t` expression
    /// holding a value of this many bits, sign-extended.
    Int(String, u32),
    /// A `pld::rt::Tensor` descriptor.
    Tensor(String),
    /// A `pld::rt::CommContext*`.
    Ctx(String),
    /// HOST: a `pld::host::WindowView`.
    Window(String),
    /// HOST: a `pld.window_buffer`'s window offset (`uint64_t`).
    Buffer(String),
    /// HOST: a `pld.comm_domain` index (`Host::comm_domain`).
    Domain(String),
}

impl RtValue {
    /// A value of MLIR type `ty` named `expr` in a CHIP orchestration body:
    /// an integer scalar, a tensor descriptor or a CommContext (`None`: the
    /// type has no runtime form there).
    pub fn for_type(ty: Type, expr: String) -> Option<RtValue> {
        if let Some(bits) = scalar_bits(ty) {
            Some(RtValue::Int(expr, bits))
        } else if is_tensor_like(ty) {
            Some(RtValue::Tensor(expr))
        } else if is_comm_ctx(ty) {
            Some(RtValue::Ctx(expr))
        } else {
            None
        }
    }

    /// The C++ expression.
    pub fn expr(&self) -> &str {
        match self {
            RtValue::Int(e, _)
            | RtValue::Tensor(e)
            | RtValue::Ctx(e)
            | RtValue::Window(e)
            | RtValue::Buffer(e)
            | RtValue::Domain(e) => e,
        }
    }

    /// The C++ type of a local holding the value.
    pub fn cpp_type(&self) -> &'static str {
        match self {
            RtValue::Int(..) => "int64_t",
            RtValue::Tensor(_) => "pld::rt::Tensor",
            RtValue::Ctx(_) => "pld::rt::CommContext*",
            RtValue::Window(_) => "pld::host::WindowView",
            RtValue::Buffer(_) => "uint64_t",
            RtValue::Domain(_) => "int",
        }
    }

    /// The C++ type of a local holding the value in a CHIP orchestration
    /// (simpler's API: a `ChipTensor`, a CommContext as its scalar slot).
    pub fn chip_cpp_type(&self) -> &'static str {
        match self {
            RtValue::Tensor(_) => "ChipTensor",
            RtValue::Ctx(_) => "uint64_t",
            other => other.cpp_type(),
        }
    }

    /// Whether `other` has the same runtime kind (an integer of any width is
    /// one kind): what `arith.select` may choose between.
    pub fn same_kind(&self, other: &RtValue) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// SSA value → its runtime form, for one function being emitted.
#[derive(Default)]
pub struct Bindings(HashMap<usize, RtValue>);

impl Bindings {
    /// Binds `v` (rebinding replaces).
    pub fn bind<'c>(&mut self, v: impl ValueLike<'c>, val: RtValue) {
        self.0.insert(value_id(v), val);
    }

    /// The binding of `v`.
    pub fn get<'c>(&self, v: impl ValueLike<'c>) -> Option<&RtValue> {
        self.0.get(&value_id(v))
    }

    /// Whether `v` is bound.
    pub fn contains<'c>(&self, v: impl ValueLike<'c>) -> bool {
        self.0.contains_key(&value_id(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_expressions() {
        let int = RtValue::Int("x".into(), 8);
        assert_eq!(int.expr(), "x");
        assert!(int.same_kind(&RtValue::Int("y".into(), 64)));
        assert!(!int.same_kind(&RtValue::Tensor("x".into())));
        assert!(RtValue::Ctx("c".into()).same_kind(&RtValue::Ctx("d".into())));
        assert_eq!(RtValue::Window("w".into()).expr(), "w");
        assert_eq!(int.cpp_type(), "int64_t");
        assert_eq!(RtValue::Tensor("t".into()).cpp_type(), "pld::rt::Tensor");
    }
}
