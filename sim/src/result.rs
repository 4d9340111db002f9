//! The pld-sim result JSON: `{"status", "code", "message", "blocks", "ranks": [{"recv_counts",
//! "target", "signal"}]}`; a case with `domains` has `"ranks": []` and a last key `"domains":
//! [{"ranks": N, "blocks": B, "devices": [W × {"recv_counts", "target", "signal"}]}]` (one entry
//! per world device, the domain's windows on it; devices N.. are outside the domain). A rank that
//! failed or was ended at the timeout (status `rank_failed` / `timeout`) is `{"failed": true}`.

use crate::SimError;
use serde_json::{Map, Value, json};

use crate::case::Elem;

/// What one rank holds after the run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RankResult {
    /// The rank died, exited early or was ended at the timeout: its entry is `{"failed": true}`
    /// and the other fields are empty.
    pub failed: bool,
    /// `recv_counts[src]`.
    pub recv_counts: Vec<i64>,
    /// `P * max_recv` rows of `row_elems` values (f32 or i8 values, exactly representable).
    pub target: Vec<Vec<f64>>,
    /// The `[P, S]` signal.
    pub signal: Vec<Vec<i64>>,
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

/// The outcome of a case (docs/sim.md's result JSON).
#[derive(Clone, Debug, PartialEq)]
pub struct SimResult {
    /// `ok`, `compile_error`, `fatal` or `invalid_args`.
    pub status: String,
    /// The exit code of the failing step (0 when ok).
    pub code: i64,
    /// The diagnostics or runtime message (empty when ok).
    pub message: String,
    /// B, the launch width the collective ran with.
    pub blocks: i64,
    /// Per rank, in rank order.
    pub ranks: Vec<RankResult>,
    /// A `domains` case's per-domain windows (empty otherwise; then the key is not printed).
    pub domains: Vec<DomainResult>,
}

fn rank_json(r: &RankResult, dtype: Elem) -> Value {
    if r.failed {
        return json!({"failed": true});
    }
    let target: Vec<Value> = r
        .target
        .iter()
        .map(|row| {
            Value::Array(
                row.iter()
                    .map(|&v| match dtype {
                        Elem::F32 => json!(v),
                        Elem::F16 | Elem::BF16 | Elem::F64 => json!(v),
                        _ => json!(v as i64),
                    })
                    .collect(),
            )
        })
        .collect();
    json!({"recv_counts": r.recv_counts, "target": target, "signal": r.signal})
}

fn rank_from_json(r: &Value, what: &str) -> Result<RankResult, String> {
    let ints = |v: &Value, what: &str| -> Result<Vec<i64>, String> {
        v.as_array()
            .ok_or_else(|| format!("{what} is not a list"))?
            .iter()
            .map(|x| {
                x.as_i64()
                    .ok_or_else(|| format!("{what}: {x} is not an integer"))
            })
            .collect()
    };
    if r.get("failed") == Some(&Value::Bool(true)) {
        return Ok(RankResult {
            failed: true,
            ..RankResult::default()
        });
    }
    let get = |k: &str| r.get(k).ok_or_else(|| format!("{what} without '{k}'"));
    let target = get("target")?
        .as_array()
        .ok_or("target is not a list")?
        .iter()
        .map(|row| {
            row.as_array()
                .ok_or_else(|| "target row is not a list".to_string())?
                .iter()
                .map(|x| {
                    x.as_f64()
                        .ok_or_else(|| format!("target value {x} is not a number"))
                })
                .collect::<Result<Vec<f64>, String>>()
        })
        .collect::<Result<Vec<_>, String>>()?;
    let signal = get("signal")?
        .as_array()
        .ok_or("signal is not a list")?
        .iter()
        .map(|row| ints(row, "signal row"))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(RankResult {
        failed: false,
        recv_counts: ints(get("recv_counts")?, "recv_counts")?,
        target,
        signal,
    })
}

impl SimResult {
    /// A result without rank data.
    pub fn without_ranks(status: &str, code: i64, message: String, blocks: i64) -> SimResult {
        SimResult {
            status: status.into(),
            code,
            message,
            blocks,
            ranks: Vec::new(),
            domains: Vec::new(),
        }
    }

    /// The JSON form. f32 targets print as JSON floats, i8 targets as integers.
    pub fn to_json(&self, dtype: Elem) -> Value {
        let ranks: Vec<Value> = self.ranks.iter().map(|r| rank_json(r, dtype)).collect();
        let mut obj = Map::new();
        obj.insert("status".into(), self.status.clone().into());
        obj.insert("code".into(), self.code.into());
        obj.insert("message".into(), self.message.clone().into());
        obj.insert("blocks".into(), self.blocks.into());
        obj.insert("ranks".into(), Value::Array(ranks));
        if !self.domains.is_empty() {
            let domains: Vec<Value> = self
                .domains
                .iter()
                .map(|d| {
                    let devices: Vec<Value> =
                        d.devices.iter().map(|r| rank_json(r, dtype)).collect();
                    json!({"ranks": d.ranks, "blocks": d.blocks, "devices": devices})
                })
                .collect();
            obj.insert("domains".into(), Value::Array(domains));
        }
        Value::Object(obj)
    }

    /// Parses a result pld-sim printed.
    pub fn from_json(text: &str) -> Result<SimResult, SimError> {
        SimResult::parse(text).map_err(SimError::BadResult)
    }

    fn parse(text: &str) -> Result<SimResult, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("bad result JSON: {e}"))?;
        let field = |k: &str| v.get(k).ok_or_else(|| format!("result without '{k}'"));
        let mut ranks = Vec::new();
        for (i, r) in field("ranks")?
            .as_array()
            .ok_or("ranks is not a list")?
            .iter()
            .enumerate()
        {
            ranks.push(rank_from_json(r, &format!("ranks[{i}]"))?);
        }
        let mut domains = Vec::new();
        if let Some(list) = v.get("domains") {
            for (i, d) in list
                .as_array()
                .ok_or("domains is not a list")?
                .iter()
                .enumerate()
            {
                let get = |k: &str| {
                    d.get(k)
                        .ok_or_else(|| format!("domains[{i}] without '{k}'"))
                };
                let devices = get("devices")?
                    .as_array()
                    .ok_or("devices is not a list")?
                    .iter()
                    .enumerate()
                    .map(|(w, r)| rank_from_json(r, &format!("domains[{i}].devices[{w}]")))
                    .collect::<Result<Vec<_>, String>>()?;
                domains.push(DomainResult {
                    ranks: get("ranks")?
                        .as_u64()
                        .ok_or("domain ranks is not an integer")?
                        as usize,
                    blocks: get("blocks")?
                        .as_i64()
                        .ok_or("domain blocks is not an integer")?,
                    devices,
                });
            }
        }
        Ok(SimResult {
            status: field("status")?
                .as_str()
                .ok_or("status is not a string")?
                .to_string(),
            code: field("code")?.as_i64().ok_or("code is not an integer")?,
            message: field("message")?
                .as_str()
                .ok_or("message is not a string")?
                .to_string(),
            blocks: field("blocks")?
                .as_i64()
                .ok_or("blocks is not an integer")?,
            ranks,
            domains,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let r = SimResult {
            status: "ok".into(),
            code: 0,
            message: "m".into(),
            blocks: 4,
            ranks: vec![
                RankResult {
                    failed: false,
                    recv_counts: vec![1, 0],
                    target: vec![vec![1.0, -2.0], vec![0.0, 3.0]],
                    signal: vec![vec![0, 0], vec![0, 0]],
                },
                RankResult {
                    failed: true,
                    ..RankResult::default()
                },
            ],
            domains: Vec::new(),
        };
        for dt in [Elem::F32, Elem::I8] {
            let text = r.to_json(dt).to_string();
            assert_eq!(SimResult::from_json(&text).unwrap(), r);
        }
        assert!(r.to_json(Elem::I8).to_string().contains("[[1,-2],[0,3]]"));
        assert!(
            r.to_json(Elem::I8)
                .to_string()
                .ends_with(r#"{"failed":true}]}"#)
        );
        assert!(
            r.to_json(Elem::F32)
                .to_string()
                .contains("[[1.0,-2.0],[0.0,3.0]]")
        );
        assert!(
            !r.to_json(Elem::F32)
                .as_object()
                .unwrap()
                .contains_key("domains")
        );
        let mut d = r.clone();
        d.domains = vec![DomainResult {
            ranks: 1,
            blocks: 2,
            devices: vec![r.ranks[0].clone(), r.ranks[0].clone()],
        }];
        d.ranks.clear();
        let text = d.to_json(Elem::F32).to_string();
        assert!(text.ends_with(r#""ranks":[],"domains":[{"ranks":1,"blocks":2,"devices":[{"recv_counts":[1,0],"target":[[1.0,-2.0],[0.0,3.0]],"signal":[[0,0],[0,0]]},{"recv_counts":[1,0],"target":[[1.0,-2.0],[0.0,3.0]],"signal":[[0,0],[0,0]]}]}]}"#), "{text}");
        assert_eq!(SimResult::from_json(&text).unwrap(), d);
    }
}
