//! The integer scalar code of a CHIP orchestration body: constants (kept
//! sign-extended from their width), `arith` binary ops, comparisons, casts,
//! as the model both rails share (`crate::codegen::scalars`) writes them.

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
        let Some(val) = self.local_for(op, v, hint) else {
            return;
        };
        let decl = format!("const {}", val.chip_cpp_type());
        let i = format!("{}{}", ind(depth), maybe_unused(v));
        let _ = writeln!(self.body, "{i}{decl} {} = {init};", val.expr());
        self.bind(v, val);
    }

    pub(super) fn constant(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let Some(r) = op.result_at(0) else { return };
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
        let lit = crate::codegen::scalars::literal(value, bits);
        let _ = depth;
        self.bind(r.into(), RtValue::Int(lit, bits));
    }

    pub(super) fn binary(&mut self, op: &OperationRef<'c, 'a>, b: BinOp, depth: usize) {
        let (Some((x, _)), Some((y, _)), Ok(r)) = (self.int(op, 0), self.int(op, 1), op.result(0))
        else {
            return;
        };
        let Some(bits) = scalar_bits(r.r#type()) else {
            return;
        };
        let fail = fatal(
            INVALID_ARGS,
            &Self::fail_msg(op, crate::codegen::scalars::DIVISION_BY_ZERO),
        );
        if let Some(check) = crate::codegen::scalars::zero_divisor_check(b, &y, &fail) {
            let _ = writeln!(self.body, "{}{check}", ind(depth));
        }
        let init = crate::codegen::scalars::binary(b, &x, &y, bits);
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
        let Some(init) = crate::codegen::scalars::cmpi(pred, &x, &y, bits) else {
            self.p.error(
                &op,
                &format!("attribute 'predicate' must be a known arith.cmpi predicate, got {pred}"),
            );
            return;
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
        let init = crate::codegen::scalars::int_cast(kind, &x, from, to);
        self.declare_const(op, r.into(), "v", &init, depth);
    }
}
