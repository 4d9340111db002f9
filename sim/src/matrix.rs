//! The pld-sim case matrix (`pld-sim --matrix`, sim/tests/sim.rs) and how each entry is judged.

use crate::SimError;
use crate::case::{Case, DType, Domain, Op, Operand};
use crate::golden;
use crate::result::SimResult;
use crate::run::{blocks_started, case_kernel};

/// send_counts patterns. `odd` = `(src + dst)` odd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// Every count MAX_RECV.
    Uniform,
    /// MAX_RECV where odd, else 0.
    ZeroAndFull,
    /// MAX_RECV where odd, else 1.
    OneAndFull,
    /// MAX_RECV + 3 where odd, else MAX_RECV.
    OverCapacity,
    /// -2 where odd, else ceil(MAX_RECV / 2).
    Negative,
    /// Uniform in [-3, MAX_RECV + 4].
    Random,
}

impl Pattern {
    /// Every pattern.
    pub const ALL: [Pattern; 6] = [
        Pattern::Uniform,
        Pattern::ZeroAndFull,
        Pattern::OneAndFull,
        Pattern::OverCapacity,
        Pattern::Negative,
        Pattern::Random,
    ];
    /// The pattern's name in entry names.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Uniform => "uniform",
            Pattern::ZeroAndFull => "zero_and_full",
            Pattern::OneAndFull => "one_and_full",
            Pattern::OverCapacity => "over_capacity",
            Pattern::Negative => "negative",
            Pattern::Random => "random",
        }
    }
}

/// A P x P send_counts matrix; `seed` drives the random pattern (deterministic).
pub fn counts(pattern: Pattern, p: usize, max_recv: i64, seed: u64) -> Vec<Vec<i32>> {
    let mr = max_recv as i32;
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move |lo: i32, hi: i32| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        lo + ((state >> 33) % (hi - lo + 1) as u64) as i32
    };
    (0..p)
        .map(|s| {
            (0..p)
                .map(|d| {
                    let odd = (s + d) % 2 == 1;
                    match pattern {
                        Pattern::Uniform => mr,
                        Pattern::ZeroAndFull => {
                            if odd {
                                mr
                            } else {
                                0
                            }
                        }
                        Pattern::OneAndFull => {
                            if odd {
                                mr
                            } else {
                                1
                            }
                        }
                        Pattern::OverCapacity => {
                            if odd {
                                mr + 3
                            } else {
                                mr
                            }
                        }
                        Pattern::Negative => {
                            if odd {
                                -2
                            } else {
                                (mr + 1) / 2
                            }
                        }
                        Pattern::Random => next(-3, mr + 4),
                    }
                })
                .collect()
        })
        .collect()
}

/// What an entry must produce.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// status ok, and the golden (targets, recv_counts, zero signal); the collective ran
    /// P × B × repeat × layers blocks, stage_step and consume_step P × repeat × layers.
    Golden,
    /// compile_error whose message contains the text.
    CompileError(&'static str),
    /// fatal / invalid_args with the code, and nothing of the collective or after it ran:
    /// zero targets, recv_counts and signals, no collective or consume_step block started.
    Refused {
        /// `fatal` or `invalid_args`.
        status: &'static str,
        /// The runtime's error code.
        code: i64,
    },
    /// A `domains` case: status ok, every domain's windows equal its own exchange's golden on its
    /// devices and are untouched (zero) on every other device of the world
    /// ([`golden::check_domains`]); the collective ran Σ N·B_N × repeat × layers blocks over the
    /// domains, stage_step and consume_step Σ N × repeat × layers.
    Domains,
}

/// One matrix entry.
#[derive(Clone, Debug)]
pub struct Entry {
    /// A unique name (`--filter` matches it).
    pub name: String,
    /// The case run.
    pub case: Case,
    /// How its result is judged.
    pub expect: Expect,
}

/// The rank counts P of the matrix.
pub const PS: [usize; 5] = [1, 2, 4, 8, 16];
/// The block limits L of the matrix.
pub const LS: [i64; 6] = [1, 2, 4, 8, 10, 16];
/// (max_recv, row_elems) by variant; rows of 12, 20, 52, 132, 160 bytes (f32) and 3..40 bytes
/// (i8): mostly not multiples of 32 bytes.
const SHAPES: [(i64, i64); 6] = [(4, 8), (3, 5), (2, 33), (5, 3), (1, 13), (4, 40)];

/// The matrix's case for P = `p`, L = `l`, a dtype, MAX_RECV = `mr`, row elements `re`
/// and a count pattern drawn with `seed`.
#[allow(clippy::too_many_arguments)]
pub fn case(p: usize, l: i64, dtype: DType, mr: i64, re: i64, pattern: Pattern, seed: u64) -> Case {
    Case {
        ranks: p,
        core_num: l,
        dtype,
        max_recv: mr,
        row_elems: re,
        send_counts: counts(pattern, p, mr, seed),
        signal_stride: None,
        repeat: 1,
        aiv_capacity: 48,
        non_contiguous: None,
        layers: 1,
        inner_layers: 1,
        runtime_core_num: false,
        op: crate::case::Op::AllToAllV,
        input_rows: None,
        index: None,
        domains: Vec::new(),
        timeout_ms: crate::case::DEFAULT_TIMEOUT_MS,
        fault: None,
    }
}

/// An entry's name after its `kind:` prefix (runtime core_num entries carry a `runtime` prefix).
fn name_of(c: &Case, pattern: &str) -> String {
    format!(
        "P{}_L{}_{}{}_mr{}_re{}_S{}{}{}",
        c.ranks,
        c.core_num,
        c.dtype.name(),
        if pattern.is_empty() {
            String::new()
        } else {
            format!("_{pattern}")
        },
        c.max_recv,
        c.row_elems,
        c.stride(),
        if c.repeat > 1 {
            format!("_rep{}", c.repeat)
        } else {
            String::new()
        },
        match (c.layers, c.inner_layers) {
            (1, 1) => String::new(),
            (n, 1) => format!("_layers{n}"),
            (n, m) => format!("_layers{n}x{m}"),
        }
    )
}

fn golden_entry(c: Case, pattern: &str) -> Entry {
    Entry {
        name: name_of(&c, pattern),
        case: c,
        expect: Expect::Golden,
    }
}

/// The full matrix: P ∈ {1,2,4,8,16} × L ∈ {1,2,4,8,10,16} × six count patterns × {f32, i8}
/// (360 cases, one shape per (P, L, dtype) variant so each variant compiles once), plus the
/// extras.
pub fn full() -> Vec<Entry> {
    let mut v = Vec::new();
    let mut variant = 0;
    for p in PS {
        for l in LS {
            for dtype in [DType::F32, DType::I8] {
                let (mr, re) = SHAPES[variant % SHAPES.len()];
                for (i, pattern) in Pattern::ALL.into_iter().enumerate() {
                    let seed = (variant * 16 + i) as u64;
                    v.push(golden_entry(
                        case(p, l, dtype, mr, re, pattern, seed),
                        pattern.name(),
                    ));
                }
                variant += 1;
            }
        }
    }
    v.extend(layers_full());
    v.extend(runtime_full());
    v.extend(runtime_extras());
    v.extend(extras(100));
    v.extend(indexed_full());
    v.extend(indexed_extras(100));
    v.extend(domains_entries(true));
    // The largest repeat: 16 ranks x 16 blocks, 100 exchanges on one signal (25600 blocks).
    let mut c = case(16, 16, DType::F32, 2, 33, Pattern::Random, 120);
    c.repeat = 100;
    v.push(Entry {
        name: format!("repeat:{}", name_of(&c, "")),
        case: c,
        expect: Expect::Golden,
    });
    v
}

/// `layers` ∈ {2, 3, 5} × P ∈ {2, 4} × the six count patterns × {f32, i8}: 72 looped
/// pipelines, one module per (layers, P, dtype) variant, L and the shape rotating.
pub const LAYERS: [u32; 3] = [2, 3, 5];

fn layers_case(
    n: u32,
    p: usize,
    dtype: DType,
    variant: usize,
    pattern: Pattern,
    seed: u64,
) -> Case {
    let l = LS[(variant + 2) % LS.len()];
    let (mr, re) = SHAPES[(variant + 1) % SHAPES.len()];
    let mut c = case(p, l, dtype, mr, re, pattern, seed);
    c.layers = n;
    c
}

fn layers_full() -> Vec<Entry> {
    let mut v = Vec::new();
    let mut variant = 0;
    for n in LAYERS {
        for p in [2, 4] {
            for dtype in [DType::F32, DType::I8] {
                for (i, pattern) in Pattern::ALL.into_iter().enumerate() {
                    let c = layers_case(
                        n,
                        p,
                        dtype,
                        variant,
                        pattern,
                        (500 + variant * 16 + i) as u64,
                    );
                    v.push(Entry {
                        name: format!("layers:{}", name_of(&c, pattern.name())),
                        case: c,
                        expect: Expect::Golden,
                    });
                }
                variant += 1;
            }
        }
    }
    v
}

/// The CI slice's looped pipelines: the full matrix's entries for (layers 3, P 4, f32, random),
/// (layers 2, P 2, i8, negative) and (layers 5, P 4, i8, over_capacity).
fn layers_ci() -> Vec<Entry> {
    let picks = [
        (3, 4, DType::F32, Pattern::Random),
        (2, 2, DType::I8, Pattern::Negative),
        (5, 4, DType::I8, Pattern::OverCapacity),
    ];
    layers_full()
        .into_iter()
        .filter(|e| {
            picks.iter().any(|&(n, p, dtype, pattern)| {
                e.case.layers == n
                    && e.case.ranks == p
                    && e.case.dtype == dtype
                    && e.name.contains(&format!("_{}_", pattern.name()))
            })
        })
        .collect()
}

/// The CI slice: every P, three of the six L per P (rotating, so every L appears), alternating
/// dtype, two patterns per variant (rotating through all six), plus the extras.
pub fn ci_slice() -> Vec<Entry> {
    let mut v = Vec::new();
    let mut k = 0;
    for (pi, p) in PS.into_iter().enumerate() {
        for j in 0..3 {
            let l = LS[(pi + 2 * j) % LS.len()];
            let dtype = if k % 2 == 0 { DType::F32 } else { DType::I8 };
            let (mr, re) = SHAPES[k % SHAPES.len()];
            for t in 0..2 {
                let pattern = Pattern::ALL[(2 * k + t) % Pattern::ALL.len()];
                v.push(golden_entry(
                    case(p, l, dtype, mr, re, pattern, (k * 2 + t) as u64),
                    pattern.name(),
                ));
            }
            k += 1;
        }
    }
    v.extend(layers_ci());
    v.extend(runtime_ci());
    v.extend(indexed_ci());
    v.extend(indexed_extras(20));
    v.extend(runtime_extras());
    v.extend(extras(100));
    v.extend(domains_entries(false));
    v
}

/// P of the runtime core_num entries.
pub const RUNTIME_PS: [usize; 4] = [1, 2, 4, 8];

/// The runtime core_num values for P: {1, 2, P−1, P, P+1, 2P, 10, 16}, those below 1 (P − 1 at
/// P = 1) dropped, duplicates dropped (first occurrence kept).
pub fn runtime_ls(p: usize) -> Vec<i64> {
    let p = p as i64;
    let mut ls = Vec::new();
    for l in [1, 2, p - 1, p, p + 1, 2 * p, 10, 16] {
        if l >= 1 && !ls.contains(&l) {
            ls.push(l);
        }
    }
    ls
}

/// A case with `runtime_core_num`: core_num is chip_pipeline's i64 parameter.
#[allow(clippy::too_many_arguments)]
pub fn runtime_case(
    p: usize,
    l: i64,
    dtype: DType,
    mr: i64,
    re: i64,
    pattern: Pattern,
    seed: u64,
) -> Case {
    let mut c = case(p, l, dtype, mr, re, pattern, seed);
    c.runtime_core_num = true;
    c
}

/// Runtime core_num: P ∈ {1, 2, 4, 8} × [`runtime_ls`] (25 (P, L) variants) × {uniform, random},
/// dtype alternating and the shape rotating per variant, S defaulting to B as in the
/// compile-time case: 50 entries, each against the static golden (`runtime:…`).
fn runtime_full() -> Vec<Entry> {
    let mut v = Vec::new();
    let mut variant = 0;
    for p in RUNTIME_PS {
        for l in runtime_ls(p) {
            let dtype = if variant % 2 == 0 {
                DType::F32
            } else {
                DType::I8
            };
            let (mr, re) = SHAPES[variant % SHAPES.len()];
            for (i, pattern) in [Pattern::Uniform, Pattern::Random].into_iter().enumerate() {
                let c = runtime_case(
                    p,
                    l,
                    dtype,
                    mr,
                    re,
                    pattern,
                    (700 + variant * 16 + i) as u64,
                );
                v.push(Entry {
                    name: format!("runtime:{}", name_of(&c, pattern.name())),
                    case: c,
                    expect: Expect::Golden,
                });
            }
            variant += 1;
        }
    }
    v
}

/// The (P, L, pattern) picks of [`runtime_full`] in the CI slice: a single block at P = 1, B < P
/// at P = 8 (L = P − 1), a fold at P = 4 (L = 5 → B = 4; the module the refusals share) and at
/// P = 8 (L = 10 → B = 8).
const RUNTIME_CI: [(usize, i64, Pattern); 4] = [
    (1, 1, Pattern::Uniform),
    (8, 7, Pattern::Random),
    (4, 5, Pattern::Random),
    (8, 10, Pattern::Uniform),
];

fn runtime_ci() -> Vec<Entry> {
    runtime_full()
        .into_iter()
        .filter(|e| {
            RUNTIME_CI.iter().any(|&(p, l, pattern)| {
                e.case.ranks == p
                    && e.case.core_num == l
                    && e.name.contains(&format!("_{}_", pattern.name()))
            })
        })
        .collect()
}

/// The runtime core_num base case: [`runtime_full`]'s P = 4, L = 5 (B = 4), random entry.
fn runtime_base() -> Case {
    runtime_full()
        .into_iter()
        .find(|e| e.case.ranks == 4 && e.case.core_num == 5 && e.name.contains("_random_"))
        .expect("runtime:P4_L5 random")
        .case
}

/// What a compile-time core_num refuses at compile time, refused at run time (invalid_args 5
/// before the collective; the stage ran, nothing after it), and a runtime core_num in a loop.
/// All on the module of `runtime_base` (S = 4; its module does not depend on L, so these add
/// no tree but the looped one).
pub fn runtime_extras() -> Vec<Entry> {
    let mut v = Vec::new();
    let mut add = |name: &str, c: Case, expect: Expect| {
        v.push(Entry {
            name: format!("{name}:{}", name_of(&c, "")),
            case: c,
            expect,
        });
    };
    let refused = || Expect::Refused {
        status: "invalid_args",
        code: 5,
    };
    let base = runtime_base();
    let with = |l: i64| {
        let mut c = base.clone();
        (c.core_num, c.signal_stride) = (l, Some(4));
        c
    };
    // S < B: L = 8 folds to B = 8 > S = 4 (compile time: "signal stride S=4 is smaller than ...").
    add("runtime_S_lt_B", with(8), refused());
    // L = 2^31 − 1 is in range but folds to 2147483644 > S.
    add("runtime_S_lt_B", with(2_147_483_647), refused());
    // L outside [1, 2147483647] (compile time: "core_num must be in [1, 2147483647]").
    for l in [0, -1, 2_147_483_648, i64::MIN] {
        add("runtime_L_out_of_range", with(l), refused());
    }
    // A valid runtime width over capacity: the launch's sync start is refused (fatal 7).
    let mut c = with(5);
    c.aiv_capacity = 2;
    add(
        "runtime_over_capacity_launch",
        c,
        Expect::Refused {
            status: "fatal",
            code: 7,
        },
    );
    // In a loop of 3 layers: B is computed (and checked) in the loop body on every iteration.
    let mut c = base.clone();
    c.layers = 3;
    add("runtime", c, Expect::Golden);
    let mut c = with(-1);
    c.layers = 3;
    add("runtime_L_out_of_range", c, refused());
    v
}

/// Repeat, signal stride, launch-width, capacity and contiguity cases.
pub fn extras(repeat: u32) -> Vec<Entry> {
    let mut v = Vec::new();
    let mut add = |name: &str, c: Case, expect: Expect| {
        v.push(Entry {
            name: format!("{name}:{}", name_of(&c, "")),
            case: c,
            expect,
        });
    };
    // Back-to-back exchanges on one signal.
    let mut c = case(4, 8, DType::F32, 3, 7, Pattern::Random, 101);
    c.repeat = repeat;
    add("repeat", c, Expect::Golden);
    let mut c = case(8, 3, DType::I8, 2, 9, Pattern::OneAndFull, 102);
    c.repeat = repeat.min(20);
    add("repeat", c, Expect::Golden);
    // S = B explicitly, S > B (multi-block and single-block).
    let mut c = case(8, 10, DType::F32, 3, 5, Pattern::Random, 103);
    c.signal_stride = Some(8);
    add("S_eq_B", c, Expect::Golden);
    let mut c = case(4, 4, DType::I8, 4, 8, Pattern::Random, 104);
    c.signal_stride = Some(7);
    add("S_gt_B", c, Expect::Golden);
    let mut c = case(2, 1, DType::F32, 4, 8, Pattern::Negative, 105);
    c.signal_stride = Some(3);
    c.repeat = repeat.min(10);
    add("S_gt_B", c, Expect::Golden);
    // S < B: pld-opt rejects the module.
    let mut c = case(4, 8, DType::F32, 4, 3, Pattern::Random, 106);
    c.signal_stride = Some(5);
    add(
        "S_lt_B",
        c,
        Expect::CompileError("signal stride S=5 is smaller than the admitted block count B=8"),
    );
    // Launch widths that are not multiples of P, uneven lane slices, rows not multiples of 32 B.
    add(
        "odd_width",
        case(3, 7, DType::I8, 5, 11, Pattern::Random, 107),
        Expect::Golden,
    );
    add(
        "uneven_slices",
        case(2, 6, DType::F32, 5, 7, Pattern::Uniform, 108),
        Expect::Golden,
    );
    add(
        "row_3_bytes",
        case(4, 10, DType::I8, 6, 3, Pattern::Random, 109),
        Expect::Golden,
    );
    add(
        "max_ranks",
        case(16, 16, DType::F32, 2, 3, Pattern::ZeroAndFull, 110),
        Expect::Golden,
    );
    // A looped pipeline called back to back (the windows carry over from call to call); the
    // module of the CI slice's 5-layer entry.
    let mut c = case(4, 2, DType::I8, 4, 8, Pattern::Random, 115);
    (c.layers, c.repeat) = (5, repeat.min(5));
    add("repeat", c, Expect::Golden);
    // Capacity: exactly at it runs; above it the sync-start launch is refused (7), no block runs.
    let mut c = case(4, 8, DType::F32, 2, 8, Pattern::Random, 111);
    c.aiv_capacity = 8;
    add("at_capacity", c, Expect::Golden);
    let mut c = case(4, 16, DType::F32, 2, 8, Pattern::Uniform, 112);
    c.aiv_capacity = 8;
    add(
        "over_capacity_launch",
        c,
        Expect::Refused {
            status: "fatal",
            code: 7,
        },
    );
    add(
        "over_default_capacity_launch",
        case(4, 64, DType::I8, 2, 8, Pattern::Uniform, 113),
        Expect::Refused {
            status: "fatal",
            code: 7,
        },
    );
    // The contiguity backstop: each operand strided on every rank → 5, nothing submitted.
    for op in Operand::ALL {
        let mut c = case(4, 8, DType::F32, 3, 5, Pattern::Uniform, 114);
        c.non_contiguous = Some(op);
        add(
            &format!("strided_{}", op.name()),
            c,
            Expect::Refused {
                status: "invalid_args",
                code: 5,
            },
        );
    }
    // In a loop a refusal stops the first iteration: stage_step once, nothing after it. Both
    // run the module of the CI slice's 3-layer entry (B = 4).
    let mut c = case(4, 4, DType::F32, 3, 5, Pattern::Uniform, 116);
    (c.layers, c.non_contiguous) = (3, Some(Operand::Target));
    add(
        "strided_target",
        c,
        Expect::Refused {
            status: "invalid_args",
            code: 5,
        },
    );
    let mut c = case(4, 4, DType::F32, 3, 5, Pattern::Uniform, 117);
    (c.layers, c.aiv_capacity) = (3, 2);
    add(
        "over_capacity_launch",
        c,
        Expect::Refused {
            status: "fatal",
            code: 7,
        },
    );
    v
}

/// A case with communication domains: a world of `world` devices, one domain per entry of
/// `sizes` (devices 0..N), each with its own counts of `pattern`.
#[allow(clippy::too_many_arguments)]
pub fn domains_case(
    world: usize,
    sizes: &[usize],
    l: i64,
    dtype: DType,
    mr: i64,
    re: i64,
    pattern: Pattern,
    seed: u64,
) -> Case {
    let mut c = case(world, l, dtype, mr, re, pattern, seed);
    c.send_counts = Vec::new();
    c.domains = sizes
        .iter()
        .enumerate()
        .map(|(i, &n)| Domain {
            ranks: n,
            send_counts: counts(pattern, n, mr, seed * 8 + i as u64),
        })
        .collect();
    c
}

fn domains_name(c: &Case, pattern: Pattern) -> String {
    let sizes: Vec<String> = c.domains.iter().map(|d| d.ranks.to_string()).collect();
    format!(
        "domains:W{}_D{}_L{}_{}_{}_mr{}_re{}{}{}{}",
        c.ranks,
        sizes.join("+"),
        c.core_num,
        c.dtype.name(),
        pattern.name(),
        c.max_recv,
        c.row_elems,
        if c.repeat > 1 {
            format!("_rep{}", c.repeat)
        } else {
            String::new()
        },
        if c.layers > 1 {
            format!("_layers{}", c.layers)
        } else {
            String::new()
        },
        if c.runtime_core_num { "_runtime" } else { "" },
    )
}

/// Communication domains of different sizes in one world (docs/spec/domains.md, "Runtime"):
/// each domain runs its own pipeline with `rankNum` = its size. The CI slice has the first three
/// (a 2-rank domain inside a 4-device world; a device in no domain, with repeat; three domains, two
/// of one size, looped and with a runtime core_num); the full matrix adds two.
pub fn domains_entries(full: bool) -> Vec<Entry> {
    let mut v = Vec::new();
    let mut add = |c: Case, pattern: Pattern| {
        v.push(Entry {
            name: domains_name(&c, pattern),
            case: c,
            expect: Expect::Domains,
        })
    };
    add(
        domains_case(4, &[4, 2], 4, DType::F32, 3, 5, Pattern::Random, 901),
        Pattern::Random,
    );
    let mut c = domains_case(6, &[2, 5], 3, DType::I8, 2, 33, Pattern::OverCapacity, 902);
    c.repeat = 3;
    add(c, Pattern::OverCapacity);
    let mut c = domains_case(8, &[8, 3, 8], 10, DType::F32, 4, 8, Pattern::Negative, 903);
    (c.layers, c.runtime_core_num) = (2, true);
    add(c, Pattern::Negative);
    if full {
        add(
            domains_case(16, &[1, 16, 7], 16, DType::I8, 2, 3, Pattern::Random, 904),
            Pattern::Random,
        );
        let mut c = domains_case(
            3,
            &[3, 2, 1, 2],
            2,
            DType::F32,
            5,
            3,
            Pattern::ZeroAndFull,
            905,
        );
        c.repeat = 20;
        add(c, Pattern::ZeroAndFull);
    }
    v
}

/// Index patterns of the indexed op (`index[src][j]`, j < P * max_recv, input rows n).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexPattern {
    /// `j`: the plain exchange when n = P * max_recv; entries >= n are out of range.
    Identity,
    /// `n - 1 - j % n`.
    Reverse,
    /// Uniform in `[0, n)`.
    Random,
    /// `(j / 2 + src) % min(n, 3)`: few rows, each gathered many times.
    Repeated,
    /// By `j % 7`: -1, n, 2^31 - 1, -2^31, then three in range: zero rows among real ones.
    OutOfRange,
}

impl IndexPattern {
    /// Every index pattern.
    pub const ALL: [IndexPattern; 5] = [
        IndexPattern::Identity,
        IndexPattern::Reverse,
        IndexPattern::Random,
        IndexPattern::Repeated,
        IndexPattern::OutOfRange,
    ];
    /// The pattern's name in entry names.
    pub fn name(self) -> &'static str {
        match self {
            IndexPattern::Identity => "identity",
            IndexPattern::Reverse => "reverse",
            IndexPattern::Random => "random",
            IndexPattern::Repeated => "repeated",
            IndexPattern::OutOfRange => "out_of_range",
        }
    }
}

/// P gather lists of `len` entries over `n` input rows; `seed` drives the random pattern.
pub fn index_lists(pattern: IndexPattern, p: usize, len: i64, n: i64, seed: u64) -> Vec<Vec<i32>> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move |bound: i64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % bound as u64) as i64
    };
    (0..p as i64)
        .map(|src| {
            (0..len)
                .map(|j| {
                    let v: i64 = match pattern {
                        IndexPattern::Identity => j,
                        IndexPattern::Reverse => n - 1 - j % n,
                        IndexPattern::Random => next(n),
                        IndexPattern::Repeated => (j / 2 + src) % n.min(3),
                        IndexPattern::OutOfRange => match j % 7 {
                            0 => -1,
                            1 => n,
                            2 => i32::MAX as i64,
                            3 => i32::MIN as i64,
                            _ => (j + src) % n,
                        },
                    };
                    v as i32
                })
                .collect()
        })
        .collect()
}

/// The indexed op's launch widths for P: {1, 2, P, P + 3, 16}, duplicates dropped.
pub fn indexed_ls(p: usize) -> Vec<i64> {
    let p = p as i64;
    let mut ls = Vec::new();
    for l in [1, 2, p, p + 3, 16] {
        if !ls.contains(&l) {
            ls.push(l);
        }
    }
    ls
}

/// An indexed case: `input_rows` n, `index` of the pattern.
#[allow(clippy::too_many_arguments)]
pub fn indexed_case(
    p: usize,
    l: i64,
    dtype: DType,
    mr: i64,
    re: i64,
    n: i64,
    index: IndexPattern,
    pattern: Pattern,
    seed: u64,
) -> Case {
    let mut c = case(p, l, dtype, mr, re, pattern, seed);
    c.op = Op::IndexedAllToAllV;
    c.input_rows = Some(n);
    c.index = Some(index_lists(index, p, p as i64 * mr, n, seed ^ 0x5bd1_e995));
    c
}

fn indexed_name(kind: &str, c: &Case, index: &str, pattern: &str) -> String {
    format!(
        "{kind}:P{}_L{}_{}_{index}{}_mr{}_re{}_nin{}_S{}{}",
        c.ranks,
        c.core_num,
        c.dtype.name(),
        if pattern.is_empty() {
            String::new()
        } else {
            format!("_{pattern}")
        },
        c.max_recv,
        c.row_elems,
        c.in_rows(),
        c.stride(),
        if c.repeat > 1 {
            format!("_rep{}", c.repeat)
        } else {
            String::new()
        },
    )
}

/// The input rows of indexed variant `v` (P * max_recv, a few more, half, rotating): the
/// module depends on them, so each (P, L, dtype) variant has one.
fn indexed_rows(p: usize, mr: i64, v: usize) -> i64 {
    let rows = p as i64 * mr;
    [rows, rows + 3, (rows / 2).max(1)][v % 3]
}

/// The indexed op's matrix: P ∈ {1,2,4,8,16} × L ∈ {1, 2, P, P+3, 16} (22 distinct (P, L)) × the
/// five index patterns × the six count patterns × {f32, i8} = 1320 entries (`indexed:…`), one
/// module per (P, L, dtype) variant (shape and input rows rotating), against the golden.
pub fn indexed_full() -> Vec<Entry> {
    let mut v = Vec::new();
    let mut variant = 0;
    for p in PS {
        for l in indexed_ls(p) {
            for dtype in [DType::F32, DType::I8] {
                let (mr, re) = SHAPES[variant % SHAPES.len()];
                let n = indexed_rows(p, mr, variant);
                for (x, index) in IndexPattern::ALL.into_iter().enumerate() {
                    for (i, pattern) in Pattern::ALL.into_iter().enumerate() {
                        let seed = (2000 + variant * 64 + x * 8 + i) as u64;
                        let c = indexed_case(p, l, dtype, mr, re, n, index, pattern, seed);
                        v.push(Entry {
                            name: indexed_name("indexed", &c, index.name(), pattern.name()),
                            case: c,
                            expect: Expect::Golden,
                        });
                    }
                }
                variant += 1;
            }
        }
    }
    v
}

/// The CI slice of the indexed matrix: one (P, L) per P (L = P + 3, 16, 2, P, 1 rotating so
/// every kind of L appears), dtype alternating, each index pattern once with a count pattern
/// rotating through all six: 10 entries.
fn indexed_ci() -> Vec<Entry> {
    let full = indexed_full();
    let picks: [(usize, i64, DType); 5] = [
        (1, 4, DType::F32),
        (2, 16, DType::I8),
        (4, 2, DType::F32),
        (8, 8, DType::I8),
        (16, 1, DType::F32),
    ];
    let mut v = Vec::new();
    let mut k = 0;
    for (p, l, dtype) in picks {
        for t in 0..2 {
            let index = IndexPattern::ALL[(2 * k + t) % IndexPattern::ALL.len()];
            let pattern = Pattern::ALL[(2 * k + t) % Pattern::ALL.len()];
            let e = full
                .iter()
                .find(|e| {
                    e.case.ranks == p
                        && e.case.core_num == l
                        && e.case.dtype == dtype
                        && e.name
                            .contains(&format!("_{}_{}_", index.name(), pattern.name()))
                })
                .unwrap_or_else(|| panic!("indexed P{p} L{l} {} {}", index.name(), pattern.name()))
                .clone();
            v.push(e);
        }
        k += 1;
    }
    v
}

/// The indexed op's repeat, stride, launch-width, capacity and contiguity cases, and the
/// compile-time refusals a pld-sim case can reach (S < L, core_num 0, a runtime core_num).
pub fn indexed_extras(repeat: u32) -> Vec<Entry> {
    let mut v = Vec::new();
    let mut add = |kind: &str, c: Case, index: IndexPattern, expect: Expect| {
        v.push(Entry {
            name: indexed_name(kind, &c, index.name(), ""),
            case: c,
            expect,
        });
    };
    use IndexPattern::*;
    // Back-to-back exchanges on one signal.
    let mut c = indexed_case(4, 7, DType::F32, 3, 7, 15, Random, Pattern::Random, 3001);
    c.repeat = repeat;
    add("indexed_repeat", c, Random, Expect::Golden);
    let mut c = indexed_case(
        8,
        3,
        DType::I8,
        2,
        9,
        16,
        OutOfRange,
        Pattern::OneAndFull,
        3002,
    );
    c.repeat = repeat.min(20);
    add("indexed_repeat", c, OutOfRange, Expect::Golden);
    // S > L, and S < L (compile error).
    let mut c = indexed_case(4, 5, DType::I8, 4, 8, 16, Reverse, Pattern::Random, 3003);
    c.signal_stride = Some(9);
    add("indexed_S_gt_L", c, Reverse, Expect::Golden);
    let mut c = indexed_case(4, 7, DType::F32, 4, 3, 16, Random, Pattern::Random, 3004);
    c.signal_stride = Some(4);
    add(
        "indexed_S_lt_L",
        c,
        Random,
        Expect::CompileError("signal stride S=4 is smaller than the launch width L=7"),
    );
    // core_num 0 and a runtime core_num: compile errors of the indexed row.
    let mut c = indexed_case(2, 0, DType::F32, 2, 4, 4, Identity, Pattern::Uniform, 3005);
    c.signal_stride = Some(2);
    add(
        "indexed_core_num_0",
        c,
        Identity,
        Expect::CompileError("core_num must be in [1, 2147483647], got 0"),
    );
    let mut c = indexed_case(2, 2, DType::F32, 2, 4, 4, Identity, Pattern::Uniform, 3006);
    c.runtime_core_num = true;
    add(
        "runtime_indexed",
        c,
        Identity,
        Expect::CompileError("a runtime core_num is not supported for indexed_all_to_all_v"),
    );
    // One input row gathered by every slot; a large local split (L = 11 at P = 2).
    add(
        "indexed_one_row",
        indexed_case(4, 4, DType::I8, 3, 5, 1, Repeated, Pattern::Uniform, 3007),
        Repeated,
        Expect::Golden,
    );
    add(
        "indexed_local_split",
        indexed_case(2, 11, DType::F32, 23, 5, 40, Random, Pattern::Uniform, 3008),
        Random,
        Expect::Golden,
    );
    // Capacity: L over it is refused at the sync-start launch (fatal 7), nothing runs.
    let mut c = indexed_case(4, 9, DType::F32, 2, 8, 8, Random, Pattern::Uniform, 3009);
    c.aiv_capacity = 8;
    add(
        "indexed_over_capacity_launch",
        c,
        Random,
        Expect::Refused {
            status: "fatal",
            code: 7,
        },
    );
    let mut c = indexed_case(4, 8, DType::F32, 2, 8, 8, Random, Pattern::Random, 3010);
    c.aiv_capacity = 8;
    add("indexed_at_capacity", c, Random, Expect::Golden);
    // The contiguity backstop on each of the six operands (index included).
    for op in Operand::INDEXED {
        let mut c = indexed_case(4, 5, DType::F32, 3, 5, 14, Random, Pattern::Uniform, 3011);
        c.non_contiguous = Some(op);
        add(
            &format!("indexed_strided_{}", op.name()),
            c,
            Random,
            Expect::Refused {
                status: "invalid_args",
                code: 5,
            },
        );
    }
    v
}

/// Judges a result against an entry's expectation.
pub fn judge(entry: &Entry, result: &SimResult) -> Result<(), SimError> {
    judge_untyped(entry, result).map_err(SimError::Mismatch)
}

fn judge_untyped(entry: &Entry, result: &SimResult) -> Result<(), String> {
    let c = &entry.case;
    let builtin = case_kernel(c);
    match &entry.expect {
        Expect::Golden | Expect::Domains => {
            if c.domains.is_empty() {
                golden::check(c, result).map_err(|e| e.to_string())?;
            } else {
                golden::check_domains(c, result).map_err(|e| e.to_string())?;
            }
            // Blocks started: each domain (a plain case is one) runs N x B collective blocks and
            // N of each step per exchange.
            let started = blocks_started(&result.message);
            let per_call = c.repeat as i64 * c.exchanges_per_call();
            let cases: Vec<Case> = if c.domains.is_empty() {
                vec![c.clone()]
            } else {
                (0..c.domains.len()).map(|d| c.domain_case(d)).collect()
            };
            let want_builtin: i64 = cases
                .iter()
                .map(|d| d.ranks as i64 * golden::expected_blocks(d) * per_call)
                .sum();
            let want_steps: i64 = cases.iter().map(|d| d.ranks as i64 * per_call).sum();
            let got = started.get(builtin).copied().unwrap_or(-1);
            if got != want_builtin {
                return Err(format!(
                    "{builtin} ran {got} blocks, expected (sum over domains of) N x B x repeat x layers = {want_builtin}"
                ));
            }
            for k in ["stage_step", "consume_step"] {
                let got = started.get(k).copied().unwrap_or(-1);
                if got != want_steps {
                    return Err(format!(
                        "{k} ran {got} blocks, expected (sum over domains of) N x repeat x layers = {want_steps}"
                    ));
                }
            }
            Ok(())
        }
        Expect::CompileError(text) => {
            if result.status != "compile_error" || !result.message.contains(text) {
                return Err(format!(
                    "expected compile_error containing {text:?}, got {} {}: {}",
                    result.status, result.code, result.message
                ));
            }
            Ok(())
        }
        Expect::Refused { status, code } => {
            golden::check_refused(c, result, status, *code).map_err(|e| e.to_string())?;
            let started = blocks_started(&result.message);
            for k in [builtin, "consume_step"] {
                if started.get(k) != Some(&0) {
                    return Err(format!(
                        "{k} started {:?} blocks, expected 0: {}",
                        started.get(k),
                        result.message
                    ));
                }
            }
            if started.get("stage_step") != Some(&(c.ranks as i64)) {
                return Err(format!(
                    "stage_step should have run once per rank: {}",
                    result.message
                ));
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        assert_eq!(
            counts(Pattern::ZeroAndFull, 2, 4, 0),
            vec![vec![0, 4], vec![4, 0]]
        );
        assert_eq!(
            counts(Pattern::Negative, 2, 5, 0),
            vec![vec![3, -2], vec![-2, 3]]
        );
        assert_eq!(
            counts(Pattern::OverCapacity, 2, 4, 0),
            vec![vec![4, 7], vec![7, 4]]
        );
        let r = counts(Pattern::Random, 16, 4, 7);
        assert!(r.iter().flatten().all(|&v| (-3..=8).contains(&v)));
        assert!(r.iter().flatten().any(|&v| v < 0) && r.iter().flatten().any(|&v| v > 4));
        assert_eq!(r, counts(Pattern::Random, 16, 4, 7));
    }

    #[test]
    fn matrix_sizes() {
        let extras = extras(100).len() + runtime_extras().len() + indexed_extras(100).len();
        assert_eq!(domains_entries(false).len(), 3);
        assert_eq!(domains_entries(true).len(), 5);
        for e in domains_entries(true) {
            assert_eq!(
                Case::from_value(&e.case.to_json()).unwrap(),
                e.case,
                "{}",
                e.name
            );
        }
        assert_eq!(runtime_extras().len(), 9);
        assert_eq!(indexed_extras(100).len(), 16);
        assert_eq!(full().len(), 360 + 72 + 50 + 1320 + extras + 5 + 1);
        let slice = ci_slice();
        assert_eq!(slice.len(), 30 + 3 + 4 + 10 + extras + 3);
        // Every layers × P × dtype × pattern once in the full matrix; the slice has each N.
        let looped: Vec<_> = full()
            .into_iter()
            .filter(|e| e.name.starts_with("layers:"))
            .collect();
        assert_eq!(looped.len(), 72);
        for n in LAYERS {
            for p in [2, 4] {
                for pat in Pattern::ALL {
                    for dtype in [DType::F32, DType::I8] {
                        assert_eq!(
                            looped
                                .iter()
                                .filter(|e| e.case.layers == n
                                    && e.case.ranks == p
                                    && e.case.dtype == dtype
                                    && e.name.contains(&format!("_{}_", pat.name())))
                                .count(),
                            1
                        );
                    }
                }
            }
            assert!(
                slice
                    .iter()
                    .any(|e| e.name.starts_with("layers:") && e.case.layers == n),
                "layers {n}"
            );
        }
        // The slice covers every P, L, dtype and pattern.
        for p in PS {
            assert!(slice.iter().any(|e| e.case.ranks == p));
        }
        for l in LS {
            assert!(slice.iter().any(|e| e.case.core_num == l), "L={l}");
        }
        for pat in Pattern::ALL {
            assert!(
                slice
                    .iter()
                    .any(|e| e.name.contains(&format!("_{}_", pat.name()))),
                "{}",
                pat.name()
            );
        }
        // Names are unique.
        let names: std::collections::BTreeSet<_> = full().into_iter().map(|e| e.name).collect();
        assert_eq!(names.len(), full().len());
    }

    #[test]
    fn indexed_entries() {
        assert_eq!(indexed_ls(1), [1, 2, 4, 16]);
        assert_eq!(indexed_ls(4), [1, 2, 4, 7, 16]);
        assert_eq!(indexed_ls(16), [1, 2, 16, 19]);
        let full = indexed_full();
        assert_eq!(full.len(), 1320);
        for p in PS {
            for l in indexed_ls(p) {
                for dtype in [DType::F32, DType::I8] {
                    for index in IndexPattern::ALL {
                        for pat in Pattern::ALL {
                            let n = full
                                .iter()
                                .filter(|e| {
                                    e.case.ranks == p
                                        && e.case.core_num == l
                                        && e.case.dtype == dtype
                                        && e.name.contains(&format!(
                                            "_{}_{}_",
                                            index.name(),
                                            pat.name()
                                        ))
                                })
                                .count();
                            assert_eq!(
                                n,
                                1,
                                "P={p} L={l} {dtype:?} {} {}",
                                index.name(),
                                pat.name()
                            );
                        }
                    }
                }
            }
        }
        for e in &full {
            let c = &e.case;
            assert_eq!(c.op, Op::IndexedAllToAllV);
            assert_eq!(c.blocks(), c.core_num, "the exact launch width");
            assert_eq!(c.stride(), c.core_num, "S defaults to L");
            let index = c.index.as_ref().unwrap();
            assert_eq!((index.len(), index[0].len() as i64), (c.ranks, c.rows()));
            // Every entry round-trips as a case.
            assert_eq!(Case::from_value(&c.to_json()).unwrap(), *c, "{}", e.name);
        }
        // The patterns do what they say.
        let n = 5;
        let ix = |p| index_lists(p, 2, 8, n, 1);
        assert_eq!(ix(IndexPattern::Identity)[1], [0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(ix(IndexPattern::Reverse)[0], [4, 3, 2, 1, 0, 4, 3, 2]);
        assert!(
            ix(IndexPattern::Random)
                .iter()
                .flatten()
                .all(|&v| (0..5).contains(&v))
        );
        assert!(
            ix(IndexPattern::Repeated)
                .iter()
                .flatten()
                .all(|&v| (0..3).contains(&v))
        );
        let oor = ix(IndexPattern::OutOfRange);
        assert!(oor.iter().flatten().any(|&v| v < 0) && oor.iter().flatten().any(|&v| v >= 5));
        assert!(oor[0].contains(&i32::MAX) && oor[0].contains(&i32::MIN));
        // The slice: every P, every index pattern, every count pattern, both dtypes.
        let slice: Vec<Entry> = ci_slice()
            .into_iter()
            .filter(|e| e.case.op == Op::IndexedAllToAllV)
            .collect();
        for p in PS {
            assert!(
                slice
                    .iter()
                    .any(|e| e.case.ranks == p && e.name.starts_with("indexed:")),
                "P={p}"
            );
        }
        for index in IndexPattern::ALL {
            assert!(
                slice
                    .iter()
                    .any(|e| e.name.contains(&format!("_{}_", index.name()))),
                "{}",
                index.name()
            );
        }
        for pat in Pattern::ALL {
            assert!(
                slice.iter().any(|e| e.name.starts_with("indexed:")
                    && e.name.contains(&format!("_{}_", pat.name())))
            );
        }
        assert!(slice.iter().any(|e| e.case.repeat > 1));
    }

    #[test]
    fn runtime_core_num_entries() {
        assert_eq!(runtime_ls(1), [1, 2, 10, 16]);
        assert_eq!(runtime_ls(2), [1, 2, 3, 4, 10, 16]);
        assert_eq!(runtime_ls(4), [1, 2, 3, 4, 5, 8, 10, 16]);
        assert_eq!(runtime_ls(8), [1, 2, 7, 8, 9, 16, 10]);
        let rt = runtime_full();
        assert_eq!(rt.len(), 50);
        for p in RUNTIME_PS {
            for l in runtime_ls(p) {
                for pat in [Pattern::Uniform, Pattern::Random] {
                    let n = rt
                        .iter()
                        .filter(|e| {
                            e.case.ranks == p
                                && e.case.core_num == l
                                && e.name.contains(&format!("_{}_", pat.name()))
                        })
                        .count();
                    assert_eq!(n, 1, "P={p} L={l} {}", pat.name());
                }
            }
        }
        assert!(rt.iter().all(|e| e.case.runtime_core_num
            && e.case.signal_stride.is_none()
            && e.expect == Expect::Golden));
        assert!(rt.iter().all(|e| e.name.starts_with("runtime:")));
        // Every entry of the full matrix with runtime_core_num is named runtime… (a domains entry
        // …_runtime, so `--filter runtime` selects it too); the static ones are not.
        for e in full() {
            let named = e.name.starts_with("runtime")
                || e.name.starts_with("domains:") && e.name.ends_with("_runtime");
            assert_eq!(e.case.runtime_core_num, named, "{}", e.name);
            assert_eq!(
                e.case.runtime_core_num,
                e.name.contains("runtime"),
                "{}",
                e.name
            );
        }
        // The refusals share the base entry's module: same shapes, dtype and S.
        let base = runtime_base();
        let module = crate::chip_pipeline::chip_pipeline(&base);
        for e in runtime_extras().iter().filter(|e| e.case.layers == 1) {
            assert_eq!(
                crate::chip_pipeline::chip_pipeline(&e.case),
                module,
                "{}",
                e.name
            );
        }
        let refused: Vec<i64> = runtime_extras()
            .iter()
            .filter(|e| {
                e.expect
                    == Expect::Refused {
                        status: "invalid_args",
                        code: 5,
                    }
            })
            .map(|e| e.case.core_num)
            .collect();
        for l in [0, -1, 1 << 31, 8] {
            assert!(refused.contains(&l), "L={l}");
        }
        let slice = ci_slice();
        assert_eq!(
            slice
                .iter()
                .filter(|e| e.name.starts_with("runtime:"))
                .count(),
            5
        );
    }
}
