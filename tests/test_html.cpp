// The HTML reports in a real browser: headless Chromium (Debian's `chromium`) loads the file, the
// DOM it builds holds the findings and the diagrams, and the console shows no error.
#include <doctest/doctest.h>

#include <cstdlib>

#include "tests/support.hpp"

namespace {
using namespace aoti::test;
namespace fs = std::filesystem;

struct Rendered {
  std::string dom;
  std::string log;
};

// Loads `page` in headless Chromium, as the project's machines run it (root, no network, no GPU).
Rendered render(const fs::path& page, const TempDir& tmp) {
  const fs::path profile = tmp.path / "profile";
  const fs::path log = tmp.path / "chromium.log";
  const std::string command =
      "timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
      "--disable-background-networking --disable-component-update --disable-sync "
      "--enable-logging=stderr --v=0 "
      "--user-data-dir=" +
      shell_quote(profile.string()) + " --dump-dom " + shell_quote("file://" + page.string()) +
      " > " + shell_quote((tmp.path / "dom.html").string()) + " 2> " + shell_quote(log.string());
  REQUIRE(std::system(command.c_str()) == 0);
  return {read_file(tmp.path / "dom.html"), read_file(log)};
}

// Console messages of the page itself (Chromium's own dbus and GPU noise is not the page's).
bool console_errors(const std::string& log) {
  return log.find("CONSOLE") != std::string::npos || log.find("Uncaught") != std::string::npos;
}

}  // namespace

TEST_CASE("the HTML report of embedding-device-assert renders its findings and diagrams") {
  TempDir tmp;
  const fs::path page = tmp.path / "report.html";
  const auto run = run_cli("--format html -o " + shell_quote(page.string()) + " " +
                           shell_quote(corpus_case("embedding-device-assert").string()));
  REQUIRE(run.exit_code == 0);
  const std::string html = read_file(page);
  // Self-contained: nothing fetched from anywhere. The only URL is the SVG namespace, which names
  // the vocabulary and is never fetched.
  std::size_t urls = 0;
  for (auto at = html.find("http://"); at != std::string::npos;
       at = html.find("http://", at + 1), ++urls)
    CHECK_MESSAGE(html.compare(at, 26, "http://www.w3.org/2000/svg") == 0, html.substr(at, 80));
  CHECK(urls >= 1);  // the diagrams are there
  CHECK(html.find("https://") == std::string::npos);
  CHECK(html.find("<script") == std::string::npos);

  const Rendered r = render(page, tmp);
  CHECK(r.dom.find("Index out of bounds in Triton kernel") != std::string::npos);
  CHECK(r.dom.find("triton.index-out-of-bounds") != std::string::npos);
  CHECK(r.dom.find("<svg") != std::string::npos);        // the chain and the crashing thread
  CHECK(r.dom.find("thread 729") != std::string::npos);  // the core's crashing thread diagram
  CHECK(r.dom.find("AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT") != std::string::npos);
  CHECK_FALSE(console_errors(r.log));
}

TEST_CASE("the HTML report of a scan renders every package") {
  TempDir tmp;
  const fs::path page = tmp.path / "scan.html";
  const auto run = run_cli("scan --format html -o " + shell_quote(page.string()) + " " +
                           shell_quote(corpus_dir().string()));
  REQUIRE(run.exit_code == 0);
  const Rendered r = render(page, tmp);
  for (const auto& name : k_corpus_cases) {
    INFO(name);
    CHECK(r.dom.find(name + "/model.pt2") != std::string::npos);
  }
  CHECK(r.dom.find("customop.fake-static-shape") != std::string::npos);
  CHECK_FALSE(console_errors(r.log));
}
