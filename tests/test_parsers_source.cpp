#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "parsers/source/source_reader.hpp"
#include "tests/support.hpp"

using aoti::model::PatternForm;
using aoti::model::SourceFacts;
using aoti::model::SourcePattern;
using aoti::parsers::source::looks_like_source;
using aoti::parsers::source::read_source;
using aoti::parsers::source::SourceOptions;
using aoti::parsers::source::SourceRead;
namespace fs = std::filesystem;

namespace {
using namespace aoti::test;

SourceRead read_ok(const fs::path& path) {
  auto read = read_source(path, path.filename().string());
  REQUIRE_MESSAGE(read.has_value(), path.string() << ": " << (read ? "" : read.error().message));
  return std::move(*read);
}

std::vector<SourcePattern> in_function(const SourceFacts& facts, const std::string& function) {
  std::vector<SourcePattern> out;
  std::copy_if(facts.violations.begin(), facts.violations.end(), std::back_inserter(out),
               [&](const SourcePattern& v) { return v.function == function; });
  return out;
}

const SourcePattern* at_line(const std::vector<SourcePattern>& vs, const std::string& pattern,
                             int line) {
  for (const SourcePattern& v : vs)
    if (v.id == pattern && v.line == line) return &v;
  return nullptr;
}

fs::path snippets_dir() { return source_dir() / "tests" / "data" / "source_snippets"; }

}  // namespace

// ---- the real corpus ---------------------------------------------------------------------------

TEST_CASE(
    "cpp-meta-sizes/heldout_ops.cpp: scale_rows_meta reads concrete sizes, gather_rows_meta is "
    "SymInt-aware") {
  const SourceRead read = read_ok(corpus_case("cpp-meta-sizes") / "heldout_ops.cpp");
  const SourceFacts& facts = read.facts;
  CHECK(read.diagnostics.empty());
  CHECK(facts.language == "c++");

  REQUIRE(facts.ops.size() == 2);
  CHECK(facts.ops[0].name == "heldout_cpp::scale_rows");
  CHECK(facts.ops[0].schema == "scale_rows(Tensor x, float s) -> Tensor");
  CHECK(facts.ops[0].line == 24);
  REQUIRE(facts.ops[0].args.size() == 2);
  CHECK(facts.ops[0].args[1].type == "float");

  const auto meta = std::find_if(facts.kernels.begin(), facts.kernels.end(), [](const auto& k) {
    return k.op == "heldout_cpp::scale_rows" && k.dispatch_key == "Meta";
  });
  REQUIRE(meta != facts.kernels.end());
  CHECK(meta->function == "scale_rows_meta");
  CHECK(meta->registration_line == 29);
  CHECK(meta->line_begin == 5);
  CHECK(meta->line_end == 9);
  CHECK(meta->traced);
  CHECK_FALSE(meta->symint_aware);

  const auto scale = in_function(facts, "scale_rows_meta");
  REQUIRE(scale.size() == 3);
  const SourcePattern* rows = at_line(scale, "C1", 6);
  const SourcePattern* cols = at_line(scale, "C1", 7);
  const SourcePattern* empty = at_line(scale, "C2", 8);
  REQUIRE(rows);
  REQUIRE(cols);
  REQUIRE(empty);
  CHECK(rows->column == 18);
  CHECK(rows->form == PatternForm::size_read);
  CHECK(rows->name == "size");
  CHECK(rows->matched_text == "x.size(0)");
  CHECK(cols->matched_text == "x.size(1)");
  CHECK(rows->op == "heldout_cpp::scale_rows");
  CHECK(rows->excerpt == "int64_t rows = x.size(0);");
  CHECK(rows->file == "heldout_ops.cpp");
  CHECK(empty->form == PatternForm::size_factory);
  CHECK(empty->name == "empty");
  CHECK(empty->callee_namespace == "at");
  CHECK(empty->excerpt == "return at::empty({rows, cols}, x.options());");

  CHECK(in_function(facts, "gather_rows_meta").empty());
  CHECK(in_function(facts, "gather_rows_cpu")
            .empty());  // a CPU kernel: concrete sizes are fine there
  const auto cpu = std::find_if(facts.kernels.begin(), facts.kernels.end(),
                                [](const auto& k) { return k.function == "gather_rows_cpu"; });
  REQUIRE(cpu != facts.kernels.end());
  CHECK(cpu->dispatch_key == "CPU");
  CHECK_FALSE(cpu->traced);
  CHECK(facts.violations.size() == 3);
}

TEST_CASE("corpus/generate/aoti_gen.py: the pad_rows fake hard-codes 9 rows (P2)") {
  const SourceRead read = read_ok(corpus_dir() / "generate" / "aoti_gen.py");
  CHECK(read.diagnostics.empty());
  CHECK(read.facts.language == "python");
  const auto fake = std::find_if(
      read.facts.kernels.begin(), read.facts.kernels.end(),
      [](const auto& k) { return k.op == "seed::pad_rows" && k.dispatch_key == "Fake"; });
  REQUIRE(fake != read.facts.kernels.end());
  CHECK(fake->traced);
  CHECK_FALSE(fake->symint_aware);
  REQUIRE(read.facts.violations.size() == 1);
  const SourcePattern& v = read.facts.violations[0];
  CHECK(v.id == "P2");
  CHECK(v.op == "seed::pad_rows");
  CHECK(v.line == 106);
  CHECK(v.excerpt.starts_with("return x.new_empty(9, x.shape[1])"));
  CHECK(v.form == PatternForm::literal_leading_dim);
  CHECK(v.matched_text == "9");
}

// ---- the snippet suite: every pattern, bad and fixed -------------------------------------------

TEST_CASE("snippets: every _bad_ file has its pattern, no _fixed_ file has any violation") {
  int bad = 0, fixed = 0;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(snippets_dir())) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    const std::string name = file.stem().string();  // C1_bad_1
    const std::string pattern = name.substr(0, name.find('_'));
    const SourceRead read = read_ok(file);
    CAPTURE(name);
    CHECK(read.diagnostics.empty());
    if (name.find("_bad_") != std::string::npos) {
      ++bad;
      // C3/C4 compare a kernel's parameters with its op's schema, which may be in another file:
      // the parser records the parameters, the checks pair them
      // (test_checks_customop_symint_patterns).
      const bool signature = pattern == "C3" || pattern == "C4";
      const bool found =
          signature ? std::any_of(
                          read.facts.kernels.begin(), read.facts.kernels.end(),
                          [](const aoti::model::SourceKernel& k) {
                            return std::any_of(k.params.begin(), k.params.end(), [](const auto& p) {
                              return p.kind != aoti::model::ParamKind::other && p.line > 0;
                            });
                          })
                    : std::any_of(read.facts.violations.begin(), read.facts.violations.end(),
                                  [&](const SourcePattern& v) { return v.id == pattern; });
      CHECK_MESSAGE(found, name << " lacks " << pattern);
      for (const SourcePattern& v : read.facts.violations) {
        CHECK(v.line > 0);
        CHECK(v.column > 0);
        CHECK_FALSE(v.excerpt.empty());
        CHECK(v.op.starts_with("snip::"));
      }
    } else {
      ++fixed;
      for (const SourcePattern& v : read.facts.violations)
        FAIL_CHECK(name << ": " << v.id << " at " << v.line << ":" << v.column << " " << v.excerpt);
    }
  }
  CHECK(bad + fixed >= 40);
  CHECK(fixed >= 15);
}

TEST_CASE("C++: every registration surface reaches its kernel") {
  TempDir dir;
  const fs::path file = dir.path / "surfaces.cpp";
  write_file(file, R"(#include <torch/library.h>
at::Tensor a_meta(const at::Tensor& x) { return at::empty({x.size(0)}, x.options()); }
at::Tensor b_meta(const at::Tensor& x) { return at::empty({x.size(0)}, x.options()); }
at::Tensor c_meta(const at::Tensor& x) { return at::empty({x.size(0)}, x.options()); }
at::Tensor d_fn(const at::Tensor& x) { return at::empty({x.size(0)}, x.options()); }
TORCH_LIBRARY_FRAGMENT(ns, m) {
  m.def("a(Tensor x) -> Tensor");
  m.def("d(Tensor x) -> Tensor", TORCH_FN(d_fn));
  m.impl("a", torch::kMeta, &a_meta);
  m.impl("b", torch::dispatch(c10::DispatchKey::Meta, TORCH_FN(b_meta)));
}
TORCH_LIBRARY_IMPL(ns, CompositeImplicitAutograd, m) { m.impl("c", c_meta); }
TORCH_LIBRARY_IMPL(ns, CUDA, m) { m.impl("c", [](const at::Tensor& x) { return at::empty({x.size(0)}, x.options()); }); }
)");
  const SourceRead read = read_ok(file);
  CHECK(read.diagnostics.empty());
  std::vector<std::string> keys;
  for (const auto& k : read.facts.kernels)
    keys.push_back(k.op + " " + k.dispatch_key + " " + k.function);
  CHECK(keys == std::vector<std::string>{"ns::d CompositeImplicitAutograd d_fn",
                                         "ns::a Meta a_meta", "ns::b Meta b_meta",
                                         "ns::c CompositeImplicitAutograd c_meta",
                                         "ns::c CUDA <lambda>"});
  for (const char* fn : {"a_meta", "b_meta", "c_meta", "d_fn"})
    CHECK(in_function(read.facts, fn).size() == 2);
  CHECK(read.facts.violations.size() == 8);  // the CUDA lambda is not traced
}

TEST_CASE(
    "C++: a helper the meta kernel calls is followed; the violation names the helper and the op") {
  TempDir dir;
  const fs::path file = dir.path / "helpers.cpp";
  write_file(file, R"(#include <ATen/ATen.h>
static int64_t rows(const at::Tensor& x) { return x.size(0); }
static int64_t twice(const at::Tensor& x) { return 2 * rows(x); }
at::Tensor k_meta(const at::Tensor& x) { return at::empty_symint({c10::SymInt(twice(x))}, x.options()); }
int64_t unrelated(const at::Tensor& x) { return x.size(0); }
TORCH_LIBRARY(ns, m) { m.def("k(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(ns, Meta, m) { m.impl("k", k_meta); }
)");
  const SourceRead read = read_ok(file);
  REQUIRE(read.facts.violations.size() == 1);
  CHECK(read.facts.violations[0].function == "rows");
  CHECK(read.facts.violations[0].op == "ns::k");
  CHECK(read.facts.violations[0].line == 2);
}

// ---- bad input ---------------------------------------------------------------------------------

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

// ---- Python: registration forms, helpers, what is never a kernel -------------------------------

namespace {

const aoti::model::SourceKernel* kernel_of(const SourceFacts& facts, const std::string& op) {
  for (const auto& k : facts.kernels)
    if (k.op == op) return &k;
  return nullptr;
}

}  // namespace

TEST_CASE("Python: every fake / Meta registration form real code uses reaches its def") {
  TempDir dir;
  const fs::path file = dir.path / "forms.py";
  write_file(file, R"(import torch
from torch.library import Library, register_meta

if hasattr(torch.library, "register_fake"):
    impl_abstract = torch.library.register_fake
else:
    impl_abstract = torch.library.impl_abstract

def a_fake(x): return x.new_empty(x.shape)
def b_fake(x): return x.new_empty(x.shape)

@torch.library.register_fake("ns::c")
def c_fake(x): return x.new_empty(x.shape)

@torch.library.impl_abstract("ns::d")
def d_fake(x): return x.new_empty(x.shape)

@register_meta("ns::e")
def e_meta(x): return x.new_empty(x.shape)

torch.library.define("ns::f", "(Tensor x) -> Tensor")
@torch.library.impl("ns::f", "Meta")
def f_meta(x): return x.new_empty(x.shape)

lib = Library("ns", "FRAGMENT")
lib.define("g(Tensor x) -> Tensor")
def g_meta(x): return x.new_empty(x.shape)
lib.impl("g", g_meta, "Meta")

def h_impl(x: torch.Tensor) -> torch.Tensor: return x.clone()
h = torch.library.custom_op("ns::h", mutates_args=())(h_impl)
@h.register_fake
def h_fake(x): return x.new_empty(x.shape)

def _setup():
    def register(op_name, fn):
        torch.library.register_fake(op_name, fn)

    impl_abstract("ns::a", a_fake)
    register("ns::b", b_fake)
)");
  const SourceRead read = read_ok(file);
  CHECK(read.diagnostics.empty());
  struct Expected {
    std::string op, key, function;
    int line;
  };
  const std::vector<Expected> expected{
      {"ns::a", "Fake", "a_fake", 9},  {"ns::b", "Fake", "b_fake", 10},
      {"ns::c", "Fake", "c_fake", 13}, {"ns::d", "Fake", "d_fake", 16},
      {"ns::e", "Meta", "e_meta", 19}, {"ns::f", "Meta", "f_meta", 23},
      {"ns::g", "Meta", "g_meta", 27}, {"ns::h", "Fake", "h_fake", 33}};
  for (const auto& [op, key, function, line] : expected) {
    CAPTURE(op);
    const auto it =
        std::find_if(read.facts.kernels.begin(), read.facts.kernels.end(),
                     [&](const auto& k) { return k.op == op && k.dispatch_key == key; });
    REQUIRE(it != read.facts.kernels.end());
    CHECK(it->function == function);
    CHECK(it->line_begin == line);
    CHECK(it->traced);
    CHECK(it->symint_aware);
  }
  // The wrapper's own body (register_fake(op_name, fn)) registers nothing by itself.
  CHECK_FALSE(kernel_of(read.facts, "op_name"));
  CHECK(read.facts.violations.empty());
}

TEST_CASE("Python: schema strings, docstrings and comments are never kernels") {
  TempDir dir;
  const fs::path file = dir.path / "never.py";
  write_file(file, R"(import torch
"""Registers ns::doc:

@torch.library.register_fake("ns::doc")
def doc_fake(x):
    return x.new_empty(4, 4)
"""
# torch.library.register_fake("ns::comment", comment_fake)
torch.library.define("ns::s", "(Tensor x, SymInt size) -> Tensor")
torch.library.register_fake("ns::s", "(Tensor x) -> Tensor")
torch.library.impl("ns::s", "Meta", "s_meta")

def doc_fake(x):
    return x.new_empty(4, 4)

def comment_fake(x):
    return x.new_empty(4, 4)
)");
  const SourceRead read = read_ok(file);
  CHECK(read.diagnostics.empty());
  CHECK(read.facts.kernels.empty());
  CHECK(read.facts.violations.empty());
  REQUIRE(read.facts.ops.size() == 1);
  CHECK(read.facts.ops[0].name == "ns::s");
}

TEST_CASE("Python: a helper the fake calls is walked with the caller's arguments, once") {
  TempDir dir;
  const fs::path file = dir.path / "helpers.py";
  write_file(file, R"(import torch

def rows(t, n):
    if n > 1:
        return len(t)
    return rows(t, n)

def unrelated(t):
    return len(t)

@torch.library.register_fake("ns::k")
def k_fake(x: torch.Tensor, flags: list):
    return x.new_empty(rows(x, x.shape[0]), rows(flags, 0))
)");
  const SourceRead read = read_ok(file);
  const auto in_rows = in_function(read.facts, "rows");
  REQUIRE(in_rows.size() == 2);
  CHECK(in_rows[0].line == 4);  // n is the caller's size
  CHECK(in_rows[0].form == PatternForm::size_branch);
  CHECK(in_rows[1].line == 5);  // t is the caller's tensor
  CHECK(in_rows[1].form == PatternForm::size_to_number);
  CHECK(in_rows[1].name == "len");
  for (const SourcePattern& v : read.facts.violations) CHECK(v.op == "ns::k");
  CHECK(in_function(read.facts, "unrelated").empty());
  CHECK(in_function(read.facts, "k_fake").empty());
  const auto* k = kernel_of(read.facts, "ns::k");
  REQUIRE(k);
  CHECK_FALSE(k->symint_aware);
}

TEST_CASE("Python: hostile depth (long operator and call chains) is a diagnostic, never a crash") {
  TempDir dir;
  std::string py = "import torch\n@torch.library.register_fake(\"ns::d\")\ndef d(x):\n    y = ";
  for (int i = 0; i < 100000; ++i) py += "x.size(0) + ";
  py += "1\n    z = x";
  for (int i = 0; i < 100000; ++i) py += ".a[0]()";
  py += "\n    return x.new_empty(x.shape)\n";
  write_file(dir.path / "deep.py", py);
  const SourceRead read = read_ok(dir.path / "deep.py");
  CHECK_FALSE(read.diagnostics.empty());
  REQUIRE(read.facts.kernels.size() == 1);
  CHECK(read.facts.kernels[0].function == "d");
}
