// The TORCH_TRACE / tlparse reader on real traces: the seed corpus (torch 2.11) and tlparse's own
// test logs (../shared/peer-inputs/tlparse, skipped when absent), each record kind read into facts.
// Folders and raw.jsonl are in test_parsers_trace_folders.cpp, how a log is scanned (pieces, line
// endings, payload MD5s, bad input) in test_parsers_trace_scan.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "parsers/trace/trace_reader.hpp"
#include "tests/parsers_trace_support.hpp"

namespace fs = std::filesystem;
using aoti::model::TraceFacts;
using aoti::parsers::trace::read_trace;
using aoti::parsers::trace::TraceRead;
using namespace aoti::test::trace;

namespace {

fs::path peer_dir() {
  return aoti::test::source_dir() / ".." / "shared" / "peer-inputs" / "tlparse";
}

}  // namespace

TEST_CASE("every tlparse test log is read, records counted by kind" *
          doctest::skip(!fs::is_directory(peer_dir()))) {
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(peer_dir())) {
    const fs::path path = entry.path();
    const std::string name = path.filename().string();
    if (!entry.is_regular_file() || name == "LICENSE" || name == "SOURCE") continue;
    ++files;
    auto read = read_trace(path, path.string());
    if (fs::file_size(path) == 0 || name == "some_other_file.txt") {
      CHECK_FALSE(read.has_value());
      continue;
    }
    REQUIRE_MESSAGE(read.has_value(), name);
    std::uint64_t sum = 0;
    for (const auto& [kind, count] : read->facts.records_by_kind) sum += count;
    CHECK(sum == read->facts.records);
    auto expected = grep_kinds(path);
    CHECK_MESSAGE(read->facts.records_by_kind == expected, name);
    CHECK(read->facts.bad_lines == 0);
    CHECK(read->facts.bad_json == 0);
  }
  CHECK(files > 30);

  const TraceRead corrupted = read_ok(peer_dir() / "simple_corrupted_json.log");
  CHECK(corrupted.facts.payload_mismatches == 1);
  CHECK(has_diagnostic(corrupted, "simple_corrupted_json.log", "line 13: chromium_event payload"));
  const TraceRead clean = read_ok(peer_dir() / "simple.log");
  CHECK(clean.facts.payload_mismatches == 0);
  CHECK(clean.diagnostics.empty());
}

TEST_CASE("seed traces: records by kind as grep counts them, and the AOTI wrapper source") {
  for (const std::string& name : aoti::test::k_corpus_cases) {
    CAPTURE(name);
    const fs::path path = seed_trace(name);
    const TraceRead read = read_ok(path);
    CHECK(read.diagnostics.empty());
    CHECK(read.facts.records_by_kind == grep_kinds(path));
    CHECK(read.facts.lines == lines_of(path).size());
    const auto* wrapper = read.facts.wrapper_code();
    REQUIRE(wrapper != nullptr);
    CHECK(wrapper->text.find("AOTInductorModel::run_impl") != std::string::npos);
    CHECK(wrapper->md5_ok);
    CHECK_FALSE(wrapper->truncated);
    CHECK(wrapper->filename.find(".wrapper.cpp") != std::string::npos);
    // first_line maps wrapper lines back to trace lines
    const std::vector<std::string> lines = lines_of(path);
    const std::string first_text = wrapper->text.substr(0, wrapper->text.find('\n'));
    CHECK(lines.at(static_cast<std::size_t>(wrapper->first_line - 1)).substr(1) == first_text);
    CHECK(read.facts.records_by_compile_id.size() == 1);  // non-strict export + AOTI: no compile id
    CHECK(read.facts.records_by_compile_id.count(""));
  }
  // grep on the real file, by hand: grep -v $'^\t' FILE | sed ... | sort | uniq -c
  const TraceRead cpp = read_ok(seed_trace("cpp-meta-sizes"));
  const std::map<std::string, std::uint64_t> grep_cpp = {{"aot_inference_graph", 1},
                                                         {"artifact", 10},
                                                         {"chromium_event", 121},
                                                         {"compilation_metrics", 1},
                                                         {"create_symbol", 1},
                                                         {"describe_source", 2},
                                                         {"describe_storage", 2},
                                                         {"describe_tensor", 2},
                                                         {"graph_dump", 2},
                                                         {"guard_added_fast", 1},
                                                         {"str", 42},
                                                         {"symbolic_shape_specialization", 1}};
  CHECK(cpp.facts.records_by_kind == grep_cpp);
  CHECK(cpp.facts.artifacts_by_name.at("inductor_aot_wrapper_code") == 1);
  CHECK(cpp.facts.artifacts_by_name.at("inductor_aot_kernel_code") == 1);
}

TEST_CASE("custom-op-fake-static-rows: the fake's static rows next to the dynamic input") {
  const TraceRead read = read_ok(seed_trace("custom-op-fake-static-rows"));
  REQUIRE(read.facts.symbols.size() == 1);
  const auto& s77 = read.facts.symbols[0];
  CHECK(s77.name == "s77");
  CHECK(s77.source == "L['x'].size()[0]");
  CHECK(s77.value == "8");
  CHECK(s77.range_lo == "2");
  CHECK(s77.range_hi == "512");
  CHECK_FALSE(s77.unbacked);

  const auto graph = std::find_if(read.facts.graphs.begin(), read.facts.graphs.end(),
                                  [](const auto& g) { return g.name == "before_pre_grad_graph"; });
  REQUIRE(graph != read.facts.graphs.end());
  const auto* pad_rows = find_node(*graph, "pad_rows");
  REQUIRE(pad_rows != nullptr);
  CHECK(pad_rows->target == "torch.ops.heldout.pad_rows.default");
  CHECK(pad_rows->shape == "f32[9, 16]");
  CHECK(pad_rows->type == "f32[9, 16][16, 1]cuda:0");
  CHECK(pad_rows->inputs == std::vector<std::string>{"x"});
  CHECK(pad_rows->source.find("aoti_gen.py:109 in forward") != std::string::npos);
  const auto* x = find_node(*graph, "x");
  REQUIRE(x != nullptr);
  CHECK(x->op == "placeholder");
  CHECK(x->shape == "f32[s77, 16]");
  CHECK(graph->outputs == std::vector<std::string>{"add"});
  // the node's line points at its text in the trace
  const auto lines = lines_of(seed_trace("custom-op-fake-static-rows"));
  CHECK(lines.at(static_cast<std::size_t>(pad_rows->line - 1)).find("pad_rows: \"f32[9, 16]") !=
        std::string::npos);

  // the AOT graph names its input arg0_1, and so does every later graph
  int graphs_with_pad_rows = 0;
  for (const auto& g : read.facts.graphs)
    if (const auto* node = find_node(g, "pad_rows"); node && node->shape == "f32[9, 16]")
      ++graphs_with_pad_rows;
  CHECK(graphs_with_pad_rows == 7);
  CHECK(read.facts.failures.empty());
  CHECK(read.facts.specializations.empty());
}

TEST_CASE("cpp-meta-sizes: batch specialized to 8 by the C++ meta kernel, export abandoned") {
  const TraceRead read = read_ok(seed_trace("cpp-meta-sizes"));
  REQUIRE(read.facts.specializations.size() == 1);
  const auto& spec = read.facts.specializations[0];
  CHECK(spec.symbol == "s77");
  CHECK(spec.value == "8");
  CHECK(spec.reason == "range_refined_to_singleton");
  CHECK(spec.sources == std::vector<std::string>{"L['x'].size()[0]"});
  REQUIRE_FALSE(spec.user_frames.empty());
  const auto& frame = spec.user_frames.back();  // innermost user frame: the op call in forward
  CHECK(frame.function == "forward");
  CHECK(frame.line == 205);
  CHECK(frame.code.find("heldout_cpp.scale_rows") != std::string::npos);
  CHECK(frame.file.find("aoti_gen.py") != std::string::npos);
  CHECK(frame.file_id == 0);

  REQUIRE(read.facts.symbols.size() == 1);
  CHECK(read.facts.symbols[0].range_hi == "512");
  REQUIRE(read.facts.guards.size() == 1);
  CHECK(read.facts.guards[0].kind == "guard_added_fast");
  CHECK(read.facts.guards[0].expr == "Eq(s77, 8)");

  REQUIRE(read.facts.exports.size() == 2);
  CHECK(read.facts.exports[0].call_site.code.find("Dim(\"batch\"") != std::string::npos);
  CHECK(read.facts.exports[0].specialized == std::vector<std::string>{"s77=8"});
  CHECK_FALSE(read.facts.exports[0].compiled);
  CHECK(read.facts.exports[1].compiled);
  CHECK(read.facts.exports[1].symbols.empty());  // re-exported static

  REQUIRE(read.facts.failures.size() == 1);
  const auto& failure = read.facts.failures[0];
  CHECK(failure.origin == "inferred");
  CHECK(failure.symbol == "s77");
  CHECK(failure.value == "8");
  CHECK(failure.user_line == 209);
}

TEST_CASE("event kinds from tlparse's logs") {
  if (!fs::is_directory(peer_dir())) return;
  SUBCASE(
      "create_unbacked_symbol, guard_added, propagate_real_tensors_provenance, exported_program") {
    const TraceRead read = read_ok(peer_dir() / "export.log");  // holds blank lines inside payloads
    REQUIRE(read.facts.symbols.size() == 1);
    CHECK(read.facts.symbols[0].unbacked);
    CHECK(read.facts.symbols[0].name == "u0");
    CHECK(read.facts.symbols[0].range_lo == "-int_oo");
    CHECK(read.facts.guards.size() == 7);
    CHECK(read.facts.guards[0].kind == "guard_added");
    CHECK(read.facts.guards[0].expr == "(((-u0)//3)) + 5 >= 0");
    REQUIRE(read.facts.data_dependent.size() == 1);
    CHECK(read.facts.data_dependent[0].kind == "propagate_real_tensors_provenance");
    CHECK(read.facts.data_dependent[0].result == "False");
    CHECK_FALSE(read.facts.data_dependent[0].user_frames.empty());
    REQUIRE(read.facts.graphs.size() == 1);
    const auto& ep = read.facts.graphs[0];
    CHECK(ep.name == "exported_program");
    REQUIRE(ep.range_constraints.size() == 3);
    CHECK(ep.range_constraints[2].symbol == "s0");
    CHECK(ep.range_constraints[2].lo == "2");
    CHECK(ep.range_constraints[2].hi == "int_oo");
    const auto* slice = find_node(ep, "slice_1");
    REQUIRE(slice != nullptr);
    CHECK(slice->shape == "f32[(((-u1)//3)) + 5]");
    CHECK(slice->inputs == std::vector<std::string>{"cat", "add"});
    CHECK(find_node(ep, "y")->shape == "f32[s0]");
  }
  SUBCASE("compilation_metrics failure") {
    const TraceRead read = read_ok(peer_dir() / "comp_failure.log");
    REQUIRE(read.facts.failures.size() == 2);
    CHECK(read.facts.failures[0].origin == "artifact:dynamo_error");  // the traceback, logged first
    CHECK(read.facts.failures[0].reason.find("Traceback (most recent call last)") == 0);
    CHECK(read.facts.failures[1].origin == "compilation_metrics");
    CHECK(read.facts.failures[1].fail_type == "BackendCompilerFailed");
    CHECK(read.facts.failures[1].reason.find("broken backend") != std::string::npos);
    CHECK(read.facts.failures[1].where.compile_id == "[0/0]");
    CHECK(read.facts.failures[1].where.line == 145);
  }
  SUBCASE("compile ids and restart attempts: only the last attempt is kept") {
    const TraceRead read = read_ok(peer_dir() / "comp_metrics.log");
    CHECK(read.facts.records_by_compile_id.count("[0/0]"));
    CHECK(read.facts.records_by_compile_id.count("[0/0_1]"));
    CHECK(read.facts.records_by_compile_id.count("[2/0]"));
    for (const auto& graph : read.facts.graphs)
      if (graph.where.compile_id.rfind("[0/0", 0) == 0 ||
          graph.where.compile_id.rfind("[1/0", 0) == 0)
        CHECK(graph.where.attempt == 1);
    CHECK_FALSE(read.facts.graphs.empty());
  }
  SUBCASE("graph_dump code from an older torch, and CRLF logs") {
    const TraceRead aot = read_ok(peer_dir() / "inductor_provenance_aot_cuda_log.txt");
    REQUIRE(aot.facts.wrapper_code() != nullptr);
    CHECK(aot.facts.wrapper_code()->md5_ok);
    const TraceRead crlf =
        read_ok(peer_dir() / "multi_rank_logs" / "dedicated_log_torch_trace_rank_1.log");
    CHECK(crlf.facts.payload_mismatches == 0);
  }
}
