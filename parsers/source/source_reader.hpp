// Custom-operator sources (C++ and Python): schemas, the kernels registered for each op, and the
// SymInt-unaware patterns of failure-modes.md §1.3 inside the kernels that run on fake tensors.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/case.hpp"
#include "parsers/parse_error.hpp"

namespace aoti::parsers::source {

// Sources larger than this are not read (a generated file, not an extension's code).
inline constexpr std::uintmax_t k_max_source_bytes = 32u << 20;

struct SourceOptions {
  // Folders holding real torch headers (or the project's own headers); the bundled torch
  // declarations are used for whatever these do not provide.
  std::vector<std::string> include_dirs;
  // A compile_commands.json (or the folder holding one): its flags for the file are used.
  std::optional<std::filesystem::path> compile_commands;
  // Precompile the bundled declarations once for the process (0.5 s), so that each C++ file costs
  // its own text only (0.3 s less): worth it from three C++ files on.
  bool precompiled_stubs = false;
  // False, with precompiled_stubs: the machine's C and C++ headers are not searched (-nostdinc),
  // so `#include <vector>` gets an empty stand-in like any header found nowhere. Every input then
  // costs its own text only, whatever it includes: what the fuzz harness needs.
  bool system_headers = true;
  // A project's own macros that expand to a registration (registration_macros() over the tree),
  // so that a file using only them is still read in full.
  std::vector<std::string> registration_macros;
  // Whether CUDA kernels are wanted from .cu files that register nothing: only a GPU core dump
  // needs them (to tie a faulting kernel to its source).
  bool cuda_kernels = true;
  // False: every C++ file is parsed, registering or not (the fuzz harness, which must reach the
  // parser with every input).
  bool skim_unregistered = true;
};

struct SourceRead {
  ::aoti::model::SourceFacts facts;
  // Read by text only: the file registers no op (may_register), so libclang did not parse it —
  // in a cloned extension tree most files are such, and parsing them is most of the cost.
  bool skimmed = false;
  std::vector<::aoti::model::Diagnostic>
      diagnostics;  // compile errors, Python syntax errors: what was skipped
};

// Fails only when the file cannot be read, is too large, or is not text (a binary named .cpp).
Parsed<SourceRead> read_source(const std::filesystem::path& path, const std::string& display,
                               const SourceOptions& options = {});

// Whether C++ text may register an op: it names torch's registration macros (TORCH_LIBRARY,
// _FRAGMENT, _IMPL, the stable ABI's STABLE_TORCH_LIBRARY*, a project's TORCH_LIBRARY_EXPAND), a
// torch::Library it registers through, or one of `macros` (a project's own macros that expand to
// them). Text that does none of these has no registration for the checks to read.
bool may_register(std::string_view text, const std::vector<std::string>& macros);

// The macros `text` #defines whose definition (continued lines included) names a registration
// macro or one of `known`: `#define TORCH_LIBRARY_EXPAND(NAME, MODULE) TORCH_LIBRARY(NAME,
// MODULE)`, FBGEMM's `FBGEMM_OP_DISPATCH`.
std::vector<std::string> registration_macros(std::string_view text,
                                             const std::vector<std::string>& known);

// By extension (.cpp .cc .cxx .cu .cuh .h .hpp .py) and a text-looking head.
bool looks_like_source(const std::filesystem::path& path, std::string_view head);

// A Python source (.py, .pyi), read without libclang; every other source is C++.
bool is_python_source(const std::filesystem::path& path);

// A CUDA source (.cu, .cuh): C++ parsed in libclang's CUDA mode (host side), so that `__global__`
// kernels, `threadIdx` and `<<<...>>>` launches are understood.
bool is_cuda_source(const std::filesystem::path& path);

}  // namespace aoti::parsers::source
