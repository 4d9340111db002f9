// The C++ bridge as one translation unit. Each of these files parses the same MLIR headers
// (about 3.5 s of each one's 4 s with g++); compiled together they parse them once, which
// takes a build of the bridge from about 20 to 8 CPU-seconds in each of the three flavours
// (binaries, plugin, sanitizer). They stay separate files, one job each; none defines a
// file-local name another one uses.
#include "src/bridge/shim.cc"
#include "src/bridge/passes.cc"
#include "src/bridge/lsp.cc"
#include "src/bridge/reduce.cc"
#include "src/bridge/names.cc"
