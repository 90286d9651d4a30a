// A TORCH_TRACE log cut or grown while it is read (a scan of a folder a run still writes): the
// mapped bytes past the new end read as zeros, and the file says how it changed.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "parsers/trace/file_bytes.hpp"
#include "parsers/trace/trace_reader.hpp"
#include "support.hpp"

using aoti::parsers::trace::FileBytes;

namespace {

// About 3 MiB of records of the shape TORCH_TRACE writes.
std::string trace_text() {
  std::string text;
  for (int i = 0; text.size() < (3u << 20); ++i)
    text += "V1203 10:00:00.000000 1234 torch/_logging/structured.py:100] {\"str\": [\"x\", " +
            std::to_string(i) + "]}\n";
  return text;
}

}  // namespace

TEST_CASE("a log cut after it was mapped reads as zeros past its new end and says it shrank") {
  aoti::test::TempDir dir;
  const auto path = dir.path / "trace.log";
  const std::string text = trace_text();
  aoti::test::write_file(path, text);
  auto bytes = FileBytes::open(path);
  REQUIRE(bytes);
  REQUIRE(bytes->view().size() == text.size());
  CHECK(bytes->changed_while_read().empty());
  REQUIRE(::truncate(path.c_str(), 4096) == 0);
  const std::string_view view = bytes->view();
  CHECK(view.substr(0, 4) == "V120");
  CHECK(view[text.size() - 2] == '\0');  // SIGBUS without the guard
  const std::string change = bytes->changed_while_read();
  CHECK(change.find("shrank while it was read") != std::string::npos);
  CHECK(change.find("4 KiB after") != std::string::npos);
}

TEST_CASE("a log that grew while it was read is read to its size when opened, and says so") {
  aoti::test::TempDir dir;
  const auto path = dir.path / "trace.log";
  aoti::test::write_file(path, trace_text());
  auto bytes = FileBytes::open(path);
  REQUIRE(bytes);
  std::ofstream(path, std::ios::app) << trace_text();
  CHECK(bytes->changed_while_read().find("grew while it was read") != std::string::npos);
}
