//! pld-run's command line (options as `--opt=value`, the module last) and the binding of
//! `--input`s and `--expected-output`s to the entry's parameters.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::RunError;
use crate::manifest::{Kind, Param};
use crate::value::{Elem, Value, parse_type, read_npy, read_npz, type_text};

/// `pld-run --help`.
pub const USAGE: &str = "\
usage: pld-run [OPTIONS] MODULE.mlir

Runs one function of a pld module on the CPU host runtime (each rank its own process over
shared-memory windows, or threads with --ranks-as=threads) and prints, saves and checks its
outputs (docs/running.md).

  --function=@NAME          the entry: a HOST orchestrator (pl.level = \"host\") or a CHIP
                            orchestration function (its windows, a domain of --ranks ranks and one
                            dispatch per rank are synthesized)
  --ranks=P                 devices of the world, 1 to 64 (default: the NR the module's
                            collectives agree on, 2 without collectives; required when they
                            disagree)
  --input=VALUE             binds the next parameter (declaration order; !pld.comm_ctx take none)
  --input=NAME=VALUE        binds parameter NAME (its SSA name without %)
      VALUE: 4x8xf32=1,2,... | 4x8xf32=@x.npy | @x.npy | i64=3 | 3 (by name)
             @x.npz (one array per rank: arr_0, arr_1, ...) | rank:R:VALUE (rank R only;
             consecutive rank: inputs bind one parameter)
      types: f32 f64 f16 bf16 i8 i16 i32 i64 ui8 (a bf16 .npy is float32)
  --expected-output=NAME=VALUE
                            what NAME must hold after the run (VALUE as for --input; one value
                            applies to every rank); NAME may also be a window a HOST
                            orchestrator allocates (its SSA name: %act_b -> act_b)
  --tolerance=T             absolute tolerance of float comparisons (default 1e-5; integers
                            compare exactly)
  --output-dir=DIR          writes every output as DIR/<param>.rank<r>.npy
  --kernel-source-dir=DIR   where pl.kernel_source paths are found (default: the module's directory)
  --timeout-ms=MS           bounds each wait for a peer and the whole run after the build
                            (default 10000, at most 86400000): past it the ranks are stopped, each waiting rank's
                            collective, location, kernel and missing peers printed, exit 6
  --ranks-as=MODE           processes (default: one process per rank, windows in shared memory)
                            or threads
  --print-limit=N           prints tensors of at most N elements (default 256; 0 prints no
                            values, the status line and errors always print)
  --print-statistics        prints, after the status, the kernel launches and blocks the runtime
                            counted (every rank), in total and per kernel

exit: 0 ran and every expectation held, 1 an expectation failed, 2 usage or input error,
      3 the module or its C++ did not build or the runner crashed, 6 the run timed out or a
      rank process died, else the runtime's status (5: a refused check)";

/// The most ranks a world holds (the runtime's `kCommMaxRanks`).
pub const MAX_RANKS: usize = 64;

/// The longest `--timeout-ms`: a day (the runtime keeps its bounds in 32-bit milliseconds,
/// a wait's one second more included).
pub const MAX_TIMEOUT_MS: u64 = 86_400_000;

/// The one-line reminder after a usage error.
pub const USAGE_SHORT: &str = "usage: pld-run [OPTIONS] MODULE.mlir (pld-run --help)";

/// The parsed command line.
#[derive(Clone, Debug)]
pub struct Options {
    /// The module file.
    pub module: PathBuf,
    /// The entry's name (without `@`).
    pub function: String,
    /// The world's rank count.
    pub ranks: usize,
    /// Whether `--ranks` was given (else the program's collectives decide it:
    /// [`super::exec::world_ranks`]).
    pub ranks_given: bool,
    /// `--input` texts, in order.
    pub inputs: Vec<String>,
    /// `--expected-output` texts, in order.
    pub expected: Vec<String>,
    /// Float tolerance.
    pub tolerance: f64,
    /// Where outputs are written.
    pub output_dir: Option<PathBuf>,
    /// Where kernel sources are found.
    pub kernel_source_dir: Option<PathBuf>,
    /// The runtime's wait timeout.
    pub timeout_ms: u64,
    /// The largest tensor printed.
    pub print_limit: usize,
    /// Ranks as processes (the default, as pld-sim: windows in shared memory,
    /// each rank its own address space) or as threads of one process
    /// (`--ranks-as=threads`).
    pub rank_processes: bool,
    /// `--print-statistics`: the runtime's per-kernel launch and block counts.
    pub print_statistics: bool,
}

fn usage(msg: impl Into<String>) -> RunError {
    RunError::Usage(msg.into())
}

/// The options that take a value (`--NAME=VALUE`), for the message of one given without it.
const VALUED: &[&str] = &[
    "function",
    "ranks",
    "input",
    "expected-output",
    "expected_output",
    "tolerance",
    "output-dir",
    "kernel-source-dir",
    "timeout-ms",
    "print-limit",
    "ranks-as",
];

impl Options {
    /// Parses `args`; `None` for `--help`.
    pub fn parse(args: &[String]) -> Result<Option<Options>, RunError> {
        let mut module = None;
        let mut function = None;
        let mut o = Options {
            module: PathBuf::new(),
            function: String::new(),
            ranks: 2,
            ranks_given: false,
            inputs: Vec::new(),
            expected: Vec::new(),
            tolerance: 1e-5,
            output_dir: None,
            kernel_source_dir: None,
            timeout_ms: 10000,
            print_limit: 256,
            rank_processes: true,
            print_statistics: false,
        };
        for a in args {
            if a == "-h" || a == "--help" {
                return Ok(None);
            }
            if a == "--print-statistics" {
                o.print_statistics = true;
                continue;
            }
            let Some(opt) = a.strip_prefix("--") else {
                if module.replace(PathBuf::from(a)).is_some() {
                    return Err(usage(format!("a second module `{a}`")));
                }
                continue;
            };
            let Some((key, val)) = opt.split_once('=') else {
                return Err(usage(if VALUED.contains(&opt) {
                    format!("`{a}`: options are written --{opt}=VALUE")
                } else {
                    format!("unknown option --{opt}")
                }));
            };
            let num = |what: &str| -> Result<u64, RunError> {
                val.parse()
                    .map_err(|_| usage(format!("--{what}={val}: not a non-negative integer")))
            };
            match key {
                "function" => function = Some(val.trim_start_matches('@').to_string()),
                "ranks" => {
                    o.ranks = num("ranks")?.try_into().unwrap_or(usize::MAX);
                    o.ranks_given = true;
                    if !(1..=MAX_RANKS).contains(&o.ranks) {
                        return Err(usage(format!(
                            "--ranks={val}: a world holds 1 to {MAX_RANKS} ranks"
                        )));
                    }
                }
                "input" => o.inputs.push(val.to_string()),
                "expected-output" | "expected_output" => o.expected.push(val.to_string()),
                "tolerance" => {
                    o.tolerance = val
                        .parse()
                        .ok()
                        .filter(|t: &f64| *t >= 0.0)
                        .ok_or_else(|| usage(format!("--tolerance={val}: not a number >= 0")))?
                }
                "output-dir" if val.is_empty() => {
                    return Err(usage("--output-dir= names no directory"));
                }
                "output-dir" => o.output_dir = Some(PathBuf::from(val)),
                "kernel-source-dir" => o.kernel_source_dir = Some(PathBuf::from(val)),
                "timeout-ms" => {
                    o.timeout_ms = num("timeout-ms")?;
                    if !(1..=MAX_TIMEOUT_MS).contains(&o.timeout_ms) {
                        return Err(usage(format!(
                            "--timeout-ms={val}: the bound is 1 to {MAX_TIMEOUT_MS} ms (a day)"
                        )));
                    }
                }
                "print-limit" => o.print_limit = num("print-limit")? as usize,
                "ranks-as" => {
                    o.rank_processes = match val {
                        "processes" => true,
                        "threads" => false,
                        _ => {
                            return Err(usage(format!(
                                "--ranks-as={val}: expected processes or threads"
                            )));
                        }
                    }
                }
                _ => return Err(usage(format!("unknown option --{key}"))),
            }
        }
        o.module = module.ok_or_else(|| usage("no module given"))?;
        o.function = function.ok_or_else(|| usage("no --function=@NAME given"))?;
        Ok(Some(o))
    }
}

/// One parameter's value: one for every rank, and per-rank ones.
#[derive(Clone, Debug, Default)]
pub struct Binding {
    /// The value every rank gets (unless it has its own).
    pub shared: Option<Value>,
    /// Per-rank values.
    pub per_rank: BTreeMap<usize, Value>,
}

impl Binding {
    /// Rank `r`'s value.
    pub fn of_rank(&self, r: usize) -> Option<&Value> {
        self.per_rank.get(&r).or(self.shared.as_ref())
    }
}

/// A parsed VALUE: one value or one per rank (a `.npz`).
enum Parsed {
    One(Value),
    Ranks(Vec<Value>),
}

fn resolve(file: &str, base: &Path) -> PathBuf {
    let p = Path::new(file);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        base.join(p)
    }
}

/// The bits of an integer scalar parameter's type (`i1` .. `i64`, `index` as 64).
fn scalar_bits(ty: &str) -> u32 {
    ty.strip_prefix('i')
        .and_then(|n| n.parse().ok())
        .filter(|&n| (1..=64).contains(&n))
        .unwrap_or(64)
}

/// An integer scalar's value must fit its type's bits, read as signed or as unsigned (MLIR's
/// range for a signless integer): the orchestration would truncate it silently.
fn check_scalar(what: &str, ty: &str, v: &Value) -> Result<(), RunError> {
    let bits = scalar_bits(ty);
    if bits >= 64 {
        return Ok(());
    }
    let x: i64 = v
        .element_text(0)
        .parse()
        .map_err(|_| usage(format!("{what}: not an integer")))?;
    let (lo, hi) = (-(1i64 << (bits - 1)), (1i64 << bits) - 1);
    if x < lo || x > hi {
        return Err(usage(format!(
            "{what}: {x} does not fit {ty} (an integer in [{lo}, {hi}], read as signed or unsigned)"
        )));
    }
    Ok(())
}

/// Parses VALUE (without `rank:`) for parameter `p`.
fn parse_value(text: &str, p: &Param, base: &Path) -> Result<Parsed, RunError> {
    let what = format!("parameter {} ({})", p.name, p.ty);
    if let Kind::Scalar(ty) = &p.kind {
        // The parameter's own type may be spelled even where no tensor element type is
        // (`i1=1`, `index=3`): the value then reads as a bare literal, and must fit. An explicit
        // `i64=V` is the runtime's 64-bit scalar slot as it is, which the orchestration reads
        // as its type (its low N bits, sign-extended: orchestration.md's scalar semantics).
        let (text, raw) = match text.split_once('=') {
            Some((t, rest)) if t == ty => (rest, false),
            Some(("i64", rest)) => (rest, true),
            _ => (text, false),
        };
        // A 64-bit value reads as signed or as unsigned too ([-2^63, 2^64 - 1]), as every
        // narrower one does (check_scalar): the upper half is its two's complement.
        let wrapped;
        let text = match text.parse::<u64>() {
            Ok(u) if u > i64::MAX as u64 && (raw || scalar_bits(ty) == 64) => {
                wrapped = (u as i64).to_string();
                wrapped.as_str()
            }
            _ => text,
        };
        let parsed = parse_tensor_or_literal(text, p, base, &what)?;
        if let (Parsed::One(v), false) = (&parsed, raw) {
            check_scalar(&what, ty, v)?;
        }
        return Ok(parsed);
    }
    parse_tensor_or_literal(text, p, base, &what)
}

/// VALUE as written (a typed literal, a bare literal, `@file`) checked against `p`'s type; what
/// [`parse_value`] does for every parameter before a scalar's own spelling and range.
fn parse_tensor_or_literal(
    text: &str,
    p: &Param,
    base: &Path,
    what: &str,
) -> Result<Parsed, RunError> {
    let (want_shape, want_elem): (Vec<u64>, Option<Elem>) = match &p.kind {
        Kind::Tensor(d, e) | Kind::Window(d, e) | Kind::HostWindow(d, e, _) => {
            (d.clone(), Some(*e))
        }
        Kind::Scalar(_) => (vec![], None),
        Kind::Comm => unreachable!("comm parameters bind nothing"),
    };
    let check = |v: Value, src: &str| -> Result<Value, RunError> {
        // A float32 array for a bf16 parameter is rounded to it (NumPy has no bf16 dtype).
        let v = match want_elem {
            Some(e) => v.converted(e).unwrap_or(v),
            None => v,
        };
        match want_elem {
            Some(e) if v.elem != e || v.shape != want_shape => {
                let got = type_text(&v.shape, v.elem);
                let from = if src == got { "the value" } else { src };
                Err(usage(format!(
                    "{what}: {from} is {got}, not {}",
                    type_text(&want_shape, e)
                )))
            }
            None if !v.shape.is_empty() || v.elem.is_float() => Err(usage(format!(
                "{what}: {src} is {}, not an integer scalar",
                type_text(&v.shape, v.elem)
            ))),
            _ => Ok(v),
        }
    };
    if let Some(file) = text.strip_prefix('@') {
        let path = resolve(file, base);
        if file.ends_with(".npz") {
            let vs = read_npz(&path)?;
            let vs = vs
                .into_iter()
                .enumerate()
                .map(|(i, v)| check(v, &format!("{file}[{i}]")))
                .collect::<Result<_, _>>()?;
            return Ok(Parsed::Ranks(vs));
        }
        return Ok(Parsed::One(check(read_npy(&path)?, file)?));
    }
    match text.split_once('=') {
        Some((ty, rest)) => {
            let (shape, elem) = parse_type(ty).ok_or_else(|| {
                // `NAME=VALUE` whose NAME is no parameter of the entry lands here too.
                usage(format!(
                    "{what}: `{ty}` is neither a parameter's name nor a type like 4x8xf32 or i64"
                ))
            })?;
            let v = if let Some(file) = rest.strip_prefix('@') {
                let v = read_npy(&resolve(file, base))?;
                let v = v.converted(elem).unwrap_or(v);
                if v.shape != shape || v.elem != elem {
                    return Err(usage(format!(
                        "{what}: {file} is {}, not {ty}",
                        type_text(&v.shape, v.elem)
                    )));
                }
                v
            } else {
                Value::from_literal(elem, &shape, rest)
                    .map_err(|e| usage(format!("{what}: {e}")))?
            };
            Ok(Parsed::One(check(v, ty)?))
        }
        None => {
            // A bare literal: the parameter's own type.
            let elem = want_elem.unwrap_or(Elem::I64);
            let v = Value::from_literal(elem, &want_shape, text)
                .map_err(|e| usage(format!("{what}: {e}")))?;
            Ok(Parsed::One(v))
        }
    }
}

/// `rank:R:REST` → (R, REST).
fn rank_prefix(text: &str) -> Result<Option<(usize, &str)>, RunError> {
    let Some(rest) = text.strip_prefix("rank:") else {
        return Ok(None);
    };
    let (r, v) = rest
        .split_once(':')
        .ok_or_else(|| usage(format!("`{text}`: write rank:R:VALUE")))?;
    let r = r
        .parse()
        .map_err(|_| usage(format!("`{text}`: `{r}` is not a rank")))?;
    Ok(Some((r, v)))
}

fn add(
    b: &mut Binding,
    p: &Param,
    rank: Option<usize>,
    parsed: Parsed,
    ranks: usize,
) -> Result<(), RunError> {
    // A second value for the same slot would silently replace the first (an expectation
    // never checked, an input never used).
    let twice = |slot: &str| usage(format!("parameter {}: {slot} given twice", p.name));
    match (rank, parsed) {
        (None, Parsed::One(v)) => {
            if b.shared.replace(v).is_some() {
                return Err(twice("a value for every rank"));
            }
        }
        (Some(r), Parsed::One(v)) => {
            if r >= ranks {
                return Err(usage(format!(
                    "parameter {}: rank {r} of a {ranks}-rank run",
                    p.name
                )));
            }
            if b.per_rank.insert(r, v).is_some() {
                return Err(twice(&format!("rank {r}'s value")));
            }
        }
        (None, Parsed::Ranks(vs)) => {
            if vs.len() != ranks {
                return Err(usage(format!(
                    "parameter {}: the .npz holds {} arrays for {ranks} ranks",
                    p.name,
                    vs.len()
                )));
            }
            if !b.per_rank.is_empty() {
                return Err(twice("per-rank values"));
            }
            b.per_rank.extend(vs.into_iter().enumerate());
        }
        (Some(_), Parsed::Ranks(_)) => {
            return Err(usage(format!(
                "parameter {}: a rank:R: value is one array, not a .npz",
                p.name
            )));
        }
    }
    Ok(())
}

/// Binds `inputs` to `params` (see the module doc): positional ones in declaration order,
/// `NAME=...` by name, and positional `rank:` ones right after a `rank:` one (named or
/// positional) to that one's parameter.
pub fn bind_inputs(
    inputs: &[String],
    params: &[Param],
    ranks: usize,
    base: &Path,
) -> Result<Vec<Binding>, RunError> {
    let mut out = vec![Binding::default(); params.len()];
    let bindable: Vec<usize> = (0..params.len())
        .filter(|&i| !matches!(params[i].kind, Kind::Comm | Kind::HostWindow(..)))
        .collect();
    let mut next = 0usize; // index into bindable
    let mut rank_group: Option<usize> = None; // the param of the last rank: input
    for text in inputs {
        let named = text.split_once('=').and_then(|(n, rest)| {
            bindable
                .iter()
                .find(|&&i| params[i].name == n)
                .map(|&i| (i, rest))
        });
        if let Some((n, _)) = text.split_once('=')
            && let Some(w) = params
                .iter()
                .find(|p| p.name == n && matches!(p.kind, Kind::HostWindow(..)))
        {
            return Err(usage(format!(
                "--input={text}: {} is a window the HOST orchestrator allocates itself (it starts \
                 as zeros); it takes no input, only --expected-output",
                w.name
            )));
        }
        let (i, rest) = match named {
            Some((i, rest)) => (i, rest),
            None => {
                let rank = rank_prefix(text)?.map(|(r, _)| r);
                let i = match (rank, rank_group) {
                    (Some(r), Some(g)) if !out[g].per_rank.contains_key(&r) => g,
                    _ => {
                        let i = *bindable.get(next).ok_or_else(|| {
                            usage(format!(
                                "--input={text}: every parameter of the entry is already bound"
                            ))
                        })?;
                        next += 1;
                        i
                    }
                };
                (i, text.as_str())
            }
        };
        let p = &params[i];
        let (rank, value) = match rank_prefix(rest)? {
            Some((r, v)) => (Some(r), v),
            None => (None, rest),
        };
        // A `rank:` input, named or positional, starts (or continues) a group that the
        // positional `rank:` inputs right after it continue (`NAME=rank:0:.. rank:1:..`).
        rank_group = if rank.is_some() { Some(i) } else { None };
        if matches!(p.kind, Kind::Scalar(_)) && rank.is_some() {
            return Err(usage(format!(
                "parameter {}: a scalar has one value for every rank",
                p.name
            )));
        }
        let parsed = parse_value(value, p, base)?;
        add(&mut out[i], p, rank, parsed, ranks)?;
    }
    Ok(out)
}

/// Binds `--expected-output=NAME=VALUE`s (per rank with `rank:R:` or a `.npz`).
pub fn bind_expected(
    expected: &[String],
    params: &[Param],
    ranks: usize,
    base: &Path,
) -> Result<BTreeMap<usize, Binding>, RunError> {
    let mut out: BTreeMap<usize, Binding> = BTreeMap::new();
    for text in expected {
        let (name, rest) = text
            .split_once('=')
            .ok_or_else(|| usage(format!("--expected-output={text}: write NAME=VALUE")))?;
        let i = params
            .iter()
            .position(|p| p.name == name && p.is_tensor())
            .ok_or_else(|| {
                let names: Vec<&str> = params
                    .iter()
                    .filter(|p| p.is_tensor())
                    .map(|p| p.name.as_str())
                    .collect();
                usage(format!(
                    "--expected-output={text}: no tensor parameter `{name}` (the entry's are: {})",
                    names.join(", ")
                ))
            })?;
        let (rank, value) = match rank_prefix(rest)? {
            Some((r, v)) => (Some(r), v),
            None => (None, rest),
        };
        let parsed = parse_value(value, &params[i], base)?;
        add(out.entry(i).or_default(), &params[i], rank, parsed, ranks)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `VALUED` is exactly the `--NAME=` options `--help` documents (and the `_` spelling of
    /// `--expected-output`).
    #[test]
    fn valued_options_are_the_documented_ones() {
        let mut documented: Vec<&str> = USAGE
            .match_indices("--")
            .filter_map(|(at, _)| {
                let rest = &USAGE[at + 2..];
                let name = &rest[..rest.find(|c: char| !(c.is_ascii_lowercase() || c == '-'))?];
                rest[name.len()..].starts_with('=').then_some(name)
            })
            .collect();
        documented.push("expected_output");
        documented.sort();
        documented.dedup();
        let mut valued = VALUED.to_vec();
        valued.sort();
        assert_eq!(valued, documented);
    }

    #[test]
    fn an_option_without_its_value_is_named_as_such() {
        let err = |a: &str| match Options::parse(&[a.to_string(), "m.mlir".into()]) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{a} parsed"),
        };
        assert_eq!(
            err("--ranks"),
            "`--ranks`: options are written --ranks=VALUE"
        );
        assert_eq!(err("--frobnicate"), "unknown option --frobnicate");
        assert_eq!(err("--frobnicate=1"), "unknown option --frobnicate");
    }

    fn param(name: &str, ty: &str, kind: Kind) -> Param {
        Param {
            name: name.into(),
            ty: ty.into(),
            kind,
            direction: String::new(),
        }
    }

    fn parse_err(text: &str, p: &Param) -> String {
        match parse_value(text, p, Path::new(".")) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{text} parsed for {}", p.ty),
        }
    }

    /// A scalar must fit its type (the orchestration would truncate it), and the type itself
    /// may be spelled where no tensor element type is (`i1`).
    #[test]
    fn scalars_fit_their_type() {
        let b = param("b", "i8", Kind::Scalar("i8".into()));
        for ok in ["-128", "127", "255", "i8=-1"] {
            assert!(parse_value(ok, &b, Path::new(".")).is_ok(), "{ok}");
        }
        for bad in ["300", "-129", "i8=256"] {
            assert!(
                parse_err(bad, &b).contains("does not fit i8 (an integer in [-128, 255]"),
                "{bad}: {}",
                parse_err(bad, &b)
            );
        }
        // The 64-bit slot spelled as such is passed as it is (the orchestration truncates it).
        assert!(parse_value("i64=356", &b, Path::new(".")).is_ok());
        let c = param("c", "i1", Kind::Scalar("i1".into()));
        assert!(parse_value("i1=1", &c, Path::new(".")).is_ok());
        assert!(parse_value("0", &c, Path::new(".")).is_ok());
        assert_eq!(
            parse_err("2", &c),
            "parameter c (i1): 2 does not fit i1 (an integer in [-1, 1], read as signed or unsigned)"
        );
        let n = param("n", "index", Kind::Scalar("index".into()));
        assert!(parse_value("index=9223372036854775807", &n, Path::new(".")).is_ok());
    }

    /// A value of the wrong type names the type the parameter takes.
    #[test]
    fn a_mismatch_names_both_types() {
        let s = param(
            "s",
            "!pld.dtensor<2x2xi32>",
            Kind::Window(vec![2, 2], Elem::I32),
        );
        assert_eq!(
            parse_err("4x4xf32=1", &s),
            "parameter s (!pld.dtensor<2x2xi32>): the value is 4x4xf32, not 2x2xi32"
        );
    }

    /// Positional `rank:` inputs continue the parameter of the `rank:` input before them, named
    /// or not.
    #[test]
    fn rank_inputs_continue_a_named_one() {
        let t = |n: &str| param(n, "!pld.dtensor<3xi32>", Kind::Window(vec![3], Elem::I32));
        let params = [t("a"), t("b")];
        let inputs: Vec<String> = ["b=rank:0:3xi32=1,2,3", "rank:1:3xi32=4,5,6", "3xi32=7"]
            .map(String::from)
            .to_vec();
        let bound = bind_inputs(&inputs, &params, 2, Path::new(".")).unwrap();
        assert_eq!(
            bound[1].per_rank.keys().copied().collect::<Vec<_>>(),
            [0, 1]
        );
        assert!(bound[1].shared.is_none());
        // The next positional input binds the first parameter.
        assert!(bound[0].shared.is_some() && bound[0].per_rank.is_empty());
    }

    /// A 64-bit scalar reads as signed or as unsigned, as a narrower one does: the upper half
    /// is its two's complement.
    #[test]
    fn a_64_bit_scalar_takes_the_unsigned_upper_half() {
        for (ty, text) in [
            ("i64", "18446744073709551615"),
            ("index", "9223372036854775808"),
            ("i64", "i64=18446744073709551615"),
            ("i64", "-9223372036854775808"),
        ] {
            let p = param("c", ty, Kind::Scalar(ty.into()));
            let Ok(Parsed::One(v)) = parse_value(text, &p, Path::new(".")) else {
                panic!("{text} for {ty}");
            };
            let want = text.trim_start_matches("i64=");
            let want = want
                .parse::<i64>()
                .unwrap_or_else(|_| want.parse::<u64>().unwrap() as i64);
            assert_eq!(v.element_text(0), want.to_string(), "{text}");
        }
        let p = param("c", "i64", Kind::Scalar("i64".into()));
        assert!(parse_err("18446744073709551616", &p).contains("is not an i64 value"));
        // A NAME that is no parameter reads as a type, and the message says both.
        assert_eq!(
            parse_err("t=2x3xf32=1", &p),
            "parameter c (i64): `t` is neither a parameter's name nor a type like 4x8xf32 or i64"
        );
    }

    /// A second value for one slot is refused (it would replace the first silently).
    #[test]
    fn a_slot_bound_twice_is_refused() {
        let t = param("t", "!pld.dtensor<2xi32>", Kind::Window(vec![2], Elem::I32));
        let params = [t];
        let err = |texts: &[&str]| {
            let texts: Vec<String> = texts.iter().map(|s| s.to_string()).collect();
            let inputs = bind_inputs(&texts, &params, 2, Path::new(".")).err();
            let expected = bind_expected(&texts, &params, 2, Path::new(".")).err();
            (
                inputs.map(|e| e.to_string()),
                expected.map(|e| e.to_string()),
            )
        };
        let both = |m: &str| (Some(m.to_string()), Some(m.to_string()));
        assert_eq!(
            err(&["t=2xi32=1", "t=2xi32=2"]),
            both("parameter t: a value for every rank given twice")
        );
        assert_eq!(
            err(&["t=rank:1:2xi32=1", "t=rank:1:2xi32=2"]),
            both("parameter t: rank 1's value given twice")
        );
        // A shared value and one rank's own are two slots.
        assert_eq!(err(&["t=2xi32=1", "t=rank:1:2xi32=2"]), (None, None));
    }

    /// `--ranks`, `--timeout-ms` and `--output-dir` values the run cannot honour are usage
    /// errors naming the option, before anything is built.
    #[test]
    fn out_of_range_options_are_usage_errors() {
        let err = |a: &str| match Options::parse(&[
            a.to_string(),
            "--function=@f".into(),
            "m.mlir".into(),
        ]) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{a} parsed"),
        };
        assert_eq!(err("--ranks=65"), "--ranks=65: a world holds 1 to 64 ranks");
        assert_eq!(err("--ranks=0"), "--ranks=0: a world holds 1 to 64 ranks");
        assert_eq!(
            err("--ranks=99999999999999999999"),
            "--ranks=99999999999999999999: not a non-negative integer"
        );
        assert_eq!(
            err("--timeout-ms=0"),
            "--timeout-ms=0: the bound is 1 to 86400000 ms (a day)"
        );
        assert_eq!(
            err("--timeout-ms=2147483000"),
            "--timeout-ms=2147483000: the bound is 1 to 86400000 ms (a day)"
        );
        assert_eq!(err("--output-dir="), "--output-dir= names no directory");
        for ok in ["--ranks=64", "--timeout-ms=1", "--timeout-ms=86400000"] {
            assert!(
                Options::parse(&[ok.to_string(), "--function=@f".into(), "m.mlir".into()]).is_ok(),
                "{ok}"
            );
        }
    }
}
