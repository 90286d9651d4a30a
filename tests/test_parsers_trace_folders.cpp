// The trace reader on folders: per-rank trace files, and tlparse's output folder (raw.jsonl with
// its payload files) made from a real trace, which must read as the log it came from, record facts
// and all (simdjson reads the log, nlohmann the raw.jsonl).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "parsers/trace/trace_reader.hpp"
#include "tests/parsers_trace_support.hpp"

namespace fs = std::filesystem;
using aoti::model::TraceFacts;
using aoti::parsers::trace::read_trace;
using aoti::parsers::trace::TraceRead;
using namespace aoti::test::trace;

namespace {

// tlparse's output folder for a trace, as tlparse writes it (src/lib.rs): raw.jsonl with the string
// table first, then each record's envelope (chromium events and `str` records left out) plus
// timestamp, thread, pathname, lineno and payload_filename; code dumps under the compile's folder
// and other payloads under payloads/<md5>.txt.
void make_tlparse_folder(const fs::path& trace, const fs::path& out) {
  fs::create_directories(out / "payloads");
  fs::create_directories(out / "-_-_-_-");
  std::vector<std::string> strings;
  std::vector<std::string> records;
  const std::vector<std::string> lines = lines_of(trace);
  int counter = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const std::size_t at = line.find("] {");
    if (line.empty() || line[0] == '\t' || at == std::string::npos) continue;
    nlohmann::json envelope = nlohmann::json::parse(line.substr(at + 2));
    std::string payload;
    std::size_t j = i + 1;
    for (bool first = true; j < lines.size() && !lines[j].empty() && lines[j][0] == '\t';
         ++j, first = false) {
      if (!first) payload += '\n';
      payload.append(lines[j], 1);
    }
    if (envelope.contains("str")) {
      const std::size_t id = envelope["str"][1].get<std::size_t>();
      if (strings.size() <= id) strings.resize(id + 1);
      strings[id] = envelope["str"][0].get<std::string>();
      continue;
    }
    if (envelope.contains("chromium_event")) continue;
    envelope["timestamp"] =
        "2026-" + line.substr(1, 2) + "-" + line.substr(3, 2) + "T" + line.substr(6, 15) + "Z";
    const std::size_t pid_end = line.find(' ', 22);
    envelope["thread"] = std::stoull(line.substr(22, pid_end - 22));
    const std::size_t colon = line.find(':', pid_end);
    envelope["pathname"] = line.substr(pid_end, colon - pid_end);  // with tlparse's leading space
    envelope["lineno"] = std::stoull(line.substr(colon + 1, at - colon - 1));
    if (envelope.contains("has_payload")) {
      std::string name = "payloads/" + envelope["has_payload"].get<std::string>() + ".txt";
      if (envelope.contains("graph_dump"))
        name = "-_-_-_-/" + envelope["graph_dump"]["name"].get<std::string>() + "_" +
               std::to_string(counter++) + ".txt";
      aoti::test::write_file(out / name, payload);
      envelope["payload_filename"] = name;
    }
    records.push_back(envelope.dump());
  }
  std::ofstream raw(out / "raw.jsonl", std::ios::binary);
  raw << nlohmann::json{{"string_table", strings}}.dump() << '\n';
  for (const std::string& record : records) raw << record << '\n';
}

std::string frames_text(const std::vector<aoti::model::TraceFrame>& frames) {
  std::string text;
  for (const auto& f : frames)
    text += " [" + f.file + "#" + std::to_string(f.file_id) + ":" + std::to_string(f.line) + " " +
            f.function + " | " + f.code + "]";
  return text;
}

// Every fact read from symbol, guard, specialization, fake-kernel and failure records, as text.
std::vector<std::string> record_facts_text(const TraceFacts& facts) {
  std::vector<std::string> out;
  for (const auto& s : facts.symbols)
    out.push_back("symbol " + s.name + " | " + s.source + " | " + s.value + " | " + s.range_lo +
                  " | " + s.range_hi + " | " + std::to_string(s.unbacked) +
                  frames_text(s.user_frames));
  for (const auto& s : facts.specializations) {
    std::string sources;
    for (const auto& source : s.sources) sources += source + ";";
    out.push_back("specialization " + s.symbol + " | " + sources + " | " + s.value + " | " +
                  s.reason + frames_text(s.user_frames));
  }
  for (const auto* list : {&facts.guards, &facts.data_dependent})
    for (const auto& e : *list)
      out.push_back(e.kind + " " + e.expr + " | " + e.prefix + " | " + e.result +
                    frames_text(e.user_frames));
  for (const auto& k : facts.fake_kernels) out.push_back(k.kind + " " + k.op + " | " + k.reason);
  for (const auto& f : facts.failures)
    out.push_back("failure " + f.origin + " | " + f.fail_type + " | " + f.reason + " | " +
                  f.user_file + ":" + std::to_string(f.user_line));
  for (const auto& e : facts.exports)
    out.push_back("export" + frames_text({e.call_site}) + " " + std::to_string(e.symbols.size()) +
                  " symbols, compiled " + std::to_string(e.compiled));
  return out;
}

}  // namespace

TEST_CASE("a folder of per-rank trace files") {
  aoti::test::TempDir dir;
  fs::copy_file(seed_trace("cpp-meta-sizes"),
                dir.path / "dedicated_log_torch_trace_rank_0_ab12cd34.log");
  fs::copy_file(seed_trace("custom-op-fake-static-rows"),
                dir.path / "dedicated_log_torch_trace_rank_1_ef56gh78.log");
  aoti::test::write_file(dir.path / "notes.txt", "not a trace\n");
  CHECK_FALSE(aoti::parsers::trace::is_tlparse_folder(dir.path));
  const TraceRead read = read_ok(dir.path);
  REQUIRE(read.facts.files.size() == 2);
  CHECK(read.facts.files[0].find("rank_0") != std::string::npos);
  CHECK(read.facts.records_by_kind.at("str") == 42 + 30);
  CHECK(read.facts.code_dumps.size() == 4);
  CHECK(read.facts.specializations.size() == 1);
  CHECK(read.facts.specializations[0].where.artifact.find("rank_0") != std::string::npos);
  // each file has its own string table: frames of the second file resolve against it
  CHECK(read.facts.symbols.back().where.artifact.find("rank_1") != std::string::npos);

  aoti::test::TempDir empty;
  CHECK_FALSE(read_trace(empty.path, "empty").has_value());
}

TEST_CASE("a tlparse output folder with raw.jsonl") {
  aoti::test::TempDir dir;
  const fs::path seed = seed_trace("custom-op-fake-static-rows");
  make_tlparse_folder(seed, dir.path / "tl_out");
  REQUIRE(aoti::parsers::trace::is_tlparse_folder(dir.path / "tl_out"));
  std::string head = aoti::test::read_file(dir.path / "tl_out" / "raw.jsonl").substr(0, 4096);
  CHECK(aoti::parsers::trace::looks_like_trace(head));

  const TraceRead from_log = read_ok(seed);
  const TraceRead read = read_ok(dir.path / "tl_out");
  CHECK(read.diagnostics.empty());
  auto expected = grep_kinds(seed);
  expected.erase("chromium_event");
  expected.erase("str");
  CHECK(read.facts.records_by_kind == expected);
  REQUIRE(read.facts.wrapper_code() != nullptr);
  CHECK(read.facts.wrapper_code()->md5_ok);
  CHECK(read.facts.wrapper_code()->text == from_log.facts.wrapper_code()->text);
  CHECK(read.facts.wrapper_code()->payload_artifact.find("inductor_aot_wrapper_code_") !=
        std::string::npos);
  REQUIRE(read.facts.symbols.size() == 1);
  CHECK(read.facts.symbols[0].range_hi == "512");
  CHECK(read.facts.graphs.size() == from_log.facts.graphs.size());
  const auto* node = find_node(read.facts.graphs[0], "pad_rows");
  REQUIRE(node != nullptr);
  CHECK(node->shape == "f32[9, 16]");
  CHECK(read.facts.strings == 30);

  // a payload file gone missing is a diagnostic, the rest is read
  for (const auto& entry : fs::directory_iterator(dir.path / "tl_out" / "-_-_-_-"))
    if (entry.path().filename().string().rfind("inductor_aot_wrapper_code", 0) == 0)
      fs::remove(entry.path());
  const TraceRead partial = read_ok(dir.path / "tl_out");
  CHECK(partial.facts.wrapper_code() == nullptr);
  CHECK(has_diagnostic(partial, "raw.jsonl", "is missing or outside the folder"));
}

TEST_CASE(
    "fact records read the same from a log (simdjson) and from tlparse's raw.jsonl (nlohmann)") {
  // Hand-made records with what real ones vary in: duplicate keys, numbers where text is usual,
  // interned and uninterned files, frames that are not objects, integers past int64, an empty
  // user_stack, more user frames than are kept, and a header simdjson reads but leaves to nlohmann
  // (an unsigned frame_id).
  const std::string head =
      "V1129 07:41:33.791000 5575 torch/fx/experimental/symbolic_shapes.py:5388] ";
  std::string user_stack;
  for (int i = 0; i < 10; ++i)
    user_stack += std::string(i ? "," : "") + R"J({"filename": 0, "line": )J" +
                  std::to_string(100 + i) + R"J(, "name": "f)J" + std::to_string(i) +
                  R"J(", "loc": "y = f(x)"})J";
  const std::vector<std::string> records = {
      R"J({"str": ["/home/me/model.py", 0]})J",
      R"J({"str": ["/usr/lib/python3.12/site-packages/torch/export/__init__.py", 1]})J",
      R"J({"create_symbol": {"symbol": "s0", "symbol": "s1", "val": 8, "vr": "[2, 512]", "source": "L['x'].size()[0]", "user_stack": [], "stack": [5, {"filename": 0, "line": 10, "name": "forward", "loc": "x = y"}, {"uninterned_filename": "/home/me/other.py", "line": 18446744073709551615, "name": 3}, {"filename": 99, "line": 4}]}, "stack": [{"filename": 0, "line": 42, "name": "<module>", "loc": "ep = torch.export.export(m, (x,))"}, {"filename": 1, "line": 100, "name": "export"}], "frame_id": 0, "frame_compile_id": 0, "attempt": 0})J",
      R"J({"create_unbacked_symbol": {"symbol": "u0", "vr": "[-int_oo, int_oo]", "stack": [{"filename": 0, "line": 7}]}, "frame_id": 18446744073709551615, "frame_compile_id": 0})J",
      R"J({"guard_added_fast": {"expr": {"b": 1, "a": [1, 2.5]}, "prefix": null, "user_stack": [)J" +
          user_stack + R"J(]}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0})J",
      R"J({"symbolic_shape_specialization": {"symbol": "s1", "sources": ["L['x'].size()[0]", 5, "L['y']"], "value": 8, "reason": "range_refined_to_singleton"}, "frame_id": 0, "frame_compile_id": 0})J",
      R"J({"propagate_real_tensors": {"expr": "u0 > 2", "result": true}, "frame_id": 0, "frame_compile_id": 0})J",
      R"J({"missing_fake_kernel": {"op": "tt.nofake.default"}, "frame_id": 0, "frame_compile_id": 0})J",
      R"J({"mismatched_fake_kernel": {"op": "tt.bad.default", "reason": "rank 2 != 3"}, "frame_id": 0, "frame_compile_id": 0})J",
      R"J({"compilation_metrics": {"fail_type": "BackendCompilerFailed", "fail_reason": "boom", "fail_user_frame_filename": "/home/me/model.py", "fail_user_frame_lineno": 12}, "frame_id": 0, "frame_compile_id": 0})J",
  };
  aoti::test::TempDir dir;
  std::string log;
  for (const std::string& record : records) log += head + record + "\n";
  aoti::test::write_file(dir.path / "trace.log", log);
  make_tlparse_folder(dir.path / "trace.log", dir.path / "tl_out");

  const TraceRead from_log = read_ok(dir.path / "trace.log");
  const TraceRead from_raw = read_ok(dir.path / "tl_out");
  const std::vector<std::string> facts = record_facts_text(from_log.facts);
  CHECK(facts == record_facts_text(from_raw.facts));
  REQUIRE(from_log.facts.symbols.size() == 2);
  CHECK(from_log.facts.symbols[0].name == "s1");
  CHECK(from_log.facts.symbols[0].value == "8");
  REQUIRE(from_log.facts.symbols[0].user_frames.size() == 2);
  CHECK(from_log.facts.symbols[0].user_frames[0].file == "/home/me/model.py");
  CHECK(from_log.facts.symbols[0].user_frames[1].file == "/home/me/other.py");
  CHECK(from_log.facts.symbols[0].user_frames[1].function == "3");
  REQUIRE(from_log.facts.guards.size() == 2);
  CHECK(from_log.facts.guards[0].expr == R"J({"a":[1,2.5],"b":1})J");
  REQUIRE(from_log.facts.guards[0].user_frames.size() == 8);
  CHECK(from_log.facts.guards[0].user_frames.back().line == 109);
  REQUIRE(from_log.facts.specializations.size() == 1);
  CHECK(from_log.facts.specializations[0].sources ==
        std::vector<std::string>{"L['x'].size()[0]", "L['y']"});
  REQUIRE(from_log.facts.exports.size() == 1);
  CHECK(from_log.facts.exports[0].call_site.line == 42);
  REQUIRE(from_log.facts.failures.size() == 1);
  CHECK(from_log.facts.failures[0].user_line == 12);
}
