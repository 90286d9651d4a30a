// util::LineReader: the bounded line splitter the log scanner and the trace reader share.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/support.hpp"
#include "util/line_reader.hpp"

using aoti::util::CarriageReturn;
using aoti::util::Line;
using aoti::util::LineReader;

namespace {

struct Read {
  std::vector<std::string> texts;
  std::vector<std::uint64_t> lengths;
};

Read read_all(LineReader& reader) {
  Read read;
  Line line;
  while (reader.next(line)) {
    CHECK(line.number == read.texts.size() + 1);
    read.texts.emplace_back(line.text);
    read.lengths.push_back(line.length);
  }
  return read;
}

}  // namespace

TEST_CASE("lines up to the cap come back whole, longer ones cut to the cap and counted") {
  const std::string text =
      std::string(16, 'a') + "\n" + std::string(17, 'b') + "\nshort\n" + std::string(40, 'c');
  for (const bool from_file : {false, true}) {
    CAPTURE(from_file);
    aoti::test::TempDir dir;
    aoti::test::write_file(dir.path / "lines.txt", text);
    LineReader reader =
        from_file ? LineReader(dir.path / "lines.txt", 16) : LineReader::of_text(text, 16);
    REQUIRE(reader.is_open());
    const Read read = read_all(reader);
    CHECK(read.texts == std::vector<std::string>{std::string(16, 'a'), std::string(16, 'b'),
                                                 "short", std::string(16, 'c')});
    CHECK(read.lengths == std::vector<std::uint64_t>{16, 17, 5, 40});
    CHECK(reader.cut_lines() == 2);
    CHECK(reader.first_cut_line() == 2);
    CHECK(reader.first_cut_length() == 17);
    CHECK(reader.error().empty());
  }
}

TEST_CASE("a line longer than the read chunks is cut and its rest skipped") {
  aoti::test::TempDir dir;
  const std::string text = "first\n" + std::string(3 << 20, 'x') + "\nlast";
  aoti::test::write_file(dir.path / "long.txt", text);
  LineReader reader(dir.path / "long.txt", 1024);
  const Read read = read_all(reader);
  CHECK(read.texts == std::vector<std::string>{"first", std::string(1024, 'x'), "last"});
  CHECK(read.lengths[1] == 3u << 20);
  CHECK(reader.bytes_read() == text.size());
}

TEST_CASE("a '\\r' before '\\n' is kept or dropped as asked; an empty last piece is no line") {
  const std::string text = "a\r\nb\r\n\r";
  auto keep = LineReader::of_text(text, 64);
  CHECK(read_all(keep).texts == std::vector<std::string>{"a\r", "b\r", "\r"});
  auto drop = LineReader::of_text(text, 64, CarriageReturn::drop);
  CHECK(read_all(drop).texts == std::vector<std::string>{"a", "b", "\r"});
  auto empty_last = LineReader::of_text("x\n", 64);
  CHECK(read_all(empty_last).texts == std::vector<std::string>{"x"});
}

TEST_CASE("a file that cannot be opened says why") {
  aoti::test::TempDir dir;
  LineReader reader(dir.path / "missing.txt", 64);
  CHECK_FALSE(reader.is_open());
  CHECK(reader.error() == "No such file or directory");
  Line line;
  CHECK_FALSE(reader.next(line));
}
