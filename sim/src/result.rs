//! The one result of a pld-sim case, all_to_all_v's and the family's (docs/sim.md's result JSON;
//! family.md, "pld-sim cases for the family"): `{"status", "code", "message", "blocks", "ranks":
//! [P × {["recv_counts",] "target", "signal" [, "enter_ns", "leave_ns"]}]}`. all_to_all_v ranks
//! carry `recv_counts`, barrier ranks `enter_ns` / `leave_ns` and an empty target. A case with
//! `domains` has `"ranks": []` and a last key `"domains": [{"ranks": N, "blocks": B, "devices": [W
//! × rank]}]` (one entry per world device, the domain's windows on it; devices N.. are outside
//! the domain). A rank that failed or was ended at the timeout (status `rank_failed` / `timeout`)
//! is `{"failed": true}`.
//!
//! Target values are held as words ([`Elem::words`]: floats as bit patterns, integers as values)
//! and print as JSON numbers: f32, f64 and bf16 the shortest round trip, f16 the exact decimal
//! (more digits than a shortest round trip for subnormals), integers as integers.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Deserialize;
use serde_json::Value;

use crate::SimError;
use pld_run::elem::Elem;

/// `words` as rows of `n` (at least 1).
pub(crate) fn rows_of(words: Vec<i64>, n: usize) -> Vec<Vec<i64>> {
    words.chunks(n.max(1)).map(<[i64]>::to_vec).collect()
}

/// What one rank (or one device of a domain) holds after the run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RankResult {
    /// The rank died, exited early or was ended at the timeout: its entry is `{"failed": true}`
    /// and the other fields are empty.
    pub failed: bool,
    /// all_to_all_v: `recv_counts[src]` (None for the family, which has no such window).
    pub recv_counts: Option<Vec<i64>>,
    /// The target's rows, as words (empty for barrier).
    pub target: Vec<Vec<i64>>,
    /// The signal, one row per index of its leading dimension.
    pub signal: Vec<Vec<i64>>,
    /// barrier: when the rank entered the last barrier (ns, one monotonic clock for all ranks).
    pub enter_ns: Option<i64>,
    /// barrier: when it left it.
    pub leave_ns: Option<i64>,
    /// Not in the JSON: the target after each call (words, row-major), recorded by the family
    /// module's `family_record` task right after the call's collective.
    pub history: Vec<Vec<i64>>,
}

impl RankResult {
    /// A rank that failed or was ended.
    pub fn failed() -> RankResult {
        RankResult {
            failed: true,
            ..RankResult::default()
        }
    }

    /// An exchange's rank from its windows' bytes: `rows` target rows of `row_elems` `dtype`
    /// words, the `[P, stride]` i32 signal, the i32 `recv_counts`.
    pub fn from_windows(
        (dtype, rows, row_elems, stride): (Elem, usize, usize, usize),
        target: &[u8],
        signal: &[u8],
        recv: &[u8],
    ) -> RankResult {
        let target = match row_elems {
            0 => vec![Vec::new(); rows],
            n => rows_of(dtype.words(target), n),
        };
        RankResult {
            recv_counts: Some(Elem::I32.words(recv)),
            target,
            signal: rows_of(Elem::I32.words(signal), stride),
            ..RankResult::default()
        }
    }

    /// Whether the signal is `[rows, cols]` and every cell 0 (what a collective leaves behind);
    /// `Err` names the first cell that is not.
    pub fn zero_signal(&self, rows: usize, cols: usize) -> Result<(), String> {
        if self.signal.len() != rows || self.signal.iter().any(|row| row.len() != cols) {
            return Err(format!("signal is not [{rows}, {cols}]"));
        }
        for (i, row) in self.signal.iter().enumerate() {
            if let Some(j) = row.iter().position(|&v| v != 0) {
                return Err(format!("signal cell [{i}, {j}] = {}, expected 0", row[j]));
            }
        }
        Ok(())
    }

    /// The target's rows as numbers ([`Elem::value`]).
    pub fn values(&self, dtype: Elem) -> Vec<Vec<f64>> {
        self.target
            .iter()
            .map(|row| row.iter().map(|&w| dtype.value(w)).collect())
            .collect()
    }
}

/// One communication domain's windows on every device of the world (a `domains` case).
#[derive(Clone, Debug, PartialEq)]
pub struct DomainResult {
    /// N, the domain's ranks (devices 0..N).
    pub ranks: usize,
    /// B of the domain's launch (the fold of N and core_num).
    pub blocks: i64,
    /// Per world device: the domain's recv_counts, target and signal windows on it (shapes of the
    /// domain's exchange: N counts, N × max_recv rows, [N, S]).
    pub devices: Vec<RankResult>,
}

/// The outcome of a case.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimResult {
    /// `ok`, `compile_error`, `fatal`, `invalid_args`, `rank_failed` or `timeout`.
    pub status: String,
    /// The exit code of the failing step (0 when ok).
    pub code: i64,
    /// The diagnostics or runtime message; for ok the run's summary.
    pub message: String,
    /// B, the launch width the collective ran with.
    pub blocks: i64,
    /// Per rank, in rank order (filled for ok and for a runtime failure).
    pub ranks: Vec<RankResult>,
    /// A `domains` case's per-domain windows (empty otherwise; then the key is not printed).
    pub domains: Vec<DomainResult>,
    /// The ranks print `enter_ns` / `leave_ns` (a barrier case; `null` when not recorded).
    pub timed: bool,
    /// Kernel block instances started, by kernel (the end of the message in the JSON).
    pub kernels: BTreeMap<String, i64>,
    /// Not in the JSON: each rank's stage-step counter after the run (the family's).
    pub calls: Vec<i64>,
    /// Not in the JSON: barrier (rank, call, enter_ns, leave_ns) of every call.
    pub spans: Vec<(usize, usize, i64, i64)>,
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

/// A target word as its JSON number (`null` for a non-finite float).
fn value_text(dtype: Elem, w: i64) -> String {
    let v = dtype.value(w);
    match dtype {
        // f16 as the exact decimal (the family spec's form); the others as the shortest f64
        // round trip, which reads back to the same word (a bf16's exponent range is f32's, too
        // wide for `exact_decimal`).
        Elem::F16 if v.is_finite() => exact_decimal(v),
        Elem::F16 => "null".into(),
        Elem::F32 | Elem::F64 | Elem::BF16 => serde_json::Number::from_f64(v)
            .map(|n| n.to_string())
            .unwrap_or_else(|| "null".into()),
        _ => w.to_string(),
    }
}

fn list<T>(out: &mut String, items: &[T], mut item: impl FnMut(&mut String, &T)) {
    out.push('[');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        item(out, x);
    }
    out.push(']');
}

fn ints(out: &mut String, v: &[i64]) {
    list(out, v, |o, x| {
        let _ = write!(o, "{x}");
    });
}

fn rank_json(out: &mut String, r: &RankResult, dtype: Elem, timed: bool) {
    if r.failed {
        out.push_str("{\"failed\":true}");
        return;
    }
    out.push('{');
    if let Some(counts) = &r.recv_counts {
        out.push_str("\"recv_counts\":");
        ints(out, counts);
        out.push(',');
    }
    out.push_str("\"target\":");
    list(out, &r.target, |o, row| {
        list(o, row, |o, &w| o.push_str(&value_text(dtype, w)))
    });
    out.push_str(",\"signal\":");
    list(out, &r.signal, |o, row| ints(o, row));
    if timed {
        let opt = |v: Option<i64>| v.map_or("null".to_string(), |x| x.to_string());
        let _ = write!(
            out,
            ",\"enter_ns\":{},\"leave_ns\":{}",
            opt(r.enter_ns),
            opt(r.leave_ns)
        );
    }
    out.push('}');
}

/// A rank of a printed result, as read back (its target values still JSON numbers).
#[derive(Deserialize)]
struct RankJson {
    #[serde(default)]
    failed: bool,
    recv_counts: Option<Vec<i64>>,
    target: Option<Vec<Vec<serde_json::Number>>>,
    signal: Option<Vec<Vec<i64>>>,
    /// `Some` when the key is there (a barrier's rank), `null` or not.
    #[serde(default, deserialize_with = "present")]
    enter_ns: Option<Option<i64>>,
    leave_ns: Option<i64>,
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<i64>>, D::Error> {
    Option::deserialize(d).map(Some)
}

impl RankJson {
    fn into_rank(self, dtype: Elem) -> Result<RankResult, String> {
        if self.failed {
            return Ok(RankResult::failed());
        }
        let word = |x: &serde_json::Number| match dtype.is_float() {
            true => x.as_f64().map(|f| dtype.word(f)),
            false => x.as_i64(),
        };
        let (Some(rows), Some(signal)) = (self.target, self.signal) else {
            return Err("a rank without 'target' or 'signal'".into());
        };
        let target = (rows.iter())
            .map(|row| row.iter().map(word).collect::<Option<Vec<_>>>())
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| format!("a target value is not a {} value", dtype.name()))?;
        Ok(RankResult {
            recv_counts: self.recv_counts,
            target,
            signal,
            enter_ns: self.enter_ns.flatten(),
            leave_ns: self.leave_ns,
            ..RankResult::default()
        })
    }
}

/// A domain of a printed result.
#[derive(Deserialize)]
struct DomainJson {
    ranks: usize,
    blocks: i64,
    devices: Vec<RankJson>,
}

/// A printed result, as read back.
#[derive(Deserialize)]
struct ResultJson {
    status: String,
    code: i64,
    message: String,
    blocks: i64,
    ranks: Vec<RankJson>,
    #[serde(default)]
    domains: Vec<DomainJson>,
}

impl SimResult {
    /// A result without rank data.
    pub fn without_ranks(status: &str, code: i64, message: String, blocks: i64) -> SimResult {
        SimResult {
            status: status.into(),
            code,
            message,
            blocks,
            ..SimResult::default()
        }
    }

    /// The result JSON (one line) of a case whose target elements are `dtype`.
    pub fn to_json(&self, dtype: Elem) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "{{\"status\":{},\"code\":{},\"message\":{},\"blocks\":{},\"ranks\":",
            Value::from(self.status.as_str()),
            self.code,
            Value::from(self.message.as_str()),
            self.blocks
        );
        list(&mut s, &self.ranks, |o, r| {
            rank_json(o, r, dtype, self.timed)
        });
        if !self.domains.is_empty() {
            s.push_str(",\"domains\":");
            list(&mut s, &self.domains, |o, d| {
                let _ = write!(
                    o,
                    "{{\"ranks\":{},\"blocks\":{},\"devices\":",
                    d.ranks, d.blocks
                );
                list(o, &d.devices, |o, r| rank_json(o, r, dtype, self.timed));
                o.push('}');
            });
        }
        s.push('}');
        s
    }

    /// Parses a result pld-sim printed for a case whose target elements are `dtype`.
    pub fn from_json(text: &str, dtype: Elem) -> Result<SimResult, SimError> {
        SimResult::parse(text, dtype).map_err(SimError::BadResult)
    }

    fn parse(text: &str, dtype: Elem) -> Result<SimResult, String> {
        let v: ResultJson =
            serde_json::from_str(text).map_err(|e| format!("bad result JSON: {e}"))?;
        let timed = v.ranks.iter().any(|r| r.enter_ns.is_some());
        let ranks = |rs: Vec<RankJson>, at: &str| -> Result<Vec<RankResult>, String> {
            (rs.into_iter().enumerate())
                .map(|(i, r)| r.into_rank(dtype).map_err(|e| format!("{at}[{i}]: {e}")))
                .collect()
        };
        let mut out = SimResult::without_ranks(&v.status, v.code, v.message, v.blocks);
        // The block counts end the message: `kernel blocks started: name=count ...`.
        let started = out
            .message
            .split_once("kernel blocks started:")
            .map_or("", |(_, s)| s);
        out.kernels = (started.split_ascii_whitespace())
            .filter_map(|tok| {
                tok.split_once('=')
                    .and_then(|(k, v)| Some((k.into(), v.parse().ok()?)))
            })
            .collect();
        (out.ranks, out.timed) = (ranks(v.ranks, "ranks")?, timed);
        for (i, d) in v.domains.into_iter().enumerate() {
            let devices = ranks(d.devices, &format!("domains[{i}].devices"))?;
            (out.domains).push(DomainResult {
                ranks: d.ranks,
                blocks: d.blocks,
                devices,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(dtype: Elem, rows: &[&[f64]]) -> Vec<Vec<i64>> {
        rows.iter()
            .map(|r| r.iter().map(|&v| dtype.word(v)).collect())
            .collect()
    }

    #[test]
    fn round_trips() {
        for dt in [Elem::F32, Elem::I8] {
            let r = SimResult {
                status: "ok".into(),
                // The block counts end the message, and read back as the kernels'.
                message: "m; kernel blocks started: k=4 s=0".into(),
                kernels: [("k".into(), 4), ("s".into(), 0)].into(),
                blocks: 4,
                ranks: vec![
                    RankResult {
                        recv_counts: Some(vec![1, 0]),
                        target: words(dt, &[&[1.0, -2.0], &[0.0, 3.0]]),
                        signal: vec![vec![0, 0], vec![0, 0]],
                        ..RankResult::default()
                    },
                    RankResult::failed(),
                ],
                ..SimResult::default()
            };
            let text = r.to_json(dt);
            assert_eq!(SimResult::from_json(&text, dt).unwrap(), r);
            assert!(text.ends_with(r#"{"failed":true}]}"#), "{text}");
            assert!(!text.contains("domains"));
            let want = match dt {
                Elem::I8 => "[[1,-2],[0,3]]",
                _ => "[[1.0,-2.0],[0.0,3.0]]",
            };
            assert!(text.contains(want), "{text}");
            assert_eq!(r.ranks[0].values(dt), vec![vec![1.0, -2.0], vec![0.0, 3.0]]);
            let mut d = r.clone();
            d.domains = vec![DomainResult {
                ranks: 1,
                blocks: 2,
                devices: vec![r.ranks[0].clone(), r.ranks[0].clone()],
            }];
            d.ranks.clear();
            let text = d.to_json(dt);
            let dev = format!(r#"{{"recv_counts":[1,0],"target":{want},"signal":[[0,0],[0,0]]}}"#);
            assert!(
                text.ends_with(&format!(
                    r#""ranks":[],"domains":[{{"ranks":1,"blocks":2,"devices":[{dev},{dev}]}}]}}"#
                )),
                "{text}"
            );
            assert_eq!(SimResult::from_json(&text, dt).unwrap(), d);
        }
    }

    #[test]
    fn family_ranks_round_trip() {
        let barrier = SimResult {
            status: "ok".into(),
            ranks: vec![RankResult {
                signal: vec![vec![0]],
                enter_ns: Some(5),
                leave_ns: Some(9),
                ..RankResult::default()
            }],
            timed: true,
            ..SimResult::default()
        };
        let text = barrier.to_json(Elem::F32);
        assert!(
            text.ends_with(r#""ranks":[{"target":[],"signal":[[0]],"enter_ns":5,"leave_ns":9}]}"#),
            "{text}"
        );
        assert_eq!(SimResult::from_json(&text, Elem::F32).unwrap(), barrier);
        // f16: exact decimals, read back to the same words.
        let h = SimResult {
            ranks: vec![RankResult {
                target: vec![vec![0x2e66, 0x0001, 0xc000]],
                signal: vec![vec![0]],
                ..RankResult::default()
            }],
            ..SimResult::default()
        };
        let text = h.to_json(Elem::F16);
        assert!(
            text.contains("[[0.0999755859375,0.000000059604644775390625,-2]]"),
            "{text}"
        );
        assert_eq!(SimResult::from_json(&text, Elem::F16).unwrap(), h);
        // bf16, down to its smallest subnormal (2^-133): every word reads back as itself.
        let b = SimResult {
            ranks: vec![RankResult {
                target: vec![vec![0x0001, 0x3f80, 0xc2f7, 0x0080]],
                signal: vec![vec![0]],
                ..RankResult::default()
            }],
            ..SimResult::default()
        };
        let text = b.to_json(Elem::BF16);
        assert_eq!(
            SimResult::from_json(&text, Elem::BF16).unwrap(),
            b,
            "{text}"
        );
    }

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
