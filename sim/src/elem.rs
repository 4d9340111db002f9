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
}
