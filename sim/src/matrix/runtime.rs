//! A runtime core_num: B computed (and checked) by the orchestration at run time.

use super::*;

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
    dtype: Elem,
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
pub(super) fn runtime_full() -> Vec<Entry> {
    let mut v = Vec::new();
    let mut variant = 0;
    for p in RUNTIME_PS {
        for l in runtime_ls(p) {
            let dtype = if variant % 2 == 0 {
                Elem::F32
            } else {
                Elem::I8
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
                v.push(kind_entry("runtime", c, pattern.name(), Expect::Golden));
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

pub(super) fn runtime_ci() -> Vec<Entry> {
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
pub(super) fn runtime_base() -> Case {
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
    let mut add = |kind: &str, c: Case, expect: Expect| v.push(kind_entry(kind, c, "", expect));
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

#[cfg(test)]
mod tests {
    use super::*;

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
