//! The integer scalar code of a CHIP orchestration body: constants (kept
//! sign-extended from their width), `arith` binary ops, comparisons, casts.

use super::*;

impl<'p, 'c, 'a> Emitter<'p, 'c, 'a> {
    /// `const T name = init;` bound to `v`.
    pub(super) fn declare_const(
        &mut self,
        op: &OperationRef<'c, 'a>,
        v: Value<'c, 'a>,
        hint: &str,
        init: &str,
        depth: usize,
    ) {
        let ty = v.r#type();
        let var = self.fresh(v, hint);
        let i = format!("{}{}", ind(depth), maybe_unused(v));
        let val = if let Some(bits) = scalar_bits(ty) {
            let _ = writeln!(self.body, "{i}const int64_t {var} = {init};");
            CppValue::Int(var, bits)
        } else if is_tensor_like(ty) {
            let _ = writeln!(self.body, "{i}const pld::rt::Tensor {var} = {init};");
            CppValue::Tensor(var)
        } else if is_comm_ctx(ty) {
            let _ = writeln!(self.body, "{i}pld::rt::CommContext* const {var} = {init};");
            CppValue::Ctx(var)
        } else {
            self.p.error(
                &op,
                &format!("a value of type '{ty}' has no runtime form in the orchestration codegen"),
            );
            return;
        };
        self.bind(v, val);
    }

    pub(super) fn constant(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let Ok(r) = op.result(0) else { return };
        let Some(bits) = scalar_bits(r.r#type()) else {
            self.p.error(
                &op,
                &format!(
                    "result #0 must be an integer scalar in a CHIP orchestration body, got '{}'",
                    r.r#type()
                ),
            );
            return;
        };
        let Some(value) = crate::ir::attributes::int_attr(op, "value") else {
            self.p
                .error(&op, "attribute 'value' must be an integer attribute");
            return;
        };
        // A constant is a literal at its uses, never a local.
        let v = sext(value, bits);
        let lit = if v == i64::MIN {
            "(-9223372036854775807 - 1)".to_string()
        } else {
            v.to_string()
        };
        let _ = depth;
        self.bind(r.into(), CppValue::Int(lit, bits));
    }

    pub(super) fn binary(&mut self, op: &OperationRef<'c, 'a>, b: BinOp, depth: usize) {
        let (Some((x, _)), Some((y, _)), Ok(r)) = (self.int(op, 0), self.int(op, 1), op.result(0))
        else {
            return;
        };
        let Some(bits) = scalar_bits(r.r#type()) else {
            return;
        };
        let i = ind(depth);
        let f = match b {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::DivS => "divs",
            BinOp::DivU => "divu",
            BinOp::RemS => "rems",
            BinOp::RemU => "remu",
            BinOp::MinS => "mins",
            BinOp::MaxS => "maxs",
            BinOp::MinU => "minu",
            BinOp::MaxU => "maxu",
            BinOp::And => "band",
            BinOp::Or => "bor",
            BinOp::Xor => "bxor",
            BinOp::Shl => "shl",
            BinOp::ShrS => "shrs",
            BinOp::ShrU => "shru",
        };
        // A literal non-zero divisor needs no check.
        let literal_nonzero = y.parse::<i64>().is_ok_and(|d| d != 0);
        if matches!(b, BinOp::DivS | BinOp::DivU | BinOp::RemS | BinOp::RemU) && !literal_nonzero {
            let msg = Self::fail_msg(op, "division by zero");
            let _ = writeln!(
                self.body,
                "{i}if ({y} == 0) return orch->fail(SIMPLER_ERROR_INVALID_ARGS, {msg});"
            );
        }
        let init = match b {
            BinOp::MinS | BinOp::MaxS => format!("pld::rt::{f}({x}, {y})"),
            _ => format!("pld::rt::{f}({x}, {y}, {bits})"),
        };
        self.declare_const(op, r.into(), "v", &init, depth);
    }

    pub(super) fn cmp(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let (Some((x, bits)), Some((y, _)), Ok(r)) =
            (self.int(op, 0), self.int(op, 1), op.result(0))
        else {
            return;
        };
        let Some(pred) = int_attr(op, "predicate") else {
            self.p.error(&op, "attribute 'predicate' must be present");
            return;
        };
        let Some((sym, unsigned)) = crate::codegen::orch_ops::cmpi_operator(pred) else {
            self.p.error(
                &op,
                &format!("attribute 'predicate' must be a known arith.cmpi predicate, got {pred}"),
            );
            return;
        };
        let init = if unsigned {
            format!(
                "pld::rt::from_bool(pld::rt::zext({x}, {bits}) {sym} pld::rt::zext({y}, {bits}))"
            )
        } else {
            format!("pld::rt::from_bool({x} {sym} {y})")
        };
        self.declare_const(op, r.into(), "cond", &init, depth);
    }

    pub(super) fn int_cast(&mut self, op: &OperationRef<'c, 'a>, kind: OrchOp, depth: usize) {
        let (Some((x, from)), Ok(r)) = (self.int(op, 0), op.result(0)) else {
            return;
        };
        let Some(to) = scalar_bits(r.r#type()) else {
            return;
        };
        let init = match kind {
            // Sign extension keeps the int64_t as it is (it is sign-extended from `from` bits,
            // hence from any wider width); a narrowing index_cast truncates.
            OrchOp::ExtS | OrchOp::IndexCast if to >= from => x,
            OrchOp::ExtU | OrchOp::IndexCastUi if to >= from => {
                format!("pld::rt::sext(pld::rt::zext({x}, {from}), {to})")
            }
            _ => format!("pld::rt::sext(static_cast<uint64_t>({x}), {to})"),
        };
        self.declare_const(op, r.into(), "v", &init, depth);
    }
}
