// What the trace reader's tests share: the corpus's seed traces, a trace read or the test failed,
// a file's lines, the event kinds as grep counts them, diagnostics and graph nodes looked up.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "parsers/trace/trace_reader.hpp"
#include "tests/support.hpp"

namespace aoti::test::trace {

using parsers::trace::read_trace;
using parsers::trace::TraceRead;

inline std::filesystem::path seed_trace(const std::string& name) {
  for (const auto& entry : std::filesystem::directory_iterator(corpus_case(name) / "trace"))
    if (entry.path().filename().string().rfind("dedicated_log_torch_trace_", 0) == 0)
      return entry.path();
  throw std::runtime_error("no trace in " + name);
}

inline TraceRead read_ok(const std::filesystem::path& path) {
  auto read = read_trace(path, path.string());
  const std::string why = read ? std::string() : read.error().message;
  REQUIRE_MESSAGE(read.has_value(), path.string() << ": " << why);
  return std::move(*read);
}

inline std::vector<std::string> lines_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The event name of a header line, counted the way `grep -v '^\t' | sed 's/.*]
// {"\([a-z_]*\)".*/\1/'` does.
inline std::map<std::string, std::uint64_t> grep_kinds(const std::filesystem::path& path) {
  std::map<std::string, std::uint64_t> kinds;
  for (const std::string& line : lines_of(path)) {
    const std::size_t at = line.find("] {\"");
    if (line.empty() || line[0] == '\t' || at == std::string::npos) continue;
    ++kinds[line.substr(at + 4, line.find('"', at + 4) - at - 4)];
  }
  return kinds;
}

inline bool has_diagnostic(const TraceRead& read, const std::string& artifact_part,
                           const std::string& message_part) {
  return std::any_of(read.diagnostics.begin(), read.diagnostics.end(), [&](const auto& d) {
    return d.artifact.find(artifact_part) != std::string::npos &&
           d.message.find(message_part) != std::string::npos;
  });
}

inline const model::TraceGraphNode* find_node(const model::TraceGraph& graph,
                                              const std::string& name) {
  for (const auto& node : graph.nodes)
    if (node.name == name) return &node;
  return nullptr;
}

}  // namespace aoti::test::trace
