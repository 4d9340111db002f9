// pld-sim: the table of kernels linked into one simulator binary. pld-sim generates, per build
// tree, a kernel_table.cpp defining `pld_sim_kernels` (one entry per kernels/aiv/<name>.cpp of the
// tree, the entry symbol renamed on the compiler command line) and `pld_sim_kernel_count`; and
// `pld_sim_pipelines`, the ChipEntries of the generated CHIP orchestrations linked in (each tree's
// chip_entries.cpp and orchestration compiled with their symbols renamed to
// `pld_sim_pipeline_<d>`): the one chip_pipeline, or for a case with communication domains one per
// domain, in the case's domain order.
#ifndef PLD_SIM_KERNEL_TABLE_H
#define PLD_SIM_KERNEL_TABLE_H

#include <cstdint>

#include "pld_runtime/orchestration.h"

struct PldSimKernel {
  const char* name;
  void (*fn)(int64_t*);
};

extern const PldSimKernel pld_sim_kernels[];
extern const int pld_sim_kernel_count;

extern const pld::rt::ChipEntry* const pld_sim_pipelines[];
extern const int pld_sim_pipeline_count;

#endif  // PLD_SIM_KERNEL_TABLE_H
