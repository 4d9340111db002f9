//! The family's result JSON (sim spec's format; family spec, "pld-sim cases for the family"):
//! `{"status", "code", "message", "blocks", "ranks": [P × {"target": [[row values] × rows],
//! "signal": [[cells] × leading dim]}]}`, barrier ranks with `"enter_ns"` / `"leave_ns"` and an
//! empty target. f32 values print as JSON numbers (shortest round trip), f16 values as the
//! exactly representable decimal, i8 and i32 as integers.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::case::{Elem, FamilyCase};

/// One rank's state after the last call.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyRank {
    /// The target's rows, as words: f32 / f16 bit patterns, i8 / i32 values (empty for barrier).
    pub target: Vec<Vec<i64>>,
    /// The signal, one row per index of its leading dimension.
    pub signal: Vec<Vec<i64>>,
    /// barrier: when the rank entered the last barrier (ns, one monotonic clock for all ranks).
    pub enter_ns: Option<i64>,
    /// barrier: when it left it.
    pub leave_ns: Option<i64>,
    /// Not in the JSON: the target after each call (words, row-major), recorded by the module's
    /// `family_record` task right after the call's collective (empty for barrier).
    pub history: Vec<Vec<i64>>,
}

/// The outcome of a family case.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyResult {
    /// `ok`, `compile_error`, `fatal` or `invalid_args`.
    pub status: String,
    /// 0 when ok, else the failing step's code.
    pub code: i64,
    /// The diagnostics or runtime message; for ok the run's summary.
    pub message: String,
    /// The collective's launch width.
    pub blocks: i64,
    /// Per rank (filled for ok, and for a runtime failure).
    pub ranks: Vec<FamilyRank>,
    /// Not in the JSON: kernel block instances started, by kernel.
    pub kernels: BTreeMap<String, i64>,
    /// Not in the JSON: each rank's stage-step counter after the run.
    pub calls: Vec<i64>,
    /// Not in the JSON: barrier (rank, call, enter_ns, leave_ns) of every call.
    pub spans: Vec<(usize, usize, i64, i64)>,
    /// The ranks that failed or were ended at the timeout (`rank_failed` / `timeout`): their
    /// entry prints as `{"failed": true}`.
    pub failed: Vec<usize>,
}

/// The exact decimal of a finite f64 that is a dyadic rational with a small denominator (every
/// f16 value): `m / 2^n` = `m * 5^n / 10^n`.
pub fn exact_decimal(v: f64) -> String {
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.into();
    }
    if v.fract() == 0.0 && v.abs() < 1e18 {
        return format!("{}", v as i64);
    }
    let neg = v < 0.0;
    let mut a = v.abs();
    let mut n = 0u32;
    while a.fract() != 0.0 && n < 40 {
        a *= 2.0;
        n += 1;
    }
    let digits = (a as u128) * 5u128.pow(n);
    let s = digits.to_string();
    let n = n as usize;
    let (int, frac) = if s.len() > n {
        (s[..s.len() - n].to_string(), s[s.len() - n..].to_string())
    } else {
        ("0".to_string(), format!("{}{s}", "0".repeat(n - s.len())))
    };
    let frac = frac.trim_end_matches('0');
    format!("{}{int}.{frac}", if neg { "-" } else { "" })
}

fn value_text(dtype: Elem, w: i64) -> String {
    match dtype {
        Elem::F32 => {
            let v = f32::from_bits(w as u32) as f64;
            serde_json::Number::from_f64(v)
                .map(|n| n.to_string())
                .unwrap_or_else(|| "null".into())
        }
        Elem::F16 => {
            let v = half::f16::from_bits(w as u16).to_f32() as f64;
            if v.is_finite() {
                exact_decimal(v)
            } else {
                "null".into()
            }
        }
        _ => w.to_string(),
    }
}

impl FamilyResult {
    /// A result without rank data (a compile_error).
    pub fn without_ranks(status: &str, code: i64, message: String, blocks: i64) -> FamilyResult {
        FamilyResult {
            status: status.into(),
            code,
            message,
            blocks,
            ranks: Vec::new(),
            kernels: BTreeMap::new(),
            calls: Vec::new(),
            spans: Vec::new(),
            failed: Vec::new(),
        }
    }

    /// The result JSON (one line).
    pub fn to_json(&self, case: &FamilyCase) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "{{\"status\":{},\"code\":{},\"message\":{},\"blocks\":{},\"ranks\":[",
            Value::from(self.status.as_str()),
            self.code,
            Value::from(self.message.as_str()),
            self.blocks
        );
        for (r, rank) in self.ranks.iter().enumerate() {
            if r > 0 {
                s.push(',');
            }
            if self.failed.contains(&r) {
                s.push_str("{\"failed\":true}");
                continue;
            }
            s.push_str("{\"target\":[");
            for (i, row) in rank.target.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push('[');
                for (j, &w) in row.iter().enumerate() {
                    if j > 0 {
                        s.push(',');
                    }
                    s.push_str(&value_text(case.dtype, w));
                }
                s.push(']');
            }
            s.push_str("],\"signal\":");
            s.push_str(&Value::from(rank.signal.clone()).to_string());
            if !case.op.moves_payload() {
                let opt = |v: Option<i64>| v.map_or("null".to_string(), |x| x.to_string());
                let _ = write!(
                    s,
                    ",\"enter_ns\":{},\"leave_ns\":{}",
                    opt(rank.enter_ns),
                    opt(rank.leave_ns)
                );
            }
            s.push('}');
        }
        s.push_str("]}");
        s
    }

    /// Parses a result JSON of `case` (words from the printed values).
    pub fn from_json(text: &str, case: &FamilyCase) -> Result<FamilyResult, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("bad result JSON: {e}"))?;
        let get = |k: &str| v.get(k).ok_or_else(|| format!("result without '{k}'"));
        let int = |x: &Value, what: &str| {
            x.as_i64()
                .ok_or_else(|| format!("{what}: {x} is not an integer"))
        };
        let mut out = FamilyResult::without_ranks(
            get("status")?.as_str().ok_or("status is not a string")?,
            int(get("code")?, "code")?,
            get("message")?
                .as_str()
                .ok_or("message is not a string")?
                .to_string(),
            int(get("blocks")?, "blocks")?,
        );
        for (r, rank) in get("ranks")?
            .as_array()
            .ok_or("ranks is not a list")?
            .iter()
            .enumerate()
        {
            if rank.get("failed") == Some(&Value::Bool(true)) {
                out.failed.push(r);
                out.ranks.push(FamilyRank {
                    target: Vec::new(),
                    signal: Vec::new(),
                    enter_ns: None,
                    leave_ns: None,
                    history: Vec::new(),
                });
                continue;
            }
            let rows = |k: &str| -> Result<Vec<Vec<Value>>, String> {
                rank.get(k)
                    .and_then(Value::as_array)
                    .ok_or_else(|| format!("rank {r}: no list '{k}'"))?
                    .iter()
                    .map(|row| {
                        row.as_array()
                            .cloned()
                            .ok_or_else(|| format!("rank {r}: a {k} row is not a list"))
                    })
                    .collect()
            };
            let word = |x: &Value| -> Result<i64, String> {
                match case.dtype {
                    Elem::F32 => x
                        .as_f64()
                        .map(|f| (f as f32).to_bits() as i64)
                        .ok_or_else(|| format!("target value {x} is not a number")),
                    Elem::F16 => x
                        .as_f64()
                        .map(|f| half::f16::from_f32(f as f32).to_bits() as i64)
                        .ok_or_else(|| format!("target value {x} is not a number")),
                    _ => int(x, "target value"),
                }
            };
            let target = rows("target")?
                .iter()
                .map(|row| row.iter().map(word).collect::<Result<Vec<_>, _>>())
                .collect::<Result<Vec<_>, _>>()?;
            let signal = rows("signal")?
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|x| int(x, "signal cell"))
                        .collect::<Result<Vec<_>, _>>()
                })
                .collect::<Result<Vec<_>, _>>()?;
            let opt = |k: &str| rank.get(k).and_then(Value::as_i64);
            out.ranks.push(FamilyRank {
                target,
                signal,
                enter_ns: opt("enter_ns"),
                leave_ns: opt("leave_ns"),
                history: Vec::new(),
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_decimals() {
        assert_eq!(exact_decimal(0.0), "0");
        assert_eq!(exact_decimal(-62.5), "-62.5");
        assert_eq!(exact_decimal(3.0), "3");
        assert_eq!(
            exact_decimal(half::f16::from_bits(0x2e66).to_f32() as f64),
            "0.0999755859375"
        );
        // The smallest f16 subnormal and the largest: more digits than a shortest round trip.
        assert_eq!(exact_decimal(2f64.powi(-24)), "0.000000059604644775390625");
        assert_eq!(
            exact_decimal(1023.0 * 2f64.powi(-24)),
            "0.000060975551605224609375"
        );
        for h in (0u16..0x7c00).step_by(7) {
            let v = half::f16::from_bits(h).to_f32() as f64;
            let back: f64 = exact_decimal(v).parse().unwrap();
            assert_eq!(back, v, "{h:#x}");
        }
    }
}
