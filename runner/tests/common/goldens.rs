//! The examples' references, computed from their documented meaning (each file's header) with
//! plain Rust loops over tokens and rows: no collective, nothing from pld or the simulator. One
//! reference per example, for any rank count; and each example's P-dependent text, so a file
//! written for one rank count runs on another.

use std::path::{Path, PathBuf};

use super::{inputs, root, write_npy_f32};

/// An example module and how its text depends on the rank count.
pub struct Example {
    /// File stem under examples/.
    pub name: &'static str,
    /// The rank count the file is written for.
    pub written_for: usize,
    /// The P-dependent text of the file and its form for P ranks.
    pub shapes: fn(usize) -> Vec<(&'static str, String)>,
}

/// Rewrites each `from` of `shapes` to its `to`, all at once (a replacement never sees
/// another's output). Every `from` must occur.
pub fn retarget(text: &str, shapes: &[(&str, String)]) -> String {
    let mut out = text.to_string();
    for (i, (from, _)) in shapes.iter().enumerate() {
        assert!(
            out.contains(from),
            "the example no longer contains `{from}`: update runner/tests/common/goldens.rs"
        );
        out = out.replace(from, &format!("\u{1}{i}\u{1}"));
    }
    for (i, (_, to)) in shapes.iter().enumerate() {
        out = out.replace(&format!("\u{1}{i}\u{1}"), to);
    }
    out
}

impl Example {
    /// The module for `p` ranks, written into `dir` (the file itself when `p` is the count it is
    /// written for: retargeting it must change nothing).
    pub fn module_for(&self, p: usize, dir: &Path) -> PathBuf {
        let path = root().join(format!("examples/{}.mlir", self.name));
        let source = std::fs::read_to_string(&path).unwrap();
        let text = retarget(&source, &(self.shapes)(p));
        if p == self.written_for {
            assert_eq!(
                text, source,
                "retargeting {} to P={p} changed it",
                self.name
            );
            return path;
        }
        let out = dir.join(format!("{}.mlir", self.name));
        std::fs::write(&out, text).unwrap();
        out
    }
}

// ------------------------------------------------------------------ moe_layers

pub const MOE_TOKENS: usize = 8;
pub const MOE_HIDDEN: usize = 4;
pub const MOE_CAPACITY: usize = 3;
pub const MOE_SIGNAL_STRIDE: i64 = 8;

pub const MOE: Example = Example {
    name: "moe_layers",
    written_for: 4,
    shapes: |p| {
        vec![
            ("<32x4xf32>", format!("<{}x4xf32>", p * MOE_TOKENS)),
            ("<12x4xf32>", format!("<{}x4xf32>", p * MOE_CAPACITY)),
            ("<4x8xi32>", format!("<{p}x8xi32>")),
            ("<4xi32>", format!("<{p}xi32>")),
            (
                "%devices = arith.constant 4 : index",
                format!("%devices = arith.constant {p} : index"),
            ),
        ]
    },
};

/// Every rank's tokens after `layers` MoE layers (examples/moe_layers.mlir's header): token t of
/// rank r goes to expert e = (int(sum of h) + l) mod P unless C earlier tokens of r already went
/// to e in layer l; a routed token becomes h + (2h + e + 1), a dropped one stays h. Also whether
/// a token was dropped (the capacity limit was exercised).
pub fn moe_golden(p: usize, layers: i64, inp: &[f32]) -> (Vec<f32>, bool) {
    routed(
        p,
        layers,
        inp,
        (MOE_TOKENS, MOE_HIDDEN, MOE_CAPACITY),
        |layer, key| (key + layer).rem_euclid(p as i64) as usize,
    )
}

/// The layer loop both MoE examples share: per layer, token t of rank r (T tokens of H per rank)
/// goes to expert `expert(layer, key)`, key = int(sum of h), unless C earlier tokens of r already
/// went to that expert in this layer; a routed token becomes h + (2h + e + 1), a dropped one stays
/// h. Also whether a token was dropped.
fn routed(
    p: usize,
    layers: i64,
    inp: &[f32],
    (tokens, hidden, capacity): (usize, usize, usize),
    expert: impl Fn(i64, i64) -> usize,
) -> (Vec<f32>, bool) {
    let mut h: Vec<Vec<f32>> = inp.chunks(hidden).map(|c| c.to_vec()).collect();
    let mut dropped = false;
    for layer in 0..layers.max(0) {
        for r in 0..p {
            let mut taken = vec![0usize; p];
            for row in &mut h[r * tokens..(r + 1) * tokens] {
                let key = row.iter().fold(0.0f32, |s, x| s + x) as i64;
                let e = expert(layer, key);
                if taken[e] == capacity {
                    dropped = true;
                    continue;
                }
                taken[e] += 1;
                for x in row.iter_mut() {
                    let y = 2.0f32 * *x + (e + 1) as f32;
                    *x += y;
                }
            }
        }
    }
    (h.concat(), dropped)
}

/// The launch width B of `core_num` = l on P ranks (RFC #2521's fold).
pub fn launch_width(p: i64, l: i64) -> i64 {
    if l < p { l } else { l / p * p }
}

// ------------------------------------------------------------------ micro_batches

pub const MB_MICRO: usize = 3;
pub const MB_PER_PEER: usize = 2;
pub const MB_HIDDEN: usize = 3;

pub const MICRO: Example = Example {
    name: "micro_batches",
    written_for: 2,
    shapes: |p| {
        let mb = p * MB_PER_PEER;
        vec![
            ("<12x3xf32>", format!("<{}x3xf32>", MB_MICRO * mb)),
            ("<4x3xf32>", format!("<{mb}x3xf32>")),
            ("array<i64: 4, 3>", format!("array<i64: {mb}, 3>")),
            ("<2x4xi32>", format!("<{p}x4xi32>")),
            ("<2xi32>", format!("<{p}xi32>")),
            (
                "%mb = arith.constant 4 : index",
                format!("%mb = arith.constant {mb} : index"),
            ),
        ]
    },
};

/// x's and y's shape on `p` ranks.
pub fn micro_shape(p: usize) -> [u64; 2] {
    [(MB_MICRO * p * MB_PER_PEER) as u64, MB_HIDDEN as u64]
}

/// Every rank's y (examples/micro_batches.mlir's header): micro-batch i of rank q sends rows
/// [i*mb + r*k, i*mb + (r+1)*k) to rank r, which keeps those whose first element is not a
/// multiple of 3, packed from the slot of q, as 2x + 1.
pub fn micro_golden(p: usize, x: &[Vec<f32>]) -> Vec<Vec<f32>> {
    let mb = p * MB_PER_PEER;
    let rows =
        |v: &Vec<f32>| -> Vec<Vec<f32>> { v.chunks(MB_HIDDEN).map(|c| c.to_vec()).collect() };
    let x: Vec<Vec<Vec<f32>>> = x.iter().map(rows).collect();
    let mut y = vec![vec![vec![0.0f32; MB_HIDDEN]; MB_MICRO * mb]; p];
    for (r, yr) in y.iter_mut().enumerate() {
        for i in 0..MB_MICRO {
            for (q, xq) in x.iter().enumerate() {
                let chunk = &xq[i * mb + r * MB_PER_PEER..i * mb + (r + 1) * MB_PER_PEER];
                let kept = chunk.iter().filter(|row| (row[0] as i64) % 3 != 0);
                for (k, row) in kept.enumerate() {
                    yr[i * mb + q * MB_PER_PEER + k] =
                        row.iter().map(|v| 2.0f32 * v + 1.0).collect();
                }
            }
        }
    }
    y.into_iter().map(|r| r.concat()).collect()
}

/// Per-rank x on `p` ranks from `seed`.
pub fn micro_inputs(p: usize, seed: u64) -> Vec<Vec<f32>> {
    let [rows, cols] = micro_shape(p);
    (0..p)
        .map(|r| inputs((rows * cols) as usize, seed + r as u64))
        .collect()
}

// ------------------------------------------------------------------ tp_layer

pub const TP_TOKENS: usize = 4;
pub const TP_HIDDEN: usize = 6;
pub const TP_SHARD: usize = 3;
pub const TP_LAYERS: usize = 3;

pub const TP: Example = Example {
    name: "tp_layer",
    written_for: 4,
    shapes: |p| {
        let ffn = p * TP_SHARD;
        vec![
            ("<18x12xf32>", format!("<18x{ffn}xf32>")),
            ("<36x6xf32>", format!("<{}x6xf32>", TP_LAYERS * ffn)),
            ("<6x12xf32>", format!("<6x{ffn}xf32>")),
            ("<12x6xf32>", format!("<{ffn}x6xf32>")),
            ("<16x6xf32>", format!("<{}x6xf32>", p * TP_TOKENS)),
            ("<4x2xi32>", format!("<{p}x2xi32>")),
            ("array<i64: 6, 12>", format!("array<i64: 6, {ffn}>")),
            ("array<i64: 12, 6>", format!("array<i64: {ffn}, 6>")),
            (
                "%ffn = arith.constant 12 : index",
                format!("%ffn = arith.constant {ffn} : index"),
            ),
            (
                "%devices = arith.constant 4 : index",
                format!("%devices = arith.constant {p} : index"),
            ),
        ]
    },
};

/// The unsharded MLP the `p` ranks compute together (examples/tp_layer.mlir's header), for the
/// first `layers` layers, in exact integer arithmetic: per layer l, x <- x + relu(x @ W1_l) @
/// W2_l, W1_l rows [l*H, (l+1)*H) of w1 ([NL*H, F]) and W2_l rows [l*F, (l+1)*F) of w2
/// ([NL*F, H]), F = p * 3. Every sum the ranks form (the partial products, the allreduce's fold
/// and the residual) stays below 2^24 in magnitude, so f32 holds each exactly and the result is
/// exact in any summation order: comparisons are bitwise. Also whether the relu both clamped a
/// pre-activation and let another through (the nonlinearity is exercised).
pub fn tp_golden(p: usize, layers: usize, x: &[i64], w1: &[i64], w2: &[i64]) -> (Vec<f32>, bool) {
    const EXACT: i64 = 1 << 24;
    let (h_n, f_n) = (TP_HIDDEN, p * TP_SHARD);
    let mut x: Vec<Vec<i64>> = x.chunks(h_n).map(|c| c.to_vec()).collect();
    let (mut clamped, mut passed) = (false, false);
    for l in 0..layers {
        let w1_at = |k: usize, j: usize| w1[(l * h_n + k) * f_n + j];
        let w2_at = |j: usize, i: usize| w2[(l * f_n + j) * h_n + i];
        for row in &mut x {
            let a: Vec<i64> = (0..f_n)
                .map(|j| {
                    let dot: i64 = (0..h_n).map(|k| row[k] * w1_at(k, j)).sum();
                    let mag: i64 = (0..h_n).map(|k| (row[k] * w1_at(k, j)).abs()).sum();
                    assert!(
                        mag < EXACT,
                        "tp_layer: the inputs overflow f32's exact integers"
                    );
                    clamped |= dot < 0;
                    passed |= dot > 0;
                    dot.max(0)
                })
                .collect();
            let next: Vec<i64> = (0..h_n)
                .map(|i| {
                    let dot: i64 = (0..f_n).map(|j| a[j] * w2_at(j, i)).sum();
                    let mag: i64 =
                        row[i].abs() + (0..f_n).map(|j| (a[j] * w2_at(j, i)).abs()).sum::<i64>();
                    assert!(
                        mag < EXACT,
                        "tp_layer: the inputs overflow f32's exact integers"
                    );
                    row[i] + dot
                })
                .collect();
            *row = next;
        }
    }
    (
        x.concat().iter().map(|v| *v as f32).collect(),
        clamped && passed,
    )
}

/// tp_layer's inputs on `p` ranks from `seed`: tokens in [-3, 3], weights in {-1, 0, 1}, written
/// as inp.npy, w1.npy and w2.npy in `dir`; returns them as integers.
pub fn tp_inputs(dir: &Path, p: usize, seed: u64) -> (Vec<i64>, Vec<i64>, Vec<i64>) {
    let f_n = p * TP_SHARD;
    let n_w = TP_LAYERS * TP_HIDDEN * f_n;
    let x: Vec<i64> = inputs(TP_TOKENS * TP_HIDDEN, seed)
        .iter()
        .map(|v| *v as i64 % 7 - 3)
        .collect();
    let w: Vec<i64> = inputs(2 * n_w, seed + 1000)
        .iter()
        .map(|v| *v as i64 % 3 - 1)
        .collect();
    let (w1, w2) = w.split_at(n_w);
    let f = |v: &[i64]| v.iter().map(|x| *x as f32).collect::<Vec<f32>>();
    write_npy_f32(
        &dir.join("inp.npy"),
        &[TP_TOKENS as u64, TP_HIDDEN as u64],
        &f(&x),
    );
    write_npy_f32(
        &dir.join("w1.npy"),
        &[(TP_LAYERS * TP_HIDDEN) as u64, f_n as u64],
        &f(w1),
    );
    write_npy_f32(
        &dir.join("w2.npy"),
        &[(TP_LAYERS * f_n) as u64, TP_HIDDEN as u64],
        &f(w2),
    );
    (x, w1.to_vec(), w2.to_vec())
}

// ------------------------------------------------------------------ ep_moe

pub const EP_TOKENS: usize = 8;
pub const EP_HIDDEN: usize = 4;
pub const EP_CAPACITY: usize = 3;
pub const EP_CLASSES: usize = 5;

pub const EP: Example = Example {
    name: "ep_moe",
    written_for: 4,
    shapes: |p| {
        vec![
            ("<32x4xf32>", format!("<{}x4xf32>", p * EP_TOKENS)),
            ("<12x4xf32>", format!("<{}x4xf32>", p * EP_CAPACITY)),
            ("<4x2xi32>", format!("<{p}x2xi32>")),
            (
                "%devices = arith.constant 4 : index",
                format!("%devices = arith.constant {p} : index"),
            ),
        ]
    },
};

/// Layer l's routing table, as rank 0 makes it: token class k goes to expert (3k + l + 1) mod P.
pub fn ep_table(p: usize, layer: i64) -> Vec<i64> {
    (0..EP_CLASSES as i64)
        .map(|k| (3 * k + layer + 1).rem_euclid(p as i64))
        .collect()
}

/// Every rank's tokens after `layers` layers (examples/ep_moe.mlir's header): token t of rank r
/// goes to expert e = table_l[int(sum of h) mod K] unless C earlier tokens of r already went to
/// e in this layer; a routed token becomes h + (2h + e + 1), a dropped one stays h. Also whether
/// a token was dropped.
pub fn ep_golden(p: usize, layers: i64, inp: &[f32]) -> (Vec<f32>, bool) {
    routed(
        p,
        layers,
        inp,
        (EP_TOKENS, EP_HIDDEN, EP_CAPACITY),
        |layer, key| ep_table(p, layer)[key.rem_euclid(EP_CLASSES as i64) as usize] as usize,
    )
}

/// A comma-separated integer literal for `--input` / `--expected-output`.
pub fn i32_literal(v: &[i64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

// ------------------------------------------------------------------ pp_pipeline

pub const PP_MICRO: usize = 6;
pub const PP_TOKENS: usize = 2;
pub const PP_HIDDEN: usize = 4;

pub const PP: Example = Example {
    name: "pp_pipeline",
    written_for: 4,
    shapes: |p| {
        let pairs: Vec<String> = (0..p - 1).map(|r| format!("[{r}, {}]", r + 1)).collect();
        vec![
            ("<16x4xf32>", format!("<{}x4xf32>", p * PP_HIDDEN)),
            ("<4xi32>", format!("<{p}xi32>")),
            (
                "dense<[[0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>",
                if p == 1 {
                    "dense<> : tensor<0x2xi64>".to_string()
                } else {
                    format!("dense<[{}]> : tensor<{}x2xi64>", pairs.join(", "), p - 1)
                },
            ),
            (
                "%steps = arith.constant 9 : index",
                format!("%steps = arith.constant {} : index", PP_MICRO + p - 1),
            ),
            (
                "%devices = arith.constant 4 : index",
                format!("%devices = arith.constant {p} : index"),
            ),
        ]
    },
};

/// The pipeline's meaning (examples/pp_pipeline.mlir's header) on `p` stages: every
/// micro-batch through f_0 .. f_{P-1}, f_r(x) = relu(x @ W_r) + 1 (W_r rows [r*H, (r+1)*H) of w),
/// in exact integer arithmetic. Returns the last stage's outputs (`out`'s rows) and every rank's
/// loss row after the reduce (rank 0: the sum over the stages; rank r > 0: its own stage's).
pub fn pp_golden(p: usize, inp: &[i64], w: &[i64]) -> (Vec<f32>, Vec<Vec<f32>>) {
    let (t_n, h_n) = (PP_TOKENS, PP_HIDDEN);
    let mut out = Vec::new();
    let mut loss = vec![vec![0i64; h_n]; p];
    for m in 0..PP_MICRO {
        let mut x: Vec<i64> = inp[m * t_n * h_n..(m + 1) * t_n * h_n].to_vec();
        for (r, loss_r) in loss.iter_mut().enumerate() {
            let mut y = vec![0i64; t_n * h_n];
            for t in 0..t_n {
                for j in 0..h_n {
                    let acc: i64 = (0..h_n)
                        .map(|k| x[t * h_n + k] * w[(r * h_n + k) * h_n + j])
                        .sum();
                    y[t * h_n + j] = acc.max(0) + 1;
                    loss_r[j] += y[t * h_n + j];
                }
            }
            x = y;
        }
        out.extend(x);
    }
    let total: Vec<i64> = (0..h_n).map(|j| loss.iter().map(|l| l[j]).sum()).collect();
    loss[0] = total;
    let f = |v: &[i64]| -> Vec<f32> {
        assert!(
            v.iter().all(|x| x.abs() < 1 << 24),
            "pp_pipeline: the inputs overflow f32's exact integers"
        );
        v.iter().map(|x| *x as f32).collect()
    };
    (f(&out), loss.iter().map(|l| f(l)).collect())
}
