// The orchestration side: chip_views.inc (the descriptor ops and element I/O a rendered
// orchestration carries), scalar.h (integer scalar semantics), Orchestration::create_tensor /
// AllocScope / fail, and simpler's orchestration API as pld's runtime implements it
// (pto_orchestration_api.h, Orchestration::run_chip, asynchronous tasks).
// Run by runtime/tests/main.cpp (`runtime_tests --suite views [--filter SUBSTR] [-v]`).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "harness.h"
#include "pld_runtime/host.h"
#include "pld_runtime/task.h"
#include "pto_orchestration_api.h"  // runtime/include/device
#include "pld_runtime/chip_views.inc"  // what pld-translate splices into every orchestration

namespace {

using pld::Tensor;
using pld::host::World;
using pld::rt::Orchestration;

using pld_test::Failure;

constexpr int kInvalid = SIMPLER_ERROR_INVALID_ARGS;

Tensor make_tensor(void* data, int esz, std::vector<int64_t> dims) {
  return Tensor::contiguous(data, esz, dims.data(), dims.size());
}

// Byte distance from a to b.
int64_t bytes_from(const void* a, const void* b) {
  return static_cast<const char*>(b) - static_cast<const char*>(a);
}

void check_desc(const Tensor& t, const void* base, int64_t byte_off, int esz,
                std::vector<int64_t> shape, std::vector<int64_t> strides) {
  CHECK(bytes_from(base, t.data) == byte_off, "data at byte %lld, expected %lld",
        (long long)bytes_from(base, t.data), (long long)byte_off);
  CHECK(t.elem_size == esz, "elem_size %d, expected %d", t.elem_size, esz);
  CHECK(t.rank == static_cast<int>(shape.size()), "rank %d, expected %zu", t.rank, shape.size());
  for (size_t i = 0; i < shape.size(); ++i) {
    CHECK(t.shape[i] == shape[i], "shape[%zu] = %lld, expected %lld", i, (long long)t.shape[i],
          (long long)shape[i]);
    CHECK(t.strides[i] == strides[i], "strides[%zu] = %lld, expected %lld", i,
          (long long)t.strides[i], (long long)strides[i]);
  }
}

// World::run, with a failed CHECK inside a rank's body rethrown here after every rank ended (an
// exception must not escape a rank thread).
std::vector<int> run_checked(World& w, const std::function<int(int, Orchestration&)>& body) {
  std::vector<std::string> errors(w.ranks());
  auto st = w.run([&](int r, Orchestration& orch) {
    try {
      return body(r, orch);
    } catch (const Failure& f) {
      errors[r] = f.what;
      return -1;
    }
  });
  for (int r = 0; r < w.ranks(); ++r)
    if (!errors[r].empty()) throw Failure{"rank " + std::to_string(r) + ": " + errors[r]};
  return st;
}

// Runs body on a one-rank world; returns the rank's status.
int run1(World& w, const std::function<int(Orchestration&)>& body) {
  return run_checked(w, [&](int, Orchestration& orch) { return body(orch); })[0];
}

// ------------------------------------------------------------------ chip_views.inc
// The descriptor ops a rendered orchestration carries (pld_runtime/chip_views.inc), on ChipTensor.
ChipTensor chip(void* data, DataType dt, std::vector<uint32_t> dims) {
  return make_tensor_external(data, dims.data(), static_cast<uint32_t>(dims.size()), dt);
}

void check_chip(const ChipTensor& t, uint64_t offset, std::vector<uint32_t> shape, std::vector<uint32_t> strides) {
  CHECK(t.start_offset == offset, "start_offset %llu, expected %llu", (unsigned long long)t.start_offset,
        (unsigned long long)offset);
  CHECK(t.ndims == shape.size(), "ndims %u, expected %zu", t.ndims, shape.size());
  bool packed = true;
  uint64_t expect = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    CHECK(t.shapes[i] == shape[i], "shapes[%zu] = %u, expected %u", i, t.shapes[i], shape[i]);
    CHECK(t.strides[i] == strides[i], "strides[%zu] = %u, expected %u", i, t.strides[i], strides[i]);
    if (shape[i] != 1 && strides[i] != expect) packed = false;
    expect *= shape[i];
  }
  CHECK(t.is_contiguous == (packed || t.numel() == 0), "is_contiguous %d", t.is_contiguous);
  CHECK(t.extent_elem_cache == t.extent_elem(), "extent cache %llu", (unsigned long long)t.extent_elem_cache);
}

void chip_slice_and_view() {
  int32_t buf[6 * 8];
  const ChipTensor src = chip(buf, DataType::INT32, {6, 8});
  ChipTensor out;
  const int64_t off[] = {2, 3}, sz[] = {3, 4};
  CHECK(pld_orch::slice(src, off, sz, &out) == 0, "slice");
  check_chip(out, 2 * 8 + 3, {3, 4}, {8, 1});
  // A slice of a strided view keeps its strides and advances by offsets . strides.
  const ChipTensor cols = src.slice(1, 0, 8, 2);  // every other column
  const int64_t off2[] = {1, 2}, sz2[] = {2, 2};
  CHECK(pld_orch::slice(cols, off2, sz2, &out) == 0, "strided slice");
  check_chip(out, 8 + 4, {2, 2}, {8, 2});
  const int64_t edge[] = {6, 8}, none[] = {0, 0};
  CHECK(pld_orch::slice(src, edge, none, &out) == 0 && out.numel() == 0, "empty box at the edge");
  struct Row {
    int64_t off[2], sz[2];
  };
  const Row bad[] = {{{5, 0}, {2, 8}}, {{0, 1}, {6, 8}}, {{-1, 0}, {1, 1}}, {{0, 0}, {-1, 1}},
                     {{7, 0}, {0, 0}}, {{0, 0}, {7, 1}}, {{INT64_MAX, 0}, {INT64_MAX, 1}}};
  for (const Row& r : bad)
    CHECK(pld_orch::slice(src, r.off, r.sz, &out) == kInvalid, "offsets [%lld, %lld] sizes [%lld, %lld]",
          (long long)r.off[0], (long long)r.off[1], (long long)r.sz[0], (long long)r.sz[1]);

  // view: same rank is a slice; another rank a packed descriptor at the flat offset.
  const int64_t voff[] = {1, 2}, vshape[] = {2, 5};
  CHECK(pld_orch::view(src, voff, vshape, 2, &out) == 0, "same-rank view");
  check_chip(out, 10, {2, 5}, {8, 1});
  CHECK(pld_orch::view(src, nullptr, vshape, 2, &out) == 0, "view, no offsets");
  check_chip(out, 0, {2, 5}, {8, 1});
  float fbuf[4 * 6];
  const ChipTensor f = chip(fbuf, DataType::FLOAT32, {4, 6});
  const int64_t at8[] = {1, 2}, s3[] = {3, 2, 2}, fits[] = {4, 2, 2}, over[] = {5, 2, 2}, flat[] = {24};
  CHECK(pld_orch::view(f, at8, s3, 3, &out) == 0, "rank 3 view at element 8");
  check_chip(out, 8, {3, 2, 2}, {4, 2, 1});
  CHECK(pld_orch::view(f, at8, fits, 3, &out) == 0, "exact fit");
  CHECK(pld_orch::view(f, at8, over, 3, &out) == kInvalid, "past the end");
  CHECK(pld_orch::view(f, nullptr, flat, 1, &out) == 0, "flat view");
  check_chip(out, 0, {24}, {1});
  const int64_t last[] = {3, 5};
  CHECK(pld_orch::view(f, last, nullptr, 0, &out) == 0, "rank 0 view of the last element: [1]");
  check_chip(out, 23, {1}, {1});
  CHECK(pld_orch::view(cols, nullptr, flat, 1, &out) == kInvalid, "another rank of a strided view");
  const int64_t neg[] = {2, -1, 2}, s6[6] = {1, 1, 1, 1, 1, 1};
  CHECK(pld_orch::view(f, nullptr, neg, 3, &out) == kInvalid, "negative view dimension");
  CHECK(pld_orch::view(f, nullptr, s6, 6, &out) == kInvalid, "rank 6 view");
}

void chip_reshape_transpose_valid() {
  int64_t buf[2 * 3 * 4];
  const ChipTensor src = chip(buf, DataType::INT64, {2, 3, 4});
  ChipTensor out;
  const int64_t s2[] = {6, 4}, wrong[] = {5, 4};
  CHECK(pld_orch::reshape(src, s2, 2, &out) == 0, "reshape");
  check_chip(out, 0, {6, 4}, {4, 1});
  CHECK(pld_orch::reshape(src, wrong, 2, &out) == kInvalid, "element count differs");
  const int64_t perm[] = {2, 0, 1}, dup[] = {0, 0, 1}, big[] = {0, 1, 3};
  CHECK(pld_orch::transpose(src, perm, &out) == 0, "transpose");
  check_chip(out, 0, {4, 2, 3}, {1, 12, 4});
  CHECK(pld_orch::reshape(out, s2, 2, &out) == kInvalid, "reshape of a transposed view");
  CHECK(pld_orch::transpose(src, dup, &out) == kInvalid, "repeated axis");
  CHECK(pld_orch::transpose(src, big, &out) == kInvalid, "axis out of range");
  const int64_t valid[] = {1, 2, 4}, too[] = {1, 4, 4};
  CHECK(pld_orch::set_validshape(src, valid, &out) == 0, "set_validshape");
  check_chip(out, 0, {1, 2, 4}, {12, 4, 1});
  CHECK(pld_orch::set_validshape(src, too, &out) == kInvalid, "valid exceeds the shape");
}

// assemble_fits and overlaps are pure; write_int goes through the orchestration API's element
// access: run them inside an orchestration of their own. (The copy itself is a task of the builtin
// copy kernel: test/Codegen's pld-run tests run it.)
int g_assemble_rc[7];
void chip_assemble_entry(const ChipTaskArgs& orch_args) {
  const ChipTensor& target = orch_args.tensor(0).ref();  // int32 [4, 6], zeros
  const ChipTensor& src = orch_args.tensor(1).ref();     // int32 [2, 3], 1..6
  const ChipTensor cols = target.slice(1, 0, 6, 2);      // a strided target: columns 0, 2, 4
  const int64_t at[] = {1, 0}, past[] = {3, 0}, idx[] = {3, 5}, out_of[] = {4, 0};
  g_assemble_rc[0] = pld_orch::assemble_fits(cols, src, at, 2);
  g_assemble_rc[1] = pld_orch::assemble_fits(cols, src, past, 2);
  g_assemble_rc[2] = pld_orch::write_int(target, idx, 2, int64_t{-9});
  g_assemble_rc[3] = pld_orch::write_int(target, out_of, 2, 1);
  // Spans: row 1's first three elements lie inside the target; rows 0 and 2 share no byte; the
  // source is another buffer.
  const ChipTensor row1 = target.slice(0, 1, 2).slice(1, 0, 3);
  g_assemble_rc[4] = pld_orch::overlaps(target, row1) ? 1 : 0;
  g_assemble_rc[5] = (pld_orch::overlaps(target.slice(0, 0, 1), target.slice(0, 2, 3)) ? 2 : 0) +
                     (pld_orch::overlaps(target, src) ? 4 : 0);
  g_assemble_rc[6] = pld_orch::overlaps(target.slice(0, 1, 2), target.slice(0, 0, 3)) ? 0 : 1;
}

void chip_assemble_and_write() {
  World w(1, 4096);
  std::vector<int32_t> target(24, 0), src{1, 2, 3, 4, 5, 6};
  Tensor tt = make_tensor(target.data(), 4, {4, 6});
  Tensor ts = make_tensor(src.data(), 4, {2, 3});
  const pld::rt::ChipEntry entry{"assemble", &chip_assemble_entry, nullptr, nullptr, 0};
  const int st = run1(w, [&](Orchestration& orch) {
    const Tensor* tp[] = {&tt, &ts};
    return orch.run_chip(entry, pld::rt::ChipCall(tp, 2));
  });
  CHECK(st == 0, "status %d (%s)", st, w.error_message().c_str());
  CHECK(g_assemble_rc[0] == 0 && g_assemble_rc[1] == kInvalid && g_assemble_rc[2] == 0 &&
            g_assemble_rc[3] == kInvalid && g_assemble_rc[4] == 1 && g_assemble_rc[5] == 0 &&
            g_assemble_rc[6] == 0,
        "rcs %d %d %d %d %d %d %d", g_assemble_rc[0], g_assemble_rc[1], g_assemble_rc[2], g_assemble_rc[3],
        g_assemble_rc[4], g_assemble_rc[5], g_assemble_rc[6]);
  std::vector<int32_t> want(24, 0);
  want[23] = -9;
  CHECK(target == want, "target[23] = %d", target[23]);
}

// ------------------------------------------------------------------ scalar.h
void scalar_semantics() {
  using namespace pld::rt;
  const int64_t I32_MIN = std::numeric_limits<int32_t>::min();
  const int64_t I32_MAX = std::numeric_limits<int32_t>::max();
  const int64_t I64_MIN = std::numeric_limits<int64_t>::min();
  const int64_t I64_MAX = std::numeric_limits<int64_t>::max();
#define EQ(expr, want)                                                                      \
  CHECK((expr) == (want), "%s = %lld, expected %lld", #expr, (long long)(expr), (long long)(want))
  // sext / zext
  EQ(sext(0xFF, 8), -1);
  EQ(sext(0x7F, 8), 127);
  EQ(sext(0x180, 8), -128);
  EQ(sext(1, 1), -1);
  EQ(sext(0xFFFFFFFFull, 32), -1);
  EQ(sext(0x80000000ull, 32), I32_MIN);
  EQ(sext(~uint64_t{0}, 64), -1);
  EQ(zext(-1, 8), 255);
  EQ(zext(-1, 1), 1);
  EQ(zext(-1, 32), 0xFFFFFFFFll);
  CHECK(zext(-1, 64) == ~uint64_t{0}, "zext(-1, 64)");
  // wrapping add / sub / mul
  EQ(add(127, 1, 8), -128);
  EQ(add(-128, -1, 8), 127);
  EQ(add(I32_MAX, 1, 32), I32_MIN);
  EQ(add(I64_MAX, 1, 64), I64_MIN);
  EQ(add(-1, -1, 1), 0);  // i1: 1 + 1 = 0 mod 2
  EQ(add(-1, 0, 1), -1);
  EQ(sub(-128, 1, 8), 127);
  EQ(sub(I32_MIN, 1, 32), I32_MAX);
  EQ(sub(I64_MIN, 1, 64), I64_MAX);
  EQ(mul(16, 16, 8), 0);
  EQ(mul(-128, -1, 8), -128);
  EQ(mul(0x10000, 0x10000, 32), 0);
  EQ(mul(I64_MAX, 2, 64), -2);
  // signed division: truncation, INT_MIN / -1 wraps per width, remainder sign follows the dividend
  EQ(divs(-7, 2, 32), -3);
  EQ(divs(7, -2, 32), -3);
  EQ(rems(-7, 2, 32), -1);
  EQ(rems(7, -2, 32), 1);
  EQ(divs(-128, -1, 8), -128);
  EQ(divs(I32_MIN, -1, 32), I32_MIN);
  EQ(divs(I64_MIN, -1, 64), I64_MIN);
  EQ(divs(5, -1, 8), -5);
  EQ(rems(-128, -1, 8), 0);
  EQ(rems(I32_MIN, -1, 32), 0);
  EQ(rems(I64_MIN, -1, 64), 0);
  EQ(divs(-1, -1, 1), -1);  // i1: -1 / -1 = 1, which is -1 in i1
  // unsigned division on negative iN values (their N-bit zero extension)
  EQ(divu(-1, 2, 8), 127);         // 255 / 2
  EQ(divu(-2, -1, 8), 0);          // 254 / 255
  EQ(divu(-1, -1, 8), 1);
  EQ(remu(-1, 10, 8), 5);          // 255 % 10
  EQ(divu(-1, 16, 32), 0x0FFFFFFF);
  EQ(divu(-1, 2, 64), I64_MAX);
  EQ(remu(-1, 10, 64), 5);         // 2^64 - 1 = 18446744073709551615
  EQ(divu(-128, 2, 8), 64);
  EQ(remu(-3, 4, 32), 1);          // 0xFFFFFFFD % 4
  EQ(divu(-1, 1, 8), -1);          // 255 read back as i8
  // bitwise
  EQ(band(-1, 0x0F, 8), 0x0F);
  EQ(bor(0x70, 0x0F, 8), 0x7F);
  EQ(bor(0x80, 0, 8), -128);
  EQ(bxor(-1, 0x7F, 8), -128);
  // shifts; amounts are zero-extended, >= N gives 0 or the sign fill
  EQ(shl(1, 7, 8), -128);
  EQ(shl(1, 8, 8), 0);
  EQ(shl(1, -1, 8), 0);            // amount 255
  EQ(shl(3, 31, 32), I32_MIN);
  EQ(shl(1, 63, 64), I64_MIN);
  EQ(shl(1, 64, 64), 0);
  EQ(shl(1, -1, 64), 0);           // amount 2^64 - 1
  EQ(shrs(-128, 7, 8), -1);
  EQ(shrs(-128, 8, 8), -1);
  EQ(shrs(64, 8, 8), 0);
  EQ(shrs(-128, 1, 8), -64);
  EQ(shrs(I64_MIN, 64, 64), -1);
  EQ(shrs(I64_MAX, 100, 64), 0);
  EQ(shru(-128, 7, 8), 1);
  EQ(shru(-128, 8, 8), 0);
  EQ(shru(-1, 1, 8), 127);
  EQ(shru(-1, 1, 32), I32_MAX);
  EQ(shru(-1, 63, 64), 1);
  EQ(shru(-1, 64, 64), 0);
  // min / max
  EQ(mins(-1, 1), -1);
  EQ(maxs(-1, 1), 1);
  EQ(minu(-1, 1, 8), 1);           // 255 vs 1
  EQ(maxu(-1, 1, 8), -1);
  EQ(minu(-128, 127, 8), 127);     // 128 vs 127
  EQ(maxu(-128, 127, 8), -128);
  EQ(minu(I64_MIN, 0, 64), 0);
  EQ(maxu(-1, I64_MAX, 64), -1);
  EQ(minu(-1, 0, 1), 0);
  EQ(from_bool(true), -1);
  EQ(from_bool(false), 0);
#undef EQ
}

// OrchArgs::scalar reads the scalars array.
void orch_args_scalars() {
  const int64_t vals[] = {7, -1, int64_t{1} << 40};
  pld::rt::OrchArgs a;
  CHECK(a.scalars == nullptr && a.num_scalars == 0, "defaults");
  a.scalars = vals;
  a.num_scalars = 3;
  CHECK(a.scalar(0) == 7 && a.scalar(1) == -1 && a.scalar(2) == (int64_t{1} << 40), "values");
}

// ------------------------------------------------------------------ create_tensor / AllocScope
void create_cases() {
  World w(1, 4096);
  int st = run1(w, [&](Orchestration& orch) {
    pld::rt::AllocScope scope(&orch);
    for (int esz : {1, 2, 4, 8}) {
      const int64_t dims[] = {3, 5, 7};
      Tensor t;
      CHECK(orch.create_tensor(esz, dims, 3, &t) == 0, "create esz %d", esz);
      CHECK(t.data != nullptr, "data");
      check_desc(t, t.data, 0, esz, {3, 5, 7}, {35, 7, 1});
      CHECK(t.is_contiguous(), "contiguous");
      const unsigned char* p = static_cast<const unsigned char*>(t.data);
      for (int64_t i = 0; i < 3 * 5 * 7 * esz; ++i) CHECK(p[i] == 0, "byte %lld not zero", (long long)i);
      std::memset(t.data, 0xAB, 3 * 5 * 7 * esz);  // writable
    }
    Tensor s;
    CHECK(orch.create_tensor(4, nullptr, 0, &s) == 0, "rank 0");
    CHECK(s.rank == 0 && s.numel() == 1 && *s.as<int32_t>() == 0, "rank 0 scalar");
    const int64_t e[] = {0, 4};
    Tensor t;
    CHECK(orch.create_tensor(2, e, 2, &t) == 0, "empty");
    check_desc(t, t.data, 0, 2, {0, 4}, {4, 1});
    const int64_t d8[8] = {1, 2, 1, 2, 1, 2, 1, 2};
    CHECK(orch.create_tensor(1, d8, 8, &t) == 0, "rank 8");
    CHECK(t.numel() == 16 && t.strides[0] == 16, "rank 8 strides");
    CHECK(orch.live_buffers() == 7, "%zu live buffers", orch.live_buffers());
    return 0;
  });
  CHECK(st == 0, "status %d (%s)", st, w.error_message().c_str());

  struct Bad {
    const char* name;
    int32_t esz;
    std::vector<int64_t> dims;
    int rank;
  };
  const Bad bad[] = {
      {"rank 9", 4, {1, 1, 1, 1, 1, 1, 1, 1, 1}, 9},
      {"rank -1", 4, {}, -1},
      {"negative dim", 4, {3, -2}, 2},
      {"elem_size 3", 3, {2}, 1},
      {"elem_size 0", 0, {2}, 1},
      {"elem_size 16", 16, {2}, 1},
      {"element count overflows", 1, {int64_t{1} << 40, int64_t{1} << 40}, 2},
      {"byte count overflows", 8, {int64_t{1} << 31, int64_t{1} << 31}, 2},
      {"too large", 8, {int64_t{1} << 30, int64_t{1} << 20}, 2},
  };
  for (const Bad& b : bad) {
    World wb(1, 4096);
    int rc = -1;
    Tensor out;
    out.rank = 77;
    int stb = run1(wb, [&](Orchestration& orch) {
      rc = orch.create_tensor(b.esz, b.dims.data(), b.rank, &out);
      CHECK(orch.live_buffers() == 0, "%s: buffer kept", b.name);
      return 0;
    });
    CHECK(rc == kInvalid && stb == kInvalid, "%s: rc %d status %d", b.name, rc, stb);
    CHECK(out.rank == 77, "%s: *out written", b.name);
    const std::string m = wb.error_message();
    CHECK(m.find("rank 0: pl.tensor.create: ") == 0, "%s: message '%s'", b.name, m.c_str());
  }
}

void alloc_scopes_nested() {
  World w(2, 4096);
  auto st = run_checked(w, [&](int r, Orchestration& orch) {
    const int64_t d[] = {4, 4};
    Tensor a, b, c, e;
    CHECK(orch.create_tensor(4, d, 2, &a) == 0, "a");  // outside every scope: lives to the end
    CHECK(orch.live_buffers() == 1, "after a: %zu", orch.live_buffers());
    {
      pld::rt::AllocScope outer(&orch);
      CHECK(orch.create_tensor(4, d, 2, &b) == 0, "b");
      b.as<int32_t>()[5] = 100 + r;
      CHECK(orch.live_buffers() == 2, "after b: %zu", orch.live_buffers());
      {
        pld::rt::AllocScope inner(&orch);
        for (int i = 0; i < 3 + r; ++i) {  // ranks allocate different amounts concurrently
          CHECK(orch.create_tensor(8, d, 2, &c) == 0, "c");
          c.as<int64_t>()[15] = i;
        }
        CHECK(orch.live_buffers() == static_cast<size_t>(5 + r), "in inner: %zu", orch.live_buffers());
      }
      CHECK(orch.live_buffers() == 2, "inner ended: %zu", orch.live_buffers());
      CHECK(b.as<int32_t>()[5] == 100 + r, "b survived the inner scope");
      CHECK(orch.create_tensor(1, d, 2, &e) == 0, "e");
      CHECK(orch.live_buffers() == 3, "after e: %zu", orch.live_buffers());
      {
        pld::rt::AllocScope empty(&orch);  // a scope that creates nothing frees nothing
      }
      CHECK(orch.live_buffers() == 3, "empty scope: %zu", orch.live_buffers());
    }
    CHECK(orch.live_buffers() == 1, "outer ended: %zu", orch.live_buffers());
    for (int i = 0; i < 200; ++i) {  // a create in a loop body with its own scope
      pld::rt::AllocScope loop(&orch);
      CHECK(orch.create_tensor(4, d, 2, &c) == 0, "loop");
      CHECK(c.as<int32_t>()[i % 16] == 0, "fresh buffer zeroed");
      c.as<int32_t>()[i % 16] = -1;
    }
    CHECK(orch.live_buffers() == 1, "after loop: %zu", orch.live_buffers());
    a.as<int32_t>()[0] = 1;  // still live
    return 0;
  });
  CHECK(st[0] == 0 && st[1] == 0, "status %d %d (%s)", st[0], st[1], w.error_message().c_str());
}

// ------------------------------------------------------------------ simpler's orchestration API
// ChipTensor's view operations (pto_orchestration_api.h / tensor.h), on a packed 4x6 f32 tensor.
void chip_views() {
  std::vector<float> buf(24);
  const uint32_t shape[] = {4, 6};
  const ChipTensor t = make_tensor_external(buf.data(), shape, 2, DataType::FLOAT32);
  CHECK(t.is_contiguous && t.strides[0] == 6 && t.strides[1] == 1 && t.start_offset == 0, "external");
  CHECK(t.numel() == 24 && t.extent_elem() == 24 && t.buffer.size == 96 && t.owner_task_id.is_invalid(), "sizes");
  const uint32_t six[] = {1, 1, 1, 1, 1, 1};
  bool refused = false;
  try {
    (void)make_tensor_external(buf.data(), six, 6, DataType::FLOAT32);
  } catch (const std::logic_error&) {
    refused = true;
  }
  CHECK(refused, "make_tensor_external of 6 dimensions");
  const uint32_t vs[] = {2, 3}, vo[] = {1, 2};
  const ChipTensor v = t.view(vs, vo);
  CHECK(v.start_offset == 8 && v.shapes[0] == 2 && v.shapes[1] == 3 && v.strides[0] == 6 && !v.is_contiguous,
        "view: offset %llu", (unsigned long long)v.start_offset);
  CHECK(v.extent_elem() == 9 && v.extent_elem_cache == 9, "view extent %llu", (unsigned long long)v.extent_elem());
  const uint32_t idx[] = {1, 2};
  CHECK(v.compute_flat_offset(idx, 2) == 8 + 6 + 2, "flat offset");
  const ChipTensor tr = t.transpose(0, 1);
  CHECK(tr.shapes[0] == 6 && tr.shapes[1] == 4 && tr.strides[0] == 1 && tr.strides[1] == 6 && !tr.is_contiguous,
        "transpose");
  const ChipTensor sl = t.slice(1, 1, 6, 2);  // columns 1, 3, 5
  CHECK(sl.start_offset == 1 && sl.shapes[1] == 3 && sl.strides[1] == 2 && !sl.is_contiguous, "slice");
  const ChipTensor rows = t.slice(0, 1, 3);  // rows 1..2: still packed
  CHECK(rows.start_offset == 6 && rows.shapes[0] == 2 && rows.is_contiguous, "row slice");
  const uint32_t rs[] = {3, 8};
  const ChipTensor re = t.reshape(rs, 2);
  CHECK(re.strides[0] == 8 && re.strides[1] == 1 && re.is_contiguous && re.numel() == 24, "reshape");
  const uint32_t far[] = {3, 4};
  bool threw = false;
  try {
    (void)t.view(vs, far);  // rows 3..4 of 4
  } catch (const std::logic_error&) {
    threw = true;
  }
  CHECK(threw, "a view outside its tensor must throw");
  threw = false;
  try {
    (void)v.reshape(rs, 2);  // not contiguous
  } catch (const std::logic_error&) {
    threw = true;
  }
  CHECK(threw, "a reshape of a strided view must throw");
}

// A kernel for the API tests: args[0] (int32) += scalar args[1] for every element of its view.
void api_add_kernel(int64_t* args) {
  const auto* t = reinterpret_cast<const ChipTensor*>(args[0]);
  auto* base = reinterpret_cast<int32_t*>(static_cast<uintptr_t>(t->buffer.addr)) + t->start_offset;
  for (uint32_t i = 0; i < t->shapes[0]; ++i)
    for (uint32_t j = 0; j < (t->ndims > 1 ? t->shapes[1] : 1); ++j)
      base[i * t->strides[0] + j * (t->ndims > 1 ? t->strides[1] : 0)] += static_cast<int32_t>(args[1]);
}

// What the API orchestrations below saw (they are plain functions: entries take no context).
std::vector<int64_t> g_seen;

PTO2OrchestrationConfig api_config_2(const ChipTaskArgs&) { return PTO2OrchestrationConfig{2}; }

// Tasks on views of the entry's tensor, a runtime-allocated output, alloc_tensors with an initial
// value, element access, and explicit dependencies on earlier tasks' ids.
void api_tasks_entry(const ChipTaskArgs& orch_args) {
  const ChipTensor& x = orch_args.tensor(0).ref();  // 4x6 int32, zeros
  const int64_t k = static_cast<int64_t>(orch_args.scalar(0));
  PTO2_SCOPE() {
    const uint32_t vs[] = {2, 3}, vo[] = {1, 2};
    const ChipTensor v = x.view(vs, vo);
    CoreTaskArgs a;
    a.add_inout(v);
    a.add_scalar(k);
    const TaskOutputTensors ta = rt_submit_aiv_task(0, a);
    g_seen.push_back(ta.task_id().is_valid() ? static_cast<int64_t>(ta.task_id().local()) : -1);

    const uint32_t cs[] = {3};
    TensorCreateInfo ci(cs, 1, DataType::INT32);
    ci.set_initial_value(int32_t{40});
    const TaskOutputTensors al = alloc_tensors(ci);
    const ChipTensor& fresh = al.get_ref(0);
    CoreTaskArgs b;
    b.add_inout(fresh);
    b.add_scalar(int64_t{2});
    const PTO2TaskId deps[] = {ta.task_id(), al.task_id()};
    b.set_dependencies(deps, 2);
    rt_submit_aiv_task(0, b);
    for (uint32_t i = 0; i < 3; ++i) {
      const uint32_t at[] = {i};
      g_seen.push_back(get_tensor_data<int32_t>(fresh, 1, at));
    }
    const uint32_t at[] = {3, 5};
    set_tensor_data(x, 2, at, int32_t{-7});
    const uint32_t in_view[] = {0, 0};
    g_seen.push_back(get_tensor_data<int32_t>(v, 2, in_view));

    // An OUTPUT slot: the runtime allocates it; the task sees it (undefined contents, so it is
    // written by set_tensor_data first... here the kernel adds to a known pattern byte).
    const uint32_t os[] = {2};
    TensorCreateInfo oi(os, 1, DataType::INT32);
    oi.set_initial_value(int32_t{5});
    CoreTaskArgs c;
    c.add_output(oi);
    c.add_scalar(int64_t{1});
    const TaskOutputTensors tc = rt_submit_aiv_task(0, c);
    const uint32_t z[] = {1};
    g_seen.push_back(tc.size() == 1 ? get_tensor_data<int32_t>(tc.get_ref(0), 1, z) : -1);
  }
}

void orch_api_tasks() {
  World w(1, 4096);
  w.register_kernel("api_add", &api_add_kernel);
  std::vector<int32_t> x(24, 0);
  Tensor tx = make_tensor(x.data(), 4, {4, 6});
  static const char* const kernels[] = {"api_add"};
  const pld::rt::ChipEntry entry{"api_tasks", &api_tasks_entry, &api_config_2, kernels, 1};
  g_seen.clear();
  const int st = run1(w, [&](Orchestration& orch) {
    const Tensor* tp[] = {&tx};
    const uint64_t sc[] = {static_cast<uint64_t>(int64_t{3})};
    return orch.run_chip(entry, pld::rt::ChipCall(tp, 1, sc, 1));
  });
  CHECK(st == 0, "status %d (%s)", st, w.error_message().c_str());
  const std::vector<int64_t> want{0, 42, 42, 42, 3, 6};
  CHECK(g_seen == want, "seen %zu values, first %lld", g_seen.size(), g_seen.empty() ? -1LL : (long long)g_seen[0]);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 6; ++c) {
      const int32_t expect = (r == 3 && c == 5) ? -7 : (r >= 1 && r < 3 && c >= 2 && c < 5) ? 3 : 0;
      CHECK(x[r * 6 + c] == expect, "x[%d][%d] = %d, expected %d", r, c, x[r * 6 + c], expect);
    }
}

// Each failure latches the run's status with a message naming the orchestration; a fatal report
// keeps the program's code and text; nothing runs after it.
int g_after_fatal = 0;
void api_fatal_entry(const ChipTaskArgs& orch_args) {
  const ChipTensor& x = orch_args.tensor(0).ref();
  rt_report_fatal(PTO2_ERROR_EXPLICIT_ORCH_FATAL, "stop at %s:%d", "prog.mlir", 12);
  CoreTaskArgs a;
  a.add_inout(x);
  a.add_scalar(int64_t{1});
  const TaskOutputTensors t = rt_submit_aiv_task(0, a);
  g_after_fatal = t.task_id().is_valid() ? 1 : 0;
}
void api_future_dep_entry(const ChipTaskArgs& orch_args) {
  const ChipTensor& x = orch_args.tensor(0).ref();
  CoreTaskArgs a;
  a.add_inout(x);
  a.add_scalar(int64_t{1});
  const PTO2TaskId deps[] = {PTO2TaskId::make(0, 5)};
  a.set_dependencies(deps, 1);
  rt_submit_aiv_task(0, a);
}
void api_bad_kernel_entry(const ChipTaskArgs& orch_args) {
  const ChipTensor& x = orch_args.tensor(0).ref();
  CoreTaskArgs a;
  a.add_inout(x);
  rt_submit_aiv_task(3, a);
}
void api_bad_view_entry(const ChipTaskArgs& orch_args) {
  const uint32_t s[] = {5, 1}, o[] = {0, 0};
  (void)orch_args.tensor(0).ref().view(s, o);
}

void orch_api_errors() {
  std::vector<int32_t> x(24, 0);
  Tensor tx = make_tensor(x.data(), 4, {4, 6});
  static const char* const kernels[] = {"api_add"};
  struct Case {
    pld::rt::ChipEntryFn fn;
    pld::rt::ChipConfigFn config;
    int code;
    const char* message;
  };
  const Case cases[] = {
      {&api_fatal_entry, nullptr, PTO2_ERROR_EXPLICIT_ORCH_FATAL, "stop at prog.mlir:12"},
      {&api_future_dep_entry, nullptr, kInvalid,
       "orchestration 'api': task 0 (kernel api_add) depends on task id 5, which no earlier submit returned"},
      {&api_bad_kernel_entry, nullptr, kInvalid, "orchestration 'api': no kernel has func_id 3"},
      {&api_bad_view_entry, nullptr, kInvalid, "orchestration 'api': view outside its tensor"},
      {&api_fatal_entry, &api_config_2, kInvalid, "orchestration 'api': 1 arguments, but its config expects 2"},
  };
  for (const Case& c : cases) {
    World w(1, 4096);
    w.register_kernel("api_add", &api_add_kernel);
    g_after_fatal = -1;
    const pld::rt::ChipEntry entry{"api", c.fn, c.config, kernels, 1};
    const int st = run1(w, [&](Orchestration& orch) {
      const Tensor* tp[] = {&tx};
      return orch.run_chip(entry, pld::rt::ChipCall(tp, 1));
    });
    CHECK(st == c.code, "'%s': status %d", c.message, st);
    CHECK(w.error_message() == c.message, "message '%s', expected '%s'", w.error_message().c_str(), c.message);
    CHECK(g_after_fatal != 1, "a task ran after the fatal report");
    for (int32_t v : x) CHECK(v == 0, "'%s': a kernel ran", c.message);
  }
}

// Tasks run asynchronously by simpler's ordering rule. A kernel that waits (bounded) for a flag a
// later task sets: an OUTPUT_EXISTING slot waits for no earlier writer, so the later task runs
// while the first still waits (a synchronous executor would time out here); an INPUT reader waits
// for both writers; a chain of 300 INOUT tasks on one counter is ordered (each adds one), past the
// executor's cap on task threads.
void api_wait_kernel(int64_t* args) {
  const auto* t = reinterpret_cast<const ChipTensor*>(args[0]);
  auto* f = reinterpret_cast<int32_t*>(static_cast<uintptr_t>(t->buffer.addr)) + t->start_offset;
  for (int i = 0; i < 5000 && __atomic_load_n(&f[0], __ATOMIC_ACQUIRE) != 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  f[1] = __atomic_load_n(&f[0], __ATOMIC_ACQUIRE) == 1 ? 2 : -1;
}
void api_set_kernel(int64_t* args) {
  const auto* t = reinterpret_cast<const ChipTensor*>(args[0]);
  auto* f = reinterpret_cast<int32_t*>(static_cast<uintptr_t>(t->buffer.addr)) + t->start_offset;
  __atomic_store_n(&f[0], 1, __ATOMIC_RELEASE);
}
void api_async_entry(const ChipTaskArgs& orch_args) {
  const ChipTensor& flag = orch_args.tensor(0).ref();   // int32 [3]
  const ChipTensor& count = orch_args.tensor(1).ref();  // int32 [1]
  CoreTaskArgs w;
  w.add_inout(flag);
  rt_submit_aiv_task(1, w);  // waits for flag[0] == 1
  CoreTaskArgs s;
  s.add_output(flag);
  rt_submit_aiv_task(2, s);  // sets it
  CoreTaskArgs r;
  const uint32_t one[] = {1}, at2[] = {2};
  const ChipTensor tail = flag.view(one, at2);  // flag[2]: the writers above span all of flag
  r.add_inout(tail);
  r.add_scalar(int64_t{7});
  rt_submit_aiv_task(0, r);  // flag[2] += 7 after both writers
  for (int i = 0; i < 300; ++i) {  // more than the executor's 256 task threads at once
    CoreTaskArgs c;
    c.add_inout(count);
    c.add_scalar(int64_t{1});
    rt_submit_aiv_task(0, c);
  }
}

void orch_api_async() {
  for (const char* seed : {"1", "2", "0"}) {
    setenv("PLD_TASK_SEED", seed, 1);
    World w(1, 4096);
    w.register_kernel("api_add", &api_add_kernel);
    w.register_kernel("api_wait", &api_wait_kernel);
    w.register_kernel("api_set", &api_set_kernel);
    std::vector<int32_t> flag(3, 0), count(1, 0);
    Tensor tf = make_tensor(flag.data(), 4, {3});
    Tensor tc = make_tensor(count.data(), 4, {1});
    static const char* const kernels[] = {"api_add", "api_wait", "api_set"};
    const pld::rt::ChipEntry entry{"api_async", &api_async_entry, nullptr, kernels, 3};
    const int st = run1(w, [&](Orchestration& orch) {
      const Tensor* tp[] = {&tf, &tc};
      return orch.run_chip(entry, pld::rt::ChipCall(tp, 2));
    });
    CHECK(st == 0, "seed %s: status %d (%s)", seed, st, w.error_message().c_str());
    CHECK(flag[0] == 1 && flag[1] == 2, "seed %s: flag %d %d: the setter did not run beside the waiter", seed,
          flag[0], flag[1]);
    CHECK(flag[2] == 7 && count[0] == 300, "seed %s: flag[2] %d, count %d", seed, flag[2], count[0]);
  }
  unsetenv("PLD_TASK_SEED");
}

// ------------------------------------------------------------------ fail and the latch
void fail_and_latch() {
  World w(2, 4096);
  int rcs[2][4] = {};
  auto st = run_checked(w, [&](int r, Orchestration& orch) {
    if (r == 0) return 0;  // rank 0 unaffected by rank 1's latch
    pld::rt::AllocScope scope(&orch);
    int* rc = rcs[r];
    rc[0] = orch.fail(kInvalid, "first failure");
    rc[1] = orch.fail(PLD_ERROR_UNKNOWN_KERNEL, "second failure");  // first code and message win
    Tensor out;
    out.rank = 55;
    const int64_t d[] = {4};
    rc[2] = orch.create_tensor(4, d, 1, &out);
    CHECK(out.rank == 55 && orch.live_buffers() == 0, "create ran");
    rc[3] = orch.status();
    return 0;
  });
  CHECK(st[0] == 0 && st[1] == kInvalid, "status %d %d", st[0], st[1]);
  for (int i = 0; i < 4; ++i) CHECK(rcs[1][i] == kInvalid, "rc[%d] = %d", i, rcs[1][i]);
  CHECK(w.error_message() == "first failure", "message '%s'", w.error_message().c_str());

  // A latch by a failed op (a create of a negative dimension) also stops later ops, and a submit.
  World w2(1, 4096);
  int rc_create = -1, rc_submit = -1;
  int st2 = run1(w2, [&](Orchestration& orch) {
    Tensor bad_out;
    const int64_t bad[] = {-8};
    if (orch.create_tensor(4, bad, 1, &bad_out) != kInvalid) return 99;
    Tensor out;
    const int64_t d[] = {4};
    rc_create = orch.create_tensor(4, d, 1, &out);
    pld::rt::Task task(0, "never_registered");
    rc_submit = orch.submit(task);
    return 0;
  });
  CHECK(st2 == kInvalid && rc_create == kInvalid && rc_submit == kInvalid,
        "status %d create %d submit %d", st2, rc_create, rc_submit);
  CHECK(w2.error_message().find("negative dimension") != std::string::npos, "message '%s'",
        w2.error_message().c_str());
}

}  // namespace

void views_suite(pld_test::Suite& t) {
  auto add = [&](const std::string& name, const std::function<void()>& fn) { t.add(name, fn); };
  add("chip_slice_and_view", chip_slice_and_view);
  add("chip_reshape_transpose_valid", chip_reshape_transpose_valid);
  add("chip_assemble_and_write", chip_assemble_and_write);
  add("scalar_semantics", scalar_semantics);
  add("orch_args_scalars", orch_args_scalars);
  add("create_tensor", create_cases);
  add("alloc_scopes_nested", alloc_scopes_nested);
  add("fail_and_latch", fail_and_latch);
  add("chip_views", chip_views);
  add("orch_api_tasks", orch_api_tasks);
  add("orch_api_errors", orch_api_errors);
  add("orch_api_async", orch_api_async);
}
