//! The `pl.direction` vocabulary: how a kernel or callable accesses a
//! parameter (`in`, `out`, `inout`). Below the analyses that derive it
//! (`crate::analysis::directions`) and the variant table that fixes it for
//! the builtin kernels (`crate::collective`). The spellings are the
//! dialect's (`PlEnums.td`'s `Pl_Direction`, read through the C API): this
//! enum mirrors its values (a unit test checks the mirror).

/// A parameter's direction (`pl.direction`); the values are `Pl_Direction`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum Direction {
    In = 0,
    Out = 1,
    InOut = 2,
}

impl Direction {
    const ALL: [Direction; 3] = [Self::In, Self::Out, Self::InOut];

    /// The spelling (`"in"`, `"out"`, `"inout"`).
    pub fn as_str(self) -> &'static str {
        let s = unsafe { crate::capi::pldDirectionToString(self as i32) };
        // The dialect's spellings are string literals: they live as long as
        // the program.
        let bytes: &'static [u8] =
            unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
        std::str::from_utf8(bytes).unwrap_or("?")
    }
    /// The direction a spelling names, if any.
    pub fn parse(text: &str) -> Option<Self> {
        let value = unsafe {
            crate::capi::pldDirectionFromString(mlir_sys::MlirStringRef {
                data: text.as_ptr() as *const _,
                length: text.len(),
            })
        };
        Self::ALL.into_iter().find(|d| *d as i32 == value)
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

#[cfg(test)]
mod tests {
    use super::Direction;

    #[test]
    fn the_mirror_matches_the_dialects_vocabulary() {
        for (d, text) in Direction::ALL.into_iter().zip(["in", "out", "inout"]) {
            assert_eq!(d.as_str(), text);
            assert_eq!(Direction::parse(text), Some(d));
        }
        assert_eq!(Direction::parse("inOut"), None);
        assert_eq!(Direction::parse(""), None);
    }
}
