//! Tasks: a kernel call or `pl.submit` as one `rt_submit_aiv_task` of a
//! `CoreTaskArgs` (arguments by direction, the CommContexts as scalars, launch
//! width, dependencies) and `pl.launch`.

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
        let msg = Self::fail_msg(op, "the block count is below 1");
        let _ = writeln!(
            self.body,
            "{i}if ({blocks} < 1) {}",
            fatal(INVALID_ARGS, &msg)
        );
        let msg = Self::fail_msg(
            op,
            "the block count is above 32767 (a launch spec's block_num is an int16_t)",
        );
        let _ = writeln!(
            self.body,
            "{i}if ({blocks} > 32767) {}",
            fatal(SYNC_START_INVALID, &msg)
        );
        let outer = self.launch_width.replace(blocks);
        self.block(&body, depth);
        self.launch_width = outer;
        let Some(yielded) = self.terminator_vals(&body, 0) else {
            return;
        };
        for (n, v) in yielded.into_iter().enumerate() {
            if let Some(r) = op.result_at(n) {
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
                op.operand_at(k).and_then(|v| self.vals.get(v).cloned())
            };
            args.push(v.unwrap_or_else(|| RtValue::Tensor(String::new())));
            if k < abi && args[k].expr().is_empty() {
                return;
            }
        }
        let mut fresh_results: HashMap<usize, String> = HashMap::new();
        for &n in &alloc_outs {
            let Some(r) = op.result_at(n as usize) else {
                continue;
            };
            let Some(buf) = self.alloc(op, r.into(), false, depth) else {
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
            let Some(res) = op.result_at(n) else { continue };
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
        let func_id = self.func_id(&kernel);
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
                let dir = recorded
                    .as_ref()
                    .and_then(|d| d.get(k).copied())
                    .or_else(|| callee_fn.map(|f| param_direction(&f, k)))
                    .unwrap_or(Direction::In);
                // A tensor the orchestration stores into (pl.tensor.write): simpler's
                // set_tensor_data waits for its writers and their readers only, so its
                // readers are INOUT.
                let stored = op.operand(k).is_ok_and(|v| self.stores_into(v));
                if dir == Direction::In && stored {
                    Direction::InOut
                } else {
                    dir
                }
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
        // A builtin template kernel reads its CommContext at a fixed ABI slot
        // (legalize refuses the same, so this is the codegen's backstop).
        let template_dir = callee_fn
            .and_then(|f| crate::codegen::planner::string_attr(&f, "pl.builtin_template_dir"));
        let builtin = template_dir
            .as_deref()
            .and_then(crate::collective::Spec::of_template_dir);
        if let Some(problem) = builtin.and_then(|spec| {
            crate::collective::builtin_comm_problem(spec, &callee, tensors.len(), comms.len())
        }) {
            self.p.error(&op, &problem);
            return;
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
            for (k, (t, _)) in tensors.iter().enumerate() {
                let msg = Self::fail_msg(
                    op,
                    &format!(
                        "operand #{k} of @{callee} is not contiguous (the kernel addresses it flat)"
                    ),
                );
                let _ = writeln!(
                    self.body,
                    "{i}  if (!{t}.is_contiguous) {}",
                    fatal(INVALID_ARGS, &msg)
                );
            }
        }
        // A collective runs on a world of exactly NR ranks (a kernel on another
        // would return without doing anything): its first CommContext against
        // its signal's NR. A HOST dispatch of a builtin callable passes its own
        // collective's site.
        if let Some(spec) = builtin {
            self.uses_comm_context = true;
            let here = quoted(&super::source_site(op.location()));
            let site = if self.dispatch_width {
                format!("dispatch_site ? dispatch_site : {here}")
            } else {
                here
            };
            let sig = &tensors[spec.signal].0;
            let axis = spec.nr_axis(template_dir.as_deref().unwrap_or_default());
            let c = self
                .collectives
                .entry(func_id)
                .or_insert_with(|| Collective {
                    op: spec.op.to_string(),
                    sites: Vec::new(),
                    signal_slot: spec.signal,
                    nr_axis: axis,
                });
            let site_text = super::source_site(op.location());
            if self
                .seen_sites
                .entry(func_id)
                .or_default()
                .insert(site_text.clone())
            {
                c.sites.push(site_text);
            }
            let comm = self.locals.fresh("comm");
            let _ = writeln!(
                self.body,
                "{i}  const CommContext* {comm} = reinterpret_cast<const CommContext*>(static_cast<uintptr_t>({}));",
                comms[0]
            );
            let _ = writeln!(
                self.body,
                "{i}  if ({comm}->rankNum != {sig}.shapes[{axis}]) {{"
            );
            let _ = writeln!(
                self.body,
                "{i}    rt_report_fatal({INVALID_ARGS}, \"%s at %s: the CommContext has %u ranks but the signal's NR is %u (kernel %s): a collective runs on a world (or communication domain) of exactly NR ranks\", {}, {site}, {comm}->rankNum, {sig}.shapes[{axis}], {});",
                quoted(spec.op),
                quoted(&callee)
            );
            let _ = writeln!(self.body, "{i}    return;");
            let _ = writeln!(self.body, "{i}  }}");
        }
        let ta = self.locals.fresh("task_args");
        let _ = writeln!(self.body, "{i}  CoreTaskArgs {ta};");
        for (t, d) in &tensors {
            let _ = writeln!(self.body, "{i}  {ta}.{}({t});", adder(*d));
        }
        for c in &comms {
            let _ = writeln!(self.body, "{i}  {ta}.add_scalar({c});");
        }
        let width_msg = Self::fail_msg(
            op,
            "the launch width is above 32767 (a launch spec's block_num is an int16_t)",
        );
        // `check`: a width pl.launch has not checked already (a HOST dispatch's).
        let launch = |body: &mut String, b: &str, check: bool| {
            if check {
                let _ = writeln!(
                    body,
                    "{i}  if ({b} > 32767) {}",
                    fatal(SYNC_START_INVALID, &width_msg)
                );
            }
            let _ = writeln!(body, "{i}  if ({b} > 1) {{");
            let _ = writeln!(
                body,
                "{i}    {ta}.launch_spec.set_block_num(static_cast<int16_t>({b}));"
            );
            let _ = writeln!(
                body,
                "{i}    {ta}.launch_spec.set_require_sync_start(true);"
            );
            let _ = writeln!(body, "{i}  }}");
        };
        if let Some(b) = self.launch_width.clone() {
            launch(&mut self.body, &b, false);
        }
        match int_attr(op, "pl.core_num") {
            Some(b) if !(1..=32767).contains(&b) => {
                self.p.error(&op, &format!("attribute 'pl.core_num' of the call to @{callee} must be a block count in [1, 32767] (a launch spec's block_num is an int16_t), got {b}"));
            }
            Some(b) if b > 1 => {
                let _ = writeln!(self.body, "{i}  {ta}.launch_spec.set_block_num({b});");
                let _ = writeln!(
                    self.body,
                    "{i}  {ta}.launch_spec.set_require_sync_start(true);"
                );
            }
            Some(_) => {}
            None if self.dispatch_width && self.launch_width.is_none() => {
                launch(&mut self.body, "block_num", true);
            }
            None => {}
        }
        self.submit(op, func_id, &ta, depth);
        let _ = writeln!(self.body, "{i}  if (rt_is_fatal()) return;");
        let _ = writeln!(self.body, "{i}}}");
    }

    /// The func_id of `kernel` in this sub-build (kernel_config.py's KERNELS),
    /// numbered in order of first launch.
    pub(super) fn func_id(&mut self, kernel: &Rc<Kernel>) -> usize {
        if let Some(&id) = self.kernel_ids.get(&kernel.name) {
            return id;
        }
        let id = self.kernels.len();
        self.kernels.push((id, kernel.clone()));
        self.kernel_ids.insert(kernel.name.clone(), id);
        id
    }

    /// The dependencies of the task `op` (its `CoreTaskArgs` `ta`), then its
    /// `rt_submit_aiv_task`; its `pl.task_id`'s local takes the submitted id.
    pub(super) fn submit(
        &mut self,
        op: &OperationRef<'c, 'a>,
        func_id: usize,
        ta: &str,
        depth: usize,
    ) {
        let i = ind(depth);
        self.dependencies(op, ta, depth);
        match int_attr(op, "pl.task_id") {
            Some(id) => {
                self.task_ids.insert(id);
                let _ = writeln!(
                    self.body,
                    "{i}  pld_task_{id} = rt_submit_aiv_task({func_id}, {ta}).task_id();"
                );
            }
            None => {
                let _ = writeln!(self.body, "{i}  rt_submit_aiv_task({func_id}, {ta});");
            }
        }
    }

    /// `ta.set_dependencies(...)` from pld's derived order
    /// (--auto-derive-task-dependencies): the tensors order reads after
    /// writes; a write after a read, and every other order the analysis
    /// found, is stated. Inside a loop a task also follows its own previous
    /// run (pld's derived order assumes it; `pld_task_<id>` holds that run's
    /// id, invalid on the first iteration).
    pub(super) fn dependencies(&mut self, op: &OperationRef<'c, 'a>, ta: &str, depth: usize) {
        let i = ind(depth);
        let mut deps = i64_list(op, "pl.task_deps").unwrap_or_default();
        if self.loop_depth > 0
            && let Some(id) = int_attr(op, "pl.task_id")
            && !deps.contains(&id)
        {
            deps.push(id);
        }
        if deps.is_empty() {
            return;
        }
        let (arr, n) = (self.locals.fresh("deps"), self.locals.fresh("ndeps"));
        let _ = writeln!(self.body, "{i}  PTO2TaskId {arr}[{}];", deps.len());
        let _ = writeln!(self.body, "{i}  uint32_t {n} = 0;");
        for d in &deps {
            self.task_ids.insert(*d);
            let _ = writeln!(
                self.body,
                "{i}  if (pld_task_{d}.is_valid()) {arr}[{n}++] = pld_task_{d};"
            );
        }
        let _ = writeln!(self.body, "{i}  {ta}.set_dependencies({arr}, {n});");
    }

    /// `pl.tensor.assemble`: a task of the builtin copy kernel (target inout,
    /// source in, the box's offsets as scalars), ordered by the tensors and by
    /// the assemble's own `pl.task_deps` (--auto-derive-task-dependencies
    /// numbers it as a task). The box is checked first (a located fatal 5); a
    /// source that overlaps the target is first copied into a fresh buffer,
    /// so the copy is of the source as it was.
    pub(super) fn assemble(&mut self, op: &OperationRef<'c, 'a>, depth: usize) {
        let i = ind(depth);
        let (Some(target), Some(src), Ok(r), Ok(src_value)) = (
            self.tensor(op, 0),
            self.tensor(op, 1),
            op.result(0),
            op.operand(1),
        ) else {
            return;
        };
        let offsets: Vec<String> = i64_list(op, "offsets")
            .unwrap_or_default()
            .iter()
            .map(|o| o.to_string())
            .collect();
        let Some(bytes) = TensorLike::of(src_value.r#type()).and_then(|t| element_bytes(t.element))
        else {
            self.p
                .error(&op, "the source's element type has no runtime size");
            return;
        };
        let Some(copy) = self.p.tensor_kernel(TensorKernel::Copy, bytes, op) else {
            return;
        };
        let func_id = self.func_id(&copy);
        let _ = writeln!(
            self.body,
            "{i}{{  // {}",
            task_comment(op, &copy.name, &[target.clone(), src.clone()])
        );
        self.rank_guard(op, &target, offsets.len(), depth + 1);
        let arr = array_arg(&mut self.body, &format!("{i}  "), "offsets", &offsets);
        let msg = Self::fail_msg(
            op,
            "the source does not fit the target at the offsets (or their ranks or element sizes differ)",
        );
        let _ = writeln!(
            self.body,
            "{i}  if (int rc = pld_orch::assemble_fits({target}, {src}, {arr}, {})) {}",
            offsets.len(),
            fatal("rc", &msg)
        );
        // A source the body later stores into is passed INOUT (see `task`).
        let src_adder = if self.stores_into(src_value) {
            "add_inout"
        } else {
            "add_input"
        };
        let from = self.locals.fresh("from");
        let _ = writeln!(self.body, "{i}  ChipTensor {from} = {src};");
        let _ = writeln!(
            self.body,
            "{i}  if (pld_orch::overlaps({target}, {src})) {{"
        );
        let _ = writeln!(
            self.body,
            "{i}    // The source overlaps the target: copied whole into a fresh buffer first."
        );
        let staged = self.locals.fresh("staged");
        let sa = self.locals.fresh("stage_args");
        let _ = writeln!(
            self.body,
            "{i}    const TensorCreateInfo info({src}.shapes, {src}.ndims, {src}.dtype);"
        );
        let _ = writeln!(
            self.body,
            "{i}    const TaskOutputTensors {staged} = alloc_tensors(info);"
        );
        let _ = writeln!(self.body, "{i}    if (rt_is_fatal()) return;");
        let _ = writeln!(self.body, "{i}    CoreTaskArgs {sa};");
        let _ = writeln!(self.body, "{i}    {sa}.add_inout({staged}.get_ref(0));");
        let _ = writeln!(self.body, "{i}    {sa}.{src_adder}({src});");
        let _ = writeln!(
            self.body,
            "{i}    for (int d = 0; d < {COPY_OFFSETS}; ++d) {sa}.add_scalar(uint64_t{{0}});"
        );
        self.dependencies(op, &sa, depth + 1);
        let _ = writeln!(self.body, "{i}    rt_submit_aiv_task({func_id}, {sa});");
        let _ = writeln!(self.body, "{i}    if (rt_is_fatal()) return;");
        let _ = writeln!(self.body, "{i}    {from} = {staged}.get_ref(0);");
        let _ = writeln!(self.body, "{i}  }}");
        let ta = self.locals.fresh("task_args");
        let _ = writeln!(self.body, "{i}  CoreTaskArgs {ta};");
        let _ = writeln!(self.body, "{i}  {ta}.add_inout({target});");
        let _ = writeln!(self.body, "{i}  {ta}.{src_adder}({from});");
        for k in 0..COPY_OFFSETS {
            if k < offsets.len() {
                let _ = writeln!(
                    self.body,
                    "{i}  {ta}.add_scalar(static_cast<uint64_t>({arr}[{k}]));"
                );
            } else {
                let _ = writeln!(self.body, "{i}  {ta}.add_scalar(uint64_t{{0}});");
            }
        }
        self.submit(op, func_id, &ta, depth);
        let _ = writeln!(self.body, "{i}  if (rt_is_fatal()) return;");
        let _ = writeln!(self.body, "{i}}}");
        self.bind(r.into(), RtValue::Tensor(target));
    }

    /// Whether the body stores into `v`'s memory with `pl.tensor.write` (its alias class).
    pub(super) fn stores_into(&mut self, v: Value<'c, 'a>) -> bool {
        is_tensor_like(v.r#type()) && {
            let class = self.aliases.class(v);
            self.stored_classes.contains(&class)
        }
    }
}
