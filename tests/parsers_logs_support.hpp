// What the log scanner's tests share: events of one kind, a corpus log scanned, one line's event.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/logs/log_scanner.hpp"
#include "tests/support.hpp"

namespace aoti::test::logs {

using model::LogEvent;
using model::LogEventKind;
using parsers::logs::LogScan;
using parsers::logs::scan_log_text;

inline std::vector<LogEvent> of_kind(const LogScan& scan, LogEventKind kind) {
  std::vector<LogEvent> out;
  std::copy_if(scan.events.begin(), scan.events.end(), std::back_inserter(out),
               [&](const LogEvent& e) { return e.kind == kind; });
  return out;
}

inline LogScan scan_corpus(const std::string& name, const std::string& file) {
  return scan_log_text(read_file(corpus_case(name) / file), name + "/" + file);
}

// The one event a single line gives, failing the test when it gives none or several.
inline LogEvent only_event(std::string_view text) {
  const auto scan = scan_log_text(text, "log.txt");
  REQUIRE_MESSAGE(scan.events.size() == 1, text);
  return scan.events.front();
}

}  // namespace aoti::test::logs
