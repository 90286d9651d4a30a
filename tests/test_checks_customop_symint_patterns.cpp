// The SymInt pattern knowledge of the customop checks: what each matched pattern (C1–C8, P1–P8)
// means and how to fix it (checks/customop/symint_patterns), and how the two checks group the
// patterns into findings (checks/customop/symint_findings).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "checks/customop/op_schemas.hpp"
#include "checks/customop/symint_findings.hpp"
#include "checks/customop/symint_patterns.hpp"
#include "parsers/source/source_reader.hpp"
#include "tests/support.hpp"

namespace {
using namespace aoti::model;
using aoti::checks::symint::advice_for;
using aoti::checks::symint::kernel_findings;
using aoti::checks::symint::op_key;
using aoti::checks::symint::torch_ops_call;
namespace fs = std::filesystem;

SourcePattern pattern(std::string id, PatternForm form, std::string name = {},
                      std::string text = {}) {
  SourcePattern p;
  p.id = std::move(id);
  p.form = form;
  p.name = std::move(name);
  p.matched_text = std::move(text);
  return p;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

constexpr aoti::checks::CheckInfo k_test_check{"test.check", "test", "a check for the test"};

}  // namespace

TEST_CASE("C1: the symbolic accessor is spelled from the call as written") {
  SUBCASE("x.size(0) becomes x.sym_size(0); the message names the error torch raises") {
    const auto advice =
        advice_for(pattern("C1", PatternForm::size_read, "size", "x.size(0)"), "c++");
    CHECK(advice.suggestion == "x.sym_size(0)");
    CHECK(contains(advice.message, "Cannot call sizes() on tensor with symbolic sizes/strides"));
  }
  SUBCASE("the last accessor of a chain is the one replaced") {
    CHECK(advice_for(pattern("C1", PatternForm::size_read, "numel", "a.b.numel()"), "c++")
              .suggestion == "a.b.sym_numel()");
  }
  SUBCASE("x.sizes().size() is the rank: x.dim()") {
    CHECK(advice_for(pattern("C1", PatternForm::rank_read, "sizes", "in.sizes()"), "c++")
              .suggestion == "in.dim()");
  }
  SUBCASE("a call not kept as text (long, or over lines) gets the generic form") {
    CHECK(advice_for(pattern("C1", PatternForm::size_read, "size"), "c++").suggestion ==
          "x.sym_size(i)");
    CHECK(advice_for(pattern("C1", PatternForm::rank_read, "sizes"), "c++").suggestion ==
          "x.sym_sizes()");
  }
}

TEST_CASE("C2: a factory's SymInt form keeps its namespace; a Tensor method stays a method") {
  SourcePattern at_empty = pattern("C2", PatternForm::size_factory, "empty");
  at_empty.callee_namespace = "at";
  CHECK(advice_for(at_empty, "c++").suggestion == "at::empty_symint(c10::SymDimVector{...}, ...)");
  CHECK(advice_for(pattern("C2", PatternForm::size_factory, "new_zeros"), "c++").suggestion ==
        ".new_zeros_symint(...)");
  CHECK(advice_for(pattern("C2", PatternForm::size_container, "shape"), "c++").suggestion ==
        "c10::SymDimVector shape");
}

TEST_CASE("C3 / C4: the parameter type follows the schema's") {
  auto parameter = [](const char* id, const char* written, const char* schema) {
    SourcePattern p = pattern(id, PatternForm::int_parameter, "n");
    p.written_type = written;
    p.schema_type = schema;
    return advice_for(p, "c++");
  };
  const auto scalar = parameter("C3", "int64_t", "SymInt");
  CHECK(scalar.suggestion == "c10::SymInt n");
  CHECK(contains(
      scalar.message,
      "parameter 'n' is int64_t but the schema says SymInt: the dispatcher calls guard_int()"));
  CHECK(parameter("C3", "std::optional<int64_t>", "SymInt?").suggestion ==
        "std::optional<c10::SymInt> n");
  const auto list = parameter("C4", "at::IntArrayRef", "SymInt[]");
  CHECK(list.suggestion == "c10::SymIntArrayRef n");
  CHECK(contains(list.message, "the schema says SymInt[]: symbolic sizes fail"));
}

TEST_CASE("C5: a schema int for a size, in either language; AOTI dispatch is a C++ concern") {
  SourcePattern p = pattern("C5", PatternForm::int_schema_argument, "split_sizes");
  p.schema_type = "int[]";
  const auto cpp = advice_for(p, "c++");
  const auto python = advice_for(p, "python");
  CHECK(cpp.suggestion == "SymInt[] split_sizes");
  CHECK(python.suggestion == "SymInt[] split_sizes");
  CHECK(contains(cpp.message, "breaks AOTI runtime dispatch"));
  CHECK_FALSE(contains(python.message, "AOTI"));
}

TEST_CASE("P1 / P2: a condition or a literal is quoted when it was kept, elided otherwise") {
  CHECK(advice_for(pattern("P1", PatternForm::size_assert, "", "x.shape[0] == 4"), "python")
            .suggestion == "torch._check(x.shape[0] == 4)");
  CHECK(advice_for(pattern("P1", PatternForm::size_branch), "python")
            .suggestion.starts_with("torch._check(...)"));
  CHECK(contains(advice_for(pattern("C7", PatternForm::size_branch), "c++").suggestion,
                 "TORCH_SYM_CHECK"));
  CHECK(contains(
      advice_for(pattern("P2", PatternForm::literal_leading_dim, "", "9"), "python").message,
      "a hard-coded leading dimension (9)"));
  CHECK(contains(advice_for(pattern("P2", PatternForm::outside_size, "ROWS"), "python").message,
                 "outside the function ('ROWS')"));
}

// The snippets are read as the analyzer reads a folder of three or more C++ sources: the bundled
// torch declarations precompiled once (a third of the time per file).
namespace {
aoti::parsers::source::SourceOptions as_a_folder_is_read() {
  aoti::parsers::source::SourceOptions options;
  options.precompiled_stubs = true;
  return options;
}
}  // namespace

TEST_CASE("every pattern the parsers find in the snippet suite has a message and a fix") {
  const fs::path snippets = aoti::test::source_dir() / "tests" / "data" / "source_snippets";
  std::size_t patterns = 0;
  for (const auto& entry : fs::directory_iterator(snippets)) {
    if (entry.path().stem().string().find("_bad_") == std::string::npos) continue;
    const auto read = aoti::parsers::source::read_source(
        entry.path(), entry.path().filename().string(), as_a_folder_is_read());
    REQUIRE(read.has_value());
    for (const SourcePattern& p : read->facts.violations) {
      CAPTURE(entry.path().filename().string());
      CAPTURE(p.id);
      const auto advice = advice_for(p, read->facts.language);
      CHECK_FALSE(advice.message.empty());
      CHECK_FALSE(advice.suggestion.empty());
      ++patterns;
    }
  }
  CHECK(patterns >= 25);
}

TEST_CASE("C3/C4 snippets: a kernel's int64 parameters against the SymInt its schema says") {
  const fs::path snippets = aoti::test::source_dir() / "tests" / "data" / "source_snippets";
  int bad = 0, fixed = 0;
  for (const auto& entry : fs::directory_iterator(snippets)) {
    const std::string name = entry.path().stem().string();
    const std::string id = name.substr(0, 2);
    if (id != "C3" && id != "C4") continue;
    CAPTURE(name);
    auto read = aoti::parsers::source::read_source(entry.path(), entry.path().filename().string(),
                                                   as_a_folder_is_read());
    REQUIRE(read.has_value());
    Case c;
    c.sources.push_back(read->facts);
    const auto found = aoti::checks::symint::signature_patterns(c, c.sources[0]);
    if (name.find("_bad_") != std::string::npos) {
      ++bad;
      REQUIRE(found.size() == 1);
      CHECK(found[0].id == id);
      CHECK(found[0].line > 0);  // the parameter's declaration
      CHECK(contains(found[0].excerpt, found[0].name));
      CHECK_FALSE(found[0].schema_type.empty());
      CHECK(found[0].op.starts_with("snip::"));
    } else {
      ++fixed;
      CHECK(found.empty());
    }
  }
  CHECK(bad >= 4);
  CHECK(fixed >= 3);
}

TEST_CASE("C3 across files: the schema in one source decides the kernel of another") {
  aoti::test::TempDir dir;
  aoti::test::write_file(dir.path / "ops.cpp",
                         "#include <torch/library.h>\n"
                         "TORCH_LIBRARY(ext, m) {\n"
                         "  m.def(\"grow(Tensor x, SymInt n) -> Tensor\");\n"
                         "  m.def(\"pad(Tensor x, int n) -> Tensor\");\n"
                         "}\n");
  aoti::test::write_file(dir.path / "ops_meta.cpp",
                         "#include \"ext/ops.h\"\n"
                         "at::Tensor grow_meta(const at::Tensor& x, int64_t n) {\n"
                         "  return at::empty({n}, x.options());\n"
                         "}\n"
                         "at::Tensor pad_meta(const at::Tensor& x, int64_t n) {\n"
                         "  return at::empty({n}, x.options());\n"
                         "}\n"
                         "TORCH_LIBRARY_IMPL(ext, Meta, m) {\n"
                         "  m.impl(\"grow\", grow_meta);\n"
                         "  m.impl(\"pad\", pad_meta);\n"
                         "}\n");
  Case c;
  for (const char* file : {"ops.cpp", "ops_meta.cpp"}) {
    auto read = aoti::parsers::source::read_source(dir.path / file, file);
    REQUIRE(read.has_value());
    c.sources.push_back(read->facts);
  }
  const auto found = kernel_findings(c, k_test_check, {'C', "Meta kernel"});
  // `grow`: n is SymInt in the schema, int64_t in the kernel (C3 on line 2) and the shape built
  // from it (C2 on line 3). `pad`: the schema says int, so neither is a SymInt problem.
  REQUIRE(found.size() == 1);
  CHECK(contains(found[0].title, "`grow_meta` of `ext::grow`"));
  CHECK(contains(found[0].title, "lines 2, 3"));
  CHECK(contains(found[0].message, "(C3)"));

  // Without ops.cpp the schema is unknown: both kernels build their shape from an int64_t.
  c.sources.erase(c.sources.begin());
  const auto alone = kernel_findings(c, k_test_check, {'C', "Meta kernel"});
  CHECK(alone.size() == 2);
  for (const auto& f : alone) {
    const bool says_unknown = contains(f.evidence[0].note, "schema is not among the inputs");
    CHECK(says_unknown);
  }
}

TEST_CASE(
    "kernel_findings: one finding per kernel function of the check's family, its lines in order") {
  Case c;
  SourceFacts source;
  source.artifact = "ops.cpp";
  source.language = "c++";
  for (int line : {6, 7}) {
    SourcePattern p = pattern("C1", PatternForm::size_read, "size", "x.size(0)");
    p.op = "ns::k";
    p.function = "k_meta";
    p.file = "ops.cpp";
    p.line = line;
    p.excerpt = "int64_t n = x.size(0);";
    source.violations.push_back(p);
  }
  SourcePattern fake = pattern("P7", PatternForm::device_move);
  fake.function = "k_fake";
  source.violations.push_back(fake);
  c.sources.push_back(source);

  const auto found = kernel_findings(c, k_test_check, {'C', "Meta kernel"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].check == "test.check");
  CHECK(found[0].title == "Meta kernel `k_meta` of `ns::k` is not SymInt-aware (lines 6, 7)");
  CHECK(found[0].severity == Severity::warning);  // no package, no trace: a risk
  REQUIRE(found[0].evidence.size() == 2);
  CHECK(contains(found[0].evidence[0].note, "(C1); fix: `x.sym_size(0)`"));
  REQUIRE_FALSE(found[0].next_steps.empty());
  CHECK(contains(found[0].next_steps[0].command,
                 "// line 6: int64_t n = x.size(0);\n//   -> x.sym_size(0)"));

  CHECK(kernel_findings(c, k_test_check, {'P', "Fake kernel"}).size() == 1);
}

TEST_CASE("op_key: every spelling of an op names the same op") {
  CHECK(op_key("heldout_cpp::scale_rows.default") == "heldout_cpp::scale_rows");
  CHECK(op_key("torch.ops.heldout_cpp.scale_rows") == "heldout_cpp::scale_rows");
  CHECK(op_key("torch.ops.heldout_cpp.scale_rows.default") == "heldout_cpp::scale_rows");
  CHECK(op_key("ns::op") == "ns::op");
}

TEST_CASE(
    "torch_ops_call: the Python spelling of an op's call, none for an op without a namespace") {
  CHECK(torch_ops_call("heldout_cpp::scale_rows") == "torch.ops.heldout_cpp.scale_rows");
  // Once read past the end of "pad_rows" (npos + 2) and looked for "torch.ops.pad_rows.ad_rows".
  CHECK_FALSE(torch_ops_call("pad_rows").has_value());
}

TEST_CASE("kernel_findings: a trace frame is never tied to an op without a namespace") {
  Case c;
  SourceFacts source;
  source.artifact = "ops.py";
  source.language = "python";
  SourcePattern p = pattern("P2", PatternForm::literal_shape);
  p.op = "rows";  // `@rows.register_fake` on a name the file never qualifies
  p.function = "rows_fake";
  p.line = 3;
  source.violations.push_back(p);
  c.sources.push_back(source);
  TraceFacts trace;
  TraceSpecialization spec;
  TraceFrame frame;
  frame.file = "model.py";
  frame.line = 12;
  frame.code = "y = torch.ops.rows.ows(x)";
  spec.user_frames.push_back(frame);
  trace.specializations.push_back(spec);
  c.traces.push_back(trace);
  const auto found = kernel_findings(c, k_test_check, {'P', "Fake kernel"});
  REQUIRE(found.size() == 1);
  CHECK_FALSE(found[0].explains_failure);
  CHECK(found[0].chain.empty());
}
