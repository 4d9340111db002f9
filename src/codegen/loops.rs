//! The `scf.for` header both orchestration rails emit (CHIP
//! `orchestration/<fn>.cpp`, HOST `host/<fn>.cpp`), so both give a loop the
//! same semantics (orchestration.md): bounds evaluated once, a step <= 0 at
//! run time fails with 5 at the loop, and the induction variable never
//! overflows (the last step jumps straight to ub).

use std::fmt::Write;

/// The C++ names and values of one loop.
pub struct ForLoop<'s> {
    /// Fresh names for the evaluated bounds.
    pub lb_var: &'s str,
    pub ub_var: &'s str,
    pub step_var: &'s str,
    /// The bound expressions.
    pub lb: &'s str,
    pub ub: &'s str,
    pub step: &'s str,
    /// The induction variable's name.
    pub iv: &'s str,
    /// `Some(bits)`: an `unsignedCmp` loop over `bits`-bit integers.
    pub unsigned_bits: Option<u32>,
    /// The statement a non-positive step runs (`return orch->fail(...)`).
    pub fail: &'s str,
}

/// Writes `const int64_t lb, ub, step`, the step guard (omitted for a
/// literal positive step) and the `for (...) {` line, each at `indent`.
pub fn write_header(out: &mut String, indent: &str, l: &ForLoop) {
    let ForLoop {
        lb_var,
        ub_var,
        step_var,
        iv,
        ..
    } = *l;
    let _ = writeln!(
        out,
        "{indent}const int64_t {lb_var} = {}, {ub_var} = {}, {step_var} = {};",
        l.lb, l.ub, l.step
    );
    if !l.step.parse::<i64>().is_ok_and(|s| s > 0) {
        let _ = writeln!(out, "{indent}if ({step_var} <= 0) {};", l.fail);
    }
    let (cmp, remaining) = match l.unsigned_bits {
        Some(bits) => (
            format!("{} < {}", zext(iv, bits), zext(ub_var, bits)),
            format!(
                "{} - {} <= static_cast<uint64_t>({step_var})",
                zext(ub_var, bits),
                zext(iv, bits)
            ),
        ),
        None => (
            format!("{iv} < {ub_var}"),
            format!(
                "static_cast<uint64_t>({ub_var}) - static_cast<uint64_t>({iv}) <= static_cast<uint64_t>({step_var})"
            ),
        ),
    };
    let _ = writeln!(
        out,
        "{indent}for (int64_t {iv} = {lb_var}; {cmp}; {iv} = {remaining} ? {ub_var} : {iv} + {step_var}) {{"
    );
}

/// `v` zero-extended from `bits` to `uint64_t` (a plain cast at 64 bits;
/// narrower, `pld_runtime/scalar.h`'s `zext`, which both rails include).
fn zext(v: &str, bits: u32) -> String {
    if bits >= 64 {
        format!("static_cast<uint64_t>({v})")
    } else {
        format!("pld::rt::zext({v}, {bits})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(step: &str, unsigned_bits: Option<u32>) -> String {
        let mut out = String::new();
        write_header(
            &mut out,
            "  ",
            &ForLoop {
                lb_var: "lb",
                ub_var: "ub",
                step_var: "st",
                lb: "0",
                ub: "n",
                step: step,
                iv: "i",
                unsigned_bits,
                fail: "return fail(5)",
            },
        );
        out
    }

    #[test]
    fn a_runtime_step_is_guarded_and_the_increment_cannot_overflow() {
        let h = header("s", None);
        assert!(h.contains("  if (st <= 0) return fail(5);\n"), "{h}");
        assert!(
            h.contains(
                "for (int64_t i = lb; i < ub; i = static_cast<uint64_t>(ub) - static_cast<uint64_t>(i) <= static_cast<uint64_t>(st) ? ub : i + st) {"
            ),
            "{h}"
        );
    }

    #[test]
    fn a_literal_positive_step_needs_no_guard() {
        assert!(!header("4", None).contains("if ("));
        assert!(header("0", None).contains("if (st <= 0)"));
        assert!(header("-2", None).contains("if (st <= 0)"));
    }

    #[test]
    fn unsigned_loops_compare_zero_extended() {
        let h = header("s", Some(32));
        assert!(
            h.contains("pld::rt::zext(i, 32) < pld::rt::zext(ub, 32)"),
            "{h}"
        );
        let h = header("s", Some(64));
        assert!(
            h.contains("static_cast<uint64_t>(i) < static_cast<uint64_t>(ub)"),
            "{h}"
        );
    }
}
