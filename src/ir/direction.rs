//! The `pl.direction` vocabulary: how a kernel or callable accesses a
//! parameter (`in`, `out`, `inout`). Below the analyses that derive it
//! (`crate::analysis::directions`) and the variant table that fixes it for
//! the builtin kernels (`crate::collective`).

/// A parameter's direction (`pl.direction`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    In,
    Out,
    InOut,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::In => "in",
            Self::Out => "out",
            Self::InOut => "inout",
        }
    }
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "in" => Some(Self::In),
            "out" => Some(Self::Out),
            "inout" => Some(Self::InOut),
            _ => None,
        }
    }
    pub fn reads(self) -> bool {
        self != Self::Out
    }
    pub fn writes(self) -> bool {
        self != Self::In
    }
    /// The direction of a parameter that is `read` and/or `written`.
    pub fn from_access(read: bool, written: bool) -> Self {
        match (read, written) {
            (_, false) => Self::In,
            (false, true) => Self::Out,
            (true, true) => Self::InOut,
        }
    }
}
