//! Tensor descriptors: the view ops (`pld_orch::slice`, `view`, `reshape`,
//! `transpose`, `set_validshape` on `ChipTensor`, spliced into the text),
//! `pl.tensor.create` and runtime-allocated buffers (the output of a builtin
//! fill task).

use super::*;
use melior::ir::TypeLike;

impl<'p, 'c, 'a> Emitter<'p, 'c, 'a> {
    /// The static shape of a tensor-typed value, or a located error.
    pub(super) fn static_shape(
        &mut self,
        op: &OperationRef<'c, 'a>,
        ty: Type<'c>,
        what: &str,
    ) -> Option<Vec<i64>> {
        let shape = TensorLike::of(ty).and_then(|t| t.static_shape());
        if shape.is_none() {
            self.p.error(
                &op,
                &format!("{what} '{ty}' must have a static shape in a CHIP orchestration body"),
            );
        }
        shape
    }

    pub(super) fn descriptor(&mut self, op: &OperationRef<'c, 'a>, kind: OrchOp, depth: usize) {
        let i = ind(depth);
        let Some(src) = self.tensor(op, 0) else {
            return;
        };
        let Some(r) = op.result_at(0) else { return };
        let lits = |v: Vec<i64>| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let mut pre = String::new();
        let i2 = format!("{i}  ");
        // The source rank the arrays assume (None: any).
        let mut src_rank: Option<usize> = None;
        let (call, what) = match kind {
            OrchOp::Slice => {
                let sizes = lits(i64_list(op, "sizes").unwrap_or_default());
                let offsets = match i64_list(op, "offsets") {
                    Some(o) => lits(o),
                    None => {
                        let mut dynamic = Vec::new();
                        for k in 1..op.operand_count() {
                            let Some((x, _)) = self.int(op, k) else {
                                return;
                            };
                            dynamic.push(x);
                        }
                        dynamic
                    }
                };
                src_rank = Some(sizes.len());
                let o = array_arg(&mut pre, &i2, "offsets", &offsets);
                let s = array_arg(&mut pre, &i2, "sizes", &sizes);
                (
                    format!("pld_orch::slice({src}, {o}, {s}, &{{out}})"),
                    "the slice leaves its source",
                )
            }
            OrchOp::View => {
                let Some(shape) = self.static_shape(op, r.r#type(), "result type") else {
                    return;
                };
                let rank = shape.len();
                let o = match i64_list(op, "offsets") {
                    Some(off) => {
                        src_rank = Some(off.len());
                        array_arg(&mut pre, &i2, "offsets", &lits(off))
                    }
                    None => "nullptr".into(),
                };
                let s = array_arg(&mut pre, &i2, "shape", &lits(shape));
                (
                    format!("pld_orch::view({src}, {o}, {s}, {rank}, &{{out}})"),
                    "the view leaves its source",
                )
            }
            OrchOp::Reshape => {
                let Some(shape) = self.static_shape(op, r.r#type(), "result type") else {
                    return;
                };
                let rank = shape.len();
                let s = array_arg(&mut pre, &i2, "shape", &lits(shape));
                (
                    format!("pld_orch::reshape({src}, {s}, {rank}, &{{out}})"),
                    "the source is not contiguous or its element count differs",
                )
            }
            OrchOp::Transpose => {
                let perm = lits(i64_list(op, "perm").unwrap_or_default());
                src_rank = Some(perm.len());
                let s = array_arg(&mut pre, &i2, "perm", &perm);
                (
                    format!("pld_orch::transpose({src}, {s}, &{{out}})"),
                    "perm is not a permutation of the source's dimensions",
                )
            }
            OrchOp::SetValidShape => {
                let valid = lits(i64_list(op, "valid").unwrap_or_default());
                src_rank = Some(valid.len());
                let s = array_arg(&mut pre, &i2, "valid", &valid);
                (
                    format!("pld_orch::set_validshape({src}, {s}, &{{out}})"),
                    "valid exceeds the source's shape",
                )
            }
            _ => return,
        };
        let Some(RtValue::Tensor(out)) = self.declare(op, r.into(), "view", None, depth) else {
            return;
        };
        let call = call.replace("{out}", &out);
        let msg = Self::fail_msg(op, what);
        let _ = writeln!(self.body, "{i}{{");
        if let Some(k) = src_rank {
            self.rank_guard(op, &src, k, depth + 1);
        }
        self.body.push_str(&pre);
        let _ = writeln!(self.body, "{i}  if (int rc = {call}) {}", fatal("rc", &msg));
        let _ = writeln!(self.body, "{i}}}");
    }

    /// A fresh runtime buffer of `v`'s static shape, bound to `v`: zero-filled
    /// by a builtin fill task (`pl.tensor.create`), or uninitialized for a
    /// task to write (`alloc_tensors`: a `pl.submit`'s runtime-allocated out).
    pub(super) fn alloc(
        &mut self,
        op: &OperationRef<'c, 'a>,
        v: Value<'c, 'a>,
        zero_filled: bool,
        depth: usize,
    ) -> Option<String> {
        let ty = v.r#type();
        let shape = self.static_shape(op, ty, "allocated type")?;
        let Some(dtype) = TensorLike::of(ty).and_then(|t| data_type(t.element)) else {
            self.p.error(
                &op,
                &format!("the element type of '{ty}' has no runtime size"),
            );
            return None;
        };
        let i = ind(depth);
        let Some(RtValue::Tensor(out)) = self.declare(op, v, "buffer", None, depth) else {
            return None;
        };
        // A ChipTensor has 1 to 5 dimensions of 32-bit extents (rank 0: [1]).
        if shape.len() > 5 || shape.iter().any(|&d| !(0..=u32::MAX as i64).contains(&d)) {
            self.p.error(
                &op,
                &format!(
                    "'{ty}' cannot be a ChipTensor (at most 5 dimensions, extents below 2^32)"
                ),
            );
            return None;
        }
        let dims: Vec<String> = if shape.is_empty() {
            vec!["1".into()]
        } else {
            shape.iter().map(|d| d.to_string()).collect()
        };
        let dims_line = format!(
            "{i}  const uint32_t dims[{}] = {{{}}};",
            dims.len(),
            dims.join(", ")
        );
        let info_line = format!(
            "{i}  const TensorCreateInfo info(dims, {}, DataType::{dtype});",
            dims.len()
        );
        if !zero_filled {
            // simpler's alloc_tensors: contents undefined (the task writes them).
            let _ = writeln!(self.body, "{i}{{  // uninitialized, for the task to write");
            let _ = writeln!(self.body, "{dims_line}\n{info_line}");
            let _ = writeln!(
                self.body,
                "{i}  const TaskOutputTensors made = alloc_tensors(info);"
            );
        } else {
            // Zero-filled (pl.tensor.create's meaning): simpler leaves an allocated buffer
            // undefined, so the buffer is the output of a builtin fill task, and so its
            // creator: every task that names the tensor (or a view of it) runs after the fill.
            let bytes = element_bytes(TensorLike::of(ty).map(|t| t.element)?)?;
            let fill = self.p.tensor_kernel(TensorKernel::Fill, bytes, op)?;
            let func_id = self.func_id(&fill);
            let ta = self.locals.fresh("fill_args");
            let _ = writeln!(self.body, "{i}{{  // zero-filled by {}", fill.name);
            let _ = writeln!(self.body, "{dims_line}\n{info_line}");
            let _ = writeln!(self.body, "{i}  CoreTaskArgs {ta};");
            let _ = writeln!(self.body, "{i}  {ta}.add_output(info);");
            let _ = writeln!(
                self.body,
                "{i}  const TaskOutputTensors made = rt_submit_aiv_task({func_id}, {ta});"
            );
        }
        let _ = writeln!(self.body, "{i}  if (rt_is_fatal()) return;");
        let _ = writeln!(self.body, "{i}  {out} = made.get_ref(0);");
        let _ = writeln!(self.body, "{i}}}");
        Some(out)
    }

    pub(super) fn create(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        if let Some(r) = op.result_at(0) {
            self.alloc(op, r.into(), true, depth);
        }
    }
}

/// simpler's `DataType` of an element type: what sizes the buffer (pld moves
/// the bits; an 8-byte float, which simpler lacks, travels as INT64).
fn data_type(element: Type) -> Option<&'static str> {
    let text = element.to_string();
    let bytes = element_bytes(element)?;
    let is_float = unsafe { mlir_sys::mlirTypeIsAFloat(element.to_raw()) };
    Some(match (is_float, bytes, text.as_str()) {
        (true, 2, "bf16") => "BFLOAT16",
        (true, 2, _) => "FLOAT16",
        (true, 4, _) => "FLOAT32",
        (_, 1, _) => "INT8",
        (_, 2, _) => "INT16",
        (_, 4, _) => "INT32",
        _ => "INT64",
    })
}
