// Runs one generated CHIP orchestration function (ORCH_FN, a -D define) on the host runtime
// and prints its tensors afterwards, for test/Codegen's orchestration tests.
//
//   run_orch [-r RANKS] [-s S0,S1,...] [-c COMMS] TENSOR...
//
// TENSOR is `<elem>:<d0>x<d1>...` with elem i8|i32|i64|f32, optionally prefixed with `w` (a
// window: the same offset of every rank's window) and suffixed with `:iota` (element k holds k),
// else zero. Each rank gets its own buffers; COMMS CommContext slots all get the rank's context.
// Prints `status <per-rank status>`, the runtime's error message if any, then for every rank and
// tensor one line `r<rank> t<i>: <values>`.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "pld_runtime/host.h"

extern "C" int ORCH_FN(pld::rt::Orchestration* orch, const pld::rt::OrchArgs* args);

namespace {
struct Spec {
  std::string elem;
  bool window = false, iota = false;
  std::vector<int64_t> dims;
  int32_t size() const { return elem == "i8" ? 1 : elem == "i64" ? 8 : 4; }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
  }
};

Spec parse(std::string s) {
  Spec t;
  if (s[0] == 'w') t.window = true, s = s.substr(1);
  const size_t colon = s.find(':');
  t.elem = s.substr(0, colon);
  std::string rest = s.substr(colon + 1);
  const size_t c2 = rest.find(':');
  if (c2 != std::string::npos) t.iota = rest.substr(c2 + 1) == "iota", rest = rest.substr(0, c2);
  size_t pos = 0;
  while (pos <= rest.size()) {
    size_t x = rest.find('x', pos);
    if (x == std::string::npos) x = rest.size();
    t.dims.push_back(std::atoll(rest.substr(pos, x - pos).c_str()));
    pos = x + 1;
  }
  return t;
}

void store(const Spec& t, char* p, int64_t k, int64_t v) {
  if (t.elem == "f32") reinterpret_cast<float*>(p)[k] = static_cast<float>(v);
  else if (t.elem == "i64") reinterpret_cast<int64_t*>(p)[k] = v;
  else if (t.elem == "i32") reinterpret_cast<int32_t*>(p)[k] = static_cast<int32_t>(v);
  else reinterpret_cast<int8_t*>(p)[k] = static_cast<int8_t>(v);
}
std::string load(const Spec& t, const char* p, int64_t k) {
  char buf[64];
  if (t.elem == "f32") std::snprintf(buf, sizeof buf, "%g", reinterpret_cast<const float*>(p)[k]);
  else if (t.elem == "i64") std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(reinterpret_cast<const int64_t*>(p)[k]));
  else if (t.elem == "i32") std::snprintf(buf, sizeof buf, "%d", reinterpret_cast<const int32_t*>(p)[k]);
  else std::snprintf(buf, sizeof buf, "%d", reinterpret_cast<const int8_t*>(p)[k]);
  return buf;
}
}  // namespace

int main(int argc, char** argv) {
  int ranks = 1, comms = 0;
  std::vector<int64_t> scalars;
  std::vector<Spec> specs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-r") ranks = std::atoi(argv[++i]);
    else if (a == "-c") comms = std::atoi(argv[++i]);
    else if (a == "-s") {
      const std::string list = argv[++i];
      size_t pos = 0;
      while (pos <= list.size()) {
        size_t c = list.find(',', pos);
        if (c == std::string::npos) c = list.size();
        scalars.push_back(std::atoll(list.substr(pos, c - pos).c_str()));
        pos = c + 1;
      }
    } else specs.push_back(parse(a));
  }
  pld::host::Config cfg;
  cfg.wait_timeout_ms = 5000;
  pld::host::World world(ranks, 1 << 20, cfg);
  std::vector<uint64_t> win_off(specs.size());
  for (size_t t = 0; t < specs.size(); ++t)
    if (specs[t].window) win_off[t] = world.alloc(static_cast<uint64_t>(specs[t].numel() * specs[t].size()));
  std::vector<std::vector<std::vector<char>>> host(ranks, std::vector<std::vector<char>>(specs.size()));
  std::vector<std::vector<char*>> data(ranks, std::vector<char*>(specs.size()));
  for (int r = 0; r < ranks; ++r)
    for (size_t t = 0; t < specs.size(); ++t) {
      if (specs[t].window) {
        data[r][t] = static_cast<char*>(world.window(r, win_off[t]));
      } else {
        host[r][t].assign(static_cast<size_t>(specs[t].numel() * specs[t].size()), 0);
        data[r][t] = host[r][t].data();
      }
      if (specs[t].iota)
        for (int64_t k = 0; k < specs[t].numel(); ++k) store(specs[t], data[r][t], k, k);
    }
  std::vector<int> status = world.run([&](int r, pld::rt::Orchestration& orch) {
    std::vector<pld::rt::Tensor> desc;
    for (size_t t = 0; t < specs.size(); ++t)
      desc.push_back(pld::rt::Tensor::contiguous(data[r][t], specs[t].size(), specs[t].dims.data(), specs[t].dims.size()));
    std::vector<pld::rt::Tensor*> ptrs;
    for (auto& d : desc) ptrs.push_back(&d);
    std::vector<pld::rt::CommContext*> ctx(static_cast<size_t>(comms), world.comm(r));
    pld::rt::OrchArgs args;
    args.tensors = ptrs.data();
    args.num_tensors = static_cast<int>(ptrs.size());
    args.comms = ctx.data();
    args.num_comms = comms;
    args.scalars = scalars.data();
    args.num_scalars = static_cast<int>(scalars.size());
    return ORCH_FN(&orch, &args);
  });
  std::printf("status");
  for (int s : status) std::printf(" %d", s);
  std::printf("\n");
  if (!world.error_message().empty()) std::printf("error %s\n", world.error_message().c_str());
  for (int r = 0; r < ranks; ++r)
    for (size_t t = 0; t < specs.size(); ++t) {
      std::printf("r%d t%zu:", r, t);
      for (int64_t k = 0; k < specs[t].numel(); ++k) std::printf(" %s", load(specs[t], data[r][t], k).c_str());
      std::printf("\n");
    }
  return 0;
}
