//! Looped pipelines: the exchange in an `scf.for` of `layers` iterations.

use super::*;

/// `layers` ∈ {2, 3, 5} × P ∈ {2, 4} × the six count patterns × {f32, i8}: 72 looped
/// pipelines, one module per (layers, P, dtype) variant, L and the shape rotating.
pub const LAYERS: [u32; 3] = [2, 3, 5];

fn layers_case(n: u32, p: usize, dtype: Elem, variant: usize, pattern: Pattern, seed: u64) -> Case {
    let l = LS[(variant + 2) % LS.len()];
    let (mr, re) = SHAPES[(variant + 1) % SHAPES.len()];
    let mut c = case(p, l, dtype, mr, re, pattern, seed);
    c.layers = n;
    c
}

pub(super) fn layers_full() -> Vec<Entry> {
    let mut v = Vec::new();
    let mut variant = 0;
    for n in LAYERS {
        for p in [2, 4] {
            for dtype in [Elem::F32, Elem::I8] {
                for (i, pattern) in Pattern::ALL.into_iter().enumerate() {
                    let c = layers_case(
                        n,
                        p,
                        dtype,
                        variant,
                        pattern,
                        (500 + variant * 16 + i) as u64,
                    );
                    v.push(kind_entry("layers", c, pattern.name(), Expect::Golden));
                }
                variant += 1;
            }
        }
    }
    v
}

/// The CI slice's looped pipelines: the full matrix's entries for (layers 3, P 4, f32, random),
/// (layers 2, P 2, i8, negative) and (layers 5, P 4, i8, over_capacity).
pub(super) fn layers_ci() -> Vec<Entry> {
    let picks = [
        (3, 4, Elem::F32, Pattern::Random),
        (2, 2, Elem::I8, Pattern::Negative),
        (5, 4, Elem::I8, Pattern::OverCapacity),
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
