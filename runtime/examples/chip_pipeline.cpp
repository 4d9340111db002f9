// A CHIP orchestration in simpler's orchestration API (docs/device.md; the form pld-translate's
// rendering moves to, written by hand until it does), for
//   def chip_pipeline(self, inp, out, stage, data, signal, counts, recv):
//       stage, counts = self.stage_step(inp, stage, counts)
//       data = pld.tensor.all_to_all_v(stage, data, signal, counts, recv, core_num=8)  # P=4: B=8
//       return self.consume_step(data, recv, out)
// where stage, data, signal, counts, recv are DistributedTensor parameters (one CommContext each,
// passed as scalars 0..4). Kernels by func_id: 0 stage_step, 1 __builtin_all_to_all_v__fp32,
// 2 consume_step. The same text compiles against simpler's own headers (tests/device_conformance.rs).
#include "platform_comm/comm_context.h"
#include "pto_orchestration_api.h"

extern "C" {

PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {
  (void)orch_args;
  return PTO2OrchestrationConfig{12};  // 7 tensors + 5 CommContexts
}

void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
  const ChipTensor& inp = orch_args.tensor(0).ref();
  const ChipTensor& out = orch_args.tensor(1).ref();
  const ChipTensor& stage = orch_args.tensor(2).ref();
  const ChipTensor& data = orch_args.tensor(3).ref();
  const ChipTensor& signal = orch_args.tensor(4).ref();
  const ChipTensor& counts = orch_args.tensor(5).ref();
  const ChipTensor& recv = orch_args.tensor(6).ref();
  const uint64_t ctx_data = orch_args.scalar(1);
  const uint64_t ctx_signal = orch_args.scalar(2);
  const uint64_t ctx_recv = orch_args.scalar(4);
  PTO2_SCOPE() {
    // stage, counts = self.stage_step(inp, stage, counts)
    CoreTaskArgs p0;
    p0.add_input(inp);
    p0.add_output(stage, counts);
    const TaskOutputTensors t0 = rt_submit_aiv_task(0, p0);
    if (rt_is_fatal()) return;

    // data = self.__builtin_all_to_all_v__fp32(stage, data, signal, counts, recv): a collective on
    // a world of exactly NR = signal.shapes[0] ranks, over contiguous operands (the backstop).
    const ChipTensor* operands[] = {&stage, &data, &signal, &counts, &recv};
    for (const ChipTensor* t : operands) {
      if (!t->is_contiguous) {
        rt_report_fatal(PTO2_ERROR_INVALID_ARGS, "all_to_all_v: an operand is not contiguous");
        return;
      }
    }
    const CommContext* ctx = reinterpret_cast<const CommContext*>(ctx_signal);
    if (ctx->rankNum != signal.shapes[0]) {
      rt_report_fatal(PTO2_ERROR_INVALID_ARGS, "all_to_all_v: the CommContext has %u ranks but the signal's NR is %u",
                      ctx->rankNum, signal.shapes[0]);
      return;
    }
    CoreTaskArgs p1;
    p1.add_input(stage);
    p1.add_inout(data, signal);
    p1.add_input(counts);
    p1.add_inout(recv);
    p1.add_scalar(ctx_data, ctx_signal, ctx_recv);
    p1.launch_spec.set_block_num(8);
    p1.launch_spec.set_require_sync_start(true);
    const PTO2TaskId d1[] = {t0.task_id()};
    p1.set_dependencies(d1, 1);
    const TaskOutputTensors t1 = rt_submit_aiv_task(1, p1);
    if (rt_is_fatal()) return;

    // return self.consume_step(data, recv, out)
    CoreTaskArgs p2;
    p2.add_input(data, recv);
    p2.add_output(out);
    const PTO2TaskId d2[] = {t1.task_id()};
    p2.set_dependencies(d2, 1);
    rt_submit_aiv_task(2, p2);
  }
}

}  // extern "C"
