//! A collective-family case (family spec, "pld-sim cases for the family"): the JSON keys,
//! validated.
//!
//! pld-sim validates what it needs to write the module, fill the payload and check the result
//! (types, presence, ranges, keys that do not apply to the op); everything the dialect checks
//! (an element type outside the op's list, an unknown `reduce` or `mode`, a bad `core_num`,
//! `root` outside `[0, NR)`, S < L, the ring's rules) is written into the module as asked and
//! comes back as the case's `compile_error`, as pld-opt reports it.

use serde_json::{Map, Value, json};

use crate::SimError;
use crate::case::{bool_key, int_key, min_key, range_key, required_min, run_keys, within};

pub use super::ops::{Elem, FamilyOp};

/// Which orchestration issues the collective (`"rail"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rail {
    /// A CHIP orchestration run by every rank (the default).
    Chip,
    /// A HOST orchestrator dispatching the stage step and the collective to every device.
    Host,
}

impl Rail {
    /// The case JSON's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Rail::Chip => "chip",
            Rail::Host => "host",
        }
    }
}

/// The most values a result may carry over every rank together (as for all_to_all_v cases).
pub const MAX_RESULT_VALUES: i64 = 1 << 24;
/// The most bytes of payload pld-sim stages over all ranks and calls together (the stage
/// step's source tensor holds every rank's payload of every call).
pub const MAX_SOURCE_BYTES: i64 = 1 << 28;
/// The most back-to-back calls in one case.
pub const MAX_REPEAT: i64 = 10_000;
/// The longest barrier delay a case may ask for, in microseconds (10 s).
pub const MAX_DELAY_US: i64 = 10_000_000;

/// One family case, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyCase {
    /// The op.
    pub op: FamilyOp,
    /// P = NR, 1..16.
    pub ranks: usize,
    /// Element type (barrier: none, f32 is a placeholder and unused).
    pub dtype: Elem,
    /// M: the rows per rank block (allreduce and broadcast: the target's rows); 0 for barrier.
    pub rows: i64,
    /// E: elements per row; 0 for barrier.
    pub row_elems: i64,
    /// `reduce`, written into the module as given (`None`: the attribute is left out).
    pub reduce: Option<String>,
    /// `mode` (allreduce only; `None`: the attribute is left out, i.e. mesh).
    pub mode: Option<String>,
    /// `root` (the ops that take one; broadcast's default 0, else 0 when left out).
    pub root: i64,
    /// Whether the module writes `root` (given, or the op's default).
    pub root_given: bool,
    /// `core_num` (`None`: the attribute is left out, i.e. 1).
    pub core_num: Option<i64>,
    /// `signal_stride` S (`None`: max(L, 1), written as a `[NR]` signal when that is 1).
    pub signal_stride: Option<i64>,
    /// Back-to-back calls on one signal (1..=[`MAX_REPEAT`]).
    pub repeat: u32,
    /// The calls run as one `scf.for` (else unrolled).
    pub looped: bool,
    /// CHIP or HOST.
    pub rail: Rail,
    /// Barrier only: per rank, the microseconds it sleeps before entering each barrier (empty:
    /// no delay).
    pub delay_us: Vec<i64>,
    /// `timeout_ms` (the sim spec's, default 60000).
    pub timeout_ms: i64,
    /// `fault` (the sim spec's; process mode only).
    pub fault: Option<crate::case::Fault>,
    /// permute: `pairs` as given (`None`: the attribute is left out), written into the module
    /// as is (the dialect checks them).
    pub pairs: Option<Vec<(i64, i64)>>,
    /// `prefill`: before call 0 every rank's target holds the payload rule with k = 501 (else
    /// zeros), so a target a call leaves unchanged is observable.
    pub prefill: bool,
}

/// The call index of the `prefill` payload (family spec).
pub const PREFILL_CALL: i64 = 501;

const KEYS: [&str; 18] = [
    "op",
    "ranks",
    "dtype",
    "rows",
    "row_elems",
    "reduce",
    "mode",
    "root",
    "core_num",
    "signal_stride",
    "repeat",
    "loop",
    "rail",
    "delay_us",
    "timeout_ms",
    "fault",
    "pairs",
    "prefill",
];

fn present(obj: &Map<String, Value>, key: &str) -> bool {
    obj.get(key).is_some_and(|v| !v.is_null())
}

/// A string attribute value written into the module as given: a lowercase word, so it cannot
/// break the MLIR text (the dialect, not pld-sim, decides whether it is a valid one).
fn word_key(obj: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s))
            if !s.is_empty()
                && s.len() <= 32
                && s.chars().all(|c| c.is_ascii_lowercase() || c == '_') =>
        {
            Ok(Some(s.clone()))
        }
        Some(v) => Err(format!(
            "key '{key}' must be a lowercase word (a-z, _), got {v}"
        )),
    }
}

/// Whether a JSON case names a family op (`"op"` one of the six names).
pub fn is_family(value: &Value) -> bool {
    value
        .get("op")
        .and_then(Value::as_str)
        .is_some_and(|s| FamilyOp::from_name(s).is_some())
}

impl FamilyCase {
    /// Parses and validates a case. Errors are one-line messages naming the problem.
    pub fn from_json(text: &str) -> Result<FamilyCase, SimError> {
        FamilyCase::from_value(&crate::case::parse_case_json(text)?)
    }

    /// [`FamilyCase::from_json`] of a parsed JSON value.
    pub fn from_value(value: &Value) -> Result<FamilyCase, SimError> {
        FamilyCase::validate(value).map_err(SimError::InvalidCase)
    }

    fn validate(value: &Value) -> Result<FamilyCase, String> {
        let obj = value.as_object().ok_or("the case must be a JSON object")?;
        if let Some(unknown) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(format!(
                "unknown key '{unknown}' for a family case (known: {})",
                KEYS.join(", ")
            ));
        }
        let op = match obj.get("op") {
            Some(Value::String(s)) => FamilyOp::from_name(s),
            _ => None,
        }
        .ok_or_else(|| {
            format!(
                "op must be one of {}, got {}",
                FamilyOp::ALL.map(FamilyOp::name).join(", "),
                obj.get("op").unwrap_or(&Value::Null)
            )
        })?;
        let name = op.name();
        // Keys that do not apply to the op.
        let applies = |key: &str| match key {
            "reduce" | "mode" | "root" | "delay_us" | "pairs" => op.takes(key),
            "dtype" | "rows" | "row_elems" | "core_num" | "prefill" => op.moves_payload(),
            _ => true,
        };
        if let Some(k) = KEYS.iter().find(|k| present(obj, k) && !applies(k)) {
            return Err(format!("key '{k}' does not apply to op {name}"));
        }
        let ranks = range_key(obj, "ranks", (1, 16), None)?;
        let (timeout_ms, fault) = run_keys(obj, ranks as usize)?;
        let p = ranks;
        let ranks = ranks as usize;
        let barrier = !op.moves_payload();
        let (dtype, rows, row_elems) = if barrier {
            (Elem::F32, 0, 0)
        } else {
            // Any element type a program can name; the ones the op refuses are pld-opt's
            // compile_error.
            let dtype = match obj.get("dtype") {
                None | Some(Value::Null) => return Err("missing key 'dtype'".into()),
                Some(Value::String(s)) => Elem::from_mlir(s),
                Some(_) => None,
            }
            .ok_or_else(|| {
                format!(
                    "dtype must be an element type ({}), got {}",
                    Elem::ALL.map(Elem::name).join(", "),
                    obj["dtype"]
                )
            })?;
            (
                dtype,
                required_min(obj, "rows", 1)?,
                required_min(obj, "row_elems", 1)?,
            )
        };
        let reduce = word_key(obj, "reduce")?;
        let mode = word_key(obj, "mode")?;
        let root_key = int_key(obj, "root")?.or(op.rules().root_default);
        let (root, root_given) = (root_key.unwrap_or(0), root_key.is_some());
        let core_num = int_key(obj, "core_num")?;
        let signal_stride = min_key(obj, "signal_stride", 1)?;
        let ring = mode.as_deref() == Some("ring");
        if ring && signal_stride.is_some() {
            return Err(
                "signal_stride does not apply in ring mode (the signal is [2*(NR-1)+1, NR])".into(),
            );
        }
        let repeat = range_key(obj, "repeat", (1, MAX_REPEAT), Some(1))?;
        let looped = bool_key(obj, "loop")?;
        let rail = match obj.get("rail") {
            None | Some(Value::Null) => Rail::Chip,
            Some(Value::String(s)) if s == "chip" => Rail::Chip,
            Some(Value::String(s)) if s == "host" => Rail::Host,
            Some(v) => return Err(format!("rail must be \"chip\" or \"host\", got {v}")),
        };
        let delay_us = match obj.get("delay_us") {
            None | Some(Value::Null) => Vec::new(),
            Some(v) => {
                let list = (v.as_array())
                    .ok_or_else(|| format!("delay_us must be a list of {ranks} ints, got {v}"))?;
                if list.len() != ranks {
                    let n = list.len();
                    return Err(format!(
                        "delay_us must list {ranks} ints (one per rank), got {n}"
                    ));
                }
                let each = list.iter().enumerate().map(|(r, d)| {
                    (d.as_i64().filter(|d| (0..=MAX_DELAY_US).contains(d))).ok_or_else(|| {
                        format!("delay_us[{r}] must be an int in 0..{MAX_DELAY_US}, got {d}")
                    })
                });
                each.collect::<Result<Vec<_>, _>>()?
            }
        };
        let pairs = match obj.get("pairs") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                serde_json::from_value::<Vec<(i64, i64)>>(v.clone())
                    .ok()
                    .filter(|pairs| pairs.len() <= 64)
                    .ok_or_else(|| {
                        format!(
                            "pairs must be a list of at most 64 [source, dest] int pairs, got {v}"
                        )
                    })?,
            ),
        };
        let prefill = bool_key(obj, "prefill")?;
        let case = FamilyCase {
            op,
            ranks,
            dtype,
            rows,
            row_elems,
            reduce,
            mode,
            root,
            root_given,
            core_num,
            signal_stride,
            repeat: repeat as u32,
            looped,
            rail,
            delay_us,
            timeout_ms,
            fault,
            pairs,
            prefill,
        };
        // Sizes: every rank's windows and the stage step's source, bounded before anything is
        // allocated (a huge default S from a huge core_num included).
        if !within(&[case.target_rows(), row_elems, p], MAX_RESULT_VALUES) {
            return Err(format!(
                "the target windows of all ranks together (ranks * target rows * row_elems) exceed {MAX_RESULT_VALUES} values"
            ));
        }
        if !within(
            &[&[p][..], &case.signal_shape()].concat(),
            MAX_RESULT_VALUES,
        ) {
            return Err(format!(
                "the signal {:?} is too large: the signals of all ranks together exceed {MAX_RESULT_VALUES} values{}",
                case.signal_shape(),
                if signal_stride.is_none() {
                    " (the default S is max(core_num, 1)); give a signal_stride"
                } else {
                    ""
                }
            ));
        }
        let source = [case.payload_rows(), row_elems, dtype.size(), p, repeat];
        if !within(&source, MAX_SOURCE_BYTES) {
            return Err(format!(
                "ranks * repeat * payload rows * row_elems * element size exceeds {MAX_SOURCE_BYTES} bytes"
            ));
        }
        Ok(case)
    }

    /// Whether the case runs allreduce in ring mode (`mode = "ring"`).
    pub fn ring(&self) -> bool {
        self.op.takes("mode") && self.mode.as_deref() == Some("ring")
    }

    /// L: `core_num`, default 1.
    pub fn launch(&self) -> i64 {
        self.core_num.unwrap_or(1)
    }

    /// The launch width the collective runs with: 1 for barrier and ring mode, else L (exact,
    /// no fold), 0 when L is outside [1, 2147483647].
    pub fn blocks(&self) -> i64 {
        if self.noop() {
            return 0;
        }
        if !self.op.moves_payload() || self.ring() {
            return 1;
        }
        let l = self.launch();
        if (1..=i32::MAX as i64).contains(&l) {
            l
        } else {
            0
        }
    }

    /// S: `signal_stride`, default max(L, 1).
    pub fn stride(&self) -> i64 {
        self.signal_stride.unwrap_or_else(|| self.launch().max(1))
    }

    /// The signal window's shape: ring `[2*(NR-1)+1, NR]`; else `[NR]` when S is the default 1,
    /// `[NR, S]` otherwise.
    pub fn signal_shape(&self) -> Vec<i64> {
        let p = self.ranks as i64;
        if self.ring() {
            vec![2 * (p - 1) + 1, p]
        } else if self.signal_stride.is_none() && self.stride() == 1 {
            vec![p]
        } else {
            vec![p, self.stride()]
        }
    }

    /// The target's rows (the op's rule: e.g. NR*M for reduce_scatter, M for allreduce, 0 for
    /// barrier).
    pub fn target_rows(&self) -> i64 {
        (self.op.rules().target_rows)(self.ranks as i64, self.rows)
    }

    /// The rows of `input` (e.g. allgather M, all_to_all NR*M), `None` for ops without one.
    pub fn input_rows(&self) -> Option<i64> {
        (self.op.rules().input_rows)(self.ranks as i64, self.rows)
    }

    /// The rows of the operand the stage step writes (`input`, or `target` where there is
    /// none); 0 for barrier.
    pub fn payload_rows(&self) -> i64 {
        self.input_rows().unwrap_or_else(|| self.target_rows())
    }

    /// Whether `reduce = "prod"` (the float payload formula changes).
    pub fn prod(&self) -> bool {
        self.reduce.as_deref() == Some("prod")
    }

    /// The collective kernel's symbol (family spec, "Lowering"), for the block counts.
    pub fn kernel_symbol(&self) -> String {
        (self.op.rules().symbol)(&super::ops::Selected {
            dtype: self.dtype,
            reduce: self.reduce.as_deref().unwrap_or(""),
            ring: self.ring(),
            root: self.root,
            pairs: self.pairs.as_deref().unwrap_or(&[]),
        })
    }

    /// permute without pairs: a no-op both rails erase (no kernel, `blocks` 0).
    pub fn noop(&self) -> bool {
        self.op.takes("pairs") && self.pairs.as_ref().is_some_and(|p| p.is_empty())
    }

    /// Per rank, the rank whose input lands in its target (permute's pairs), if any.
    pub fn sources(&self) -> Vec<Option<i64>> {
        let mut out = vec![None; self.ranks];
        for &(s, d) in self.pairs.as_deref().unwrap_or(&[]) {
            if let Some(slot) = usize::try_from(d).ok().and_then(|d| out.get_mut(d)) {
                *slot = Some(s);
            }
        }
        out
    }

    /// The case as JSON (the keys it sets; defaults left out).
    pub fn to_json(&self) -> Value {
        let pairs: Option<Vec<Value>> =
            (self.pairs.as_ref()).map(|pairs| pairs.iter().map(|(s, d)| json!([s, d])).collect());
        let mut v = json!({
            "op": self.op.name(), "ranks": self.ranks, "dtype": self.dtype.name(),
            "rows": self.rows, "row_elems": self.row_elems, "reduce": self.reduce,
            "mode": self.mode, "root": self.root, "core_num": self.core_num, "pairs": pairs,
            "prefill": self.prefill, "signal_stride": self.signal_stride, "repeat": self.repeat,
            "loop": self.looped, "rail": self.rail.name(), "delay_us": self.delay_us,
        });
        let obj = v.as_object_mut().expect("an object");
        obj.retain(|k, v| match k.as_str() {
            "dtype" | "rows" | "row_elems" => self.op.moves_payload(),
            "root" => self.op.takes("root") && self.root_given,
            "prefill" => self.prefill,
            "repeat" => self.repeat != 1,
            "loop" => self.looped,
            "rail" => self.rail != Rail::Chip,
            "delay_us" => !self.delay_us.is_empty(),
            _ => !v.is_null(),
        });
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<FamilyCase, String> {
        FamilyCase::from_json(s).map_err(|e| e.to_string())
    }

    #[test]
    fn defaults_and_shapes() {
        let c = parse(r#"{"op": "allreduce", "ranks": 4, "dtype": "f16", "rows": 3, "row_elems": 8, "reduce": "sum"}"#).unwrap();
        assert_eq!((c.blocks(), c.stride(), c.signal_shape()), (1, 1, vec![4]));
        assert_eq!((c.target_rows(), c.payload_rows()), (3, 3));
        assert_eq!(c.kernel_symbol(), "__builtin_allreduce_sum__fp16");
        let c = parse(r#"{"op": "allreduce", "ranks": 4, "dtype": "f32", "rows": 4, "row_elems": 8, "reduce": "max", "mode": "ring"}"#).unwrap();
        assert_eq!(c.signal_shape(), vec![7, 4]);
        assert_eq!(c.kernel_symbol(), "__builtin_allreduce_ring_max__fp32");
        let c = parse(r#"{"op": "all_to_all", "ranks": 3, "dtype": "i8", "rows": 2, "row_elems": 5, "core_num": 4}"#).unwrap();
        assert_eq!(
            (c.target_rows(), c.input_rows(), c.signal_shape()),
            (6, Some(6), vec![3, 4])
        );
        let c = parse(r#"{"op": "broadcast", "ranks": 3, "dtype": "i32", "rows": 2, "row_elems": 5, "root": 2, "signal_stride": 1}"#).unwrap();
        assert_eq!(c.signal_shape(), vec![3, 1]);
        assert_eq!(c.kernel_symbol(), "__builtin_broadcast_root2__int32");
        let c = parse(r#"{"op": "barrier", "ranks": 2, "delay_us": [0, 300], "rail": "host", "loop": true, "repeat": 3}"#).unwrap();
        assert_eq!(
            (c.blocks(), c.payload_rows(), c.op.has_input()),
            (1, 0, false)
        );
        let back = FamilyCase::from_value(&c.to_json()).unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn malformed_keys_are_refused() {
        #[rustfmt::skip]
        let rows = [
            (r#"{"op": "allgather", "ranks": 0, "dtype": "f32", "rows": 1, "row_elems": 1}"#, "ranks must be in 1..16"),
            (r#"{"op": "allgather", "ranks": 17, "dtype": "f32", "rows": 1, "row_elems": 1}"#, "ranks must be in 1..16"),
            (r#"{"op": "allgather", "ranks": 2, "dtype": "float64", "rows": 1, "row_elems": 1}"#, "dtype must be an element type (f32, f64, f16, bf16, i8, i16, i32, i64, ui8)"),
            (r#"{"op": "allgather", "ranks": 2, "rows": 1, "row_elems": 1}"#, "missing key 'dtype'"),
            (r#"{"op": "allgather", "ranks": 2, "dtype": "f32", "row_elems": 1}"#, "missing key 'rows'"),
            (r#"{"op": "allgather", "ranks": 2, "dtype": "f32", "rows": 0, "row_elems": 1}"#, "rows must be >= 1"),
            (r#"{"op": "allgather", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 0}"#, "row_elems must be >= 1"),
            (r#"{"op": "allgather", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "reduce": "sum"}"#, "key 'reduce' does not apply to op allgather"),
            (r#"{"op": "allreduce", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "root": 0}"#, "key 'root' does not apply"),
            (r#"{"op": "reduce_scatter", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "mode": "ring"}"#, "key 'mode' does not apply"),
            (r#"{"op": "barrier", "ranks": 2, "dtype": "f32"}"#, "key 'dtype' does not apply to op barrier"),
            (r#"{"op": "barrier", "ranks": 2, "core_num": 2}"#, "key 'core_num' does not apply"),
            (r#"{"op": "allreduce", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "delay_us": [1, 2]}"#, "key 'delay_us' does not apply"),
            (r#"{"op": "barrier", "ranks": 2, "delay_us": [1]}"#, "delay_us must list 2 ints"),
            (r#"{"op": "barrier", "ranks": 2, "delay_us": [1, -1]}"#, "delay_us[1] must be an int"),
            (r#"{"op": "barrier", "ranks": 2, "delay_us": [1, 1.5]}"#, "delay_us[1] must be an int in 0..10000000, got 1.5"),
            (r#"{"op": "barrier", "ranks": 2, "delay_us": 5}"#, "delay_us must be a list"),
            (r#"{"op": "permute", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "pairs": [[0, 1], [1]]}"#, "pairs must be a list of at most 64 [source, dest] int pairs"),
            (r#"{"op": "barrier", "ranks": 2, "loop": 1}"#, "loop must be true or false"),
            (r#"{"op": "barrier", "ranks": 2, "rail": "npu"}"#, "rail must be"),
            (r#"{"op": "barrier", "ranks": 2, "repeat": 0}"#, "repeat must be in"),
            (r#"{"op": "barrier", "ranks": 2, "signal_stride": 0}"#, "signal_stride must be >= 1"),
            (r#"{"op": "barrier", "ranks": 2, "max_recv": 1}"#, "unknown key 'max_recv'"),
            (r#"{"op": "barrier", "ranks": 2, "timeout_ms": 0}"#, "timeout_ms must be an integer in 1..86400000"),
            (r#"{"op": "barrier", "ranks": 2, "fault": {"rank": 2, "kind": "crash", "at": "before"}}"#, "fault.rank must be an integer in 0..2"),
            (r#"{"op": "allreduce", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "reduce": "Sum\""}"#, "must be a lowercase word"),
            (r#"{"op": "allreduce", "ranks": 2, "dtype": "f32", "rows": 2, "row_elems": 1, "reduce": "sum", "mode": "ring", "signal_stride": 2}"#, "signal_stride does not apply in ring mode"),
            (r#"{"op": "allreduce", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "reduce": "sum", "core_num": 2147483647}"#, "give a signal_stride"),
            (r#"{"op": "allgather", "ranks": 16, "dtype": "f32", "rows": 1000, "row_elems": 1000}"#, "exceed"),
            (r#"{"op": "allreduce", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "reduce": 3}"#, "must be a lowercase word"),
        ];
        for (case, msg) in rows {
            let e = parse(case).expect_err(case);
            assert!(e.contains(msg), "{case}: {e}");
        }
    }

    #[test]
    fn the_dialect_decides_attribute_values() {
        // Written into the module as given: the dialect's check is the case's compile_error.
        for case in [
            r#"{"op": "allreduce", "ranks": 2, "dtype": "i8", "rows": 1, "row_elems": 1, "reduce": "sum"}"#,
            r#"{"op": "allreduce", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "reduce": "avg"}"#,
            r#"{"op": "allreduce", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1}"#,
            r#"{"op": "broadcast", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "root": 5}"#,
            r#"{"op": "allgather", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "core_num": 0}"#,
            r#"{"op": "allgather", "ranks": 2, "dtype": "f64", "rows": 1, "row_elems": 1}"#,
            r#"{"op": "allreduce", "ranks": 2, "dtype": "bf16", "rows": 1, "row_elems": 1, "reduce": "sum"}"#,
        ] {
            parse(case).expect(case);
        }
    }
}
