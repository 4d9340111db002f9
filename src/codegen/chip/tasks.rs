//! Tasks: a kernel call or `pl.submit` as one `orch->submit` (arguments,
//! directions, dependencies, launch width) and `pl.launch`.

use super::*;

impl<'p, 'c, 'a> Emitter<'p, 'c, 'a> {
    /// `pl.launch %B { casts; call; pl.yield }`: the call's task with `B`
    /// blocks (sync start when `B > 1`); a `B` outside [1, 2^31-1] returns 5.
    pub(super) fn launch(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let i = ind(depth);
        let Some((blocks, _)) = self.int(op, 0) else {
            return;
        };
        let Some(body) = Self::region_block(op, 0) else {
            return;
        };
        let msg = Self::fail_msg(op, "the block count is outside [1, 2147483647]");
        let _ = writeln!(
            self.body,
            "{i}if ({blocks} < 1 || {blocks} > 2147483647) return orch->fail(SIMPLER_ERROR_INVALID_ARGS, {msg});"
        );
        let outer = self.launch_width.replace(blocks);
        self.block(&body, depth);
        self.launch_width = outer;
        let Some(yielded) = self.terminator_vals(&body, 0) else {
            return;
        };
        for (n, v) in yielded.into_iter().enumerate() {
            if let Ok(r) = op.result(n) {
                self.bind(r.into(), v);
            }
        }
    }

    /// A `func.call` / `pl.submit` of an AIV kernel: one task.
    pub(super) fn task(&mut self, op: &OperationRef<'c, 'a>, submit: bool, depth: usize) {
        let i = ind(depth);
        let Some(callee) = callee_name(op) else {
            return;
        };
        let callee_fn = self.p.functions.get(&callee).copied();
        let Some(kernel) = self.p.kernel(&callee, op) else {
            return;
        };
        let alloc_outs: Vec<i64> = if submit {
            i64_list(op, "runtime_alloc_outs").unwrap_or_default()
        } else {
            Vec::new()
        };
        // Arguments: the operands, then (pl.submit) one runtime-allocated buffer per
        // runtime_alloc_outs result, for the callee's trailing parameters: buffer k
        // is parameter operand_count + k, returned at result runtime_alloc_outs[k]
        // (the pl.submit verifier checks the binding; docs/lowering.md).
        // Only the first pl.abi_arg_count arguments are packed (and so named).
        let abi = int_attr(op, "pl.abi_arg_count")
            .map(|n| n.max(0) as usize)
            .unwrap_or(usize::MAX);
        let mut args: Vec<RtValue> = Vec::new();
        for k in 0..op.operand_count() {
            let v = if k < abi {
                self.operand(op, k)
            } else {
                op.operand(k).ok().and_then(|v| self.vals.get(v).cloned())
            };
            args.push(v.unwrap_or_else(|| RtValue::Tensor(String::new())));
            if k < abi && args[k].expr().is_empty() {
                return;
            }
        }
        let mut fresh_results: HashMap<usize, String> = HashMap::new();
        for &n in &alloc_outs {
            let Ok(r) = op.result(n as usize) else {
                continue;
            };
            let Some(buf) = self.alloc(op, r.into(), depth) else {
                return;
            };
            fresh_results.insert(n as usize, buf.clone());
            args.push(RtValue::Tensor(buf));
        }
        // Results: a fresh buffer, else the argument the callee returns (a kernel
        // writes its operands in place).
        let returned = callee_fn
            .map(|f| crate::ir::value_defs::returned_params(&f))
            .unwrap_or_default();
        for n in 0..op.result_count() {
            let Ok(res) = op.result(n) else { continue };
            if let Some(buf) = fresh_results.get(&n) {
                self.bind(res.into(), RtValue::Tensor(buf.clone()));
                continue;
            }
            match returned
                .get(n)
                .copied()
                .flatten()
                .and_then(|j| args.get(j).cloned())
            {
                Some(v) => self.bind(res.into(), v),
                None => {
                    self.p.error(&op,
                        &format!("result #{n} of @{callee} must be a parameter its body returns, or it has no runtime form"),
                    );
                    return;
                }
            }
        }
        let func_id = match self.kernels.iter().find(|(_, k)| k.name == kernel.name) {
            Some((id, _)) => *id,
            None => {
                self.kernels.push((self.kernels.len(), kernel.clone()));
                self.kernels.len() - 1
            }
        };
        let recorded = recorded_arg_directions(op);
        let mut tensors: Vec<(String, Direction)> = Vec::new();
        let mut comms: Vec<String> = Vec::new();
        for (k, v) in args.iter().enumerate().take(abi) {
            // A runtime-allocated buffer (after the operands) is the callee's
            // `out` parameter: the task writes it (pl.arg_directions covers
            // the operands only).
            let dir = if k >= op.operand_count() {
                Direction::Out
            } else {
                recorded
                    .as_ref()
                    .and_then(|d| d.get(k).copied())
                    .or_else(|| callee_fn.map(|f| param_direction(&f, k)))
                    .unwrap_or(Direction::In)
            };
            match v {
                RtValue::Tensor(t) => {
                    if !comms.is_empty() {
                        self.p.error(&op,
                            &format!("tensor argument #{k} of @{callee} must come before every CommContext slot (the kernel ABI is all tensors, then the CommContext slots)"),
                        );
                        return;
                    }
                    tensors.push((t.clone(), dir));
                }
                RtValue::Ctx(c) => comms.push(c.clone()),
                // An integer (the HOST rail's handles are never bound in a CHIP body).
                _ => {
                    self.p.error(&op,
                        &format!("argument #{k} of @{callee} must be a tensor or a CommContext (a kernel task takes no scalars), got an integer scalar"),
                    );
                    return;
                }
            }
        }
        // A builtin template kernel reads its CommContext at a fixed ABI slot,
        // right after its tensors: without one there (contexts never
        // materialized, or materialized before the lowering synthesized the
        // kernel), it would read past the task's arguments.
        let template_dir = callee_fn
            .and_then(|f| crate::codegen::planner::string_attr(&f, "pl.builtin_template_dir"));
        let builtin = template_dir
            .as_deref()
            .and_then(crate::collective::Spec::of_template_dir);
        if let Some(spec) = builtin {
            let slot = spec.comm_slot();
            if slot < tensors.len() || slot >= tensors.len() + comms.len() {
                self.p.error(&op,
                    &format!(
                        "callee @{callee} must receive a !pld.comm_ctx as args[{slot}], after its {slot} tensor arguments \
                         (its builtin template '{}' reads the CommContext there: run --materialize-dist-tensor-ctx \
                         after the collective lowering, as --pld-lower-collectives does), got {} tensor and {} !pld.comm_ctx arguments",
                        spec.template.name,
                        tensors.len(),
                        comms.len()
                    ),
                );
                return;
            }
        }
        let all_operands: Vec<String> = tensors
            .iter()
            .map(|(t, _)| t.clone())
            .chain(comms.iter().cloned())
            .collect();
        let _ = writeln!(
            self.body,
            "{i}{{  // {}",
            task_comment(op, &callee, &all_operands)
        );
        if callee_fn.is_some_and(|f| f.attribute("pl.require_contiguous_operands").is_ok()) {
            for (t, _) in &tensors {
                let _ = writeln!(
                    self.body,
                    "{i}  if (!{t}.is_contiguous()) return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);"
                );
            }
        }
        let _ = writeln!(self.body, "{i}  Task task({func_id}, {});", quoted(&callee));
        for (t, d) in &tensors {
            let _ = writeln!(self.body, "{i}  task.add_tensor({t}, {});", dir_cpp(*d));
        }
        for c in &comms {
            let _ = writeln!(self.body, "{i}  task.add_comm_context({c});");
        }
        // The collective's site: the runtime checks its CommContext against
        // the signal's NR and names it in timeout reports. A HOST dispatch of
        // a builtin callable passes its own collective's site.
        if let Some(spec) = builtin {
            let here = quoted(&super::source_site(op.location()));
            let site = if self.dispatch_width {
                format!("args->dispatch_site ? args->dispatch_site : {here}")
            } else {
                here
            };
            let _ = writeln!(
                self.body,
                "{i}  task.set_collective({}, {site}, {}, {});",
                quoted(spec.op),
                spec.signal,
                spec.nr_axis(template_dir.as_deref().unwrap_or_default())
            );
        }
        if let Some(b) = self.launch_width.clone() {
            let _ = writeln!(self.body, "{i}  if ({b} > 1) {{");
            let _ = writeln!(
                self.body,
                "{i}    task.launch_spec().set_block_num(static_cast<int>({b}));"
            );
            let _ = writeln!(
                self.body,
                "{i}    task.launch_spec().set_require_sync_start(true);"
            );
            let _ = writeln!(self.body, "{i}  }}");
        }
        match int_attr(op, "pl.core_num") {
            Some(b) if !(1..=i32::MAX as i64).contains(&b) => {
                self.p.error(&op, &format!("attribute 'pl.core_num' of the call to @{callee} must be a block count in [1, 2147483647], got {b}"));
            }
            Some(b) if b > 1 => {
                let _ = writeln!(self.body, "{i}  task.launch_spec().set_block_num({b});");
                let _ = writeln!(
                    self.body,
                    "{i}  task.launch_spec().set_require_sync_start(true);"
                );
            }
            Some(_) => {}
            None if self.dispatch_width && self.launch_width.is_none() => {
                self.uses_dispatch_width = true;
                let _ = writeln!(self.body, "{i}  if (block_num > 1) {{");
                let _ = writeln!(
                    self.body,
                    "{i}    task.launch_spec().set_block_num(block_num);"
                );
                let _ = writeln!(
                    self.body,
                    "{i}    task.launch_spec().set_require_sync_start(true);"
                );
                let _ = writeln!(self.body, "{i}  }}");
            }
            None => {}
        }
        let _ = writeln!(
            self.body,
            "{i}  if (int rc = orch->submit(task)) return rc;"
        );
        let _ = writeln!(self.body, "{i}}}");
    }
}
