// The CLI end to end: options, exit codes, and bad input (every kind the issue lists) — a clear
// diagnostic naming the file and the reason, the rest of the report intact, never a crash.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <zip.h>
#include <nlohmann/json.hpp>

#include "tests/support.hpp"

namespace {
using namespace aoti::test;
namespace fs = std::filesystem;
using nlohmann::json;

// The diagnostics of a JSON report that name `artifact`.
std::vector<std::string> diagnostics_for(const json& report, const std::string& artifact) {
  std::vector<std::string> out;
  for (const auto& d : report["diagnostics"])
    if (d["artifact"].get<std::string>().find(artifact) != std::string::npos)
      out.push_back(d["message"]);
  return out;
}

const fs::path k_healthy = aoti::test::corpus_case("healthy-cuda-dynamic") / "model.pt2";

}  // namespace

TEST_CASE("informational options") {
  TempDir tmp;
  const CliRun version = run_cli("--version");
  CHECK(version.exit_code == 0);
  CHECK(version.out.find("aoti-analyze ") == 0);

  const CliRun help = run_cli("--help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--fail-on") != std::string::npos);

  const CliRun list = run_cli("--list-checks");
  CHECK(list.exit_code == 0);
  CHECK(list.out.find("triton.index-out-of-bounds") != std::string::npos);

  const CliRun explain = run_cli("--explain runtime.cxx-runtime-conflict");
  CHECK(explain.exit_code == 0);
  CHECK(explain.out.find("# runtime.cxx-runtime-conflict") == 0);

  CHECK(run_cli("--explain no.such-check").exit_code == 2);
  CHECK(run_cli("--format yaml " + shell_quote(k_healthy.string())).exit_code == 2);
  CHECK(run_cli("--fail-on fatal " + shell_quote(k_healthy.string())).exit_code == 2);
  CHECK(run_cli("").exit_code == 2);
}

TEST_CASE("--fail-on sets the exit code from the worst finding") {
  TempDir tmp;
  const std::string embedding =
      shell_quote(aoti::test::corpus_case("embedding-device-assert").string());
  CHECK(run_cli(embedding).exit_code == 0);
  CHECK(run_cli("--fail-on error " + embedding).exit_code == 1);
  // The healthy package alone has only a note.
  const std::string healthy =
      shell_quote(aoti::test::corpus_package("healthy-cuda-dynamic").string());
  CHECK(run_cli("--fail-on warning " + healthy).exit_code == 0);
  CHECK(run_cli("--fail-on note " + healthy).exit_code == 1);
}

TEST_CASE("-o writes the report to the file and nothing else") {
  TempDir tmp;
  const fs::path out = tmp.path / "report.sarif";
  const CliRun run = run_cli("--format sarif -o " + shell_quote(out.string()) + " " +
                             shell_quote(k_healthy.string()));
  CHECK(run.exit_code == 0);
  CHECK(run.out.empty());
  const json sarif = json::parse(aoti::test::read_file(out));
  CHECK(sarif["version"] == "2.1.0");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(tmp.path)) ++files;
  CHECK(files == 1);
}

TEST_CASE("bad input: a diagnostic naming the file and the reason, the rest still analyzed") {
  TempDir tmp;
  const std::string good = shell_quote(k_healthy.string());

  SUBCASE("a truncated .pt2") {
    const std::string bytes = aoti::test::read_file(k_healthy);
    const fs::path cut = tmp.path / "cut.pt2";
    write_file(cut, bytes.substr(0, bytes.size() / 2));
    const CliRun run = run_cli("--format json " + shell_quote(cut.string()) + " " + good);
    CHECK(run.exit_code == 0);  // the good package was analyzed
    const json report = json::parse(run.out);
    const auto diags = diagnostics_for(report, "cut.pt2");
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].find("truncated") != std::string::npos);
    CHECK(report["findings"].size() >= 1);
    CHECK(run.err.find("cut.pt2") != std::string::npos);
    // Alone, nothing could be analyzed: exit 2.
    CHECK(run_cli(shell_quote(cut.string())).exit_code == 2);
  }
  SUBCASE("a file named .pt2 that is not a zip") {
    const fs::path fake = tmp.path / "model.pt2";
    write_file(fake, "this is not a zip archive\n");
    const CliRun run = run_cli("--format json " + shell_quote(fake.string()));
    CHECK(run.exit_code == 2);
    const auto diags = diagnostics_for(json::parse(run.out), "model.pt2");
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].find("not a zip") != std::string::npos);
  }
  SUBCASE("a zip without archive_format") {
    const fs::path path = tmp.path / "plain.zip";
    int err = 0;
    zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    REQUIRE(z != nullptr);
    static const char k_text[] = "hello";
    zip_file_add(z, "hello.txt", zip_source_buffer(z, k_text, 5, 0), ZIP_FL_OVERWRITE);
    REQUIRE(zip_close(z) == 0);
    const CliRun run = run_cli("--format json " + shell_quote(path.string()) + " " + good);
    CHECK(run.exit_code == 0);
    const auto diags = diagnostics_for(json::parse(run.out), "plain.zip");
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].find("archive_format") != std::string::npos);
  }
  SUBCASE("a wrapper with garbage in it still yields its facts") {
    std::string text = aoti::test::corpus_entry_text("embedding-device-assert", ".wrapper.cpp");
    const std::size_t middle = text.find("void AOTInductorModel::run_impl");
    REQUIRE(middle != std::string::npos);
    text.insert(middle, std::string("\x01\xff garbage {{{{ ((( \"unterminated\n", 32) +
                            std::string(5000, '#') + "\n");
    const fs::path path = tmp.path / "x.wrapper.cpp";
    write_file(path, text);
    const fs::path log = tmp.path / "stderr.txt";
    write_file(log, aoti::test::read_file(aoti::test::corpus_case("embedding-device-assert") /
                                          "stderr.txt"));
    const CliRun run =
        run_cli("--format json " + shell_quote(path.string()) + " " + shell_quote(log.string()));
    CHECK(run.exit_code == 0);
    const json report = json::parse(run.out);
    REQUIRE(!report["findings"].empty());
    CHECK(report["findings"][0]["check"] == "triton.index-out-of-bounds");
  }
  SUBCASE("a wrapper that is pure garbage") {
    const fs::path path = tmp.path / "junk.wrapper.cpp";
    std::string junk(4096, '\0');
    for (std::size_t i = 0; i < junk.size(); ++i) junk[i] = static_cast<char>((i * 131) % 251);
    write_file(path, junk);
    const CliRun run = run_cli("--format json " + shell_quote(path.string()) + " " + good);
    CHECK(run.exit_code == 0);
    const json report = json::parse(run.out);
    bool named = false;
    for (const auto& a : report["artifacts"])
      if (a["path"].get<std::string>().find("junk.wrapper.cpp") != std::string::npos)
        named = !a["analyzed"].get<bool>();
    CHECK(named);
  }
  SUBCASE("a 1 GiB log with no newline") {
    const fs::path path = tmp.path / "huge.log";
    {
      const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
      REQUIRE(fd >= 0);
      const std::string text(1 << 20, 'a');  // text up front, so the file sniffs as a log
      REQUIRE(::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
      REQUIRE(::ftruncate(fd, 1ll << 30) == 0);  // the rest sparse: costs no disk
      ::close(fd);
    }
    const CliRun run = run_cli("--format json " + shell_quote(path.string()) + " " + good);
    CHECK(run.exit_code == 0);
    const auto diags = diagnostics_for(json::parse(run.out), "huge.log");
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].find("longer than") != std::string::npos);
  }
  SUBCASE("an unreadable path") {
    const fs::path missing = tmp.path / "no-such-file.pt2";
    const fs::path dangling = tmp.path / "dangling";
    fs::create_symlink(tmp.path / "nowhere", dangling);
    const CliRun run = run_cli("--format json " + shell_quote(missing.string()) + " " +
                               shell_quote(dangling.string()) + " " + good);
    CHECK(run.exit_code == 0);
    const json report = json::parse(run.out);
    CHECK(diagnostics_for(report, "no-such-file.pt2").size() == 1);
    CHECK(diagnostics_for(report, "dangling").size() == 1);
    CHECK(run_cli(shell_quote(missing.string())).exit_code == 2);
    if (::geteuid() != 0) {  // root reads anything: permission bits cannot make a file unreadable
      const fs::path locked = tmp.path / "locked.log";
      write_file(locked,
                 "Error: input_handles[0]: unmatched dtype, expected: 6(at::kFloat), but got: 5\n");
      fs::permissions(locked, fs::perms::none);
      CHECK(diagnostics_for(
                json::parse(
                    run_cli("--format json " + shell_quote(locked.string()) + " " + good).out),
                "locked.log")
                .size() == 1);
    }
  }
}

TEST_CASE("--backtrace names at least the frames gdb names for the crashing thread, in order") {
  for (const char* name :
       {"load-crash-static-libstdcxx", "cpu-package-cuda-input-segv", "embedding-device-assert"}) {
    INFO(name);
    const auto dir = aoti::test::corpus_case(name);
    const CliRun run = run_cli("--backtrace " + shell_quote((dir / "core.xz").string()) + " " +
                               shell_quote((dir / "model.pt2").string()));
    REQUIRE(run.exit_code == 0);
    const std::size_t crashed = run.out.find("(crashed):");
    REQUIRE(crashed != std::string::npos);
    const std::string thread =
        run.out.substr(crashed, run.out.find("\nThread ", crashed) - crashed);
    // gdb's names, by the function's own name (several aliases can share one address).
    std::istringstream frames(aoti::test::read_file(
        aoti::test::source_dir() / "tests/data/gdb_frames" / (std::string(name) + ".txt")));
    std::string frame;
    std::size_t at = 0;
    while (std::getline(frames, frame)) {
      if (frame.empty() || frame[0] == '#') continue;
      std::string function = frame.substr(0, frame.find('('));
      function =
          function.substr(function.rfind("::") == std::string::npos ? 0 : function.rfind("::") + 2);
      const std::size_t found = thread.find(function, at);
      INFO("gdb frame " << frame);
      CHECK(found != std::string::npos);
      if (found != std::string::npos) at = found;
    }
  }
  CHECK(run_cli("--backtrace " + shell_quote(k_healthy.string())).exit_code == 2);  // not a core
}

TEST_CASE("a core paired with the wrong package: a diagnostic, the package still analyzed") {
  const auto core = aoti::test::corpus_case("load-crash-static-libstdcxx") / "core.xz";
  const CliRun run = run_cli("--format json " + shell_quote(core.string()) + " " +
                             shell_quote(k_healthy.string()));
  CHECK(run.exit_code == 0);
  const json report = json::parse(run.out);
  bool named = false;
  for (const auto& d : report["diagnostics"])
    named = named || (d["artifact"].get<std::string>().find("core.xz") != std::string::npos &&
                      d["message"].get<std::string>().find("build-id") != std::string::npos);
  CHECK(named);
  bool checks_off = false;
  for (const auto& f : report["findings"])
    checks_off = checks_off || f["check"] == "shape.input-checks-off";
  CHECK(checks_off);
}

// tlparse's own test logs, beside the repository (../shared/peer-inputs/tlparse); doctest reports
// the test as skipped where they are absent.
namespace {
const fs::path k_tlparse_logs =
    aoti::test::source_dir() / ".." / "shared" / "peer-inputs" / "tlparse";
}  // namespace

TEST_CASE("--summary reads every tlparse test log without a crash" *
          doctest::skip(!fs::exists(k_tlparse_logs))) {
  std::size_t read = 0;
  for (const auto& entry : fs::recursive_directory_iterator(k_tlparse_logs)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".log") continue;
    INFO(entry.path().string());
    const CliRun run = run_cli("--summary " + shell_quote(entry.path().string()));
    if (entry.file_size() == 0) {
      // Nothing to read: a usage error, said on stderr, no summary.
      CHECK(run.exit_code == 2);
      CHECK(run.err.find(entry.path().string() + ": empty file") != std::string::npos);
      CHECK(run.out.empty());
      continue;
    }
    CHECK(run.exit_code == 0);
    CHECK(run.out.find("records by kind:") != std::string::npos);
    ++read;
    if (entry.path().filename() == "simple_corrupted_json.log")
      CHECK(run.out.find("line 13") != std::string::npos);
  }
  CHECK(read >= 10);
}

TEST_CASE("FIFOs, devices, sockets and link loops are named and skipped, never opened blocking") {
  TempDir tmp;
  const fs::path fifo = tmp.path / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string quoted = shell_quote(fifo.string());

  SUBCASE("--summary and --backtrace on a FIFO") {
    for (const std::string option : {"--summary ", "--backtrace "}) {
      INFO(option);
      const CliRun run = run_cli(option + quoted, 20);
      CHECK(run.exit_code == 2);
      CHECK(run.err.find(fifo.string()) != std::string::npos);
      CHECK(run.err.find("not a regular file: a FIFO") != std::string::npos);
    }
  }
  SUBCASE("--summary on a character device") {
    const CliRun run = run_cli("--summary /dev/zero", 20);
    CHECK(run.exit_code == 2);
    CHECK(run.err.find("/dev/zero") != std::string::npos);
    CHECK(run.err.find("not a regular file: a character device") != std::string::npos);
  }
  SUBCASE("a FIFO given as an input, beside a package") {
    const CliRun run =
        run_cli("--format json " + quoted + " " + shell_quote(k_healthy.string()), 20);
    CHECK(run.exit_code == 0);
    const auto diags = diagnostics_for(json::parse(run.out), "pipe");
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].find("a FIFO") != std::string::npos);
  }
  SUBCASE("inside a folder: each named with why, bounded") {
    const fs::path folder = tmp.path / "case";
    fs::create_directory(folder);
    fs::copy_file(k_healthy, folder / "model.pt2");
    REQUIRE(::mkfifo((folder / "fifo").c_str(), 0600) == 0);
    fs::create_symlink(folder / "loop", folder / "loop");
    fs::create_symlink("/dev/zero", folder / "zero");
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(sock >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string sock_path = (folder / "sock").string();
    REQUIRE(sock_path.size() < sizeof address.sun_path);
    std::memcpy(address.sun_path, sock_path.c_str(), sock_path.size() + 1);
    const bool bound =
        ::bind(sock, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
    ::close(sock);
    REQUIRE(bound);
    for (int i = 0; i < 25; ++i)
      REQUIRE(::mkfifo((folder / ("zz-many-" + std::to_string(100 + i))).c_str(), 0600) == 0);

    const CliRun run = run_cli("--format json " + shell_quote(folder.string()), 20);
    CHECK(run.exit_code == 0);
    const json report = json::parse(run.out);
    CHECK(report["findings"].size() >= 1);
    std::map<std::string, std::string> why;
    for (const auto& d : report["diagnostics"])
      why[fs::path(d["artifact"].get<std::string>()).filename().string()] =
          d["message"].get<std::string>();
    // 29 entries skipped: the first 20 by path, then the count of the rest.
    CHECK(why["fifo"].find("not a regular file: a FIFO") != std::string::npos);
    CHECK(why["loop"].find("symbolic links") != std::string::npos);
    CHECK(why["zero"].find("a character device") != std::string::npos);
    CHECK(why["sock"].find("a socket") != std::string::npos);
    CHECK(why["case"].find("9 more entries") != std::string::npos);
  }
}

TEST_CASE("bad sources: diagnostics naming the file, the rest of the report intact") {
  TempDir tmp;
  write_file(tmp.path / "broken.cpp",
             "#include <torch/extension.h>\nat::Tensor f_meta(const at::Tensor& x) {\n"
             "  int64_t n = x.size(0);\n  int64_t broken = n +;\n"
             "  return at::empty({n}, x.options());\n}\n"
             "TORCH_LIBRARY_IMPL(mylib, Meta, m) { m.impl(\"f\", f_meta); }\n");
  std::string binary(2048, '\0');
  for (std::size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>(i * 7);
  write_file(tmp.path / "binary.cpp", binary);
  write_file(tmp.path / "fake.py",
             "import torch\n@torch.library.register_fake(\"mylib::g\")\ndef _(x):\n"
             "    return x.new_empty(int(x.shape[0])\n\ndef broken(:\n    pass\n");
  const CliRun run = run_cli("--format json " + shell_quote(tmp.path.string()) + " " +
                             shell_quote(k_healthy.string()));
  CHECK(run.exit_code == 0);
  const json report = json::parse(run.out);
  std::set<std::string> diagnosed;
  for (const auto& d : report["diagnostics"])
    diagnosed.insert(fs::path(d["artifact"].get<std::string>()).filename());
  CHECK(diagnosed.count("broken.cpp") == 1);
  CHECK(diagnosed.count("binary.cpp") == 1);
  CHECK(diagnosed.count("fake.py") == 1);
  std::set<std::string> checks;
  for (const auto& f : report["findings"]) checks.insert(f["check"]);
  CHECK(checks.count("customop.meta-not-symint") == 1);  // recovered from the broken C++
  CHECK(checks.count("shape.input-checks-off") == 1);    // the package's findings are still there
}

namespace {
// The widest line (in code points) of the first finding's "what" block of a text report.
std::size_t what_block_width(std::string text) {
  std::erase(text, '\r');  // a pseudo-terminal turns \n into \r\n
  std::size_t at = text.find("      what      "), widest = 0;
  while (at != std::string::npos && at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    if (widest > 0 && line.rfind(std::string(16, ' '), 0) != 0) break;
    widest = std::max<std::size_t>(
        widest, static_cast<std::size_t>(std::count_if(line.begin(), line.end(), [](char ch) {
          return (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
        })));
    at = end + 1;
  }
  return widest;
}

std::string run_shell(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[65536];
  for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    out.append(buffer, got);
  ::pclose(pipe);
  return out;
}
}  // namespace

TEST_CASE("an extension tree: schema, meta kernel, project macro and Python fake in four files") {
  // The layout of real extensions: the schema in one file, the Meta kernel in another registered
  // through the project's macro from a header folder, the Python fake in a third; ops matched by
  // name. The macro's name says no dispatch key: without the compile_commands.json that puts
  // csrc/ on the header path it cannot be resolved, and a diagnostic says so.
  TempDir tree;
  fs::create_directories(tree.path / "csrc" / "ext");
  fs::create_directories(tree.path / "src");
  fs::create_directories(tree.path / "python");
  write_file(tree.path / "csrc" / "ext" / "dispatch.h",
             "#pragma once\n#include <torch/library.h>\n#define EXT_SHAPE_FN(name, function) \\\n"
             "  m.impl(name, torch::dispatch(c10::DispatchKey::Meta, TORCH_FN(function)))\n");
  write_file(tree.path / "src" / "ops.cpp",
             "#include <torch/library.h>\nTORCH_LIBRARY(ext, m) {\n"
             "  m.def(\"pad_rows(Tensor x, SymInt rows) -> Tensor\");\n"
             "  m.def(\"tile(Tensor x, int reps) -> Tensor\");\n"
             "  m.def(\"gather_rows(Tensor x, Tensor idx) -> Tensor\");\n}\n");
  write_file(
      tree.path / "src" / "ops_meta.cpp",
      "#include \"ext/dispatch.h\"\n"
      "at::Tensor pad_rows_meta(const at::Tensor& x, int64_t rows) {\n"
      "  return at::empty({rows, x.sym_size(1).guard_int(__FILE__, __LINE__)}, x.options());\n"
      "}\n"
      "at::Tensor tile_meta(const at::Tensor& x, int64_t reps) {\n"
      "  return at::empty({reps}, x.options());\n}\n"
      "TORCH_LIBRARY_IMPL(ext, Meta, m) {\n  EXT_SHAPE_FN(\"pad_rows\", pad_rows_meta);\n"
      "  EXT_SHAPE_FN(\"tile\", tile_meta);\n}\n");
  write_file(tree.path / "python" / "fakes.py",
             "import torch\n\n@torch.library.register_fake(\"ext::gather_rows\")\n"
             "def _(x, idx):\n    n = len(idx)\n    return x.new_empty(n, x.shape[1])\n");
  const auto titles = [](const json& report) {
    std::set<std::string> out;
    for (const auto& f : report["findings"]) out.insert(f["title"].get<std::string>());
    return out;
  };
  // gather_rows: its fake's `idx` is untyped; the C++ schema says Tensor, so len(idx) reads a size.
  const std::string fake = "Fake kernel `_` of `ext::gather_rows` is not SymInt-aware (line 5)";
  const std::string meta =
      "Meta kernel `pad_rows_meta` of `ext::pad_rows` is not SymInt-aware (lines 2, 3)";

  const json without = json::parse(run_cli("--format json " + shell_quote(tree.path.string())).out);
  CHECK(titles(without) == std::set<std::string>{fake});
  std::size_t unresolved = 0;
  for (const auto& d : without["diagnostics"])
    unresolved += d["message"].get<std::string>().find("EXT_SHAPE_FN(\"ext::pad_rows\", ...)") !=
                  std::string::npos;
  CHECK(unresolved == 1);

  fs::create_directories(tree.path / "build");
  const std::string dir = (tree.path / "build").string();
  json database = json::array();
  for (const char* file : {"ops.cpp", "ops_meta.cpp"})
    database.push_back(
        {{"directory", dir},
         {"file", (tree.path / "src" / file).string()},
         {"arguments",
          {"c++", "-I../csrc", "-std=c++17", "-c", (tree.path / "src" / file).string()}}});
  write_file(tree.path / "build" / "compile_commands.json", database.dump(2));
  const CliRun run = run_cli("--format json " + shell_quote(tree.path.string()));
  CHECK(run.exit_code == 0);
  const json report = json::parse(run.out);
  CHECK(report["diagnostics"].empty());
  // pad_rows: the schema in ops.cpp says SymInt rows; the kernel takes int64_t and builds the
  // shape from it. tile: the schema says int reps, so the same code is no SymInt problem.
  CHECK(titles(report) == std::set<std::string>{fake, meta});
  for (const auto& f : report["findings"]) {
    if (f["title"] != meta) continue;
    bool schema_shown = false;
    for (const auto& e : f["evidence"])
      schema_shown = schema_shown ||
                     (e["artifact"].get<std::string>().ends_with("src/ops.cpp") && e["line"] == 3);
    CHECK(schema_shown);
  }
  bool database_read = false;
  for (const auto& a : report["artifacts"])
    database_read = database_read || (a["kind"] == "compile-db" && a["analyzed"] == true);
  CHECK(database_read);
}

TEST_CASE("the text report wraps to the terminal's width, and to 100 columns in pipes and files") {
  const std::string analyze =
      shell_quote(AOTI_BINARY) + " " +
      shell_quote(aoti::test::corpus_case("custom-op-kernel-crash").string()) + " 2>/dev/null";
  // A pipe: 100 columns, whatever $COLUMNS says (it describes the terminal, not the pipe).
  const std::size_t piped = what_block_width(run_shell("COLUMNS=60 " + analyze));
  CHECK(piped > 60);
  CHECK(piped <= 100);
  if (std::system("command -v script >/dev/null 2>&1") != 0) {
    MESSAGE("util-linux script is not installed: the terminal cases are not run");
    return;
  }
  // On a terminal (script runs the command on a pseudo-terminal): $COLUMNS first, else the
  // terminal's own size (ioctl TIOCGWINSZ), set here with stty.
  const auto on_terminal = [](const std::string& command) {
    return run_shell("script -qec " + shell_quote(command) + " /dev/null");
  };
  const std::size_t columns = what_block_width(on_terminal("COLUMNS=60 " + analyze));
  CHECK(columns > 40);
  CHECK(columns <= 60);
  const std::size_t ioctl =
      what_block_width(on_terminal("stty cols 72; env -u COLUMNS " + analyze));
  CHECK(ioctl > 60);
  CHECK(ioctl <= 72);
}

TEST_CASE("--backtrace takes a bare model .so as it takes a package") {
  TempDir tmp;
  const std::string entry =
      aoti::test::corpus_entry_name("load-crash-static-libstdcxx", ".wrapper.so");
  const fs::path so = tmp.path / fs::path(entry).filename();
  write_file(so, aoti::test::corpus_entry_text("load-crash-static-libstdcxx", ".wrapper.so"));
  const auto core = aoti::test::corpus_case("load-crash-static-libstdcxx") / "core.xz";
  const CliRun run =
      run_cli("--backtrace " + shell_quote(core.string()) + " " + shell_quote(so.string()));
  REQUIRE(run.exit_code == 0);
  // The model's frames are named from the .so and marked as the model's.
  CHECK(run.out.find("in torch::aot_inductor::parse_device_str") != std::string::npos);
  CHECK(run.out.find("[model " + so.string() + "]") != std::string::npos);
  // Where unwinding ends, the stack scan's frames are introduced as candidates.
  CHECK(
      run.out.find("-- candidates: return addresses found on the stack, not an unwound path --") !=
      std::string::npos);
}

TEST_CASE("a folder's text files are logs only when their names say so; a named file always is") {
  TempDir tmp;
  const auto tree = tmp.path / "ext";
  fs::create_directories(tree / "docs");
  // Doxygen's template quotes `error:` in its prose; CMake and YAML are build files.
  write_file(tree / "docs" / "Doxyfile.in",
             "# The WARN_FORMAT tag ... \"$file:$line: $text\"\nfatal error: see below\n");
  write_file(tree / "CMakeLists.txt", "message(FATAL_ERROR \"error: CUDA not found\")\n");
  write_file(tree / "ci.yml", "run: echo 'error: boom'\n");
  write_file(tree / "stderr.txt", "RuntimeError: CUDA error: device-side assert triggered\n");
  const auto run = run_cli("--format json " + shell_quote(tree.string()));
  REQUIRE(run.exit_code == 0);
  const auto report = json::parse(run.out);
  std::set<std::string> logs;
  for (const auto& artifact : report["artifacts"])
    if (artifact["kind"] == "log")
      logs.insert(fs::path(artifact["path"].get<std::string>()).filename());
  CHECK(logs == std::set<std::string>{"stderr.txt"});
  REQUIRE(!report["findings"].empty());
  CHECK(
      report["findings"][0]["evidence"][0]["artifact"].get<std::string>().ends_with("stderr.txt"));
  // Named on the command line, the same file is read as the user said.
  const auto named = run_cli("--format json " + shell_quote((tree / "ci.yml").string()));
  bool read_as_log = false;
  const auto named_report = json::parse(named.out);
  for (const auto& artifact : named_report["artifacts"])
    read_as_log = read_as_log || artifact["kind"] == "log";
  CHECK(read_as_log);
}

TEST_CASE("the op inventory: every op defined or implemented, its schema's place and kernels") {
  TempDir tree;
  fs::create_directories(tree.path / "src");
  // The second def's tag comes from a header that is not here: clang drops that call, the schema
  // is still read.
  write_file(tree.path / "src" / "ops.cpp",
             "#include <torch/library.h>\nTORCH_LIBRARY(ext, m) {\n"
             "  m.def(\"pad_rows(Tensor x, SymInt rows) -> Tensor\");\n"
             "  m.def(\n      \"tile(Tensor x, \"\n      \"int reps) -> Tensor\",\n"
             "      {EXT_PT2_TAG});\n}\n");
  write_file(tree.path / "src" / "cuda.cpp",
             "#include <torch/library.h>\n#include <ATen/ATen.h>\n"
             "at::Tensor pad_cuda(const at::Tensor& x, int64_t rows) { return x; }\n"
             "at::Tensor orphan_cuda(const at::Tensor& x) { return x; }\n"
             "TORCH_LIBRARY_IMPL(ext, CUDA, m) {\n  m.impl(\"pad_rows\", pad_cuda);\n"
             "  m.impl(\"orphan\", orphan_cuda);\n}\n");
  write_file(tree.path / "src" / "notes.cpp", "int helper() { return 1; }\n");
  const auto run = run_cli("--format json " + shell_quote(tree.path.string()));
  REQUIRE(run.exit_code == 0);
  const auto report = json::parse(run.out);
  std::map<std::string, json> ops;
  for (const auto& op : report["ops"]) ops[op["name"].get<std::string>()] = op;
  REQUIRE(ops.count("ext::pad_rows"));
  CHECK(ops["ext::pad_rows"]["defined_line"] == 3);
  REQUIRE(ops["ext::pad_rows"]["kernels"].size() == 1);
  CHECK(ops["ext::pad_rows"]["kernels"][0]["dispatch_key"] == "CUDA");
  CHECK(ops["ext::pad_rows"]["kernels"][0]["function"] == "pad_cuda");
  REQUIRE(ops.count("ext::tile"));
  CHECK(ops["ext::tile"]["schema"] == "tile(Tensor x, int reps) -> Tensor");
  CHECK(ops["ext::tile"]["defined_line"] == 4);
  REQUIRE(ops.count("ext::orphan"));
  CHECK(ops["ext::orphan"]["defined_in"].is_null());
  CHECK(ops.size() == 3);
  // The file that registers nothing was skimmed, not parsed.
  for (const auto& artifact : report["artifacts"])
    if (artifact["path"].get<std::string>().ends_with("notes.cpp"))
      CHECK(artifact["note"].get<std::string>().find("read as text only") != std::string::npos);
  // The text report lists them.
  const auto text = run_cli(shell_quote(tree.path.string()));
  CHECK(text.out.find("ext::orphan (not defined in the sources); kernels: CUDA cuda.cpp:7") !=
        std::string::npos);
}

TEST_CASE("a project's *_EXPAND registration macros: schemas and a Meta kernel through them") {
  // vLLM's layout: the macros in csrc/core/registration.h (which includes <Python.h>, absent
  // here), the schemas in one file, the Meta kernel in a TORCH_LIBRARY_IMPL_EXPAND block in
  // another.
  TempDir tree;
  fs::create_directories(tree.path / "csrc" / "core");
  write_file(tree.path / "csrc" / "core" / "registration.h",
             "#pragma once\n#include <Python.h>\n"
             "#define TORCH_LIBRARY_EXPAND(NAME, MODULE) TORCH_LIBRARY(NAME, MODULE)\n"
             "#define TORCH_LIBRARY_IMPL_EXPAND(NAME, DEVICE, MODULE) \\\n"
             "  TORCH_LIBRARY_IMPL(NAME, DEVICE, MODULE)\n");
  write_file(tree.path / "csrc" / "bindings.cpp",
             "#include \"core/registration.h\"\n#include <torch/library.h>\n"
             "TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {\n"
             "  ops.def(\n      \"scaled_gemm(Tensor a, Tensor b, \"\n"
             "      \"SymInt split_k) -> Tensor\");\n}\n");
  write_file(tree.path / "csrc" / "meta.cpp",
             "#include \"core/registration.h\"\n#include <torch/library.h>\n"
             "at::Tensor scaled_gemm_meta(const at::Tensor& a, const at::Tensor& b, int64_t k) {\n"
             "  int rows = a.sizes()[0];\n  return at::empty({rows, b.size(1)}, a.options());\n}\n"
             "TORCH_LIBRARY_IMPL_EXPAND(TORCH_EXTENSION_NAME, Meta, ops) {\n"
             "  ops.impl(\"scaled_gemm\", &scaled_gemm_meta);\n}\n");
  const auto run = run_cli("--format json " + shell_quote(tree.path.string()));
  REQUIRE(run.exit_code == 0);
  const auto report = json::parse(run.out);
  REQUIRE(report["ops"].size() == 1);
  const auto& op = report["ops"][0];
  CHECK(op["name"] == "TORCH_EXTENSION_NAME::scaled_gemm");
  CHECK(op["schema"] == "scaled_gemm(Tensor a, Tensor b, SymInt split_k) -> Tensor");
  REQUIRE(op["kernels"].size() == 1);
  CHECK(op["kernels"][0]["dispatch_key"] == "Meta");
  CHECK(op["kernels"][0]["symint_aware"] == false);
  bool flagged = false;
  for (const auto& f : report["findings"])
    flagged = flagged || f["check"] == "customop.meta-not-symint";
  CHECK(flagged);
}

TEST_CASE("a block whose namespace is a token-pasting macro, after code that stopped clang") {
  // vLLM's csrc/torch_bindings.cpp: `TORCH_LIBRARY_EXPAND(CONCAT(TORCH_EXTENSION_NAME,
  // _cache_ops), cache_ops)` after more than 50 compile errors (a missing header's cascade), where
  // clang stops: the schemas are read from the block's text, the namespace pasted as CONCAT does.
  TempDir tree;
  std::string broken;
  for (int i = 0; i < 60; ++i) broken += "  STD_TORCH_CHECK(x" + std::to_string(i) + ");\n";
  write_file(
      tree.path / "bindings.cpp",
      "#include <torch/library.h>\n#define _CONCAT(A, B) A##B\n"
      "#define CONCAT(A, B) _CONCAT(A, B)\n"
      "#define TORCH_LIBRARY_EXPAND(NAME, MODULE) TORCH_LIBRARY(NAME, MODULE)\n"
      "void checks() {\n" +
          broken +
          "}\n"
          "TORCH_LIBRARY_EXPAND(CONCAT(TORCH_EXTENSION_NAME, _cache_ops), cache_ops) {\n"
          "  cache_ops.def(\n      \"swap_blocks(Tensor src, Tensor! dst,\"\n"
          "      \"            int block_size_in_bytes, Tensor block_mapping) -> ()\");\n}\n");
  const auto run = run_cli("--format json " + shell_quote(tree.path.string()));
  REQUIRE(run.exit_code == 0);
  const auto report = json::parse(run.out);
  REQUIRE(report["ops"].size() == 1);
  CHECK(report["ops"][0]["name"] == "TORCH_EXTENSION_NAME_cache_ops::swap_blocks");
  CHECK(report["ops"][0]["condition"].is_null());
}

TEST_CASE("a schema in a preprocessor branch the parse did not take is named with its branch") {
  TempDir tree;
  write_file(tree.path / "ops.cpp",
             "#include <torch/library.h>\n"
             "TORCH_LIBRARY(ext, m) {\n"
             "  m.def(\"both(Tensor x) -> Tensor\");\n"
             "#ifdef USE_ROCM\n"
             "  m.def(\"rocm_only(Tensor x) -> Tensor\");\n"
             "#else\n"
             "  m.def(\"cuda_only(Tensor x) -> Tensor\");\n"
             "#endif\n"
             "}\n");
  const auto run = run_cli("--format json " + shell_quote(tree.path.string()));
  REQUIRE(run.exit_code == 0);
  const auto report = json::parse(run.out);
  std::map<std::string, json> ops;
  for (const auto& op : report["ops"]) ops[op["name"]] = op;
  REQUIRE(ops.size() == 3);
  CHECK(ops["ext::both"]["condition"].is_null());
  CHECK(ops["ext::cuda_only"]["condition"].is_null());  // the branch the parse took: read from it
  CHECK(ops["ext::rocm_only"]["condition"] == "#ifdef USE_ROCM");
  const auto text = run_cli(shell_quote(tree.path.string()));
  CHECK(text.out.find("ext::rocm_only defined at ops.cpp:5 (under `#ifdef USE_ROCM`)") !=
        std::string::npos);
}
