// Helpers shared by tests: paths into the repository and the real corpus.
#pragma once

#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <zip.h>

namespace aoti::test {

inline std::filesystem::path source_dir() { return AOTI_SOURCE_DIR; }
inline std::filesystem::path corpus_dir() { return source_dir() / "corpus"; }
inline std::filesystem::path corpus_case(const std::string& name) { return corpus_dir() / name; }
inline std::filesystem::path corpus_package(const std::string& name) {
  return corpus_case(name) / "model.pt2";
}

// The corpus cases laid out as a deployment leaves them (a package, its stderr and stdout, a
// TORCH_TRACE folder): the parser, scan and HTML tests walk every one, so a new case is covered as
// soon as it is added. Sorted, so failures read in a stable order.
inline std::vector<std::string> seed_layout_cases() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(corpus_dir())) {
    const auto& dir = entry.path();
    if (std::filesystem::is_regular_file(dir / "model.pt2") &&
        std::filesystem::is_regular_file(dir / "stderr.txt") &&
        std::filesystem::is_regular_file(dir / "stdout.txt") &&
        std::filesystem::is_directory(dir / "trace"))
      names.push_back(dir.filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}
inline const std::vector<std::string> k_corpus_cases = seed_layout_cases();

// A private scratch folder (mkdtemp), removed with everything in it.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "aoti-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

inline void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

struct NewEntry {
  std::string name;
  std::string data;
  bool deflate = false;
};

// Writes a zip with libzip; entries are stored unless marked deflate.
inline void write_zip(const std::filesystem::path& path, const std::vector<NewEntry>& entries) {
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  REQUIRE(archive);
  for (const NewEntry& entry : entries) {
    zip_source_t* source = zip_source_buffer(archive, entry.data.data(), entry.data.size(), 0);
    const zip_int64_t index = zip_file_add(archive, entry.name.c_str(), source, ZIP_FL_ENC_UTF_8);
    REQUIRE(index >= 0);
    zip_set_file_compression(archive, static_cast<zip_uint64_t>(index),
                             entry.deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
  }
  REQUIRE(zip_close(archive) == 0);
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `command` with the shell: its stdout, its exit code, and the stderr it wrote to `err`.
inline void run_shell(const std::string& command, const std::filesystem::path& err, CliRun& run) {
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[65536];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, got);
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = read_file(err);
}

// Runs the real aoti-analyze binary with `arguments` (already shell-quoted). With `timeout_s`, a
// run that would hang is killed (exit 124 or 137) so the test fails instead of hanging.
inline CliRun run_cli(const std::string& arguments, int timeout_s = 0) {
  TempDir scratch;
  const auto err = scratch.path / "stderr";
  const std::string command =
      (timeout_s > 0 ? "timeout -k 5 " + std::to_string(timeout_s) + " " : std::string()) +
      shell_quote(AOTI_BINARY) + " " + arguments + " 2>" + shell_quote(err.string());
  CliRun run;
  run_shell(command, err, run);
  return run;
}

// A run of the binary with what it cost: wall seconds and peak resident memory (GNU time's %e and
// %M, the largest of the process tree), started in `cwd` with TMPDIR=`tmpdir`, so that a test can
// also check where it wrote. Killed after `timeout_s` like run_cli.
struct MeasuredRun : CliRun {
  double seconds = -1;
  long peak_kib = -1;
};
inline MeasuredRun run_cli_measured(const std::string& arguments, int timeout_s,
                                    const std::filesystem::path& cwd,
                                    const std::filesystem::path& tmpdir) {
  TempDir scratch;
  const auto err = scratch.path / "stderr";
  const auto cost = scratch.path / "cost";
  const std::string command =
      "cd " + shell_quote(cwd.string()) + " && TMPDIR=" + shell_quote(tmpdir.string()) +
      " /usr/bin/time -f '%e %M' -o " + shell_quote(cost.string()) + " timeout -k 5 " +
      std::to_string(timeout_s) + " " + shell_quote(AOTI_BINARY) + " " + arguments + " 2>" +
      shell_quote(err.string());
  MeasuredRun run;
  run_shell(command, err, run);
  // The last line: GNU time puts "Command terminated by signal N" before it.
  std::istringstream lines(read_file(cost));
  std::string line, last;
  while (std::getline(lines, line))
    if (!line.empty()) last = line;
  std::istringstream(last) >> run.seconds >> run.peak_kib;
  return run;
}

// The text of the first zip entry whose name ends with `suffix`, read with plain libzip so that
// parser tests do not depend on the zip parser they may be testing.
// The name of the first entry of a case's package whose name ends with `suffix`, "" when none does.
inline std::string corpus_entry_name(const std::string& case_name, const std::string& suffix) {
  const auto path = corpus_case(case_name) / "model.pt2";
  int err = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &err);
  if (!archive) throw std::runtime_error("cannot open " + path.string());
  std::string found;
  const zip_int64_t count = zip_get_num_entries(archive, 0);
  for (zip_int64_t i = 0; i < count && found.empty(); ++i) {
    const std::string name = zip_get_name(archive, i, 0);
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      found = name;
  }
  zip_close(archive);
  return found;
}

inline std::string corpus_entry_text(const std::string& case_name, const std::string& suffix) {
  const auto path = corpus_case(case_name) / "model.pt2";
  int err = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &err);
  if (!archive) throw std::runtime_error("cannot open " + path.string());
  std::string text;
  const zip_int64_t count = zip_get_num_entries(archive, 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    const std::string name = zip_get_name(archive, i, 0);
    if (name.size() < suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    zip_stat_t st;
    zip_stat_index(archive, i, 0, &st);
    zip_file_t* file = zip_fopen_index(archive, i, 0);
    text.resize(st.size);
    zip_fread(file, text.data(), st.size);
    zip_fclose(file);
    break;
  }
  zip_close(archive);
  return text;
}

}  // namespace aoti::test
