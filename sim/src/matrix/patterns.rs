//! The count and index patterns the matrix draws its cases from (deterministic per seed).

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

/// A deterministic stream of draws from `seed`: a 64-bit LCG's high 31 bits.
fn draws(seed: u64) -> impl FnMut() -> u64 {
    let step = |s: u64| {
        s.wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407)
    };
    let mut state = step(seed);
    move || {
        state = step(state);
        state >> 33
    }
}

/// A P x P send_counts matrix; `seed` drives the random pattern (deterministic).
pub fn counts(pattern: Pattern, p: usize, max_recv: i64, seed: u64) -> Vec<Vec<i32>> {
    let mr = max_recv as i32;
    // The counts where `src + dst` is even and where it is odd.
    let (even, odd) = match pattern {
        Pattern::Uniform | Pattern::Random => (mr, mr),
        Pattern::ZeroAndFull => (0, mr),
        Pattern::OneAndFull => (1, mr),
        Pattern::OverCapacity => (mr, mr + 3),
        Pattern::Negative => ((mr + 1) / 2, -2),
    };
    let mut draw = draws(seed);
    let mut count = |s: usize, d: usize| match pattern {
        Pattern::Random => -3 + (draw() % (mr + 8) as u64) as i32,
        _ if (s + d) % 2 == 1 => odd,
        _ => even,
    };
    (0..p)
        .map(|s| (0..p).map(|d| count(s, d)).collect())
        .collect()
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
    let mut draw = draws(seed);
    (0..p as i64)
        .map(|src| {
            (0..len)
                .map(|j| {
                    let v: i64 = match pattern {
                        IndexPattern::Identity => j,
                        IndexPattern::Reverse => n - 1 - j % n,
                        IndexPattern::Random => (draw() % n as u64) as i64,
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
}
