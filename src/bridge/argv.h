// argv.h - what the C++ mains (shim.cc, lsp.cc, reduce.cc) share: argv
// storage built from the Rust arguments, and the --help tidying.
#pragma once

#include "rust/cxx.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace pld::bridge {
/// argv storage for the C++ mains (program name first, null-terminated).
struct Argv {
  std::vector<std::string> storage;
  std::vector<char *> argv;
  explicit Argv(rust::Slice<const rust::String> args) {
    storage.reserve(args.size());
    for (const rust::String &arg : args)
      storage.emplace_back(arg.data(), arg.size());
    for (std::string &arg : storage)
      argv.push_back(arg.data());
    argv.push_back(nullptr);
  }
  int argc() const { return static_cast<int>(storage.size()); }
};

/// Hides the ~250 flags LLVM's statically linked backends register from
/// --help (they still parse), except `keep` (shim.cc).
void hideStaticOptions(llvm::ArrayRef<llvm::StringRef> keep);
} // namespace pld::bridge
