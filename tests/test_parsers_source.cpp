// The source parser (C++ through libclang, Python through its own reader) on the real corpus's
// extension sources and on the snippet suite (tests/data/source_snippets: every pattern, bad and
// fixed), and every C++ registration surface. Bad input is in test_parsers_source_bad_input.cpp,
// Python's registration forms and helpers in test_parsers_source_python.cpp.
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

TEST_CASE("CUDA: a .cu file parses in CUDA mode; its kernels, their launches, the op's kernels") {
  const fs::path file = aoti::test::corpus_case("custom-cuda-op-gpu-core") / "rowops.cu";
  const SourceRead read = read_ok(file);
  CHECK(read.facts.language == "cuda");
  // The built-in variables and the launch are understood: no compile error, only the CUDA header
  // the analyzing machine lacks.
  for (const auto& d : read.diagnostics) {
    INFO(d.message);
    CHECK(d.message.find("error") == std::string::npos);
  }
  REQUIRE(read.facts.ops.size() == 1);
  CHECK(read.facts.ops[0].name == "rowops::scatter_rows");
  std::vector<std::string> keys;
  for (const auto& k : read.facts.kernels)
    keys.push_back(k.op + " " + k.dispatch_key + " " + k.function);
  CHECK(keys == std::vector<std::string>{"rowops::scatter_rows CUDA scatter_rows_cuda",
                                         "rowops::scatter_rows Meta scatter_rows_meta"});
  // The SymInt-aware Meta kernel has nothing to report.
  CHECK(read.facts.violations.empty());
  REQUIRE(read.facts.cuda_kernels.size() == 1);
  const auto& k = read.facts.cuda_kernels[0];
  CHECK(k.name == "scatter_rows_kernel");
  CHECK(k.parameters == 5);
  CHECK(k.line == 5);
  CHECK(k.body_line == 6);
  CHECK(k.line_end == 12);
  REQUIRE(k.text.size() == 8);
  CHECK(k.text[11 - k.line_begin] == "  out[dst * cols + c] = x[i];");
  REQUIRE(k.launches.size() == 1);
  CHECK(k.launches[0].function == "scatter_rows_cuda");
  CHECK(k.launches[0].line == 19);
}

TEST_CASE("CUDA: kernels in a namespace, a template kernel, two launchers; .cpp stays C++") {
  TempDir dir;
  const fs::path file = dir.path / "ops.cuh";
  write_file(file, R"(namespace ops {
template <typename T>
__global__ void fill(T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = T(1);
}
void fill_float(float* p, int n, cudaStream_t s) { fill<float><<<(n + 255) / 256, 256, 0, s>>>(p, n); }
void fill_int(int* p, int n) { fill<<<1, n>>>(p, n); }
}  // namespace ops
)");
  const SourceRead read = read_ok(file);
  CHECK(read.facts.language == "cuda");
  CHECK(read.diagnostics.empty());
  REQUIRE(read.facts.cuda_kernels.size() == 1);
  const auto& k = read.facts.cuda_kernels[0];
  CHECK(k.qualified_name == "ops::fill");
  std::vector<std::string> launchers;
  for (const auto& l : k.launches) launchers.push_back(l.function + ":" + std::to_string(l.line));
  CHECK(launchers == std::vector<std::string>{"fill_float:7", "fill_int:8"});

  const fs::path cpp = dir.path / "host.cpp";
  write_file(cpp, "int f(int x) { return x + 1; }\n");
  const SourceRead host = read_ok(cpp);
  CHECK(host.facts.language == "c++");
  CHECK(host.facts.cuda_kernels.empty());
}

TEST_CASE("a tree's cheap look: which C++ files may register an op, and the project's macros") {
  namespace src = aoti::parsers::source;
  // vLLM's registration.h and FBGEMM's ops_utils.h: macros that expand to a registration, also
  // through one another.
  const std::string header =
      "#pragma once\n#include <Python.h>\n"
      "#define _CONCAT(A, B) A##B\n"
      "#define TORCH_LIBRARY_EXPAND(NAME, MODULE) TORCH_LIBRARY(NAME, MODULE)\n"
      "#define OP_DISPATCH(KEY, NAME, FN) \\\n  TORCH_LIBRARY_IMPL(fbgemm, KEY, m) { \\\n"
      "    m.impl(NAME, TORCH_FN(FN)); \\\n  }\n";
  auto macros = src::registration_macros(header, {});
  CHECK(macros == std::vector<std::string>{"TORCH_LIBRARY_EXPAND", "OP_DISPATCH"});
  // One defined through a project macro is found once that one is known.
  const std::string wrapper = "#define REGISTER_ALL(FN) OP_DISPATCH(CUDA, \"f\", FN)\n";
  CHECK(src::registration_macros(wrapper, {}).empty());
  CHECK(src::registration_macros(wrapper, macros) == std::vector<std::string>{"REGISTER_ALL"});

  CHECK(
      src::may_register("TORCH_LIBRARY_FRAGMENT(ns, m) { m.def(\"f(Tensor x) -> Tensor\"); }", {}));
  CHECK(src::may_register("void add_ops(torch::Library& m) { m.def(\"f() -> ()\"); }", {}));
  CHECK(src::may_register("OP_DISPATCH(CUDA, \"f\", f_cuda);", macros));
  CHECK_FALSE(src::may_register("OP_DISPATCH_HELPER(x);", macros));  // a whole word only
  CHECK_FALSE(src::may_register("__global__ void k(float* x) { x[0] = 1; }", macros));
}

TEST_CASE("a C++ file that registers nothing is skimmed, not parsed") {
  TempDir dir;
  const auto path = dir.path / "kernels.cu";
  // Not valid C++ either: parsed, it would give compile-error diagnostics.
  write_file(path, "#include <nowhere.h>\n__global__ void k(float* x) { x[0] = undefined; }\n");
  aoti::parsers::source::SourceOptions options;
  options.cuda_kernels = false;
  const auto read = aoti::parsers::source::read_source(path, "kernels.cu", options);
  REQUIRE(read);
  CHECK(read->skimmed);
  CHECK(read->diagnostics.empty());
  // With a GPU core in the case its CUDA kernels are wanted: parsed.
  options.cuda_kernels = true;
  const auto parsed = aoti::parsers::source::read_source(path, "kernels.cu", options);
  REQUIRE(parsed);
  CHECK_FALSE(parsed->skimmed);
  CHECK(parsed->facts.cuda_kernels.size() == 1);
}
