// The torch API surface the C++ checks need, as declarations that parse without libtorch: the
// analyzer runs where no torch is installed, and real headers would cost seconds per file.
#pragma once

#include <span>
#include <string_view>

namespace aoti::parsers::source {

// The folder the stub headers pretend to live in (passed to clang as -I).
inline constexpr const char* k_stub_root = "/aoti-analyze-stubs";

struct StubFile {
  const char* path;  // absolute, under k_stub_root
  std::string_view text;
};

// Every include name torch extensions use for the API (torch/extension.h, torch/library.h,
// ATen/ATen.h, ...), each resolving to the one stub header.
std::span<const StubFile> stub_files();

}  // namespace aoti::parsers::source
