//! The builtin tensor kernels pld-translate synthesizes for a CHIP
//! orchestration (docs/spec/device.md, "Orchestration text"): simpler's
//! `alloc_tensors` leaves a buffer undefined and the orchestration API has no
//! copy primitive, so a `pl.tensor.create` (zero-filled) is the output of a
//! fill task and a `pl.tensor.assemble` is a copy task. Both are kernels in
//! the device's kernel text, rendered like the collectives' (the device
//! prelude spliced in) from `templates/pypto/runtime/builtins/tensor/`, one
//! variant per element size: they move bits, whatever the element type.
//! They are not calls in pld-opt's output; the orchestration emitter adds
//! them to its sub-build's kernels.

use super::template::{self, BuiltinKernel};
use crate::ir::direction::Direction;
use std::collections::BTreeMap;

/// One builtin tensor kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorKernel {
    /// `pl.tensor.create`: args[0] = out, zero-filled.
    Fill,
    /// `pl.tensor.assemble`: args[0] = target, args[1] = source, then the
    /// source box's offsets as [`COPY_OFFSETS`] scalars.
    Copy,
}

/// The offset scalars a copy task passes (one per dimension of a ChipTensor,
/// zeros past the rank).
pub const COPY_OFFSETS: usize = 5;

/// The element sizes (bytes) a variant exists for, with its C++ bits type.
const SIZES: [(u32, &str); 4] = [
    (1, "int8_t"),
    (2, "int16_t"),
    (4, "int32_t"),
    (8, "int64_t"),
];

impl TensorKernel {
    pub const ALL: [TensorKernel; 2] = [TensorKernel::Fill, TensorKernel::Copy];

    /// `fill` / `copy`.
    pub fn short(self) -> &'static str {
        match self {
            TensorKernel::Fill => "fill",
            TensorKernel::Copy => "copy",
        }
    }

    /// Its template package (the manifest's kernel origin).
    pub fn package(self) -> &'static str {
        match self {
            TensorKernel::Fill => ":pypto.runtime.builtins.tensor.fill",
            TensorKernel::Copy => ":pypto.runtime.builtins.tensor.copy",
        }
    }

    /// The template's path in the source tree.
    pub fn template_path(self) -> &'static str {
        match self {
            TensorKernel::Fill => "templates/pypto/runtime/builtins/tensor/fill/kernel.cpp.in",
            TensorKernel::Copy => "templates/pypto/runtime/builtins/tensor/copy/kernel.cpp.in",
        }
    }

    fn template(self) -> &'static str {
        match self {
            TensorKernel::Fill => include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/templates/pypto/runtime/builtins/tensor/fill/kernel.cpp.in"
            )),
            TensorKernel::Copy => include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/templates/pypto/runtime/builtins/tensor/copy/kernel.cpp.in"
            )),
        }
    }

    /// The kernel's symbol for elements of `bytes` bytes, if a variant exists:
    /// `__builtin_tensor_fill__b32`.
    pub fn symbol(self, bytes: u32) -> Option<String> {
        SIZES
            .iter()
            .any(|&(b, _)| b == bytes)
            .then(|| format!("__builtin_tensor_{}__b{}", self.short(), bytes * 8))
    }

    /// Directions of its tensor parameters (kernel_config.py's signature).
    pub fn signature(self) -> Vec<Direction> {
        match self {
            TensorKernel::Fill => vec![Direction::Out],
            TensorKernel::Copy => vec![Direction::InOut, Direction::In],
        }
    }

    /// The rendered kernel for elements of `bytes` bytes.
    pub fn render(self, bytes: u32) -> Option<String> {
        let (_, bits) = SIZES.iter().find(|&&(b, _)| b == bytes)?;
        let vars = BTreeMap::from([("bits_cpp".to_string(), bits.to_string())]);
        Some(template::render(self.template(), &vars).expect("the tensor kernel templates render"))
    }
}

/// Every builtin tensor kernel variant, rendered as pld-translate renders it
/// (the conformance check compiles each).
pub fn samples() -> Vec<BuiltinKernel> {
    let mut out = Vec::new();
    for k in TensorKernel::ALL {
        for (bytes, _) in SIZES {
            out.push(BuiltinKernel {
                symbol: k.symbol(bytes).expect("a listed size"),
                template: k.template_path(),
                source: k.render(bytes).expect("a listed size"),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_variant_per_element_size() {
        assert_eq!(
            TensorKernel::Fill.symbol(4).as_deref(),
            Some("__builtin_tensor_fill__b32")
        );
        assert_eq!(
            TensorKernel::Copy.symbol(1).as_deref(),
            Some("__builtin_tensor_copy__b8")
        );
        assert_eq!(TensorKernel::Copy.symbol(3), None);
        assert_eq!(TensorKernel::Fill.render(16), None);
        let names: Vec<String> = samples().into_iter().map(|k| k.symbol).collect();
        assert_eq!(names.len(), 8);
        assert!(names.contains(&"__builtin_tensor_copy__b64".to_string()));
    }

    #[test]
    fn renders_self_contained_device_text() {
        for k in samples() {
            assert!(
                k.source
                    .contains("extern \"C\" __aicore__ void kernel_entry(__gm__ int64_t* args)")
            );
            assert!(!k.source.contains("${"), "{}", k.symbol);
            assert!(
                !k.source.contains(template::DEVICE_PRELUDE_MARKER),
                "{}",
                k.symbol
            );
            assert!(
                k.source.contains("namespace pld_dev"),
                "{}: no prelude",
                k.symbol
            );
        }
        let fill = TensorKernel::Fill.render(2).unwrap();
        assert!(fill.contains("using Bits = int16_t;"));
        let copy = TensorKernel::Copy.render(8).unwrap();
        assert!(copy.contains("using Bits = int64_t;"));
    }

    #[test]
    fn template_paths_name_the_embedded_files() {
        for k in TensorKernel::ALL {
            let on_disk = std::fs::read_to_string(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(k.template_path()),
            )
            .unwrap();
            assert_eq!(on_disk, k.template());
        }
    }
}
