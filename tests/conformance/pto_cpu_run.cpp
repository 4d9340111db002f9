// The builtin kernels on pto-isa's own CPU implementation (tests/device_conformance.rs): pld's
// rendered kernel text, compiled against pto-isa's and simpler's headers (not pld's) and linked
// with this harness, runs P ranks x L blocks as threads over per-rank windows; every rank's
// target is checked against the op's meaning (docs/spec/family.md) and every signal cell must be
// back to 0. The harness is pld's code: it builds simpler's ChipTensor / CommContext /
// LocalContext from their fields, as simpler's runtime would hand them to a kernel.
//
// Usage: pto_cpu_run  (exit 0 when every case passes; one line per case)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "intrinsic.h"
#include "platform_comm/comm_context.h"
#include "tensor.h"

// simpler's assertion hook (referenced by its headers' inline helpers).
[[noreturn]] void assert_impl(const char* cond, const char* file, int line) {
  std::fprintf(stderr, "assertion %s failed at %s:%d\n", cond, file, line);
  std::abort();
}

extern "C" {
void k_allreduce(int64_t* args);
void k_reduce_scatter(int64_t* args);
void k_allgather(int64_t* args);
void k_broadcast(int64_t* args);
void k_all_to_all(int64_t* args);
void k_reduce(int64_t* args);
void k_gather(int64_t* args);
void k_scatter(int64_t* args);
void k_ring(int64_t* args);
void k_permute(int64_t* args);
void k_barrier(int64_t* args);
void k_all_to_all_v(int64_t* args);
void k_indexed(int64_t* args);
void k_allreduce_f16(int64_t* args);
void k_fill(int64_t* args);
void k_copy(int64_t* args);
}

namespace {

constexpr uint64_t kWindow = 1 << 20;

// One tensor argument: `rows` x `cols` floats at byte `offset` of the rank's window.
struct Arg {
  uint64_t offset;
  uint32_t rows, cols;
  // An int32 tensor (counts, an index), filled with fill(rank, i); else floats value(rank, i).
  int32_t (*fill)(int rank, uint32_t i) = nullptr;
};

ChipTensor chip(void* base, uint32_t rows, uint32_t cols, DataType dt) {
  ChipTensor t{};
  t.buffer.addr = reinterpret_cast<uint64_t>(base);
  t.buffer.size = static_cast<uint64_t>(rows) * cols * get_element_size(dt);
  t.owner_task_id = PTO2TaskId::invalid();
  t.start_offset = 0;
  t.ndims = 2;
  t.dtype = dt;
  t.is_contiguous = true;
  t.shapes[0] = rows;
  t.shapes[1] = cols;
  t.strides[0] = cols;
  t.strides[1] = 1;
  t.extent_elem_cache = static_cast<uint64_t>(rows) * cols;
  return t;
}

float value(int rank, uint32_t i) { return static_cast<float>((rank + 1) * 1000 + static_cast<int>(i % 997)); }

// all_to_all_v's counts: rank r sends (r + d) % (kMaxRecv + 2) - 1 rows to d (-1 .. kMaxRecv:
// a negative count sends nothing, as does 0); the clamped count is what lands.
constexpr int32_t kMaxRecv = 3;
int32_t send_count(int r, uint32_t d) { return static_cast<int32_t>((r + static_cast<int>(d)) % (kMaxRecv + 2)) - 1; }
int32_t clamped(int32_t c) { return c < 0 ? 0 : c > kMaxRecv ? kMaxRecv : c; }
int32_t unset(int, uint32_t) { return -7; }  // recv_counts before the call
// The indexed kernel's gather list: slot (d, k) reads input row (d * kMaxRecv + k + 1) mod rows,
// except slot (1, 0), out of range (-1): a row of zeros.
int32_t index_of(int, uint32_t i) { return i == kMaxRecv ? -1 : static_cast<int32_t>(i + 1); }

// Rank r's CommContext over the ranks' windows.
std::vector<CommContext> contexts(std::vector<std::vector<uint8_t>>& windows) {
  const int P = static_cast<int>(windows.size());
  std::vector<CommContext> ctx(windows.size());
  for (int r = 0; r < P; ++r) {
    std::memset(&ctx[r], 0, sizeof(CommContext));
    ctx[r].rankId = static_cast<uint32_t>(r);
    ctx[r].rankNum = static_cast<uint32_t>(P);
    ctx[r].winSize = kWindow;
    for (int q = 0; q < P; ++q) ctx[r].windowsIn[q] = ctx[r].windowsOut[q] = reinterpret_cast<uint64_t>(windows[q].data());
  }
  return ctx;
}

// Runs `kernel` as L blocks on each rank, every block a thread, as simpler hands a kernel its
// arguments: rank r's tensors `chips[r]` in order, its CommContext after them, the block's
// LocalContext at args[48] and a GlobalContext at args[49]. Returns once every block returned.
void launch(void (*kernel)(int64_t*), int L, std::vector<std::vector<ChipTensor>>& chips,
            std::vector<CommContext>& ctx) {
  const size_t P = chips.size();
  std::vector<LocalContext> locals(P * L);
  std::vector<GlobalContext> globals(P * L);
  std::vector<std::vector<int64_t>> args(P * L, std::vector<int64_t>(64, 0));
  std::vector<std::thread> threads;
  for (size_t r = 0; r < P; ++r) {
    for (int b = 0; b < L; ++b) {
      const size_t k = r * L + b;
      locals[k] = LocalContext{};
      locals[k].block_idx = b;
      locals[k].block_num = L;
      globals[k] = GlobalContext{};
      size_t slot = 0;
      for (ChipTensor& t : chips[r]) args[k][slot++] = reinterpret_cast<int64_t>(&t);
      args[k][slot] = reinterpret_cast<int64_t>(&ctx[r]);
      args[k][SPMD_LOCAL_CONTEXT_INDEX] = reinterpret_cast<int64_t>(&locals[k]);
      args[k][SPMD_GLOBAL_CONTEXT_INDEX] = reinterpret_cast<int64_t>(&globals[k]);
      threads.emplace_back([kernel, &args, k] { kernel(args[k].data()); });
    }
  }
  for (auto& t : threads) t.join();
}

// Runs `kernel` on P ranks x L blocks; `args` are the tensors (in a window each, filled with
// value(rank, i)) followed by the signal [P, L] and the CommContext. `check(rank, tensors)` says
// whether rank's outputs are right.
bool run_case(const char* name, void (*kernel)(int64_t*), int P, int L, const std::vector<Arg>& tensors,
              const std::function<bool(int, std::vector<float*>&)>& check, uint32_t sig_rows = 0,
              uint32_t sig_cols = 0, int sig_at = -1) {
  if (sig_rows == 0) {
    sig_rows = static_cast<uint32_t>(P);
    sig_cols = static_cast<uint32_t>(L);
  }
  std::vector<std::vector<uint8_t>> windows(P, std::vector<uint8_t>(kWindow, 0));
  std::vector<CommContext> ctx = contexts(windows);
  const uint64_t sig_offset = kWindow - 4096;
  for (int r = 0; r < P; ++r) {
    for (const Arg& a : tensors) {
      auto* f = reinterpret_cast<float*>(windows[r].data() + a.offset);
      auto* n = reinterpret_cast<int32_t*>(windows[r].data() + a.offset);
      for (uint32_t i = 0; i < a.rows * a.cols; ++i) {
        if (a.fill) n[i] = a.fill(r, i);
        else f[i] = value(r, i);
      }
    }
  }
  std::vector<std::vector<ChipTensor>> chips(P);
  for (int r = 0; r < P; ++r) {
    for (const Arg& a : tensors)
      chips[r].push_back(chip(windows[r].data() + a.offset, a.rows, a.cols, a.fill ? DataType::INT32 : DataType::FLOAT32));
    // The signal: after the tensors, or at argument `sig_at` (all_to_all_v's args[2]).
    const ChipTensor signal = chip(windows[r].data() + sig_offset, sig_rows, sig_cols, DataType::INT32);
    if (sig_at < 0) chips[r].push_back(signal);
    else chips[r].insert(chips[r].begin() + sig_at, signal);
  }
  launch(kernel, L, chips, ctx);
  bool ok = true;
  for (int r = 0; r < P; ++r) {
    std::vector<float*> out;
    for (const Arg& a : tensors) out.push_back(reinterpret_cast<float*>(windows[r].data() + a.offset));
    if (!check(r, out)) {
      std::printf("FAIL %s P=%d L=%d: rank %d's output\n", name, P, L, r);
      ok = false;
    }
    const auto* sig = reinterpret_cast<const int32_t*>(windows[r].data() + sig_offset);
    for (uint32_t c = 0; c < sig_rows * sig_cols; ++c) {
      if (sig[c] != 0) {
        std::printf("FAIL %s P=%d L=%d: rank %d's signal cell %u is %d\n", name, P, L, r, c, sig[c]);
        ok = false;
        break;
      }
    }
  }
  if (ok) std::printf("ok   %s P=%d L=%d\n", name, P, L);
  return ok;
}

}  // namespace

// The f16 mesh allreduce: half widens to float, the ranks fold in order, the sum rounds once to
// half (round to nearest even: C++'s float -> _Float16). Values with 11 significant bits whose
// sums need more, so the rounding is exercised.
bool run_allreduce_f16(int P, int L) {
  const uint32_t n = 5000;
  std::vector<std::vector<uint8_t>> windows(P, std::vector<uint8_t>(kWindow, 0));
  std::vector<CommContext> ctx = contexts(windows);
  const uint64_t sig_offset = kWindow - 4096;
  auto h = [](int r, uint32_t i) { return static_cast<_Float16>(0.37f * static_cast<float>(r + 1) + 0.013f * static_cast<float>(i % 127)); };
  std::vector<std::vector<ChipTensor>> chips(P);
  for (int r = 0; r < P; ++r) {
    auto* t = reinterpret_cast<_Float16*>(windows[r].data());
    for (uint32_t i = 0; i < n; ++i) t[i] = h(r, i);
    chips[r] = {chip(windows[r].data(), 1, n, DataType::FLOAT16),
                chip(windows[r].data() + sig_offset, static_cast<uint32_t>(P), static_cast<uint32_t>(L), DataType::INT32)};
  }
  launch(k_allreduce_f16, L, chips, ctx);
  bool ok = true;
  for (int r = 0; r < P && ok; ++r) {
    const auto* t = reinterpret_cast<const _Float16*>(windows[r].data());
    for (uint32_t i = 0; i < n; ++i) {
      float acc = static_cast<float>(h(0, i));
      for (int q = 1; q < P; ++q) acc += static_cast<float>(h(q, i));
      const _Float16 want = static_cast<_Float16>(acc);
      if (std::memcmp(&t[i], &want, sizeof want) != 0) {
        std::printf("FAIL allreduce_sum_f16 P=%d L=%d: rank %d element %u is %g, want %g\n", P, L, r, i,
                    static_cast<double>(t[i]), static_cast<double>(want));
        ok = false;
        break;
      }
    }
  }
  if (ok) std::printf("ok   allreduce_sum_f16 P=%d L=%d\n", P, L);
  return ok;
}

// The builtin tensor kernels (one rank, one block, simpler's argument layout): fill zeroes a
// tensor whose values were non-zero; copy writes a source box at offsets (2, 5) of a target,
// from a contiguous source and from one whose rows are padded (row stride 24 for 17 columns),
// and leaves every other target element as it was.
bool run_tensor_kernels() {
  bool ok = true;
  std::vector<float> buf(8 * 40);
  for (uint32_t i = 0; i < buf.size(); ++i) buf[i] = value(0, i);
  ChipTensor out = chip(buf.data(), 8, 40, DataType::FLOAT32);
  LocalContext local{};
  local.block_idx = 0;
  local.block_num = 1;
  GlobalContext global{};
  std::vector<int64_t> args(64, 0);
  args[SPMD_LOCAL_CONTEXT_INDEX] = reinterpret_cast<int64_t>(&local);
  args[SPMD_GLOBAL_CONTEXT_INDEX] = reinterpret_cast<int64_t>(&global);
  args[0] = reinterpret_cast<int64_t>(&out);
  k_fill(args.data());
  for (float v : buf) ok = ok && v == 0.0f;
  std::printf("%s fill_b32 8x40\n", ok ? "ok  " : "FAIL");
  for (uint32_t pad : {17u, 24u}) {
    std::vector<float> target(8 * 40), source(3 * pad);
    for (uint32_t i = 0; i < target.size(); ++i) target[i] = value(1, i);
    for (uint32_t i = 0; i < source.size(); ++i) source[i] = value(2, i);
    ChipTensor t = chip(target.data(), 8, 40, DataType::FLOAT32);
    ChipTensor src = chip(source.data(), 3, 17, DataType::FLOAT32);
    src.strides[0] = pad;
    src.is_contiguous = pad == 17;
    src.buffer.size = source.size() * sizeof(float);
    args[0] = reinterpret_cast<int64_t>(&t);
    args[1] = reinterpret_cast<int64_t>(&src);
    args[2] = 2;
    args[3] = 5;
    k_copy(args.data());
    bool good = true;
    for (uint32_t r = 0; r < 8; ++r)
      for (uint32_t c = 0; c < 40; ++c) {
        const bool inside = r >= 2 && r < 5 && c >= 5 && c < 22;
        const float want = inside ? value(2, (r - 2) * pad + (c - 5)) : value(1, r * 40 + c);
        good = good && target[r * 40 + c] == want;
      }
    std::printf("%s copy_b32 3x17 (row stride %u) at (2, 5) of 8x40\n", good ? "ok  " : "FAIL", pad);
    ok = ok && good;
  }
  return ok;
}

int main() {
  const uint32_t M = 3, E = 1500;  // 4500 floats per rank's rows: lanes span one or two fold tiles
  const uint64_t A = 0, B = 256 * 1024;
  int failed = 0;
  for (int P : {2, 4}) {
    for (int L : {1, 2}) {
      const uint32_t PM = static_cast<uint32_t>(P) * M;
      auto sum = [&](uint32_t i) {
        float s = 0;
        for (int q = 0; q < P; ++q) s += value(q, i);
        return s;
      };
      failed += !run_case("allreduce_sum", k_allreduce, P, L, {{A, M, E}}, [&](int, std::vector<float*>& t) {
        for (uint32_t i = 0; i < M * E; ++i)
          if (t[0][i] != sum(i)) return false;
        return true;
      });
      failed += !run_case("reduce_scatter_sum", k_reduce_scatter, P, L, {{A, PM, E}}, [&](int r, std::vector<float*>& t) {
        for (uint32_t i = 0; i < PM * E; ++i) {
          const bool mine = i / (M * E) == static_cast<uint32_t>(r);
          if (t[0][i] != (mine ? sum(i) : value(r, i))) return false;
        }
        return true;
      });
      failed += !run_case("allgather", k_allgather, P, L, {{A, M, E}, {B, PM, E}}, [&](int, std::vector<float*>& t) {
        for (uint32_t i = 0; i < PM * E; ++i)
          if (t[1][i] != value(static_cast<int>(i / (M * E)), i % (M * E))) return false;
        return true;
      });
      failed += !run_case("broadcast_root0", k_broadcast, P, L, {{A, M, E}}, [&](int, std::vector<float*>& t) {
        for (uint32_t i = 0; i < M * E; ++i)
          if (t[0][i] != value(0, i)) return false;
        return true;
      });
      failed += !run_case("all_to_all", k_all_to_all, P, L, {{A, PM, E}, {B, PM, E}}, [&](int r, std::vector<float*>& t) {
        for (uint32_t i = 0; i < PM * E; ++i) {
          const uint32_t q = i / (M * E), k = i % (M * E);
          if (t[1][i] != value(static_cast<int>(q), static_cast<uint32_t>(r) * M * E + k)) return false;
        }
        return true;
      });
      failed += !run_case("reduce_sum_root0", k_reduce, P, L, {{A, M, E}}, [&](int r, std::vector<float*>& t) {
        for (uint32_t i = 0; i < M * E; ++i)
          if (t[0][i] != (r == 0 ? sum(i) : value(r, i))) return false;
        return true;
      });
      failed += !run_case("gather_root0", k_gather, P, L, {{A, M, E}, {B, PM, E}}, [&](int r, std::vector<float*>& t) {
        for (uint32_t i = 0; i < PM * E; ++i) {
          const float want = r == 0 ? value(static_cast<int>(i / (M * E)), i % (M * E)) : value(r, i);
          if (t[1][i] != want) return false;
        }
        return true;
      });
      failed += !run_case("scatter_root0", k_scatter, P, L, {{A, PM, E}, {B, M, E}}, [&](int r, std::vector<float*>& t) {
        for (uint32_t i = 0; i < M * E; ++i)
          if (t[1][i] != value(0, static_cast<uint32_t>(r) * M * E + i)) return false;
        return true;
      });
    }
  }
  // The ring (core_num 1, signal [2*(P-1)+1, P]); the barrier (a signal only); the permute
  // 0 -> 1, 1 -> 2, 2 -> 0 on 4 ranks (rank 3 in no pair keeps its target).
  for (int P : {2, 4}) {
    const uint32_t n = static_cast<uint32_t>(P) * 1200;
    failed += !run_case("allreduce_ring_sum", k_ring, P, 1, {{A, 1, n}}, [&](int, std::vector<float*>& t) {
      for (uint32_t i = 0; i < n; ++i) {
        float s = 0;
        for (int q = 0; q < P; ++q) s += value(q, i);
        if (t[0][i] != s) return false;
      }
      return true;
    }, static_cast<uint32_t>(2 * (P - 1) + 1), static_cast<uint32_t>(P));
    failed += !run_case("barrier", k_barrier, P, 1, {}, [](int, std::vector<float*>&) { return true; },
                        static_cast<uint32_t>(P), 1);
  }
  failed += !run_case("permute_0to1_1to2_2to0", k_permute, 4, 2, {{A, M, E}, {B, M, E}}, [&](int r, std::vector<float*>& t) {
    const int src = r == 1 ? 0 : r == 2 ? 1 : r == 0 ? 2 : -1;
    for (uint32_t i = 0; i < M * E; ++i)
      if (t[1][i] != value(src >= 0 ? src : r, i)) return false;
    return true;
  });
  // The seed's all_to_all_v and its indexed variant (E = 600 floats a row): rows past a count are
  // left as staged; recv_counts gets every sender's clamped count.
  for (int P : {2, 4}) {
    for (int L : {1, 3}) {
      const uint32_t E2 = 600, R = static_cast<uint32_t>(P) * kMaxRecv;
      const uint64_t C = 512 * 1024, D = C + 256, X = C + 512;
      auto check_a2av = [&](bool indexed) {
        return [&, indexed, P, R, E2](int r, std::vector<float*>& t) {
          const auto* recv = reinterpret_cast<const int32_t*>(t[3]);
          for (int s = 0; s < P; ++s) {
            const int32_t n = clamped(send_count(s, static_cast<uint32_t>(r)));
            if (recv[s] != n) return false;
            for (uint32_t k = 0; k < kMaxRecv; ++k) {
              for (uint32_t e = 0; e < E2; ++e) {
                const uint32_t at = (static_cast<uint32_t>(s) * kMaxRecv + k) * E2 + e;
                float want = value(r, at);  // past the count: as staged
                if (static_cast<int32_t>(k) < n) {
                  uint32_t row = static_cast<uint32_t>(r) * kMaxRecv + k;  // plain: the chunk for r
                  if (indexed) {
                    const int32_t idx = index_of(s, row);
                    if (idx < 0 || static_cast<uint32_t>(idx) >= R) {
                      if (t[1][at] != 0.0f) return false;
                      continue;
                    }
                    row = static_cast<uint32_t>(idx);
                  }
                  want = value(s, row * E2 + e);
                }
                if (t[1][at] != want) return false;
              }
            }
          }
          return true;
        };
      };
      failed += !run_case("all_to_all_v", k_all_to_all_v, P, L,
                          {{A, R, E2}, {B, R, E2}, {D, static_cast<uint32_t>(P), 1, send_count}, {X, static_cast<uint32_t>(P), 1, unset}},
                          check_a2av(false), static_cast<uint32_t>(P), static_cast<uint32_t>(L), 2);
      failed += !run_case("indexed_all_to_all_v", k_indexed, P, L,
                          {{A, R, E2}, {B, R, E2}, {D, static_cast<uint32_t>(P), 1, send_count}, {X, static_cast<uint32_t>(P), 1, unset},
                           {X + 256, R, 1, index_of}},
                          check_a2av(true), static_cast<uint32_t>(P), static_cast<uint32_t>(L), 2);
    }
  }
  for (int P : {2, 4})
    for (int L : {1, 2}) failed += !run_allreduce_f16(P, L);
  failed += !run_tensor_kernels();
  std::printf("%d failed\n", failed);
  return failed == 0 ? 0 : 1;
}
