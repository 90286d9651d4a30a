// The source parser on bad input: C++ that does not compile, a missing project header, include
// names that are not file names, a binary file, Python with syntax errors or unterminated text, and
// enormous lines, each a diagnostic (or a ParseError) with the rest still analyzed, never a crash.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "parsers/source/source_reader.hpp"
#include "tests/parsers_source_support.hpp"
#include "tests/support.hpp"

using aoti::parsers::source::looks_like_source;
using aoti::parsers::source::read_source;
using aoti::parsers::source::SourceOptions;
using aoti::parsers::source::SourceRead;
namespace fs = std::filesystem;

using namespace aoti::test;
using namespace aoti::test::source;

TEST_CASE("C++ that does not compile: the first errors as diagnostics, and what clang recovered") {
  TempDir dir;
  const fs::path file = dir.path / "broken.cpp";
  write_file(file, R"(#include <torch/extension.h>
#include "missing_header.h"
at::Tensor k_meta(const at::Tensor& x) {
  int64_t n = x.size(0) +;
  UnknownType y = 3;
  return at::empty({x.size(1)}, x.options());
}
TORCH_LIBRARY(ns, m) { m.def("k(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(ns, Meta, m) { m.impl("k", k_meta); }
)");
  const SourceRead read = read_ok(file);
  REQUIRE_FALSE(read.diagnostics.empty());
  CHECK(read.diagnostics.size() <= 6);
  CHECK(read.diagnostics[0].message.find("broken.cpp:4:") != std::string::npos);
  // The missing header is named once, and does not stop the torch declarations after it.
  CHECK(read.diagnostics.back().message.find(
            "1 included header(s) not found, analyzed without them: missing_header.h") !=
        std::string::npos);
  // The function whose body holds the errors is named, and only it.
  const auto functions = std::find_if(
      read.diagnostics.begin(), read.diagnostics.end(),
      [](const auto& d) { return d.problem == aoti::model::SourceProblem::functions_with_errors; });
  REQUIRE(functions != read.diagnostics.end());
  CHECK(functions->names == std::vector<std::string>{"k_meta"});
  CHECK(functions->message.find("compile errors inside 1 function(s)") != std::string::npos);
  // The well-formed parts survive: the op, its Meta kernel, and the size read on line 6.
  REQUIRE(read.facts.ops.size() == 1);
  CHECK(read.facts.ops[0].name == "ns::k");
  const auto recovered = in_function(read.facts, "k_meta");
  CHECK(at_line(recovered, "C1", 6));
  CHECK(at_line(recovered, "C2", 6));
}

TEST_CASE("C++ whose project header is missing: torch is still known, macros are read by name") {
  TempDir dir;
  const fs::path file = dir.path / "ops_meta.cpp";
  // FBGEMM's shape: torch arrives through the project's own header, kernels are registered
  // through the project's macros, both defined in that header, which is not here.
  write_file(file, R"(#include "fbgemm_gpu/sparse_ops.h"
namespace fbgemm_gpu {
at::Tensor rows_meta(const at::Tensor& x) {
  return at::empty({x.size(0)}, x.options());
}
at::Tensor rows_cpu(const at::Tensor& x) { return at::empty({x.size(0)}, x.options()); }
}  // namespace fbgemm_gpu
TORCH_LIBRARY_FRAGMENT(fbgemm, m) {
  m.def("rows(Tensor x) -> Tensor");
  DISPATCH_TO_CPU("rows", fbgemm_gpu::rows_cpu);
  DISPATCH_TO_META("rows", fbgemm_gpu::rows_meta);
  REGISTER_SOMEHOW("rows", fbgemm_gpu::rows_cpu);
}
)");
  const SourceRead read = read_ok(file);
  REQUIRE(read.facts.ops.size() == 1);
  CHECK(read.facts.ops[0].name == "fbgemm::rows");
  REQUIRE(read.facts.kernels.size() == 2);
  CHECK(read.facts.kernels[0].dispatch_key == "CPU");
  CHECK_FALSE(read.facts.kernels[0].traced);
  CHECK(read.facts.kernels[1].dispatch_key == "Meta");
  CHECK(read.facts.kernels[1].function == "rows_meta");
  CHECK(read.facts.kernels[1].traced);
  const auto found = in_function(read.facts, "rows_meta");
  CHECK(at_line(found, "C1", 4));
  CHECK(at_line(found, "C2", 4));
  CHECK(in_function(read.facts, "rows_cpu").empty());  // a CPU kernel is not traced
  bool named_header = false, named_macro = false;
  for (const auto& d : read.diagnostics) {
    named_header = named_header || d.message.find(
                                       "not found, analyzed without them: "
                                       "fbgemm_gpu/sparse_ops.h") != std::string::npos;
    named_macro = named_macro || d.message.find(":12: REGISTER_SOMEHOW(\"fbgemm::rows\", ...)") !=
                                     std::string::npos;
  }
  CHECK(named_header);
  CHECK(named_macro);
}

// fuzz_cpp_source: libclang 19 crashed (CXError_Crashed, leaking the unit) on the stand-in made
// for an include name ending in '/'; such names get no stand-in and the file is analyzed.
TEST_CASE("C++ including names that are not file names: the file is still analyzed") {
  TempDir dir;
  const fs::path file = dir.path / "ops.cpp";
  write_file(file, R"(#include <torch/extension.h>
#include <ATen/ATen./>
#include <c10//core.h>
#include "./local.h"
at::Tensor rows_meta(const at::Tensor& x) { return at::empty({x.size(0)}, x.options()); }
TORCH_LIBRARY_IMPL(demo, Meta, m) { m.impl("rows", rows_meta); }
)");
  const SourceRead read = read_ok(file);
  REQUIRE(read.facts.kernels.size() == 1);
  CHECK(read.facts.kernels[0].function == "rows_meta");
  CHECK(at_line(in_function(read.facts, "rows_meta"), "C1", 5));
}

TEST_CASE(
    "C++ without the system headers: standard includes stand in empty, torch is still known") {
  TempDir dir;
  const fs::path file = dir.path / "ops.cpp";
  write_file(file, R"(#include <vector>
#include <algorithm>
#include <torch/extension.h>
at::Tensor rows_meta(const at::Tensor& x) { return at::empty({x.size(0)}, x.options()); }
TORCH_LIBRARY_IMPL(demo, Meta, m) { m.impl("rows", rows_meta); }
)");
  SourceOptions options;
  options.precompiled_stubs = true;
  options.system_headers = false;
  auto read = read_source(file, "ops.cpp", options);
  REQUIRE(read.has_value());
  REQUIRE(read->diagnostics.size() == 1);
  CHECK(read->diagnostics[0].message ==
        "ops.cpp: 2 included header(s) not found, analyzed without them: vector, algorithm");
  REQUIRE(read->facts.kernels.size() == 1);
  CHECK(read->facts.kernels[0].function == "rows_meta");
  CHECK(at_line(in_function(read->facts, "rows_meta"), "C1", 4));
}

TEST_CASE("C++ registered through the project's wrapper functions, templates included") {
  TempDir dir;
  const fs::path file = dir.path / "ops.cpp";
  write_file(file, R"(#include <torch/library.h>
at::Tensor rows_meta(const at::Tensor& x) { return at::empty({x.size(0)}, x.options()); }
at::Tensor cols_meta(const at::Tensor& x) { return at::empty({x.size(1)}, x.options()); }
template <class F> void register_meta(torch::Library& m, const char* name, F fn) {
  m.impl(name, torch::dispatch(c10::DispatchKey::Meta, fn));
}
void register_any(torch::Library& lib, at::Tensor (*fn)(const at::Tensor&), const char* op) {
  lib.impl(op, fn);
}
TORCH_LIBRARY_IMPL(ns, CPU, m) {
  register_meta(m, "rows", rows_meta);
}
TORCH_LIBRARY_IMPL(ns, Meta, m) {
  register_any(m, &cols_meta, "cols");
}
)");
  const SourceRead read = read_ok(file);
  REQUIRE(read.facts.kernels.size() == 2);
  // The template's body says Meta, whatever block it is called from; the plain wrapper's key is
  // its caller's block's. Op and kernel come from the argument positions the wrapper forwards.
  CHECK(read.facts.kernels[0].op == "ns::rows");
  CHECK(read.facts.kernels[0].dispatch_key == "Meta");
  CHECK(read.facts.kernels[0].function == "rows_meta");
  CHECK(read.facts.kernels[1].op == "ns::cols");
  CHECK(read.facts.kernels[1].dispatch_key == "Meta");
  CHECK(read.facts.kernels[1].function == "cols_meta");
  CHECK(at_line(in_function(read.facts, "rows_meta"), "C1", 2));
  CHECK(at_line(in_function(read.facts, "cols_meta"), "C1", 3));
}

TEST_CASE("a binary file named .cpp is a ParseError; an empty file is empty facts") {
  TempDir dir;
  const fs::path binary = dir.path / "kernel.cpp";
  // An ELF identification (7 bytes, then zeros) and a body of NULs: 16 + 4096 bytes.
  write_file(binary, std::string("\x7f"
                                 "ELF\x02\x01\x01",
                                 7) +
                         std::string(9 + 4096, '\0'));
  const auto read = read_source(binary, "kernel.cpp");
  REQUIRE_FALSE(read.has_value());
  CHECK(read.error().message.find("binary") != std::string::npos);
  CHECK_FALSE(looks_like_source(binary, std::string("\x7f"
                                                    "ELF\0\0",
                                                    6)));
  CHECK(looks_like_source("ops.cu", "#include <torch/extension.h>\n"));
  CHECK_FALSE(looks_like_source("notes.txt", "hello"));

  for (const char* name : {"empty.cpp", "empty.py"}) {
    write_file(dir.path / name, "");
    const SourceRead empty = read_ok(dir.path / name);
    CHECK(empty.facts.violations.empty());
    CHECK(empty.facts.ops.empty());
    CHECK(empty.diagnostics.empty());
  }
  CHECK_FALSE(read_source(dir.path / "absent.cpp", "absent.cpp").has_value());
}

TEST_CASE("Python with a syntax error: a diagnostic naming the line, the rest analyzed") {
  TempDir dir;
  const fs::path file = dir.path / "ops.py";
  write_file(file, R"(import torch

def broken(x):
    y = = 1

s = """a docstring ( with [ brackets
and 'quotes' """
f = f"{x['a']} and {y!r:>10}"

@torch.library.register_fake("ns::op")
def _(x):
    if x.shape[0] > 4:
        return x.new_empty(x.shape[0])
    return torch.empty(16, 4)
)");
  const SourceRead read = read_ok(file);
  REQUIRE(read.diagnostics.size() == 1);
  CHECK(read.diagnostics[0].message.find("ops.py:4:") != std::string::npos);
  std::vector<std::string> found;
  for (const auto& v : read.facts.violations) found.push_back(v.id + "@" + std::to_string(v.line));
  CHECK(found == std::vector<std::string>{"P1@12", "P2@14"});
}

TEST_CASE("Python: unterminated strings and brackets are diagnostics, never a crash") {
  for (const char* text : {"x = 'abc\n", "s = \"\"\"never closed\n", "f(1, 2\n", ")]}\n",
                           "def f(\n", "@decorator\nx = 1\n", "if x:\npass\n", "  indented = 1\n",
                           "x = $\n", "lambda: (yield)\n", "a[1:2, ::3] = b if c else d\n"}) {
    CAPTURE(text);
    TempDir dir;
    write_file(dir.path / "t.py", text);
    const auto read = read_source(dir.path / "t.py", "t.py");
    REQUIRE(read.has_value());
  }
}

TEST_CASE("Python: a factory with an empty shape (a scalar) is no hard-coded shape, and no crash") {
  TempDir dir;
  write_file(dir.path / "scalar.py", R"(import torch

@torch.library.register_fake("ns::total")
def _(x):
    a = x.new_empty(())
    b = torch.empty([])
    return torch.zeros(())
)");
  const SourceRead read = read_ok(dir.path / "scalar.py");
  CHECK(read.diagnostics.empty());
  CHECK(read.facts.violations.empty());
}

TEST_CASE("an enormous line, in C++ and in Python, is read in bounded time") {
  TempDir dir;
  std::string cpp = "#include <torch/extension.h>\nstatic const int k_values[] = {";
  for (int i = 0; i < 200000; ++i) cpp += "1,";
  cpp += "1};\n";
  write_file(dir.path / "long.cpp", cpp);
  std::string py = "x = [";
  for (int i = 0; i < 400000; ++i) py += "1, ";
  py += "1]\n" + std::string(10000, '(') + "\n";
  write_file(dir.path / "long.py", py);
  const auto start = std::chrono::steady_clock::now();
  const SourceRead c = read_ok(dir.path / "long.cpp");
  const SourceRead p = read_ok(dir.path / "long.py");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 10.0);
  CHECK(c.diagnostics.empty());
  CHECK_FALSE(p.diagnostics.empty());  // the 10,000 open brackets
}
