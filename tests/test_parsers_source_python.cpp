// The source parser on Python: every fake / Meta registration form real code uses reaches its def,
// schema strings, docstrings and comments are never kernels, helpers a fake calls are walked with
// its arguments, and hostile depth is a diagnostic.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "parsers/source/source_reader.hpp"
#include "tests/parsers_source_support.hpp"
#include "tests/support.hpp"

using aoti::model::PatternForm;
using aoti::model::SourceFacts;
using aoti::model::SourcePattern;
using aoti::parsers::source::SourceRead;
namespace fs = std::filesystem;

namespace {
using namespace aoti::test;
using namespace aoti::test::source;

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
