//! The one integer scalar model of both orchestration emitters (the CHIP
//! `orchestration/<fn>.cpp` of `chip/` and the HOST `host/<fn>.cpp` of
//! `host.rs`): pure functions from C++ expressions and bit widths to C++
//! expressions, written against `pld_runtime/scalar.h`.
//!
//! Every integer scalar (`i1`..`i64`, `index`) is an `int64_t`. An iN value
//! with N < 64 is kept sign-extended from N bits after every op (an `i1`
//! `true` is -1, MLIR's two's-complement reading of the bit 1); unsigned ops
//! act on its N-bit zero extension; arithmetic wraps modulo 2^N like MLIR's
//! `arith` (never C++ signed overflow). A constant is a literal at its uses.
//! Division and remainder check a zero divisor first ([`zero_divisor_check`]);
//! what the failing statement is (`return orch->fail(...)`,
//! `return host->fail(...)`) is the emitter's.

use super::orch_ops::{BinOp, OrchOp};

/// `value` (an integer attribute's) as its `bits`-bit two's complement,
/// sign-extended to 64 bits.
pub fn sext(value: i64, bits: u32) -> i64 {
    if bits >= 64 {
        return value;
    }
    let s = 64 - bits;
    (value << s) >> s
}

/// The C++ literal of an `arith.constant` of `bits` bits: its sign-extended
/// value (`INT64_MIN` written so that no literal overflows).
pub fn literal(value: i64, bits: u32) -> String {
    let v = sext(value, bits);
    if v == i64::MIN {
        "(-9223372036854775807 - 1)".to_string()
    } else {
        v.to_string()
    }
}

/// The value of scalar parameter `index` (the `index`-th scalar of the
/// runtime's argument struct `args`), read sign-extended from its `bits`.
pub fn param(index: usize, bits: u32) -> String {
    format!("pld::rt::sext(args->scalar({index}), {bits})")
}

/// The `scalar.h` function of a binary op.
fn function(op: BinOp) -> &'static str {
    match op {
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
    }
}

/// `x <op> y` at `bits` bits: `pld::rt::<op>(x, y, bits)` (the signed
/// min/max need no width: both operands are already sign-extended).
pub fn binary(op: BinOp, x: &str, y: &str, bits: u32) -> String {
    let f = function(op);
    match op {
        BinOp::MinS | BinOp::MaxS => format!("pld::rt::{f}({x}, {y})"),
        _ => format!("pld::rt::{f}({x}, {y}, {bits})"),
    }
}

/// The statement that guards a division or remainder by `y`:
/// `if (y == 0) <fail>;`, or `None` when `op` does not divide or `y` is a
/// non-zero literal (it needs no check).
pub fn zero_divisor_check(op: BinOp, y: &str, fail: &str) -> Option<String> {
    let divides = matches!(op, BinOp::DivS | BinOp::DivU | BinOp::RemS | BinOp::RemU);
    let literal_nonzero = y.parse::<i64>().is_ok_and(|d| d != 0);
    (divides && !literal_nonzero).then(|| format!("if ({y} == 0) {fail};"))
}

/// What a failed zero-divisor check reports (after `<op> at <loc>: `).
pub const DIVISION_BY_ZERO: &str = "division by zero";

/// `arith.cmpi` with predicate attribute `predicate` of two `bits`-bit
/// operands, as an i1 (`-1` or `0`): an unsigned predicate compares the
/// zero extensions. `None` for an unknown predicate.
pub fn cmpi(predicate: i64, x: &str, y: &str, bits: u32) -> Option<String> {
    let (sym, unsigned) = super::orch_ops::cmpi_operator(predicate)?;
    Some(if unsigned {
        format!("pld::rt::from_bool(pld::rt::zext({x}, {bits}) {sym} pld::rt::zext({y}, {bits}))")
    } else {
        format!("pld::rt::from_bool({x} {sym} {y})")
    })
}

/// An integer cast (`kind`: [`OrchOp::ExtS`], [`OrchOp::ExtU`],
/// [`OrchOp::Trunc`], [`OrchOp::IndexCast`] or [`OrchOp::IndexCastUi`]) of
/// `x` from `from` to `to` bits.
pub fn int_cast(kind: OrchOp, x: &str, from: u32, to: u32) -> String {
    match kind {
        // Sign extension keeps the int64_t as it is (it is sign-extended from `from` bits,
        // hence from any wider width); a narrowing index_cast truncates.
        OrchOp::ExtS | OrchOp::IndexCast if to >= from => x.to_string(),
        OrchOp::ExtU | OrchOp::IndexCastUi if to >= from => {
            format!("pld::rt::sext(pld::rt::zext({x}, {from}), {to})")
        }
        _ => format!("pld::rt::sext(static_cast<uint64_t>({x}), {to})"),
    }
}

/// The C++ condition "the i1 `c` is true".
pub fn is_true(c: &str) -> String {
    format!("{c} != 0")
}

/// The C++ condition "the i1 `c` is false".
pub fn is_false(c: &str) -> String {
    format!("{c} == 0")
}

/// `arith.select`: `c ? a : b` for an i1 `c`.
pub fn select(c: &str, a: &str, b: &str) -> String {
    format!("{} ? {a} : {b}", is_true(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::dialect::arith::CmpiPredicate as P;

    #[test]
    fn constants_are_sign_extended_from_their_width() {
        assert_eq!(sext(1, 1), -1);
        assert_eq!(sext(255, 8), -1);
        assert_eq!(sext(127, 8), 127);
        assert_eq!(sext(-5, 64), -5);
        assert_eq!(sext(0x8000_0000, 32), i32::MIN as i64);
        assert_eq!(literal(1, 1), "-1");
        assert_eq!(literal(0, 1), "0");
        assert_eq!(literal(200, 8), "-56");
        assert_eq!(literal(0x1_0000_0005, 32), "5");
        assert_eq!(literal(i64::MIN, 64), "(-9223372036854775807 - 1)");
        assert_eq!(literal(i64::MAX, 64), "9223372036854775807");
    }

    #[test]
    fn parameters_are_read_sign_extended() {
        assert_eq!(param(2, 32), "pld::rt::sext(args->scalar(2), 32)");
        assert_eq!(param(0, 1), "pld::rt::sext(args->scalar(0), 1)");
    }

    #[test]
    fn binary_ops_wrap_at_their_width() {
        assert_eq!(binary(BinOp::Add, "a", "b", 32), "pld::rt::add(a, b, 32)");
        assert_eq!(binary(BinOp::Sub, "0", "c", 8), "pld::rt::sub(0, c, 8)");
        assert_eq!(binary(BinOp::DivU, "a", "b", 16), "pld::rt::divu(a, b, 16)");
        assert_eq!(binary(BinOp::Xor, "a", "-1", 1), "pld::rt::bxor(a, -1, 1)");
        assert_eq!(binary(BinOp::ShrS, "a", "3", 64), "pld::rt::shrs(a, 3, 64)");
        assert_eq!(binary(BinOp::MinS, "a", "b", 8), "pld::rt::mins(a, b)");
        assert_eq!(binary(BinOp::MaxU, "a", "b", 8), "pld::rt::maxu(a, b, 8)");
    }

    #[test]
    fn division_checks_a_divisor_unless_a_nonzero_literal() {
        let fail = "return f(5, \"m\")";
        for op in [BinOp::DivS, BinOp::DivU, BinOp::RemS, BinOp::RemU] {
            assert_eq!(
                zero_divisor_check(op, "d", fail).as_deref(),
                Some("if (d == 0) return f(5, \"m\");")
            );
            assert_eq!(
                zero_divisor_check(op, "0", fail).as_deref(),
                Some("if (0 == 0) return f(5, \"m\");")
            );
            assert_eq!(zero_divisor_check(op, "-3", fail), None);
        }
        assert_eq!(zero_divisor_check(BinOp::Add, "d", fail), None);
        assert_eq!(zero_divisor_check(BinOp::Shl, "d", fail), None);
    }

    #[test]
    fn unsigned_predicates_compare_zero_extensions() {
        assert_eq!(
            cmpi(P::Eq as i64, "a", "b", 32).as_deref(),
            Some("pld::rt::from_bool(a == b)")
        );
        assert_eq!(
            cmpi(P::Slt as i64, "a", "b", 8).as_deref(),
            Some("pld::rt::from_bool(a < b)")
        );
        assert_eq!(
            cmpi(P::Ult as i64, "a", "b", 8).as_deref(),
            Some("pld::rt::from_bool(pld::rt::zext(a, 8) < pld::rt::zext(b, 8))")
        );
        assert_eq!(
            cmpi(P::Uge as i64, "a", "b", 64).as_deref(),
            Some("pld::rt::from_bool(pld::rt::zext(a, 64) >= pld::rt::zext(b, 64))")
        );
        assert_eq!(cmpi(99, "a", "b", 8), None);
    }

    #[test]
    fn casts_extend_and_truncate() {
        assert_eq!(int_cast(OrchOp::ExtS, "x", 32, 64), "x");
        assert_eq!(int_cast(OrchOp::IndexCast, "x", 32, 64), "x");
        assert_eq!(
            int_cast(OrchOp::ExtU, "x", 32, 64),
            "pld::rt::sext(pld::rt::zext(x, 32), 64)"
        );
        assert_eq!(
            int_cast(OrchOp::IndexCastUi, "x", 1, 64),
            "pld::rt::sext(pld::rt::zext(x, 1), 64)"
        );
        assert_eq!(
            int_cast(OrchOp::Trunc, "x", 64, 32),
            "pld::rt::sext(static_cast<uint64_t>(x), 32)"
        );
        // A narrowing index_cast truncates.
        assert_eq!(
            int_cast(OrchOp::IndexCast, "x", 64, 8),
            "pld::rt::sext(static_cast<uint64_t>(x), 8)"
        );
        assert_eq!(
            int_cast(OrchOp::IndexCastUi, "x", 64, 16),
            "pld::rt::sext(static_cast<uint64_t>(x), 16)"
        );
    }

    #[test]
    fn i1_conditions_and_select() {
        assert_eq!(is_true("c"), "c != 0");
        assert_eq!(is_false("c"), "c == 0");
        assert_eq!(select("c", "a", "b"), "c != 0 ? a : b");
    }
}
