// pld-sim: the table of kernels linked into one simulator binary. pld-sim generates, per build
// tree, a kernel_table.cpp defining `pld_sim_kernels` (one entry per kernels/aiv/<name>.cpp of the
// tree, the entry symbol renamed on the compiler command line) and `pld_sim_kernel_count`.
#ifndef PLD_SIM_KERNEL_TABLE_H
#define PLD_SIM_KERNEL_TABLE_H

#include <cstdint>

struct PldSimKernel {
  const char* name;
  void (*fn)(int64_t*);
};

extern const PldSimKernel pld_sim_kernels[];
extern const int pld_sim_kernel_count;

#endif  // PLD_SIM_KERNEL_TABLE_H
