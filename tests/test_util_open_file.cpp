// Files a user or an input names are opened only when they are regular files, and never block.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include "tests/support.hpp"
#include "util/open_file.hpp"

using aoti::util::open_regular_file;
using aoti::util::regular_file_problem;

TEST_CASE("a regular file opens; a FIFO, a device, a folder and a missing path say why not") {
  aoti::test::TempDir dir;
  aoti::test::write_file(dir.path / "plain.txt", "text\n");
  REQUIRE(::mkfifo((dir.path / "fifo").c_str(), 0600) == 0);

  const auto plain = open_regular_file(dir.path / "plain.txt");
  REQUIRE(plain.has_value());
  char byte = 0;
  CHECK(::read(plain->get(), &byte, 1) == 1);  // blocking reads behave as usual afterwards
  CHECK(regular_file_problem(dir.path / "plain.txt").empty());

  // Without O_NONBLOCK and the type check first, this open would wait for a writer forever.
  CHECK(open_regular_file(dir.path / "fifo").error() == "not a regular file: a FIFO");
  CHECK(open_regular_file("/dev/zero").error() == "not a regular file: a character device");
  CHECK(open_regular_file(dir.path).error() == "not a regular file: a folder");
  CHECK(regular_file_problem(dir.path / "missing") == "No such file or directory");
  CHECK_FALSE(open_regular_file(dir.path / "missing").has_value());
}

TEST_CASE("read_regular_file reads a regular file up to its cap, and nothing else") {
  using aoti::util::read_regular_file;
  aoti::test::TempDir dir;
  const std::string text(10000, 'x');  // past the first read's 4 KiB when the size is unknown
  aoti::test::write_file(dir.path / "plain.txt", text);
  REQUIRE(::mkfifo((dir.path / "fifo").c_str(), 0600) == 0);

  CHECK(read_regular_file(dir.path / "plain.txt", 1 << 20).value() == text);
  CHECK(read_regular_file(dir.path / "plain.txt", 100).value() == text.substr(0, 100));
  CHECK(read_regular_file(dir.path / "fifo", 100).error() == "not a regular file: a FIFO");
  CHECK(read_regular_file("/dev/zero", 100).error() == "not a regular file: a character device");
  CHECK(aoti::util::read_file_head(dir.path / "fifo", 100).empty());
}
