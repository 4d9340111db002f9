//! The pld-sim result JSON: `{"status", "code", "message", "blocks", "ranks": [{"recv_counts",
//! "target", "signal"}]}`.

use crate::sim::SimError;
use serde_json::{Map, Value, json};

use super::case::DType;

/// What one rank holds after the run.
#[derive(Clone, Debug, PartialEq)]
pub struct RankResult {
    /// `recv_counts[src]`.
    pub recv_counts: Vec<i64>,
    /// `P * max_recv` rows of `row_elems` values (f32 or i8 values, exactly representable).
    pub target: Vec<Vec<f64>>,
    /// The `[P, S]` signal.
    pub signal: Vec<Vec<i64>>,
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
}

impl SimResult {
    /// A result without rank data.
    pub fn without_ranks(status: &str, code: i64, message: String, blocks: i64) -> SimResult {
        SimResult { status: status.into(), code, message, blocks, ranks: Vec::new() }
    }

    /// The JSON form. f32 targets print as JSON floats, i8 targets as integers.
    pub fn to_json(&self, dtype: DType) -> Value {
        let ranks: Vec<Value> = self
            .ranks
            .iter()
            .map(|r| {
                let target: Vec<Value> = r
                    .target
                    .iter()
                    .map(|row| {
                        Value::Array(
                            row.iter()
                                .map(|&v| match dtype {
                                    DType::F32 => json!(v),
                                    DType::I8 => json!(v as i64),
                                })
                                .collect(),
                        )
                    })
                    .collect();
                json!({"recv_counts": r.recv_counts, "target": target, "signal": r.signal})
            })
            .collect();
        let mut obj = Map::new();
        obj.insert("status".into(), self.status.clone().into());
        obj.insert("code".into(), self.code.into());
        obj.insert("message".into(), self.message.clone().into());
        obj.insert("blocks".into(), self.blocks.into());
        obj.insert("ranks".into(), Value::Array(ranks));
        Value::Object(obj)
    }

    /// Parses a result pld-sim printed.
    pub fn from_json(text: &str) -> Result<SimResult, SimError> {
        SimResult::parse(text).map_err(SimError::BadResult)
    }

    fn parse(text: &str) -> Result<SimResult, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("bad result JSON: {e}"))?;
        let field = |k: &str| v.get(k).ok_or_else(|| format!("result without '{k}'"));
        let ints = |v: &Value, what: &str| -> Result<Vec<i64>, String> {
            v.as_array()
                .ok_or_else(|| format!("{what} is not a list"))?
                .iter()
                .map(|x| x.as_i64().ok_or_else(|| format!("{what}: {x} is not an integer")))
                .collect()
        };
        let mut ranks = Vec::new();
        for (i, r) in field("ranks")?.as_array().ok_or("ranks is not a list")?.iter().enumerate() {
            let get = |k: &str| r.get(k).ok_or_else(|| format!("ranks[{i}] without '{k}'"));
            let target = get("target")?
                .as_array()
                .ok_or("target is not a list")?
                .iter()
                .map(|row| {
                    row.as_array()
                        .ok_or_else(|| "target row is not a list".to_string())?
                        .iter()
                        .map(|x| x.as_f64().ok_or_else(|| format!("target value {x} is not a number")))
                        .collect::<Result<Vec<f64>, String>>()
                })
                .collect::<Result<Vec<_>, String>>()?;
            let signal = get("signal")?
                .as_array()
                .ok_or("signal is not a list")?
                .iter()
                .map(|row| ints(row, "signal row"))
                .collect::<Result<Vec<_>, String>>()?;
            ranks.push(RankResult { recv_counts: ints(get("recv_counts")?, "recv_counts")?, target, signal });
        }
        Ok(SimResult {
            status: field("status")?.as_str().ok_or("status is not a string")?.to_string(),
            code: field("code")?.as_i64().ok_or("code is not an integer")?,
            message: field("message")?.as_str().ok_or("message is not a string")?.to_string(),
            blocks: field("blocks")?.as_i64().ok_or("blocks is not an integer")?,
            ranks,
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
            ranks: vec![RankResult {
                recv_counts: vec![1, 0],
                target: vec![vec![1.0, -2.0], vec![0.0, 3.0]],
                signal: vec![vec![0, 0], vec![0, 0]],
            }],
        };
        for dt in [DType::F32, DType::I8] {
            let text = r.to_json(dt).to_string();
            assert_eq!(SimResult::from_json(&text).unwrap(), r);
        }
        assert!(r.to_json(DType::I8).to_string().contains("[[1,-2],[0,3]]"));
        assert!(r.to_json(DType::F32).to_string().contains("[[1.0,-2.0],[0.0,3.0]]"));
    }
}
