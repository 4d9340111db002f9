//! Communication domains of different sizes in one world.

use super::*;

/// A case with communication domains: a world of `world` devices, one domain per entry of
/// `sizes` (devices 0..N), each with its own counts of `pattern`.
#[allow(clippy::too_many_arguments)]
pub fn domains_case(
    world: usize,
    sizes: &[usize],
    l: i64,
    dtype: Elem,
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
        (c.repeat > 1)
            .then(|| format!("_rep{}", c.repeat))
            .unwrap_or_default(),
        (c.layers > 1)
            .then(|| format!("_layers{}", c.layers))
            .unwrap_or_default(),
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
        domains_case(4, &[4, 2], 4, Elem::F32, 3, 5, Pattern::Random, 901),
        Pattern::Random,
    );
    let mut c = domains_case(6, &[2, 5], 3, Elem::I8, 2, 33, Pattern::OverCapacity, 902);
    c.repeat = 3;
    add(c, Pattern::OverCapacity);
    let mut c = domains_case(8, &[8, 3, 8], 10, Elem::F32, 4, 8, Pattern::Negative, 903);
    (c.layers, c.runtime_core_num) = (2, true);
    add(c, Pattern::Negative);
    if full {
        add(
            domains_case(16, &[1, 16, 7], 16, Elem::I8, 2, 3, Pattern::Random, 904),
            Pattern::Random,
        );
        let mut c = domains_case(
            3,
            &[3, 2, 1, 2],
            2,
            Elem::F32,
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
