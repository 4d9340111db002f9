// Example of a generated CHIP orchestration function (see docs/runtime-api.md), for
//   def chip_pipeline(self, inp, out, stage, data, signal, counts, recv):
//       stage, counts = self.stage_step(inp, stage, counts)
//       data = pld.tensor.all_to_all_v(stage, data, signal, counts, recv, core_num=8)  # P=4: B=8
//       return self.consume_step(data, recv, out)
// where stage, data, signal, counts, recv are DistributedTensor parameters (one CommContext each).
#include "pld_runtime/orchestration.h"

extern "C" int chip_pipeline(pld::rt::Orchestration* orch, const pld::rt::OrchArgs* args) {
  using pld::rt::Dir;
  using pld::rt::Task;
  if (args->num_tensors != 7 || args->num_comms != 5) {
    return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);
  }
  pld::rt::Tensor& inp = args->tensor(0);
  pld::rt::Tensor& out = args->tensor(1);
  pld::rt::Tensor& stage = args->tensor(2);
  pld::rt::Tensor& data = args->tensor(3);
  pld::rt::Tensor& signal = args->tensor(4);
  pld::rt::Tensor& counts = args->tensor(5);
  pld::rt::Tensor& recv = args->tensor(6);
  pld::rt::CommContext* ctx_data = args->comm(1);
  pld::rt::CommContext* ctx_signal = args->comm(2);
  pld::rt::CommContext* ctx_recv = args->comm(4);

  {  // stage, counts = self.stage_step(inp, stage, counts)
    Task task(0, "stage_step");
    task.add_tensor(inp, Dir::In).add_tensor(stage, Dir::InOut).add_tensor(counts, Dir::InOut);
    if (int rc = orch->submit(task)) return rc;
  }
  {  // data = self.__builtin_all_to_all_v__fp32(stage, data, signal, counts, recv)
    if (!stage.is_contiguous()) return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);
    if (!data.is_contiguous()) return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);
    if (!signal.is_contiguous()) return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);
    if (!counts.is_contiguous()) return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);
    if (!recv.is_contiguous()) return orch->latch_error(SIMPLER_ERROR_INVALID_ARGS);
    Task task(1, "__builtin_all_to_all_v__fp32");
    task.add_tensor(stage, Dir::In)
        .add_tensor(data, Dir::InOut)
        .add_tensor(signal, Dir::InOut)
        .add_tensor(counts, Dir::In)
        .add_tensor(recv, Dir::InOut)
        .add_comm_context(ctx_data)
        .add_comm_context(ctx_signal)
        .add_comm_context(ctx_recv);
    task.launch_spec().set_block_num(8);
    task.launch_spec().set_require_sync_start(true);
    if (int rc = orch->submit(task)) return rc;
  }
  {  // return self.consume_step(data, recv, out)
    Task task(2, "consume_step");
    task.add_tensor(data, Dir::In).add_tensor(recv, Dir::In).add_tensor(out, Dir::Out);
    if (int rc = orch->submit(task)) return rc;
  }
  return 0;
}
