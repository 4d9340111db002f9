//! Tensor values: element types, literals (`4x8xf32=1,2,...`), `.npy` / `.npz` files read and
//! written through the `npyz` crate, and the comparison of an output with its expectation.

use std::fmt::Write as _;
use std::path::Path;

use npyz::WriterBuilder;

use crate::RunError;

pub use crate::elem::Elem;

/// A tensor (or a scalar: empty shape) in row-major order, its elements as little-endian bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    /// The element type.
    pub elem: Elem,
    /// The dimensions (empty for a scalar).
    pub shape: Vec<u64>,
    /// `numel * elem.size()` bytes.
    pub bytes: Vec<u8>,
}

fn bad(msg: impl Into<String>) -> RunError {
    RunError::Usage(msg.into())
}

/// Parses a type spec `4x8xf32` (a tensor) or `i64` (a scalar).
pub fn parse_type(spec: &str) -> Option<(Vec<u64>, Elem)> {
    let mut parts: Vec<&str> = spec.split('x').collect();
    let elem = Elem::from_mlir(parts.pop()?)?;
    let dims = parts
        .iter()
        .map(|d| d.parse::<u64>().ok())
        .collect::<Option<Vec<u64>>>()?;
    Some((dims, elem))
}

/// The type spelling `4x8xf32` of a shape and element type.
pub fn type_text(shape: &[u64], elem: Elem) -> String {
    let mut s = String::new();
    for d in shape {
        let _ = write!(s, "{d}x");
    }
    s + elem.mlir()
}

impl Value {
    /// The number of elements.
    pub fn numel(&self) -> usize {
        self.shape.iter().product::<u64>() as usize
    }

    /// A zero-filled value.
    pub fn zeros(elem: Elem, shape: &[u64]) -> Value {
        let n = shape.iter().product::<u64>() as usize;
        Value {
            elem,
            shape: shape.to_vec(),
            bytes: vec![0; n * elem.size() as usize],
        }
    }

    /// `text` (comma-separated, row-major) as a value of `shape` and `elem`; a single element
    /// fills the tensor.
    pub fn from_literal(elem: Elem, shape: &[u64], text: &str) -> Result<Value, RunError> {
        let n = shape.iter().product::<u64>() as usize;
        let items: Vec<&str> = text.split(',').map(str::trim).collect();
        if items.len() != n && items.len() != 1 {
            return Err(bad(format!(
                "{} holds {n} elements, the literal gives {}",
                type_text(shape, elem),
                items.len()
            )));
        }
        let mut bytes = Vec::with_capacity(n * elem.size() as usize);
        for k in 0..n {
            let s = items[if items.len() == 1 { 0 } else { k }];
            let err = || bad(format!("`{s}` is not an {} value", elem.mlir()));
            match elem {
                Elem::F32 => bytes.extend(s.parse::<f32>().map_err(|_| err())?.to_le_bytes()),
                Elem::F64 => bytes.extend(s.parse::<f64>().map_err(|_| err())?.to_le_bytes()),
                Elem::I8 => bytes.extend(s.parse::<i8>().map_err(|_| err())?.to_le_bytes()),
                Elem::I16 => bytes.extend(s.parse::<i16>().map_err(|_| err())?.to_le_bytes()),
                Elem::I32 => bytes.extend(s.parse::<i32>().map_err(|_| err())?.to_le_bytes()),
                Elem::I64 => bytes.extend(s.parse::<i64>().map_err(|_| err())?.to_le_bytes()),
                Elem::U8 => bytes.extend(s.parse::<u8>().map_err(|_| err())?.to_le_bytes()),
                // Parsed as f64 and rounded once (to nearest, ties to even).
                Elem::F16 => bytes.extend(
                    half::f16::from_f64(s.parse::<f64>().map_err(|_| err())?).to_le_bytes(),
                ),
                Elem::BF16 => bytes.extend(
                    half::bf16::from_f64(s.parse::<f64>().map_err(|_| err())?).to_le_bytes(),
                ),
            }
        }
        Ok(Value {
            elem,
            shape: shape.to_vec(),
            bytes,
        })
    }

    /// Element `k` as text.
    pub fn element_text(&self, k: usize) -> String {
        let s = self.elem.size() as usize;
        let b = &self.bytes[k * s..(k + 1) * s];
        match self.elem {
            Elem::F32 => format!("{}", f32::from_le_bytes(b.try_into().unwrap())),
            Elem::F64 => format!("{}", f64::from_le_bytes(b.try_into().unwrap())),
            Elem::I8 => format!("{}", b[0] as i8),
            Elem::U8 => format!("{}", b[0]),
            Elem::I16 => format!("{}", i16::from_le_bytes(b.try_into().unwrap())),
            Elem::I32 => format!("{}", i32::from_le_bytes(b.try_into().unwrap())),
            Elem::I64 => format!("{}", i64::from_le_bytes(b.try_into().unwrap())),
            Elem::F16 => format!("{}", half::f16::from_le_bytes(b.try_into().unwrap())),
            Elem::BF16 => format!("{}", half::bf16::from_le_bytes(b.try_into().unwrap())),
        }
    }

    /// Element `k` as f64 (for the float comparison; integers compare through `int_at`).
    fn float_at(&self, k: usize) -> f64 {
        let s = self.elem.size() as usize;
        let b = &self.bytes[k * s..(k + 1) * s];
        match self.elem {
            Elem::F32 => f32::from_le_bytes(b.try_into().unwrap()) as f64,
            Elem::F64 => f64::from_le_bytes(b.try_into().unwrap()),
            Elem::F16 => half::f16::from_le_bytes(b.try_into().unwrap()).to_f64(),
            Elem::BF16 => half::bf16::from_le_bytes(b.try_into().unwrap()).to_f64(),
            _ => self.int_at(k) as f64,
        }
    }

    fn int_at(&self, k: usize) -> i128 {
        let s = self.elem.size() as usize;
        let b = &self.bytes[k * s..(k + 1) * s];
        match self.elem {
            Elem::I8 => b[0] as i8 as i128,
            Elem::U8 => b[0] as i128,
            Elem::I16 => i16::from_le_bytes(b.try_into().unwrap()) as i128,
            Elem::I32 => i32::from_le_bytes(b.try_into().unwrap()) as i128,
            Elem::I64 => i64::from_le_bytes(b.try_into().unwrap()) as i128,
            Elem::F32 | Elem::F64 | Elem::F16 | Elem::BF16 => self.float_at(k) as i128,
        }
    }

    /// The row-major index `[i, j, ...]` of element `k`.
    pub fn index_of(&self, mut k: usize) -> Vec<u64> {
        let mut idx = vec![0; self.shape.len()];
        for (d, &n) in self.shape.iter().enumerate().rev() {
            if n > 0 {
                idx[d] = k as u64 % n;
                k /= n as usize;
            }
        }
        idx
    }

    /// The first element where `self` (what the run produced) and `want` differ, with how many
    /// differ: integers exactly, floats within `tolerance` (absolute; NaN matches NaN).
    pub fn first_mismatch(&self, want: &Value, tolerance: f64) -> Option<(usize, usize)> {
        let mut first = None;
        let mut count = 0;
        for k in 0..self.numel() {
            let same = if self.elem.is_float() {
                let (g, w) = (self.float_at(k), want.float_at(k));
                (g.is_nan() && w.is_nan()) || (g - w).abs() <= tolerance
            } else {
                self.int_at(k) == want.int_at(k)
            };
            if !same {
                count += 1;
                first.get_or_insert(k);
            }
        }
        first.map(|k| (k, count))
    }

    /// Writes the value as a `.npy` file (a bf16 value as float32, exactly).
    pub fn write_npy(&self, path: &Path) -> Result<(), RunError> {
        write_typed(self, path)
    }

    /// The value as `elem` when pld-run converts it on reading: float32 to bf16 (NumPy has no
    /// bfloat16 `.npy`), each element rounded to nearest, ties to even. `None` otherwise.
    pub fn converted(&self, elem: Elem) -> Option<Value> {
        if self.elem != Elem::F32 || elem != Elem::BF16 {
            return None;
        }
        let bytes = self
            .bytes
            .chunks(4)
            .flat_map(|b| {
                half::bf16::from_f32(f32::from_le_bytes(b.try_into().unwrap())).to_le_bytes()
            })
            .collect();
        Some(Value {
            elem,
            shape: self.shape.clone(),
            bytes,
        })
    }
}

fn write_typed(v: &Value, path: &Path) -> Result<(), RunError> {
    fn go<T: npyz::Serialize + npyz::AutoSerialize + Copy>(
        path: &Path,
        shape: &[u64],
        items: impl Iterator<Item = T>,
    ) -> std::io::Result<()> {
        let file = std::io::BufWriter::new(std::fs::File::create(path)?);
        let mut w = npyz::WriteOptions::new()
            .default_dtype()
            .shape(shape)
            .writer(file)
            .begin_nd()?;
        w.extend(items)?;
        w.finish()
    }
    let s = v.elem.size() as usize;
    let chunks = v.bytes.chunks(s);
    let r = match v.elem {
        Elem::F32 => go(
            path,
            &v.shape,
            chunks.map(|b| f32::from_le_bytes(b.try_into().unwrap())),
        ),
        Elem::F64 => go(
            path,
            &v.shape,
            chunks.map(|b| f64::from_le_bytes(b.try_into().unwrap())),
        ),
        Elem::I8 => go(path, &v.shape, chunks.map(|b| b[0] as i8)),
        Elem::U8 => go(path, &v.shape, chunks.map(|b| b[0])),
        Elem::I16 => go(
            path,
            &v.shape,
            chunks.map(|b| i16::from_le_bytes(b.try_into().unwrap())),
        ),
        Elem::I32 => go(
            path,
            &v.shape,
            chunks.map(|b| i32::from_le_bytes(b.try_into().unwrap())),
        ),
        Elem::I64 => go(
            path,
            &v.shape,
            chunks.map(|b| i64::from_le_bytes(b.try_into().unwrap())),
        ),
        Elem::F16 => go(
            path,
            &v.shape,
            chunks.map(|b| half::f16::from_le_bytes(b.try_into().unwrap())),
        ),
        Elem::BF16 => go(
            path,
            &v.shape,
            chunks.map(|b| half::bf16::from_le_bytes(b.try_into().unwrap()).to_f32()),
        ),
    };
    r.map_err(|e| RunError::Tool(format!("cannot write {}: {e}", path.display())))
}

/// One array of a `.npy` or `.npz` member.
fn from_npy<R: std::io::Read>(npy: npyz::NpyFile<R>, what: &str) -> Result<Value, RunError> {
    let shape = npy.shape().to_vec();
    if npy.order() == npyz::Order::Fortran && shape.len() > 1 {
        return Err(bad(format!(
            "{what}: a Fortran-order array (write it C-contiguous)"
        )));
    }
    let descr = match npy.dtype() {
        npyz::DType::Plain(ts) => ts.to_string(),
        other => return Err(bad(format!("{what}: unsupported dtype {}", other.descr()))),
    };
    let tail = descr.trim_start_matches(['<', '|', '=']);
    if descr.starts_with('>') {
        return Err(bad(format!("{what}: a big-endian array ({descr})")));
    }
    let Some(elem) = Elem::ALL
        .into_iter()
        .find(|e| !e.descr().is_empty() && e.descr() == tail)
    else {
        return Err(bad(format!(
            "{what}: dtype {descr} is not one of float16, float32, float64, int8, int16, int32, \
             int64, uint8"
        )));
    };
    let io = |e: std::io::Error| bad(format!("{what}: {e}"));
    let bytes: Vec<u8> = match elem {
        Elem::F32 => npy
            .into_vec::<f32>()
            .map_err(io)?
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        Elem::F64 => npy
            .into_vec::<f64>()
            .map_err(io)?
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        Elem::I8 => npy
            .into_vec::<i8>()
            .map_err(io)?
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        Elem::U8 => npy.into_vec::<u8>().map_err(io)?,
        Elem::I16 => npy
            .into_vec::<i16>()
            .map_err(io)?
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        Elem::I32 => npy
            .into_vec::<i32>()
            .map_err(io)?
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        Elem::I64 => npy
            .into_vec::<i64>()
            .map_err(io)?
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        Elem::F16 => npy
            .into_vec::<half::f16>()
            .map_err(io)?
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        Elem::BF16 => unreachable!("no .npy dtype reads as bf16"),
    };
    Ok(Value { elem, shape, bytes })
}

/// Reads a `.npy` file.
pub fn read_npy(path: &Path) -> Result<Value, RunError> {
    let what = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| bad(format!("{what}: {e}")))?;
    let mut cursor = std::io::Cursor::new(&bytes[..]);
    let npy = npyz::NpyFile::new(&mut cursor)
        .map_err(|e| bad(format!("{what}: not a .npy file ({e})")))?;
    let value = from_npy(npy, &what)?;
    // Bytes past the array are not part of it: the file is not what its header says.
    let extra = bytes.len() as u64 - cursor.position();
    if extra > 0 {
        return Err(bad(format!(
            "{what}: {extra} bytes after the array its header describes"
        )));
    }
    Ok(value)
}

/// Reads every array of a `.npz` file, in rank order: NumPy's `arr_0`, `arr_1`, ... by their
/// number, other names in the archive's order.
pub fn read_npz(path: &Path) -> Result<Vec<Value>, RunError> {
    let what = path.display().to_string();
    let mut npz = npyz::npz::NpzArchive::open(path).map_err(|e| bad(format!("{what}: {e}")))?;
    let mut names: Vec<String> = npz.array_names().map(String::from).collect();
    if names.iter().all(|n| {
        n.strip_prefix("arr_")
            .is_some_and(|d| d.parse::<u64>().is_ok())
    }) {
        names.sort_by_key(|n| n[4..].parse::<u64>().unwrap());
    }
    let mut out = Vec::new();
    for name in names {
        let member = format!("{what}[{name}]");
        let npy = npz
            .by_name(&name)
            .map_err(|e| bad(format!("{member}: {e}")))?
            .ok_or_else(|| bad(format!("{member}: missing")))?;
        out.push(from_npy(npy, &member)?);
    }
    if out.is_empty() {
        return Err(bad(format!("{what}: no array")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_and_literals() {
        assert_eq!(parse_type("4x8xf32"), Some((vec![4, 8], Elem::F32)));
        assert_eq!(parse_type("i64"), Some((vec![], Elem::I64)));
        assert_eq!(parse_type("4xq"), None);
        let v = Value::from_literal(Elem::I32, &[2, 2], "1,2,3,-4").unwrap();
        assert_eq!(v.element_text(3), "-4");
        assert_eq!(v.index_of(3), vec![1, 1]);
        assert!(Value::from_literal(Elem::I32, &[2, 2], "1,2,3").is_err());
        let w = Value::from_literal(Elem::I32, &[2, 2], "1,2,3,5").unwrap();
        assert_eq!(v.first_mismatch(&w, 100.0), Some((3, 1)));
        let f = Value::from_literal(Elem::F32, &[2], "1,2").unwrap();
        let g = Value::from_literal(Elem::F32, &[2], "1,2.001").unwrap();
        assert_eq!(f.first_mismatch(&g, 0.01), None);
        assert_eq!(f.first_mismatch(&g, 0.0), Some((1, 1)));
    }

    #[test]
    fn npy_round_trip() {
        let dir = std::env::temp_dir().join(format!("pld-run-npy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (elem, lit) in [
            (Elem::F32, "1.5,2,3,4,5,6"),
            (Elem::I8, "1,-2,3,4,5,6"),
            (Elem::I64, "7"),
        ] {
            let shape: &[u64] = if lit.contains(',') { &[2, 3] } else { &[] };
            let v = Value::from_literal(elem, shape, lit).unwrap();
            let p = dir.join(format!("{}.npy", elem.mlir()));
            v.write_npy(&p).unwrap();
            assert_eq!(read_npy(&p).unwrap(), v);
            // Bytes past the array: the file is not what its header says.
            let mut bytes = std::fs::read(&p).unwrap();
            bytes.extend([0u8; 3]);
            std::fs::write(&p, &bytes).unwrap();
            let err = read_npy(&p).unwrap_err().to_string();
            assert!(
                err.ends_with(": 3 bytes after the array its header describes"),
                "{err}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
