//! `scf.for`, `scf.while` and `scf.if` as C++ loops and branches: carried
//! values are variables declared before the op and assigned at its terminator
//! (one parallel assignment).

use super::*;

impl<'p, 'c, 'a> Emitter<'p, 'c, 'a> {
    /// Assigns `values` to `vars` as one parallel assignment (each value read
    /// before any variable is written).
    pub(super) fn assign_all(&mut self, vars: &[RtValue], values: &[RtValue], depth: usize) {
        let pairs: Vec<(&RtValue, &RtValue)> = vars
            .iter()
            .zip(values)
            .filter(|(d, s)| d.expr() != s.expr())
            .collect();
        let i = ind(depth);
        if pairs.len() == 1 {
            let _ = writeln!(
                self.body,
                "{i}{} = {};",
                pairs[0].0.expr(),
                pairs[0].1.expr()
            );
            return;
        }
        let mut temps = Vec::new();
        for (d, s) in &pairs {
            let t = self.locals.fresh(&format!("next_{}", d.expr()));
            let ty = d.chip_cpp_type();
            let _ = writeln!(self.body, "{i}const {ty} {t} = {};", s.expr());
            temps.push(t);
        }
        for ((d, _), t) in pairs.iter().zip(temps) {
            let _ = writeln!(self.body, "{i}{} = {t};", d.expr());
        }
    }

    /// The operands of the terminator of `block`.
    pub(super) fn terminator_vals(
        &mut self,
        block: &BlockRef<'c, 'a>,
        skip: usize,
    ) -> Option<Vec<RtValue>> {
        let term = block.terminator()?;
        let mut out = Vec::new();
        for k in skip..term.operand_count() {
            out.push(self.operand(&term, k)?);
        }
        Some(out)
    }

    pub(super) fn region_block(op: &OperationRef<'c, 'a>, r: usize) -> Option<BlockRef<'c, 'a>> {
        op.region_at(r)?.first_block()
    }

    pub(super) fn scf_for(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let i = ind(depth);
        let (Some((lb, bits)), Some((ub, _)), Some((step, _))) =
            (self.int(op, 0), self.int(op, 1), self.int(op, 2))
        else {
            return;
        };
        let Some(body) = Self::region_block(op, 0) else {
            return;
        };
        // Loop-carried variables: the results, initialized with the init operands.
        let mut carried = Vec::new();
        for n in 0..op.result_count() {
            let Some(init) = self.operand(op, 3 + n) else {
                return;
            };
            let Some(r) = op.result_at(n) else { return };
            let Some(var) = self.declare(op, r.into(), "carried", Some(init.expr()), depth) else {
                return;
            };
            carried.push(var);
        }
        let unsigned = op.attribute("unsignedCmp").is_ok();
        let msg = Self::fail_msg(op, "the step must be positive");
        let _ = writeln!(self.body, "{i}{{");
        let (lbv, ubv, stv) = (
            self.locals.fresh("lb"),
            self.locals.fresh("ub"),
            self.locals.fresh("step"),
        );
        let Some(iv_arg) = body.argument_at(0) else {
            return;
        };
        let iv = self.fresh(iv_arg.into(), "iv");
        let fail = fatal(crate::codegen::chip::INVALID_ARGS, &msg);
        crate::codegen::loops::write_header(
            &mut self.body,
            &format!("{i}  "),
            &crate::codegen::loops::ForLoop {
                lb_var: &lbv,
                ub_var: &ubv,
                step_var: &stv,
                lb: &lb,
                ub: &ub,
                step: &step,
                iv: &iv,
                unsigned_bits: unsigned.then_some(bits),
                fail: &fail,
            },
        );
        self.bind(iv_arg.into(), RtValue::Int(iv, bits));
        for (n, var) in carried.iter().enumerate() {
            if let Some(a) = body.argument_at(n + 1) {
                self.bind(a.into(), var.clone());
            }
        }
        self.loop_depth += 1;
        self.block(&body, depth + 2);
        self.loop_depth -= 1;
        if let Some(yielded) = self.terminator_vals(&body, 0) {
            self.assign_all(&carried, &yielded, depth + 2);
        }
        let _ = writeln!(self.body, "{i}  }}");
        let _ = writeln!(self.body, "{i}}}");
    }

    pub(super) fn scf_while(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let i = ind(depth);
        let (Some(before), Some(after)) = (Self::region_block(op, 0), Self::region_block(op, 1))
        else {
            return;
        };
        // The before region's arguments: carried, initialized with the operands.
        let mut carried = Vec::new();
        for n in 0..op.operand_count() {
            let Some(init) = self.operand(op, n) else {
                return;
            };
            let Some(a) = before.argument_at(n) else {
                return;
            };
            let Some(var) = self.declare(op, a.into(), "carried", Some(init.expr()), depth) else {
                return;
            };
            carried.push(var);
        }
        // The results: what scf.condition forwards (also the after region's arguments).
        let mut results = Vec::new();
        for n in 0..op.result_count() {
            let Some(r) = op.result_at(n) else { return };
            let Some(var) = self.declare(op, r.into(), "result", None, depth) else {
                return;
            };
            results.push(var);
        }
        let _ = writeln!(self.body, "{i}for (;;) {{");
        self.loop_depth += 1;
        self.block(&before, depth + 1);
        let Some(term) = before.terminator() else {
            return;
        };
        let Some((cond, _)) = self.int(&term, 0) else {
            return;
        };
        if let Some(forwarded) = self.terminator_vals(&before, 1) {
            self.assign_all(&results, &forwarded, depth + 1);
        }
        let _ = writeln!(
            self.body,
            "{i}  if ({}) break;",
            crate::codegen::scalars::is_false(&cond)
        );
        for (n, var) in results.iter().enumerate() {
            if let Some(a) = after.argument_at(n) {
                self.bind(a.into(), var.clone());
            }
        }
        self.block(&after, depth + 1);
        self.loop_depth -= 1;
        if let Some(yielded) = self.terminator_vals(&after, 0) {
            self.assign_all(&carried, &yielded, depth + 1);
        }
        let _ = writeln!(self.body, "{i}}}");
    }

    pub(super) fn scf_if(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let i = ind(depth);
        let Some((cond, _)) = self.int(op, 0) else {
            return;
        };
        let mut results = Vec::new();
        for n in 0..op.result_count() {
            let Some(r) = op.result_at(n) else { return };
            let Some(var) = self.declare(op, r.into(), "result", None, depth) else {
                return;
            };
            results.push(var);
        }
        let _ = writeln!(
            self.body,
            "{i}if ({}) {{",
            crate::codegen::scalars::is_true(&cond)
        );
        if let Some(then) = Self::region_block(op, 0) {
            self.block(&then, depth + 1);
            if let Some(y) = self.terminator_vals(&then, 0) {
                self.assign_all(&results, &y, depth + 1);
            }
        }
        if let Some(other) = Self::region_block(op, 1) {
            let _ = writeln!(self.body, "{i}}} else {{");
            self.block(&other, depth + 1);
            if let Some(y) = self.terminator_vals(&other, 0) {
                self.assign_all(&results, &y, depth + 1);
            }
        }
        let _ = writeln!(self.body, "{i}}}");
    }
}
