// The indexed suite: indexed_all_to_all_v on the host runtime: the rendered indexed kernel (float and int8_t) run by
// P ranks x L blocks, checked against an independent golden written from
// docs/spec/indexed.md. Run by runtime/tests/main.cpp
// (`runtime_tests --suite indexed [--quick] [--filter SUBSTR] [-v]`).
//
// Per case: every rank's status; `target` against the golden (row s*MR + k of rank r, for
// k < clamp(send_counts[s][r], 0, MR), is row index_s[r*MR + k] of rank s's input, or zeros when
// that entry is outside [0, input_rows); every other byte still its background); `recv_counts` =
// the clamped counts; every signal cell 0 after each round; and from the copy trace: every byte
// written lies inside its (src -> dst) chunk's valid rows; the receiver's block dst % L zeroes each
// valid row of a remote chunk exactly once per exchange, and the sender writes exactly its in-range
// rows there, once each (data cross ranks only by TPUT: the sender never stores zeros into a
// peer); a remote chunk is written only by its one writer block (dst % L); the local chunk
// (src == dst) row k exactly once, by block k / ceil(rows / L) (the local split); each
// recv_counts entry is stored exactly once per exchange, by the receiver's block dst % L; a
// gathered copy reads exactly the input row its index entry names. (L here is the active width.) Contexts args[7..8] are passed as null in half the cases (they are never read).
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"
#include "pld_runtime/host.h"
#include "pld_runtime/task.h"

extern "C" void pld_idx_f32(int64_t* args);  // rendered kernel.cpp.in, dtype_cpp = float
extern "C" void pld_idx_i8(int64_t* args);   // rendered kernel.cpp.in, dtype_cpp = int8_t

namespace {

using pld::Tensor;
using pld::host::World;
using pld_test::Failure;
using pld_test::golden_rows;
using pld_test::Matrix;

// ------------------------------------------------------------------ independent golden
// Input row i of rank r holds the sim spec's payload with d = i / MR, k = i % MR.
float payload_f32(int r, int64_t i, int64_t mr, int64_t e) {
  return static_cast<float>(r * 1000000.0 + (i / mr) * 10000.0 + (i % mr) * 100.0 + e);
}
int8_t payload_i8(int r, int64_t i, int64_t mr, int64_t e) {
  return static_cast<int8_t>((r * 37 + (i / mr) * 11 + (i % mr) * 5 + e) % 251 - 125);
}

struct Case {
  std::string name;
  int P = 2, L = 1;
  bool i8 = false;
  int max_recv = 4, row_elems = 8;
  int64_t input_rows = -1;  // N_in; -1 = P * max_recv
  int64_t input_row_elems = -1;  // -1 = row_elems (a mismatch reads no input row)
  Matrix sc;                     // send_counts[src][dst]
  Matrix index;                  // index[src][d * MR + k]
  int64_t index_len = -1;        // entries of the index tensor; -1 = P * MR
  int S = 0;                     // signal stride; 0 = L
  int repeat = 1;                // back-to-back exchanges on one signal per round
  int capacity = 48;
  uint8_t target_bg = 0;         // byte every target starts with
  bool null_dup_contexts = false;  // args[7..8] = nullptr (never read)
  bool counts_2d = false;        // send_counts / recv_counts as [NR, 1]
  bool index_2d = false;         // index as [N, 1]
  bool recv_window = false;      // recv_counts in the window instead of local memory
  int expect_status = 0;
};

Tensor make_tensor(void* data, int esz, std::vector<int64_t> dims) {
  return Tensor::contiguous(data, esz, dims.data(), dims.size());
}

void run_case(const Case& c) {
  const int P = c.P, L = c.L;
  const int S = c.S > 0 ? c.S : L;
  const int active = std::min(L, S);
  const int esz = c.i8 ? 1 : 4;
  const int64_t MR = c.max_recv, RE = c.row_elems;
  const int64_t NIN = c.input_rows >= 0 ? c.input_rows : P * MR;
  const int64_t IRE = c.input_row_elems >= 0 ? c.input_row_elems : RE;
  const int64_t readable = IRE == RE ? NIN : 0;  // rows the kernel may read
  const int64_t IDX = c.index_len >= 0 ? c.index_len : P * MR;
  const int64_t target_bytes = P * MR * RE * esz;
  const int64_t row_bytes = RE * esz;

  pld::host::Config cfg;
  cfg.aiv_capacity = c.capacity;
  cfg.trace_copies = true;
  World w(P, 4096 + target_bytes + P * S * 4 + 4 * P * 4 + 256, cfg);
  const uint64_t off_target = w.alloc(std::max<int64_t>(target_bytes, 1));
  const uint64_t off_signal = w.alloc(P * S * 4);
  const uint64_t off_send = w.alloc(P * 4);
  const uint64_t off_recv = w.alloc(P * 4);

  // Local memory per rank: input, index, recv_counts.
  std::vector<std::vector<char>> input(P, std::vector<char>(std::max<int64_t>(NIN * IRE * esz, 1)));
  std::vector<std::vector<int32_t>> index(P, std::vector<int32_t>(std::max<int64_t>(IDX, 1), 0));
  std::vector<std::vector<int32_t>> recv_local(P, std::vector<int32_t>(P, 0));
  for (int r = 0; r < P; ++r) {
    for (int64_t i = 0; i < NIN; ++i)
      for (int64_t e = 0; e < IRE; ++e) {
        if (c.i8) reinterpret_cast<int8_t*>(input[r].data())[i * IRE + e] = payload_i8(r, i, MR, e);
        else reinterpret_cast<float*>(input[r].data())[i * IRE + e] = payload_f32(r, i, MR, e);
      }
    for (int64_t j = 0; j < IDX; ++j) index[r][j] = c.index[r][j];
    std::memset(w.window(r, off_target), c.target_bg, target_bytes);
  }
  auto recv_of = [&](int r) -> int32_t* {
    return c.recv_window ? static_cast<int32_t*>(w.window(r, off_recv)) : recv_local[r].data();
  };

  std::vector<int64_t> row_dims = (RE > 2 && RE % 2 == 0) ? std::vector<int64_t>{2, RE / 2}
                                                         : std::vector<int64_t>{RE};
  auto dims_with = [&](int64_t rows, const std::vector<int64_t>& rd) {
    std::vector<int64_t> d{rows};
    d.insert(d.end(), rd.begin(), rd.end());
    return d;
  };
  const std::vector<int64_t> in_row_dims = IRE == RE ? row_dims : std::vector<int64_t>{IRE};
  const char* kname = c.i8 ? "__builtin_indexed_all_to_all_v__int8" : "__builtin_indexed_all_to_all_v__fp32";
  w.register_kernel(kname, c.i8 ? &pld_idx_i8 : &pld_idx_f32);

  const int rounds = c.repeat > 1 ? 2 : 1;
  for (int round = 0; round < rounds; ++round) {
    w.clear_copies();
    const long started_before = w.blocks_started();
    auto status = w.run([&](int r, pld::rt::Orchestration& orch) {
      std::vector<int64_t> cdims = c.counts_2d ? std::vector<int64_t>{P, 1} : std::vector<int64_t>{P};
      std::vector<int64_t> idims = c.index_2d ? std::vector<int64_t>{IDX, 1} : std::vector<int64_t>{IDX};
      Tensor in = make_tensor(input[r].data(), esz, dims_with(NIN, in_row_dims));
      Tensor tgt = make_tensor(w.window(r, off_target), esz, dims_with(P * MR, row_dims));
      Tensor sig = make_tensor(w.window(r, off_signal), 4, {P, S});
      Tensor snd = make_tensor(w.window(r, off_send), 4, cdims);
      Tensor rcv = make_tensor(recv_of(r), 4, cdims);
      Tensor idx = make_tensor(index[r].data(), 4, idims);
      // Each rank writes its own send_counts just before the collective, at staggered times:
      // only barrier A makes them visible to the peers that pull them.
      if (round == 0) {
        std::this_thread::sleep_for(std::chrono::microseconds(300 * (r % 3)));
        for (int d = 0; d < P; ++d) static_cast<int32_t*>(w.window(r, off_send))[d] = c.sc[r][d];
      }
      for (int rep = 0; rep < c.repeat; ++rep) {
        pld::rt::Task t(1, kname);
        t.add_tensor(in, pld::rt::Dir::In)
            .add_tensor(tgt, pld::rt::Dir::InOut)
            .add_tensor(sig, pld::rt::Dir::InOut)
            .add_tensor(snd, pld::rt::Dir::In)
            .add_tensor(rcv, pld::rt::Dir::InOut)
            .add_tensor(idx, pld::rt::Dir::In)
            .add_comm_context(w.comm(r))
            .add_comm_context(c.null_dup_contexts ? nullptr : w.comm(r))
            .add_comm_context(c.null_dup_contexts ? nullptr : w.comm(r));
        if (L > 1) {
          t.launch_spec().set_block_num(L);
          t.launch_spec().set_require_sync_start(true);
        }
        if (int rc = orch.submit(t)) return rc;
      }
      return 0;
    });
    for (int r = 0; r < P; ++r)
      CHECK(status[r] == c.expect_status, "rank %d status %d, expected %d (%s)", r, status[r],
            c.expect_status, w.error_message().c_str());

    for (int r = 0; r < P; ++r)
      for (int i = 0; i < P * S; ++i) {
        const int32_t v = static_cast<int32_t*>(w.window(r, off_signal))[i];
        CHECK(v == 0, "rank %d signal[%d, %d] = %d", r, i / S, i % S, v);
      }

    if (c.expect_status != 0) {  // rejected launch: no block ran, nothing written
      CHECK(w.blocks_started() == started_before, "%ld blocks started", w.blocks_started() - started_before);
      for (int r = 0; r < P; ++r) {
        for (int64_t i = 0; i < target_bytes; ++i)
          CHECK(static_cast<uint8_t*>(w.window(r, off_target))[i] == c.target_bg, "rank %d target written", r);
        for (int s = 0; s < P; ++s) CHECK(recv_of(r)[s] == 0, "rank %d recv_counts written", r);
      }
      return;
    }
    CHECK(w.blocks_started() - started_before == static_cast<long>(P) * L * c.repeat,
          "%ld blocks started, expected %ld", w.blocks_started() - started_before,
          static_cast<long>(P) * L * c.repeat);

    // The golden: target rows and recv_counts.
    for (int dst = 0; dst < P; ++dst) {
      const char* tgt = static_cast<const char*>(w.window(dst, off_target));
      for (int src = 0; src < P; ++src) {
        const int64_t rows = golden_rows(c.sc[src][dst], MR);
        CHECK(recv_of(dst)[src] == rows, "rank %d recv_counts[%d] = %d, expected %lld", dst, src,
              recv_of(dst)[src], (long long)rows);
        for (int64_t k = 0; k < MR; ++k) {
          const int64_t pos = dst * MR + k;
          const int64_t ix = pos < IDX ? c.index[src][pos] : -1;
          const bool in_range = ix >= 0 && ix < readable;
          for (int64_t e = 0; e < RE; ++e) {
            const int64_t i = (src * MR + k) * RE + e;
            if (k < rows) {
              if (c.i8) {
                const int got = reinterpret_cast<const int8_t*>(tgt)[i];
                const int want = in_range ? payload_i8(src, ix, MR, e) : 0;
                CHECK(got == want, "rank %d target row %lld elem %lld = %d, expected %d (index %lld)", dst,
                      (long long)(src * MR + k), (long long)e, got, want, (long long)ix);
              } else {
                const float got = reinterpret_cast<const float*>(tgt)[i];
                const float want = in_range ? payload_f32(src, ix, MR, e) : 0.0f;
                CHECK(got == want, "rank %d target row %lld elem %lld = %f, expected %f (index %lld)", dst,
                      (long long)(src * MR + k), (long long)e, got, want, (long long)ix);
              }
            } else {
              for (int byte = 0; byte < esz; ++byte)
                CHECK(static_cast<uint8_t>(tgt[i * esz + byte]) == c.target_bg,
                      "rank %d target row %lld (past count %lld) written", dst, (long long)(src * MR + k),
                      (long long)rows);
            }
          }
        }
      }
    }

    // The copy trace.
    std::vector<std::vector<std::vector<int64_t>>> row_bytes_written(
        P, std::vector<std::vector<int64_t>>(P, std::vector<int64_t>(MR, 0)));
    auto zeroed = row_bytes_written;  // [receiver][source][row]: the receiver's zero fills
    std::vector<std::vector<int>> stores(P, std::vector<int>(P, 0));
    // Adds the bytes [from, from + bytes) of a chunk to its rows' tallies.
    auto tally = [&](std::vector<int64_t>& rows_of, int64_t from, int64_t bytes) {
      for (int64_t k = from / row_bytes; k * row_bytes < from + bytes && k < MR; ++k)
        rows_of[k] += std::min<int64_t>(from + bytes, (k + 1) * row_bytes) - std::max<int64_t>(from, k * row_bytes);
    };
    for (const auto& cp : w.copies()) {
      const char* rbase = reinterpret_cast<const char*>(recv_of(cp.rank));
      const char* d = static_cast<const char*>(cp.dst);
      if (d >= rbase && d < rbase + P * 4) {
        const int s = static_cast<int>((d - rbase) / 4);
        CHECK(cp.bytes == 4 && cp.block == cp.rank % active, "rank %d block %d stored recv_counts[%d] (owner %d)",
              cp.rank, cp.block, s, cp.rank % active);
        ++stores[cp.rank][s];
        continue;
      }
      int dst = -1;
      for (int r = 0; r < P; ++r) {
        const char* base = static_cast<const char*>(w.window(r, off_target));
        if (d >= base && d < base + target_bytes) dst = r;
      }
      CHECK(dst >= 0, "rank %d block %d wrote outside every target and its recv_counts", cp.rank, cp.block);
      const int64_t chunk_bytes = MR * row_bytes;
      if (dst == cp.rank && (d - static_cast<const char*>(w.window(dst, off_target))) / chunk_bytes != dst) {
        // A zero fill of a remote chunk, by its receiver's block dst % L, inside its valid rows.
        const int64_t off = d - static_cast<const char*>(w.window(dst, off_target));
        const int src = static_cast<int>(off / chunk_bytes);
        const int64_t rows = golden_rows(c.sc[src][dst], MR);
        const int64_t lo = src * chunk_bytes, hi = lo + rows * row_bytes;
        CHECK(cp.block == dst % active && off + static_cast<int64_t>(cp.bytes) <= hi,
              "rank %d block %d zeroed [%lld, %lld) of its target, valid [%lld, %lld) by block %d", dst, cp.block,
              (long long)off, (long long)(off + cp.bytes), (long long)lo, (long long)hi, dst % active);
        tally(zeroed[dst][src], off - lo, static_cast<int64_t>(cp.bytes));
        continue;
      }
      const int src = cp.rank;
      const int64_t off = d - static_cast<const char*>(w.window(dst, off_target));
      const int64_t rows = golden_rows(c.sc[src][dst], MR);
      const int64_t lo = src * MR * row_bytes, hi = lo + rows * row_bytes;
      CHECK(off >= lo && off + static_cast<int64_t>(cp.bytes) <= hi,
            "rank %d block %d wrote [%lld, %lld) of rank %d's target, valid [%lld, %lld)", src, cp.block,
            (long long)off, (long long)(off + cp.bytes), dst, (long long)lo, (long long)hi);
      const int64_t k0 = (off - lo) / row_bytes, k1 = (off - lo + cp.bytes + row_bytes - 1) / row_bytes;
      if (dst != src) {
        CHECK(cp.block == dst % active, "rank %d block %d wrote to peer %d (its writer is block %d)", src,
              cp.block, dst, dst % active);
      } else {
        const int64_t per = (rows + active - 1) / active;
        for (int64_t k = k0; k < k1; ++k)
          CHECK(cp.block == k / per, "rank %d block %d copied local row %lld (split: block %lld)", src,
                cp.block, (long long)k, (long long)(k / per));
      }
      // A copy that starts on a row boundary and reads input memory reads the row its entry names.
      const char* ibase = input[src].data();
      const char* sp = static_cast<const char*>(cp.src);
      if ((off - lo) % row_bytes == 0 && sp >= ibase && sp < ibase + NIN * IRE * esz) {
        const int64_t ix = c.index[src][dst * MR + k0];
        CHECK(sp == ibase + ix * row_bytes, "rank %d block %d copied input row %lld into slot %lld, index says %lld",
              src, cp.block, (long long)((sp - ibase) / row_bytes), (long long)k0, (long long)ix);
      }
      tally(row_bytes_written[src][dst], off - lo, static_cast<int64_t>(cp.bytes));
    }
    for (int src = 0; src < P; ++src)
      for (int dst = 0; dst < P; ++dst) {
        CHECK(stores[dst][src] == c.repeat, "rank %d recv_counts[%d] stored %d times in %d exchanges", dst, src,
              stores[dst][src], c.repeat);
        const int64_t rows = golden_rows(c.sc[src][dst], MR);
        for (int64_t k = 0; k < rows; ++k) {
          const int64_t pos = dst * MR + k;
          const int64_t ix = pos < IDX ? c.index[src][pos] : -1;
          const bool sent = src == dst || (ix >= 0 && ix < readable);
          CHECK(row_bytes_written[src][dst][k] == (sent ? row_bytes * c.repeat : 0),
                "%d -> %d row %lld: %lld bytes written by the sender in %d exchanges, expected %lld each", src,
                dst, (long long)k, (long long)row_bytes_written[src][dst][k], c.repeat,
                (long long)(sent ? row_bytes : 0));
          if (src != dst)
            CHECK(zeroed[dst][src][k] == row_bytes * c.repeat,
                  "%d -> %d row %lld: %lld bytes zeroed by the receiver in %d exchanges, expected %lld each", src,
                  dst, (long long)k, (long long)zeroed[dst][src][k], c.repeat, (long long)row_bytes);
        }
      }

    for (int r = 0; r < P; ++r) {
      std::memset(w.window(r, off_target), c.target_bg, target_bytes);
      std::memset(recv_of(r), 0, P * 4);
    }
  }
}

// ------------------------------------------------------------------ patterns
pld_test::Rng rnd{2024};

Matrix counts(const std::string& kind, int P, int MR) { return pld_test::count_pattern(kind, P, MR, rnd); }

// index[src][j], j < len, for input_rows n.
Matrix indices(const std::string& kind, int P, int64_t len, int64_t n) {
  Matrix m(P, std::vector<int32_t>(std::max<int64_t>(len, 1), 0));
  for (int s = 0; s < P; ++s)
    for (int64_t j = 0; j < len; ++j) {
      int64_t v = 0;
      if (kind == "identity") v = j;
      else if (kind == "reverse") v = n - 1 - (j % n);
      else if (kind == "random") v = rnd(0, static_cast<int32_t>(n - 1));
      else if (kind == "repeated") v = (j / 2 + s) % std::min<int64_t>(n, 3);
      else if (kind == "out_of_range") {
        switch (j % 7) {
          case 0: v = -1; break;
          case 1: v = n; break;
          case 2: v = INT32_MAX; break;
          case 3: v = INT32_MIN; break;
          default: v = (j + s) % n; break;
        }
      }
      m[s][j] = static_cast<int32_t>(v);
    }
  return m;
}

std::string case_name(const Case& c, const std::string& ix, const std::string& cnt) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "P%d_L%d_%s_%s_%s_mr%d_re%d_nin%lld_S%d_rep%d", c.P, c.L, c.i8 ? "i8" : "f32",
                ix.c_str(), cnt.c_str(), c.max_recv, c.row_elems, (long long)c.input_rows, c.S, c.repeat);
  return buf;
}

// A kernel that returns early (bad rankNum) does so on every rank alike: nothing is written, no
// signal touched, every block still ran.
void early_return_ranknum_17() {
  const int P = 17, L = 2;
  World w(P, 1 << 16);
  w.register_kernel("k", &pld_idx_f32);
  const uint64_t ot = w.alloc(P * 2 * 4), os = w.alloc(P * L * 4), osc = w.alloc(P * 4);
  std::vector<float> in(P * 2, 1.0f);
  std::vector<std::vector<int32_t>> recv(P, std::vector<int32_t>(P, -7)), idx(P, std::vector<int32_t>(P * 2, 0));
  for (int r = 0; r < P; ++r)
    for (int d = 0; d < P; ++d) static_cast<int32_t*>(w.window(r, osc))[d] = 1;
  auto st = w.run([&](int r, pld::rt::Orchestration& orch) {
    pld::rt::Task t(1, "k");
    t.add_tensor(make_tensor(in.data(), 4, {P * 2, 1}), pld::rt::Dir::In)
        .add_tensor(make_tensor(w.window(r, ot), 4, {P * 2, 1}), pld::rt::Dir::InOut)
        .add_tensor(make_tensor(w.window(r, os), 4, {P, L}), pld::rt::Dir::InOut)
        .add_tensor(make_tensor(w.window(r, osc), 4, {P}), pld::rt::Dir::In)
        .add_tensor(make_tensor(recv[r].data(), 4, {P}), pld::rt::Dir::InOut)
        .add_tensor(make_tensor(idx[r].data(), 4, {P * 2}), pld::rt::Dir::In)
        .add_comm_context(w.comm(r))
        .add_comm_context(nullptr)
        .add_comm_context(nullptr);
    t.launch_spec().set_block_num(L);
    t.launch_spec().set_require_sync_start(true);
    return orch.submit(t);
  });
  for (int r = 0; r < P; ++r) {
    CHECK(st[r] == 0, "rank %d status %d", r, st[r]);
    for (int d = 0; d < P; ++d) CHECK(recv[r][d] == -7, "rank %d recv_counts written", r);
    for (int i = 0; i < P * L; ++i) CHECK(static_cast<int32_t*>(w.window(r, os))[i] == 0, "signal touched");
    for (int i = 0; i < P * 2; ++i) CHECK(static_cast<float*>(w.window(r, ot))[i] == 0.0f, "target written");
  }
  CHECK(w.blocks_started() == static_cast<long>(P) * L, "blocks started %ld", w.blocks_started());
}

}  // namespace

void indexed_suite(pld_test::Suite& t) {
  const bool quick = t.options().quick;
  auto add = [&](const std::string& name, const std::function<void()>& fn) { t.add(name, fn); };

  add("early_return_ranknum_17", early_return_ranknum_17);

  // The matrix: P x L in {1, 2, P, P+3, 16} x five index patterns, two count patterns each
  // (rotating through all six), dtype, shape, input rows, layouts and the null duplicate contexts
  // rotating too.
  const std::vector<int> Ps = quick ? std::vector<int>{2, 4} : std::vector<int>{1, 2, 4, 8, 16};
  const std::vector<std::string> ixs = {"identity", "reverse", "random", "repeated", "out_of_range"};
  const std::vector<std::string> kinds = {"uniform", "zero_and_full", "one_and_full", "over_capacity", "negative",
                                          "random"};
  const int shapes[][2] = {{4, 8}, {3, 5}, {2, 33}, {5, 3}, {1, 13}, {4, 40}};  // max_recv, row_elems
  int n = 0;
  for (int P : Ps) {
    std::vector<int> Ls;
    for (int L : {1, 2, P, P + 3, 16})
      if (std::find(Ls.begin(), Ls.end(), L) == Ls.end() && (!quick || L != 16)) Ls.push_back(L);
    for (int L : Ls)
      for (const auto& ix : ixs)
        for (int t = 0; t < (quick ? 1 : 2); ++t) {
          Case c;
          c.P = P;
          c.L = L;
          c.i8 = n % 2 == 1;
          c.max_recv = shapes[n % 6][0];
          c.row_elems = shapes[n % 6][1];
          const int64_t rows = int64_t(P) * c.max_recv;
          const int64_t nins[] = {rows, rows + 3, std::max<int64_t>(rows / 2, 1), 1};
          c.input_rows = nins[(n / 2) % 4];
          const std::string& kind = kinds[n % 6];
          c.sc = counts(kind, P, c.max_recv);
          c.index = indices(ix, P, rows, c.input_rows);
          c.null_dup_contexts = n % 2 == 0;
          c.counts_2d = n % 3 == 0;
          c.index_2d = n % 4 == 1;
          c.recv_window = n % 5 == 2;
          c.target_bg = n % 7 == 3 ? 0xA5 : 0;
          ++n;
          add("matrix_" + case_name(c, ix, kind), [c] { run_case(c); });
        }
  }

  // Extras.
  auto mk = [](int P, int L, bool i8, int mr, int re, const std::string& ix, const std::string& kind,
               int64_t nin = -1) {
    Case c;
    c.P = P; c.L = L; c.i8 = i8; c.max_recv = mr; c.row_elems = re;
    c.input_rows = nin >= 0 ? nin : int64_t(P) * mr;
    c.sc = counts(kind, P, mr);
    c.index = indices(ix, P, int64_t(P) * mr, c.input_rows);
    return c;
  };
  auto extra = [&](const std::string& name, const Case& c) { add("extra_" + name, [c] { run_case(c); }); };
  const int rep = quick ? 10 : 100;
  { Case c = mk(4, 7, false, 3, 7, "random", "random"); c.repeat = rep; extra("repeat_P4_L7", c); }
  { Case c = mk(8, 3, true, 2, 9, "reverse", "one_and_full"); c.repeat = rep; extra("repeat_P8_L3", c); }
  if (!quick) { Case c = mk(16, 16, true, 2, 33, "random", "random"); c.repeat = 100; extra("repeat_P16_L16", c); }
  { Case c = mk(2, 1, false, 4, 8, "repeated", "negative"); c.repeat = rep; c.S = 3; extra("repeat_S_gt_L", c); }
  { Case c = mk(4, 6, false, 4, 8, "random", "random"); c.S = 9; extra("S_gt_L", c); }
  // Blocks >= P only help the local copy; a large local chunk split over 11 blocks.
  { Case c = mk(2, 11, false, 23, 5, "identity", "uniform"); extra("P2_L11_local_split", c); }
  { Case c = mk(1, 16, true, 37, 3, "reverse", "uniform"); extra("P1_L16_local_only", c); }
  // Out-of-range rows wider than the kernel's zero buffer (1024 elements): chunked zero fill.
  { Case c = mk(2, 2, false, 3, 1500, "out_of_range", "uniform"); extra("wide_zero_rows_f32", c); }
  { Case c = mk(2, 3, true, 2, 2500, "out_of_range", "over_capacity"); extra("wide_zero_rows_i8", c); }
  // An input whose row shape is not the target's has no readable row: every sent row is zeros.
  { Case c = mk(4, 4, false, 3, 6, "identity", "random"); c.input_row_elems = 5; extra("input_row_mismatch", c); }
  // An index tensor shorter than P*MR: the positions past it count as out of range.
  { Case c = mk(4, 2, true, 3, 4, "identity", "uniform"); c.index_len = 7; extra("short_index", c); }
  // Sentinel background: rows past the count keep it; out-of-range rows are zeros, not background.
  { Case c = mk(4, 5, true, 4, 8, "out_of_range", "random"); c.target_bg = 0x5A; extra("sentinel_bg", c); }
  { Case c = mk(16, 19, false, 2, 3, "random", "zero_and_full"); c.target_bg = 0xA5; extra("sentinel_bg_P16_L19", c); }
  // Capacity: the sync-start launch of L > capacity blocks is refused (7), nothing runs.
  { Case c = mk(4, 64, false, 2, 8, "identity", "uniform"); c.expect_status = 7; extra("over_capacity_launch", c); }
  { Case c = mk(4, 9, true, 2, 8, "random", "random"); c.capacity = 8; c.expect_status = 7; extra("capacity8_L9", c); }
  { Case c = mk(4, 8, true, 2, 8, "random", "random"); c.capacity = 8; extra("capacity8_exact", c); }
}
