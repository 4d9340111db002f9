//! Tensor descriptors: the view ops (`pld::rt::slice`, `view`, `reshape`,
//! `transpose`, `set_validshape`), `pl.tensor.create` and runtime-allocated
//! buffers.

use super::*;

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
        let Ok(r) = op.result(0) else { return };
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
                    format!("pld::rt::slice({src}, {o}, {s}, &{{out}})"),
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
                    format!("pld::rt::view({src}, {o}, {s}, {rank}, &{{out}})"),
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
                    format!("pld::rt::reshape({src}, {s}, {rank}, &{{out}})"),
                    "the source is not contiguous or its element count differs",
                )
            }
            OrchOp::Transpose => {
                let perm = lits(i64_list(op, "perm").unwrap_or_default());
                src_rank = Some(perm.len());
                let s = array_arg(&mut pre, &i2, "perm", &perm);
                (
                    format!("pld::rt::transpose({src}, {s}, &{{out}})"),
                    "perm is not a permutation of the source's dimensions",
                )
            }
            OrchOp::SetValidShape => {
                let valid = lits(i64_list(op, "valid").unwrap_or_default());
                src_rank = Some(valid.len());
                let s = array_arg(&mut pre, &i2, "valid", &valid);
                (
                    format!("pld::rt::set_validshape({src}, {s}, &{{out}})"),
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
        let _ = writeln!(
            self.body,
            "{i}  if (int rc = {call}) return orch->fail(rc, {msg});"
        );
        let _ = writeln!(self.body, "{i}}}");
    }

    /// A fresh zero-filled runtime buffer of `ty`'s static shape, bound to `v`.
    pub(super) fn alloc(
        &mut self,
        op: &OperationRef<'c, 'a>,
        v: Value<'c, 'a>,
        depth: usize,
    ) -> Option<String> {
        let ty = v.r#type();
        let shape = self.static_shape(op, ty, "allocated type")?;
        let Some(bytes) = TensorLike::of(ty).and_then(|t| element_bytes(t.element)) else {
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
        self.uses_scope = true;
        let _ = writeln!(self.body, "{i}{{");
        let dims = array_arg(
            &mut self.body,
            &format!("{i}  "),
            "dims",
            &shape.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
        );
        let _ = writeln!(
            self.body,
            "{i}  if (int rc = orch->create_tensor({bytes}, {dims}, {}, &{out})) return rc;",
            shape.len()
        );
        let _ = writeln!(self.body, "{i}}}");
        Some(out)
    }

    pub(super) fn create(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        if let Ok(r) = op.result(0) {
            self.alloc(op, r.into(), depth);
        }
    }
}
