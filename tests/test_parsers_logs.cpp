// The log scanner on the corpus logs, and on hostile input: huge lines, NUL bytes, invalid UTF-8,
// unreadable paths, a flood of distinct events. One file per family of recognizers beside it.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "tests/parsers_logs_support.hpp"

using namespace aoti::test::logs;
using aoti::parsers::logs::scan_log_file;

namespace {

long max_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

}  // namespace

// ---- the real corpus --------------------------------------------------------------------------

TEST_CASE("input-check-errors: the four AOTI input-check errors") {
  const auto scan = scan_corpus("input-check-errors", "stderr.txt");
  const auto checks = of_kind(scan, LogEventKind::input_check_error);
  REQUIRE(checks.size() == 4);
  CHECK(scan.events.size() == 4);  // the FutureWarning / UserWarning lines are not events

  CHECK(checks[0].problem == "unmatched device type");
  CHECK(checks[0].input_index == 0);
  CHECK(checks[0].dim == -1);
  CHECK(checks[0].expected == "11(cuda)");
  CHECK(checks[0].value == "cuda");
  CHECK(checks[0].actual == "0");
  CHECK(checks[0].where.artifact == "input-check-errors/stderr.txt");
  CHECK(checks[0].where.line == 5);
  CHECK(checks[0].text ==
        "Error: input_handles[0]: unmatched device type, expected: 11(cuda), but got: 0");

  CHECK(checks[1].problem == "dim value is too large");
  CHECK(checks[1].dim == 0);
  CHECK(checks[1].expected == "1024");
  CHECK(checks[1].actual == "4096");

  CHECK(checks[2].problem == "unmatched dtype");
  CHECK(checks[2].expected == "6(at::kFloat)");
  CHECK(checks[2].value == "at::kFloat");
  CHECK(checks[2].actual == "5");

  CHECK(checks[3].problem == "unmatched stride value");
  CHECK(checks[3].dim == 0);
  CHECK(checks[3].expected == "16");
  CHECK(checks[3].actual == "1");
}

TEST_CASE("input-check-errors: the runner's API call failures in stdout fold into one event") {
  const auto scan = scan_corpus("input-check-errors", "stdout.txt");
  const auto failed = of_kind(scan, LogEventKind::api_call_failed);
  REQUIRE(failed.size() == 1);
  const auto& e = failed.front();
  CHECK(e.kind == LogEventKind::api_call_failed);
  CHECK(e.repeats == 4);
  CHECK(e.where.line == 2);
  CHECK(e.source_file == "/pytorch/torch/csrc/inductor/aoti_runner/model_container_runner.cpp");
  CHECK(e.source_line == 144);
  CHECK(e.value == "144");
  CHECK(e.subject.starts_with("run_func_( container_handle_, input_handles.data()"));
  CHECK(e.subject.ends_with("proxy_executor_handle_)"));
}

TEST_CASE("embedding-device-assert: Triton assert, CUDA error, terminate, Python exception") {
  const auto scan = scan_corpus("embedding-device-assert", "stderr.txt");

  const auto asserts = of_kind(scan, LogEventKind::triton_assert);
  REQUIRE(asserts.size() == 1);
  CHECK(asserts[0].subject == "index out of bounds: 0 <= tmp4 < 1000");
  CHECK(asserts[0].repeats == 8);
  CHECK(asserts[0].where.line == 5);
  CHECK(asserts[0].source_file ==
        "/tmp/aoti4/embedding_oob/inductor_cache/d3/"
        "cd3okwxvqua6grd5jkdkkefdmhojjp54tdrdzwugize4oqluxxm3.py");
  CHECK(asserts[0].source_line == 33);

  const auto cuda = of_kind(scan, LogEventKind::cuda_error);
  REQUIRE(cuda.size() == 1);
  CHECK(cuda[0].value == "device-side assert triggered");
  // The exception line, `Search for cudaErrorAssert`, and terminate's what().
  CHECK(cuda[0].repeats == 3);

  const auto terminate = of_kind(scan, LogEventKind::terminate);
  REQUIRE(terminate.size() == 1);
  CHECK(terminate[0].subject == "std::runtime_error");
  CHECK(terminate[0].value == "CUDA error: device-side assert triggered");

  const auto exceptions = of_kind(scan, LogEventKind::python_exception);
  REQUIRE(exceptions.size() == 1);
  CHECK(exceptions[0].subject == "torch.AcceleratorError");
  CHECK(exceptions[0].value == "CUDA error: device-side assert triggered");

  CHECK(scan.events.size() == 4);
  CHECK(scan.diagnostics.empty());
}

TEST_CASE("cpp-meta-sizes: export specialized batch to 8, merged from three lines") {
  const auto scan = scan_corpus("cpp-meta-sizes", "stdout.txt");
  REQUIRE(scan.events.size() == 1);
  const auto& e = scan.events.front();
  CHECK(e.kind == LogEventKind::export_specialized);
  CHECK(e.subject == "batch");
  CHECK(e.value == "8");
  CHECK(e.problem == "specialized to a constant");
  CHECK(e.where.line == 1);
  CHECK(e.repeats == 1);
}

TEST_CASE("cases without an error in their logs give no events") {
  for (const std::string name :
       {"healthy-cuda-dynamic", "const-cpu-buffer", "custom-op-fake-static-rows",
        "cpu-package-cuda-input-segv", "load-crash-static-libstdcxx"}) {
    for (const std::string file : {"stderr.txt", "stdout.txt"}) {
      CAPTURE(name);
      CAPTURE(file);
      const auto scan = scan_corpus(name, file);
      // What the run printed of its results is not an error (healthy-cuda-dynamic prints
      // torch.Size).
      CHECK(std::all_of(scan.events.begin(), scan.events.end(),
                        [](const LogEvent& e) { return e.kind == LogEventKind::observed_shape; }));
      CHECK(scan.diagnostics.empty());
    }
  }
}

TEST_CASE("scanning a file gives what scanning its text gives") {
  const auto path = aoti::test::corpus_case("embedding-device-assert") / "stderr.txt";
  const auto from_file = scan_log_file(path, "stderr.txt");
  REQUIRE(from_file.has_value());
  const auto from_text = scan_log_text(aoti::test::read_file(path), "stderr.txt");
  CHECK(from_file->lines == from_text.lines);
  REQUIRE(from_file->events.size() == from_text.events.size());
  for (std::size_t i = 0; i < from_text.events.size(); ++i) {
    CHECK(from_file->events[i].text == from_text.events[i].text);
    CHECK(from_file->events[i].repeats == from_text.events[i].repeats);
  }
}

// ---- hostile and broken inputs ----------------------------------------------------------------

TEST_CASE("a huge line without newline costs bounded memory and one diagnostic") {
  // 256 MiB keeps the test quick; the scan streams 1 MiB chunks and keeps 64 KiB of a line, so a
  // 1 GiB file behaves the same (measured by hand: see the report).
  constexpr off_t k_size = 256 * 1024 * 1024;
  aoti::test::TempDir dir;
  const auto path = dir.path / "huge.log";
  {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(fd >= 0);
    const std::string head = "start of a line that never ends ";
    REQUIRE(::write(fd, head.data(), head.size()) == static_cast<ssize_t>(head.size()));
    REQUIRE(::ftruncate(fd, k_size) == 0);
    REQUIRE(::lseek(fd, k_size, SEEK_SET) == k_size);
    const std::string tail = "\nSegmentation fault (core dumped)\n";
    REQUIRE(::write(fd, tail.data(), tail.size()) == static_cast<ssize_t>(tail.size()));
    ::close(fd);
  }
  const long rss_before = max_rss_kib();
  const auto start = std::chrono::steady_clock::now();
  const auto scan = scan_log_file(path, "huge.log");
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("scanned 256 MiB in " << seconds << " s");
  REQUIRE(scan.has_value());
  CHECK(scan->lines == 2);
  REQUIRE(scan->events.size() == 1);
  CHECK(scan->events[0].kind == LogEventKind::segfault);
  CHECK(scan->events[0].where.line == 2);
  REQUIRE(scan->diagnostics.size() == 1);
  CHECK(scan->diagnostics[0].artifact == "huge.log");
  CHECK(scan->diagnostics[0].message ==
        "line 1 is longer than 65536 bytes (268435456 bytes); only its first 65536 bytes were "
        "scanned");
  CHECK(max_rss_kib() - rss_before < 32 * 1024);
  CHECK(seconds < 10);
}

TEST_CASE("a line split across read chunks is scanned whole") {
  aoti::test::TempDir dir;
  const auto path = dir.path / "split.log";
  const std::string line =
      "Error: input_handles[0]: unmatched dim value at 1, expected: 16, but got: 8";
  std::string content(1024 * 1024 - 20, 'x');
  content += "\n" + line + "\n";
  aoti::test::write_file(path, content);
  const auto scan = scan_log_file(path, "split.log");
  REQUIRE(scan.has_value());
  REQUIRE(scan->events.size() == 1);
  CHECK(scan->events[0].where.line == 2);
  CHECK(scan->events[0].text == line);
  CHECK(scan->diagnostics.size() == 1);  // the padding line is over 64 KiB
}

TEST_CASE("NUL bytes and invalid UTF-8 are scanned past and never reach the event text") {
  using namespace std::string_literals;
  std::string text = "junk\0\0\xff\xfe junk\n"s;
  text += "\0\0Segmentation fault (core dumped) \xc3\x28\n"s;
  text.append(std::string(1000, '\0'));
  const auto scan = scan_log_text(text, "log");
  REQUIRE(scan.events.size() == 1);
  CHECK(scan.events[0].where.line == 2);
  CHECK(scan.events[0].text.find('\0') == std::string::npos);
  CHECK(scan.events[0].text == "??Segmentation fault (core dumped) ?(");
  CHECK(scan.lines == 3);
}

TEST_CASE("event text is cut at 1000 bytes on a character boundary, the cut marked") {
  std::string text = "CUDA error: device-side assert triggered ";
  for (int i = 0; i < 600; ++i) text += "\xc3\xa9";  // é
  const auto e = only_event(text);
  CHECK(e.text.size() <= 1000);
  // 997 bytes of the line, less a byte when that would split an é, then "…": a quote of it is
  // the line's beginning, cut visibly.
  CHECK(e.text.size() == 997 - (997 - 41) % 2 + 3);
  REQUIRE(e.text.ends_with("\xe2\x80\xa6"));
  CHECK(text.starts_with(e.text.substr(0, e.text.size() - 3)));
}

TEST_CASE("unreadable paths fail with the path and the reason") {
  aoti::test::TempDir dir;
  const auto missing = scan_log_file(dir.path / "missing.log", "missing.log");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().message.find((dir.path / "missing.log").string()) != std::string::npos);
  CHECK(missing.error().message.find("No such file or directory") != std::string::npos);

  const auto folder = scan_log_file(dir.path, "folder");
  REQUIRE_FALSE(folder.has_value());
  CHECK(folder.error().message.find(dir.path.string()) != std::string::npos);
  CHECK(folder.error().message.find("not a regular file: a folder") != std::string::npos);
}

TEST_CASE("an empty file has no lines and no events") {
  aoti::test::TempDir dir;
  aoti::test::write_file(dir.path / "empty.log", "");
  const auto scan = scan_log_file(dir.path / "empty.log", "empty.log");
  REQUIRE(scan.has_value());
  CHECK(scan->lines == 0);
  CHECK(scan->events.empty());
  CHECK(scan->diagnostics.empty());
  CHECK(scan_log_text("", "x").lines == 0);
  CHECK(scan_log_text("no newline at the end", "x").lines == 1);
}

TEST_CASE("distinct events are capped, with a diagnostic") {
  std::string text;
  for (int i = 0; i < 10005; ++i)
    text += "/k.py:" + std::to_string(i + 1) +
            ": unknown: block: [0,0,0], thread: [0,0,0] Assertion `index out of bounds: 0 <= tmp0 "
            "< 4` failed.\n";
  const auto scan = scan_log_text(text, "log");
  CHECK(scan.events.size() == 10000);
  REQUIRE(scan.diagnostics.size() == 1);
  CHECK(scan.diagnostics[0].message == "more than 10000 distinct log events; 5 more were not kept");
}
