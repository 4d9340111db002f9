//! The element types: one enum for a case's `dtype` (the all_to_all_v simulator's and the
//! family's), pld-run's tensors and the engine's element sizes.

/// An element type (MLIR spelling / NumPy descr): what pld-run reads, writes and passes, and a
/// case's `dtype` (any of them; the ones an op refuses are pld-opt's compile_error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Elem {
    /// `f32` / `<f4`
    F32,
    /// `f64` / `<f8`
    F64,
    /// `i8` / `|i1`
    I8,
    /// `i16` / `<i2`
    I16,
    /// `i32` / `<i4`
    I32,
    /// `i64` / `<i8`
    I64,
    /// `ui8` / `|u1`
    U8,
    /// `f16` / `<f2` (IEEE binary16)
    F16,
    /// `bf16`: NumPy has no bfloat16 dtype, so its `.npy` files are `<f4` (float32), rounded to
    /// the nearest bf16 (ties to even) when read; written exactly.
    BF16,
}

const ELEMS: [(Elem, &str, &str); 9] = [
    (Elem::F32, "f32", "f4"),
    (Elem::F64, "f64", "f8"),
    (Elem::F16, "f16", "f2"),
    (Elem::BF16, "bf16", ""),
    (Elem::I8, "i8", "i1"),
    (Elem::I16, "i16", "i2"),
    (Elem::I32, "i32", "i4"),
    (Elem::I64, "i64", "i8"),
    (Elem::U8, "ui8", "u1"),
];

impl Elem {
    /// Every element type.
    pub const ALL: [Elem; 9] = [
        Elem::F32,
        Elem::F64,
        Elem::F16,
        Elem::BF16,
        Elem::I8,
        Elem::I16,
        Elem::I32,
        Elem::I64,
        Elem::U8,
    ];

    /// The element type of an MLIR spelling (`f32`, `i64`, ...).
    pub fn from_mlir(s: &str) -> Option<Elem> {
        ELEMS.iter().find(|e| e.1 == s).map(|e| e.0)
    }
    /// The MLIR spelling.
    pub fn mlir(self) -> &'static str {
        ELEMS.iter().find(|e| e.0 == self).unwrap().1
    }
    /// The case JSON's spelling (MLIR's).
    pub fn name(self) -> &'static str {
        self.mlir()
    }
    /// The NumPy descr's type code (`f4`, `i1`; empty for bf16, which NumPy lacks).
    pub fn descr(self) -> &'static str {
        ELEMS.iter().find(|e| e.0 == self).unwrap().2
    }
    /// The builtin kernel symbols' `<dt>` (family spec, "Lowering"; `fp32`, `int8`).
    pub fn symbol(self) -> &'static str {
        match self {
            Elem::F32 => "fp32",
            Elem::F64 => "fp64",
            Elem::F16 => "fp16",
            Elem::BF16 => "bf16",
            Elem::I8 => "int8",
            Elem::I16 => "int16",
            Elem::I32 => "int32",
            Elem::I64 => "int64",
            Elem::U8 => "uint8",
        }
    }
    /// Bytes per element.
    pub fn size(self) -> i64 {
        match self {
            Elem::F32 | Elem::I32 => 4,
            Elem::F64 | Elem::I64 => 8,
            Elem::I8 | Elem::U8 => 1,
            Elem::I16 | Elem::F16 | Elem::BF16 => 2,
        }
    }
    /// Whether the type is a floating-point one (compared within the tolerance).
    pub fn is_float(self) -> bool {
        matches!(self, Elem::F32 | Elem::F64 | Elem::F16 | Elem::BF16)
    }

    /// Little-endian elements as words: floats as their bit patterns, integers as their values
    /// (the words a result holds and its golden compares bit for bit).
    pub fn words(self, bytes: &[u8]) -> Vec<i64> {
        let n = self.size() as usize;
        bytes
            .chunks_exact(n)
            .map(|c| {
                let mut b = [0u8; 8];
                b[..n].copy_from_slice(c);
                let u = u64::from_le_bytes(b);
                match self {
                    Elem::I8 => u as u8 as i8 as i64,
                    Elem::I16 => u as u16 as i16 as i64,
                    Elem::I32 => u as u32 as i32 as i64,
                    _ => u as i64,
                }
            })
            .collect()
    }
    /// A word as its number (exact for every type but i64 / u64 words beyond 2^53).
    pub fn value(self, w: i64) -> f64 {
        match self {
            Elem::F32 => f32::from_bits(w as u32) as f64,
            Elem::F64 => f64::from_bits(w as u64),
            Elem::F16 => half::f16::from_bits(w as u16).to_f64(),
            Elem::BF16 => half::bf16::from_bits(w as u16).to_f64(),
            _ => w as f64,
        }
    }
    /// The word of a number (floats rounded to the type, to nearest even).
    pub fn word(self, v: f64) -> i64 {
        match self {
            Elem::F32 => (v as f32).to_bits() as i64,
            Elem::F64 => v.to_bits() as i64,
            Elem::F16 => half::f16::from_f64(v).to_bits() as i64,
            Elem::BF16 => half::bf16::from_f64(v).to_bits() as i64,
            _ => v as i64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        assert_eq!(Elem::I8.words(&[0xff, 3]), vec![-1, 3]);
        assert_eq!(Elem::U8.words(&[0xff]), vec![255]);
        assert_eq!(Elem::I32.words(&(-7i32).to_le_bytes()), vec![-7]);
        let w = Elem::F32.words(&1.5f32.to_le_bytes())[0];
        assert_eq!(w, 1.5f32.to_bits() as i64);
        for e in Elem::ALL {
            for v in [0.0f64, -2.0, 0.5, 100.0] {
                let v = if e.is_float() { v } else { v.trunc() };
                assert_eq!(e.value(e.word(v)), v, "{e:?} {v}");
            }
        }
        assert_eq!(Elem::F16.word(0.1), 0x2e66);
    }
}
