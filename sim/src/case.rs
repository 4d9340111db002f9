//! A pld-sim case (docs/sim.md, the case table of the sim spec): parsing and validation.

use crate::SimError;
use serde_json::{Map, Value, json};

use pld::cal_all_to_all_v_blocks;

pub use pld_run::elem::Elem;

/// The collective a case runs (`"op"`, default `all_to_all_v`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `pld.tensor.all_to_all_v`.
    AllToAllV,
    /// `pld.tensor.indexed_all_to_all_v` (docs/spec/indexed.md): `index` gathers the rows,
    /// `core_num` is the exact launch width, the module is `pl.arch = "a5"`.
    IndexedAllToAllV,
}

impl Op {
    /// The case JSON's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Op::AllToAllV => "all_to_all_v",
            Op::IndexedAllToAllV => "indexed_all_to_all_v",
        }
    }
    /// The collective's operands, in its signature's order.
    pub fn operands(self) -> &'static [Operand] {
        match self {
            Op::AllToAllV => &Operand::INDEXED[..5],
            Op::IndexedAllToAllV => &Operand::INDEXED,
        }
    }
}

/// A collective operand, by its name in the all_to_all_v signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// `input`.
    Input,
    /// `target`.
    Target,
    /// `signal`.
    Signal,
    /// `send_counts`.
    SendCounts,
    /// `recv_counts`.
    RecvCounts,
    /// The indexed op's gather list.
    Index,
}

impl Operand {
    /// The indexed op's operands (the plain op's are the first five).
    pub const INDEXED: [Operand; 6] = [
        Operand::Input,
        Operand::Target,
        Operand::Signal,
        Operand::SendCounts,
        Operand::RecvCounts,
        Operand::Index,
    ];

    /// The operand's name in the signature.
    pub fn name(self) -> &'static str {
        match self {
            Operand::Input => "input",
            Operand::Target => "target",
            Operand::Signal => "signal",
            Operand::SendCounts => "send_counts",
            Operand::RecvCounts => "recv_counts",
            Operand::Index => "index",
        }
    }

    /// The operand named `name`.
    pub fn from_name(name: &str) -> Option<Operand> {
        Operand::INDEXED.into_iter().find(|o| o.name() == name)
    }
}

/// The largest payload pld-sim accepts per rank (input or target window), so a typo cannot ask
/// for terabytes.
pub const MAX_PAYLOAD_BYTES: i64 = 1 << 30;

/// The most values a result may carry for one operand over every rank (`P × P·max_recv ×
/// row_elems` target values, `P × P × S` signal cells). The simulator holds four payload
/// buffers per rank and the result prints every target value and signal cell, so the bound is
/// over all ranks together: a per-rank bound alone let `ranks: 16, row_elems: 2^24` through,
/// which needs 64 GiB and was killed by the OOM killer.
pub const MAX_RESULT_VALUES: i64 = 1 << 24;

/// The most communication domains a case may list (`domains`).
pub const MAX_DOMAINS: usize = 8;

/// One communication domain of a `domains` case (docs/sim.md, "Communication domains"): devices
/// `0..ranks` of the world, its own CommContext per device (rankNum = `ranks`), its own windows,
/// and its own exchange (`send_counts` is `ranks` × `ranks`).
#[derive(Clone, Debug, PartialEq)]
pub struct Domain {
    /// N, the domain's rank count (1..=the world's).
    pub ranks: usize,
    /// `send_counts[src][dst]` of the domain's exchange (N × N).
    pub send_counts: Vec<Vec<i32>>,
}

/// The most `layers` a case may ask for: the loop runs in the generated orchestration, one
/// exchange per iteration, so this bounds one call's work the way `repeat` bounds the calls.
pub const MAX_LAYERS: i64 = 64;

/// One pld-sim case (docs/sim.md): the JSON keys, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// P, 1..16.
    pub ranks: usize,
    /// L, the requested block limit (passed to the module as `core_num`; pld-opt checks it).
    pub core_num: i64,
    /// The payload element type.
    pub dtype: Elem,
    /// MAX_RECV: rows each rank can receive from each source.
    pub max_recv: i64,
    /// Elements per row.
    pub row_elems: i64,
    /// `send_counts[src][dst]`, any int32.
    pub send_counts: Vec<Vec<i32>>,
    /// S; `None` means B.
    pub signal_stride: Option<i64>,
    /// Calls of `chip_pipeline` per run (each one exchange per layer).
    pub repeat: u32,
    /// The target's AIV cores (`aiv-cores` of lower-l2).
    pub aiv_capacity: i64,
    /// An operand passed through a non-contiguous view (the case must be refused).
    pub non_contiguous: Option<Operand>,
    /// N, 1..=[`MAX_LAYERS`]: the exchanges of one `chip_pipeline` call, an `scf.for` in the
    /// module when > 1 (iteration k > 0 stages what iteration k - 1 received).
    pub layers: u32,
    /// Not a case key (always 1 from JSON): with M > 1 the module nests an inner `scf.for` of M
    /// iterations inside the `layers` loop, N × M exchanges in all, iteration (i, j) being
    /// exchange i·M + j; the expected outcome is that of `layers` = N × M. Tests only.
    pub inner_layers: u32,
    /// `core_num` is a runtime `i64` parameter of `chip_pipeline` (appended after the tensor
    /// parameters, OrchArgs scalar 0), passed by the driver, instead of the collective's
    /// `core_num` attribute. The generated orchestration computes B and checks `1 <= L <=
    /// 2147483647` and `S >= B` itself (error 5 before the collective when not).
    pub runtime_core_num: bool,
    /// The collective (`"op"`).
    pub op: Op,
    /// N_in, the rows of the input (indexed op only; `None`: P * max_recv).
    pub input_rows: Option<i64>,
    /// `index[src][d*max_recv + k]`, P lists of P * max_recv int32 (indexed op only; `None`: the
    /// identity, `index[src][j] = j`).
    pub index: Option<Vec<Vec<i32>>>,
    /// Communication domains (`"domains"`; empty: none, the case's one exchange over all `ranks`).
    /// With domains, `ranks` is the world's device count W, `send_counts` is empty, and each
    /// domain runs its own `chip_pipeline` (the module of [`Case::domain_case`]) over devices
    /// `0..N` with `rankNum = N`.
    pub domains: Vec<Domain>,
    /// `timeout_ms`: the wall-clock bound of the run (default [`DEFAULT_TIMEOUT_MS`]); past it
    /// every rank still running is ended and the status is `timeout`.
    pub timeout_ms: i64,
    /// `fault`: a rank that crashes, hangs or exits early (process mode only).
    pub fault: Option<Fault>,
    /// Not a case key (always `None` from JSON; a listed raw case shows it as `"launch"`, which
    /// the parser refuses): a raw launch of the case's kernel (`crate::raw`), the launches
    /// pld-opt never emits. Tests only.
    pub launch: Option<Launch>,
}

/// A raw launch (docs/sim.md "Raw launches"): the engine's test hook submits the case's kernel
/// itself, with operands laid out as these fields say, instead of running `chip_pipeline`.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// B, the launch width: any width, not only the one pld-opt derives from `core_num`.
    pub blocks: i64,
    /// The context slots after the tensors.
    pub contexts: Contexts,
    /// `send_counts` and `recv_counts` as `[P, 1]` instead of `[P]`.
    pub counts_2d: bool,
    /// The indexed op's `index` as `[N, 1]` instead of `[N]`.
    pub index_2d: bool,
    /// The indexed op's `recv_counts` in the rank's own memory instead of the window.
    pub recv_local: bool,
    /// The byte every target starts as (rows past a count keep it; not 0xff, whose f32 is a
    /// NaN, which no comparison matches).
    pub target_fill: u8,
    /// The value every `recv_counts` entry starts as.
    pub recv_fill: i32,
    /// Target rows past P × `max_recv` (the kernel's MAX_RECV is the rows over P, rounded
    /// down: these rows are never written).
    pub extra_rows: i64,
    /// The indexed op's input rows of this many elements instead of `row_elems` (a row the
    /// target cannot hold: no input row is readable, every sent row is zeros).
    pub input_row_elems: Option<i64>,
    /// The indexed op's `index` of only this many entries (the positions past it name no row).
    pub index_len: Option<i64>,
}

impl Launch {
    /// A launch of width `blocks`, the CHIP rail's contexts and every operand as pld-opt lays
    /// it out.
    pub fn new(blocks: i64) -> Launch {
        Launch {
            blocks,
            contexts: Contexts::Three,
            counts_2d: false,
            index_2d: false,
            recv_local: false,
            target_fill: 0,
            recv_fill: 0,
            extra_rows: 0,
            input_row_elems: None,
            index_len: None,
        }
    }
}

/// A raw launch's context slots (the kernel reads only the first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contexts {
    /// The rank's context alone (the HOST rail's one slot).
    One,
    /// Three slots, each the rank's context (the CHIP rail's duplicates).
    Three,
    /// The rank's context and two null slots (never read).
    NullExtras,
}

/// The default `timeout_ms`.
pub const DEFAULT_TIMEOUT_MS: i64 = 60000;

/// How a faulty rank ends (`fault.kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The rank SIGKILLs itself.
    Crash,
    /// The rank blocks forever.
    Hang,
    /// The rank exits 0 early.
    Exit,
}

/// Where a faulty rank ends (`fault.at`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultAt {
    /// Before the collective (before the rank's orchestration body).
    Before,
    /// Inside the kernel, right after the rank's first signal post.
    Inside,
    /// After the collective (after the body returned).
    After,
}

/// The `fault` case key: `{"rank": r, "kind": "crash" | "hang" | "exit", "at": "before" |
/// "inside" | "after"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The rank (device) that fails.
    pub rank: usize,
    /// How.
    pub kind: FaultKind,
    /// Where.
    pub at: FaultAt,
}

const FAULT_KINDS: [(FaultKind, &str); 3] = [
    (FaultKind::Crash, "crash"),
    (FaultKind::Hang, "hang"),
    (FaultKind::Exit, "exit"),
];
const FAULT_ATS: [(FaultAt, &str); 3] = [
    (FaultAt::Before, "before"),
    (FaultAt::Inside, "inside"),
    (FaultAt::After, "after"),
];

/// The word of `v` in a key's table of words.
fn word<T: PartialEq>(words: &[(T, &'static str)], v: &T) -> &'static str {
    words.iter().find(|(w, _)| w == v).map_or("", |&(_, s)| s)
}

/// `fault.<key>`: one of `words`, or an error listing them.
fn pick<T: Copy>(f: &Map<String, Value>, key: &str, words: &[(T, &str)]) -> Result<T, String> {
    let got = f.get(key);
    if let Some(&(v, _)) = words
        .iter()
        .find(|(_, w)| got.and_then(Value::as_str) == Some(*w))
    {
        return Ok(v);
    }
    let quoted: Vec<String> = words.iter().map(|(_, w)| format!("\"{w}\"")).collect();
    Err(format!(
        "fault.{key} must be {} or {}, got {}",
        quoted[..quoted.len() - 1].join(", "),
        quoted[quoted.len() - 1],
        got.map_or("nothing".into(), |v| v.to_string())
    ))
}

impl FaultKind {
    /// The key's word.
    pub fn name(self) -> &'static str {
        word(&FAULT_KINDS, &self)
    }
}

impl FaultAt {
    /// The key's word.
    pub fn name(self) -> &'static str {
        word(&FAULT_ATS, &self)
    }
}

/// Parses the `timeout_ms` and `fault` keys (shared by every case kind, the family's too):
/// `timeout_ms` in 1..=86400000, `fault.rank` in 0..ranks.
pub fn run_keys(obj: &Map<String, Value>, ranks: usize) -> Result<(i64, Option<Fault>), String> {
    let timeout_ms = match obj.get("timeout_ms") {
        None | Some(Value::Null) => DEFAULT_TIMEOUT_MS,
        Some(v) => match v.as_i64() {
            Some(n) if (1..=86_400_000).contains(&n) => n,
            _ => {
                return Err(format!(
                    "timeout_ms must be an integer in 1..86400000, got {v}"
                ));
            }
        },
    };
    let fault = match obj.get("fault") {
        None | Some(Value::Null) => None,
        Some(Value::Object(f)) => {
            if let Some(k) = f
                .keys()
                .find(|k| !["rank", "kind", "at"].contains(&k.as_str()))
            {
                return Err(format!("fault: unknown key '{k}' (known: rank, kind, at)"));
            }
            let rank = match f.get("rank").and_then(Value::as_i64) {
                Some(r) if (0..ranks as i64).contains(&r) => r as usize,
                _ => {
                    return Err(format!(
                        "fault.rank must be an integer in 0..{ranks}, got {}",
                        f.get("rank").map_or("nothing".into(), |v| v.to_string())
                    ));
                }
            };
            let (kind, at) = (pick(f, "kind", &FAULT_KINDS)?, pick(f, "at", &FAULT_ATS)?);
            Some(Fault { rank, kind, at })
        }
        Some(v) => {
            return Err(format!(
                "fault must be an object {{rank, kind, at}}, got {v}"
            ));
        }
    };
    Ok((timeout_ms, fault))
}

const KEYS: [&str; 18] = [
    "timeout_ms",
    "fault",
    "ranks",
    "core_num",
    "dtype",
    "max_recv",
    "row_elems",
    "send_counts",
    "signal_stride",
    "repeat",
    "aiv_capacity",
    "non_contiguous",
    "layers",
    "runtime_core_num",
    "op",
    "input_rows",
    "index",
    "domains",
];

/// An optional integer key (`null` is absent).
pub(crate) fn int_key(obj: &Map<String, Value>, key: &str) -> Result<Option<i64>, String> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_i64()
            .map(Some)
            .ok_or_else(|| format!("key '{key}' must be an integer, got {v}")),
    }
}

/// `key`: `rows` lists of `n` int32 each (`shape` says so in an error, `[lists, list]` naming the
/// outer level's items).
fn int32_lists(
    v: &Value,
    key: &str,
    (rows, n): (usize, usize),
    shape: &str,
    [lists, list]: [&str; 2],
) -> Result<Vec<Vec<i32>>, String> {
    let outer = v
        .as_array()
        .ok_or_else(|| format!("{key} must be a list of {rows} lists"))?;
    if outer.len() != rows {
        return Err(format!(
            "{key} must be {shape}, got {} {lists}",
            outer.len()
        ));
    }
    let mut out = Vec::with_capacity(rows);
    for (src, row) in outer.iter().enumerate() {
        let row = row
            .as_array()
            .ok_or_else(|| format!("{key}[{src}] must be a list of {n} ints"))?;
        if row.len() != n {
            return Err(format!(
                "{key} must be {shape}, {list} {src} has {} entries",
                row.len()
            ));
        }
        let ints = row.iter().enumerate().map(|(j, v)| {
            v.as_i64()
                .and_then(|x| i32::try_from(x).ok())
                .ok_or_else(|| format!("{key}[{src}][{j}] must be an int32, got {v}"))
        });
        out.push(ints.collect::<Result<_, _>>()?);
    }
    Ok(out)
}

fn required_int(obj: &Map<String, Value>, key: &str) -> Result<i64, String> {
    int_key(obj, key)?.ok_or_else(|| format!("missing key '{key}'"))
}

/// Whether the product of `factors` is at most `bound` (an overflow is not).
pub(crate) fn within(factors: &[i64], bound: i64) -> bool {
    (factors.iter())
        .try_fold(1i64, |acc, &f| acc.checked_mul(f))
        .is_some_and(|n| n <= bound)
}

/// An optional integer key of at least `min`.
pub(crate) fn min_key(
    obj: &Map<String, Value>,
    key: &str,
    min: i64,
) -> Result<Option<i64>, String> {
    match int_key(obj, key)? {
        Some(n) if n < min => Err(format!("{key} must be >= {min}, got {n}")),
        v => Ok(v),
    }
}

/// A required integer key of at least `min`.
pub(crate) fn required_min(obj: &Map<String, Value>, key: &str, min: i64) -> Result<i64, String> {
    min_key(obj, key, min)?.ok_or_else(|| format!("missing key '{key}'"))
}

/// An integer key in `lo..=hi`, `default` when absent (`None`: the key is required).
pub(crate) fn range_key(
    obj: &Map<String, Value>,
    key: &str,
    (lo, hi): (i64, i64),
    default: Option<i64>,
) -> Result<i64, String> {
    let n = int_key(obj, key)?.or(default);
    match n.ok_or_else(|| format!("missing key '{key}'"))? {
        n if (lo..=hi).contains(&n) => Ok(n),
        n => Err(format!("{key} must be in {lo}..{hi}, got {n}")),
    }
}

/// An optional boolean key (absent: false).
pub(crate) fn bool_key(obj: &Map<String, Value>, key: &str) -> Result<bool, String> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(v) => Err(format!("{key} must be true or false, got {v}")),
    }
}

impl Case {
    /// A plain all_to_all_v case: these fields, every other at its default (no signal stride,
    /// one exchange, capacity 48, contiguous, one layer, a static core_num, no domain, index
    /// or fault, the default timeout).
    pub fn exchange(
        ranks: usize,
        core_num: i64,
        dtype: Elem,
        max_recv: i64,
        row_elems: i64,
        send_counts: Vec<Vec<i32>>,
    ) -> Case {
        Case {
            ranks,
            core_num,
            dtype,
            max_recv,
            row_elems,
            send_counts,
            signal_stride: None,
            repeat: 1,
            aiv_capacity: 48,
            non_contiguous: None,
            layers: 1,
            inner_layers: 1,
            runtime_core_num: false,
            op: Op::AllToAllV,
            input_rows: None,
            index: None,
            domains: Vec::new(),
            timeout_ms: DEFAULT_TIMEOUT_MS,
            fault: None,
            launch: None,
        }
    }

    /// Parses and validates a case. Errors are one-line messages naming the problem.
    pub fn from_json(text: &str) -> Result<Case, SimError> {
        Case::from_value(&parse_case_json(text)?)
    }

    /// [`Case::from_json`] of a parsed JSON value.
    pub fn from_value(value: &Value) -> Result<Case, SimError> {
        Case::validate(value).map_err(SimError::InvalidCase)
    }

    fn validate(value: &Value) -> Result<Case, String> {
        let obj = value.as_object().ok_or("the case must be a JSON object")?;
        if obj.contains_key("launch") {
            return Err(
                "'launch' is a raw launch of the matrix (pld-sim --matrix --filter raw:), a test hook, not a case key"
                    .into(),
            );
        }
        if let Some(unknown) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(format!(
                "unknown key '{unknown}' (known: {})",
                KEYS.join(", ")
            ));
        }
        let ranks = range_key(obj, "ranks", (1, 16), None)? as usize;
        let (timeout_ms, fault) = run_keys(obj, ranks)?;
        if obj.get("domains").is_some_and(|v| !v.is_null()) {
            let mut case = Case::with_domains(obj, ranks)?;
            case.timeout_ms = timeout_ms;
            case.fault = fault;
            return Ok(case);
        }
        let op = match obj.get("op") {
            None | Some(Value::Null) => Op::AllToAllV,
            Some(Value::String(s)) if s == "all_to_all_v" => Op::AllToAllV,
            Some(Value::String(s)) if s == "indexed_all_to_all_v" => Op::IndexedAllToAllV,
            Some(v) => {
                // (A family op never gets here: pld-sim dispatches those first.)
                return Err(format!(
                    "op must be \"all_to_all_v\" or \"indexed_all_to_all_v\" (or a family op, docs/sim.md), got {v}"
                ));
            }
        };
        let core_num = required_int(obj, "core_num")?;
        // Any element type a program can name; all but f32 and i8 are pld-opt's compile_error
        // (the CHIP rail moves only those).
        let dtype = match obj.get("dtype") {
            None => return Err("missing key 'dtype'".into()),
            Some(v) => v.as_str().and_then(Elem::from_mlir).ok_or_else(|| {
                format!(
                    "dtype must be an element type ({}), got {v}",
                    Elem::ALL.map(Elem::name).join(", ")
                )
            })?,
        };
        let max_recv = required_min(obj, "max_recv", 1)?;
        let row_elems = required_min(obj, "row_elems", 1)?;
        let p = ranks as i64;
        if !within(&[p, max_recv, row_elems, dtype.size()], MAX_PAYLOAD_BYTES) {
            return Err(format!(
                "ranks * max_recv * row_elems * element size exceeds {MAX_PAYLOAD_BYTES} bytes"
            ));
        }
        if !within(&[p, p, max_recv, row_elems], MAX_RESULT_VALUES) {
            return Err(format!(
                "the target windows of all ranks together (ranks * ranks * max_recv * row_elems) exceed {MAX_RESULT_VALUES} values"
            ));
        }

        let send_counts = obj.get("send_counts").ok_or("missing key 'send_counts'")?;
        let shape = format!("{ranks} x {ranks} (ranks = {ranks})");
        let send_counts = int32_lists(
            send_counts,
            "send_counts",
            (ranks, ranks),
            &shape,
            ["rows", "row"],
        )?;

        // The indexed op's keys.
        let indexed = op == Op::IndexedAllToAllV;
        for key in ["input_rows", "index"] {
            if !indexed && obj.get(key).is_some_and(|v| !v.is_null()) {
                return Err(format!(
                    "key '{key}' needs \"op\": \"indexed_all_to_all_v\""
                ));
            }
        }
        let input_rows = min_key(obj, "input_rows", 1)?;
        if let Some(n) = input_rows {
            if !within(&[n, row_elems, dtype.size()], MAX_PAYLOAD_BYTES) {
                return Err(format!(
                    "input_rows * row_elems * element size exceeds {MAX_PAYLOAD_BYTES} bytes"
                ));
            }
        }
        let index = match obj.get("index") {
            None | Some(Value::Null) => None,
            Some(v) => {
                let slots = ranks * max_recv as usize;
                let shape = format!("{ranks} lists of {slots} ints (ranks * max_recv)");
                Some(int32_lists(
                    v,
                    "index",
                    (ranks, slots),
                    &shape,
                    ["lists", "list"],
                )?)
            }
        };

        let signal_stride = min_key(obj, "signal_stride", 1)?;
        if let Some(s) = signal_stride
            && (ranks as i64 * ranks as i64).saturating_mul(s) > MAX_RESULT_VALUES
        {
            return Err(format!(
                "signal_stride {s} is too large: the signals of all ranks together (ranks * ranks * signal_stride) exceed {MAX_RESULT_VALUES} values"
            ));
        }
        let repeat = range_key(obj, "repeat", (1, 1_000_000), Some(1))?;
        let layers = range_key(obj, "layers", (1, MAX_LAYERS), Some(1))?;
        if indexed && layers > 1 {
            return Err(format!(
                "layers {layers}: a looped pipeline is not written for op indexed_all_to_all_v (its input need not have the target's rows)"
            ));
        }
        let runtime_core_num = bool_key(obj, "runtime_core_num")?;
        let aiv_capacity = int_key(obj, "aiv_capacity")?.unwrap_or(48);
        if !(1..=i32::MAX as i64).contains(&aiv_capacity) {
            return Err(format!(
                "aiv_capacity must be in [1, 2147483647], got {aiv_capacity}"
            ));
        }
        let non_contiguous = match obj.get("non_contiguous") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s == "none" => None,
            Some(Value::String(s)) => Some(Operand::from_name(s).ok_or_else(|| {
                format!(
                    "non_contiguous must name a collective operand (input, target, signal, send_counts, recv_counts{}), got \"{s}\"",
                    if indexed { ", index" } else { "" }
                )
            })
            .and_then(|o| {
                if op.operands().contains(&o) {
                    Ok(o)
                } else {
                    Err(format!("non_contiguous: \"{s}\" is an operand of op indexed_all_to_all_v only"))
                }
            })?),
            Some(v) => return Err(format!("non_contiguous must be a string, got {v}")),
        };
        let case = Case {
            signal_stride,
            repeat: repeat as u32,
            aiv_capacity,
            non_contiguous,
            layers: layers as u32,
            runtime_core_num,
            op,
            input_rows,
            index,
            timeout_ms,
            fault,
            ..Case::exchange(ranks, core_num, dtype, max_recv, row_elems, send_counts)
        };
        // The default S is B, which a huge core_num makes huge (an explicit S was checked above).
        if signal_stride.is_none()
            && (ranks as i64 * ranks as i64).saturating_mul(case.stride()) > MAX_RESULT_VALUES
        {
            return Err(format!(
                "the default signal_stride B = {} (core_num {core_num}) is too large: the signals of all ranks together (ranks * ranks * signal_stride) exceed {MAX_RESULT_VALUES} values; give a signal_stride",
                case.stride()
            ));
        }
        if let Some(op) = non_contiguous
            && case.operand_shape(op).iter().all(|&d| d <= 1)
        {
            return Err(format!(
                "non_contiguous: operand '{}' has shape {:?}, every extent <= 1, so no view of it is strided",
                op.name(),
                case.operand_shape(op)
            ));
        }
        Ok(case)
    }

    /// A case with `domains` (docs/sim.md, "Communication domains"): `ranks` is the world W;
    /// each domain is `{"ranks": N, "send_counts": N x N}` with 1 <= N <= W, validated as the case
    /// of its own exchange (every other key shared: the domain's case is this one with `ranks` N
    /// and the domain's `send_counts`). No top-level `send_counts`; the plain op only, and no
    /// `non_contiguous` (a refusal across several domains is not modelled).
    fn with_domains(obj: &Map<String, Value>, world: usize) -> Result<Case, String> {
        if obj.contains_key("send_counts") {
            return Err(
                "a case with domains has no top-level send_counts (each domain has its own)".into(),
            );
        }
        if obj
            .get("op")
            .is_some_and(|v| !v.is_null() && v.as_str() != Some("all_to_all_v"))
        {
            return Err("domains: only op all_to_all_v runs in several domains".into());
        }
        if obj
            .get("non_contiguous")
            .is_some_and(|v| !v.is_null() && v.as_str() != Some("none"))
        {
            return Err("domains: non_contiguous is not supported in a case with domains".into());
        }
        let list = obj["domains"]
            .as_array()
            .ok_or_else(|| format!("domains must be a list of 1..{MAX_DOMAINS} objects {{\"ranks\": N, \"send_counts\": N x N}}"))?;
        if list.is_empty() || list.len() > MAX_DOMAINS {
            return Err(format!(
                "domains must list 1..{MAX_DOMAINS} domains, got {}",
                list.len()
            ));
        }
        let mut domains = Vec::with_capacity(list.len());
        let mut first: Option<Case> = None;
        for (i, d) in list.iter().enumerate() {
            let d = d.as_object().ok_or_else(|| {
                format!("domains[{i}] must be an object {{\"ranks\": N, \"send_counts\": N x N}}")
            })?;
            if let Some(k) = d.keys().find(|k| *k != "ranks" && *k != "send_counts") {
                return Err(format!(
                    "domains[{i}]: unknown key '{k}' (known: ranks, send_counts)"
                ));
            }
            let n = required_int(d, "ranks").map_err(|e| format!("domains[{i}]: {e}"))?;
            if !(1..=world as i64).contains(&n) {
                return Err(format!(
                    "domains[{i}]: ranks must be in 1..{world} (the world's ranks), got {n}"
                ));
            }
            let mut sub = obj.clone();
            sub.remove("domains");
            sub.remove("fault");
            sub.insert("ranks".into(), n.into());
            sub.insert(
                "send_counts".into(),
                d.get("send_counts")
                    .cloned()
                    .ok_or_else(|| format!("domains[{i}]: missing key 'send_counts'"))?,
            );
            let c =
                Case::from_value(&Value::Object(sub)).map_err(|e| format!("domains[{i}]: {e}"))?;
            domains.push(Domain {
                ranks: c.ranks,
                send_counts: c.send_counts.clone(),
            });
            first.get_or_insert(c);
        }
        let mut case = first.expect("at least one domain");
        case.ranks = world;
        case.send_counts = Vec::new();
        case.domains = domains;
        Ok(case)
    }

    /// The case of domain `d`'s own exchange: this case with `ranks` N and the domain's counts.
    pub fn domain_case(&self, d: usize) -> Case {
        let dom = &self.domains[d];
        Case {
            ranks: dom.ranks,
            send_counts: dom.send_counts.clone(),
            domains: Vec::new(),
            ..self.clone()
        }
    }

    /// The case back as JSON (every key spelled out but the ones at their default).
    pub fn to_json(&self) -> Value {
        let domains: Vec<Value> = (self.domains.iter())
            .map(|d| json!({"ranks": d.ranks, "send_counts": d.send_counts}))
            .collect();
        let mut v = json!({
            "ranks": self.ranks, "core_num": self.core_num, "dtype": self.dtype.name(),
            "max_recv": self.max_recv, "row_elems": self.row_elems,
            "send_counts": self.send_counts, "domains": domains,
            "signal_stride": self.signal_stride, "repeat": self.repeat,
            "aiv_capacity": self.aiv_capacity, "non_contiguous": self.non_contiguous.map(Operand::name),
            "layers": self.layers, "runtime_core_num": self.runtime_core_num, "op": self.op.name(),
            "input_rows": self.input_rows, "index": self.index, "timeout_ms": self.timeout_ms,
            "fault": self.fault.map(|f| json!({"rank": f.rank, "kind": f.kind.name(), "at": f.at.name()})),
            // A raw launch is listed (`--list`) but is no case key: reading it back is refused.
            "launch": self.launch.as_ref().map(|l| format!("{l:?}")),
        });
        let obj = v.as_object_mut().expect("an object");
        let plain = self.domains.is_empty();
        obj.retain(|k, v| match k.as_str() {
            "send_counts" => plain,
            "domains" => !plain,
            "runtime_core_num" => self.runtime_core_num,
            "op" => self.op != Op::AllToAllV,
            "timeout_ms" => self.timeout_ms != DEFAULT_TIMEOUT_MS,
            _ => !v.is_null(),
        });
        v
    }

    /// Exchanges per `chip_pipeline` call: `layers` (× the internal `inner_layers`).
    pub fn exchanges_per_call(&self) -> i64 {
        self.layers as i64 * self.inner_layers as i64
    }

    /// B, the admitted launch width: `L < P ? L : L / P * P`; 0 when `core_num` is not a valid
    /// limit (pld-opt then rejects the module, or, with `runtime_core_num`, the generated
    /// orchestration refuses it with error 5 before computing a launch from it). With
    /// `runtime_core_num` it is the width the generated code must compute at run time.
    /// For the indexed op, `core_num` is the exact launch width: B = L.
    /// With `domains`, the widest of the domains' launches; a raw launch's is its own.
    pub fn blocks(&self) -> i64 {
        if let Some(l) = &self.launch {
            return l.blocks;
        }
        if !self.domains.is_empty() {
            return (0..self.domains.len())
                .map(|d| self.domain_case(d).blocks())
                .max()
                .unwrap_or(0);
        }
        if !(1..=i32::MAX as i64).contains(&self.core_num) {
            return 0;
        }
        match self.op {
            Op::AllToAllV => cal_all_to_all_v_blocks(self.ranks as i64, self.core_num),
            Op::IndexedAllToAllV => self.core_num,
        }
    }

    /// S: `signal_stride`, default B (at least 1, so the signal type is well formed).
    pub fn stride(&self) -> i64 {
        self.signal_stride.unwrap_or_else(|| self.blocks().max(1))
    }

    /// Rows of the payload windows: P * MAX_RECV.
    pub fn rows(&self) -> i64 {
        self.ranks as i64 * self.max_recv
    }

    /// Rows of the target window: P * MAX_RECV, and a raw launch's extra rows.
    pub fn target_rows(&self) -> i64 {
        self.rows() + self.launch.as_ref().map_or(0, |l| l.extra_rows)
    }

    /// N_in: the input's rows (P * MAX_RECV unless an indexed case says otherwise).
    pub fn in_rows(&self) -> i64 {
        self.input_rows.unwrap_or_else(|| self.rows())
    }

    /// The indexed op's gather lists, `index[src][d*max_recv + k]` (the identity by default).
    pub fn index_lists(&self) -> Vec<Vec<i32>> {
        self.index
            .clone()
            .unwrap_or_else(|| vec![(0..self.rows() as i32).collect(); self.ranks])
    }

    /// The input rows the kernel may read: none when a raw launch gives the input rows another
    /// width than the target's, else N_in.
    pub fn readable_rows(&self) -> i64 {
        match &self.launch {
            Some(l) if l.input_row_elems.is_some_and(|n| n != self.row_elems) => 0,
            _ => self.in_rows(),
        }
    }

    /// The input row each position of each source's gather list names ([`Case::index_lists`]),
    /// −1 past a raw launch's shorter index (such a position names no row).
    pub fn gathered_lists(&self) -> Vec<Vec<i32>> {
        let mut lists = self.index_lists();
        if let Some(n) = self.launch.as_ref().and_then(|l| l.index_len) {
            for list in &mut lists {
                for (j, v) in list.iter_mut().enumerate() {
                    if j as i64 >= n {
                        *v = -1;
                    }
                }
            }
        }
        lists
    }

    /// The declared shape of a collective operand.
    pub fn operand_shape(&self, op: Operand) -> Vec<i64> {
        let p = self.ranks as i64;
        match op {
            Operand::Input => vec![self.in_rows(), self.row_elems],
            Operand::Target => vec![self.rows(), self.row_elems],
            Operand::Signal => vec![p, self.stride()],
            Operand::SendCounts | Operand::RecvCounts => vec![p],
            Operand::Index => vec![self.rows()],
        }
    }
}

/// A case file's JSON: valid, and no object giving one key twice (serde_json would keep the last
/// silently, and the case would run with a value other than the one its author reads first).
pub fn parse_case_json(text: &str) -> Result<Value, SimError> {
    let bad = |e: String| SimError::InvalidCase(format!("bad JSON: {e}"));
    let value: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    match duplicate_key(text) {
        Some(key) => Err(bad(format!(
            "the key \"{key}\" is given twice in one object"
        ))),
        None => Ok(value),
    }
}

/// The first key that valid JSON `text` gives twice in one object, at any depth.
fn duplicate_key(text: &str) -> Option<String> {
    // One entry per open bracket: an object's keys so far, or None for an array.
    let mut open: Vec<Option<std::collections::HashSet<String>>> = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '{' => open.push(Some(Default::default())),
            '[' => open.push(None),
            '}' | ']' => {
                open.pop();
            }
            '"' => {
                let mut end = at + 1;
                while let Some((i, c)) = chars.next() {
                    end = i + c.len_utf8();
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                while chars.peek().is_some_and(|(_, c)| c.is_whitespace()) {
                    chars.next();
                }
                if chars.peek().is_some_and(|(_, c)| *c == ':')
                    && let Some(Some(keys)) = open.last_mut()
                {
                    let key: String = serde_json::from_str(&text[at..end]).ok()?;
                    if !keys.insert(key.clone()) {
                        return Some(key);
                    }
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key given twice in one object (at any depth, escapes decoded) makes the case malformed;
    /// one key in two objects does not.
    #[test]
    fn a_key_given_twice_is_malformed() {
        assert_eq!(
            duplicate_key(r#"{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}"#),
            None
        );
        assert_eq!(
            duplicate_key(r#"{"ranks": 2, "ranks": 4}"#).as_deref(),
            Some("ranks")
        );
        assert_eq!(
            duplicate_key(r#"{"d": [{"x": "a\"b", "x": 1}]}"#).as_deref(),
            Some("x")
        );
        assert_eq!(
            duplicate_key(r#"{"op": 1, "\u006fp": 2}"#).as_deref(),
            Some("op")
        );
        assert_eq!(duplicate_key(r#"{"k": "{\"k\": 1}", "v": ":"}"#), None);
        let err = Case::from_json(r#"{"ranks": 2, "ranks": 4}"#)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(r#"bad JSON: the key "ranks" is given twice in one object"#),
            "{err}"
        );
    }
}
