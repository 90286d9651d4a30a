// Every line a report prints must be true and checkable. Over every corpus case (the built ones and
// corpus/wild's logs that users posted) and every format:
// - each quote is re-read from its artifact and must be that artifact's text at that line;
// - no report has template holes (empty code spans, dangling separators, doubled words,
// placeholders);
// - every Python snippet parses and every shell command is valid shell.
#include <doctest/doctest.h>

#include <algorithm>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "tests/support.hpp"

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

std::vector<fs::path> corpus_cases() {
  std::vector<fs::path> cases;
  for (const fs::path& root : {aoti::test::corpus_dir(), aoti::test::corpus_dir() / "wild"}) {
    if (!fs::is_directory(root)) continue;
    for (const auto& entry : fs::directory_iterator(root))
      if (fs::exists(entry.path() / "expected.json")) cases.push_back(entry.path());
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

// The case folder given alone, as a user would; the JSON report parsed.
// Each case is analyzed once for all the tests of this file.
const json& report_of(const fs::path& dir) {
  static std::map<fs::path, json> reports;
  if (auto it = reports.find(dir); it != reports.end()) return it->second;
  const auto run = aoti::test::run_cli("--format json " + aoti::test::shell_quote(dir.string()));
  REQUIRE(run.exit_code == 0);
  return reports[dir] = json::parse(run.out);
}

std::string zip_entry_text(const std::string& path, const std::string& name) {
  int err = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &err);
  REQUIRE(archive);
  zip_stat_t st;
  std::string text;
  if (zip_stat(archive, name.c_str(), 0, &st) == 0) {
    zip_file_t* file = zip_fopen(archive, name.c_str(), 0);
    REQUIRE(file);
    text.resize(st.size);
    CHECK(zip_fread(file, text.data(), st.size) == static_cast<zip_int64_t>(st.size));
    zip_fclose(file);
  }
  zip_close(archive);
  return text;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// A line as a report may show it: terminal colour codes dropped, tabs as spaces, other control
// bytes as '?', surrounding whitespace trimmed. Nothing else may differ.
std::string displayed(const std::string& line) {
  static const std::regex k_csi("\x1b\\[[0-?]*[ -/]*[@-~]");
  std::string out = std::regex_replace(line, k_csi, "");
  for (char& ch : out)
    if (ch == '\t')
      ch = ' ';
    else if ((static_cast<unsigned char>(ch) < 0x20 && ch != '\r') || ch == 0x7f)
      ch = '?';
  const auto first = out.find_first_not_of(" \r");
  if (first == std::string::npos) return "";
  return out.substr(first, out.find_last_not_of(" \r") - first + 1);
}

// A quote is the line, or its beginning cut with a visible "…".
bool quotes(const std::string& quote, const std::string& line) {
  static const std::string k_cut = "…";
  if (quote == line) return true;
  if (!quote.ends_with(k_cut)) return false;
  const std::string kept = quote.substr(0, quote.size() - k_cut.size());
  return line.size() > kept.size() && line.starts_with(kept);
}

// Prose with its code spans taken out: holes are looked for in the words around them.
// The text with its code spans replaced, paired as CommonMark pairs them: a run of n backticks
// opens a span that the next run of exactly n backticks closes (so `` a `b` c `` is one span).
std::string prose_of(const std::string& text) {
  std::string out;
  std::size_t i = 0;
  const auto run_at = [&](std::size_t at) {
    std::size_t n = 0;
    while (at + n < text.size() && text[at + n] == '`') ++n;
    return n;
  };
  while (i < text.size()) {
    if (text[i] != '`') {
      out += text[i++];
      continue;
    }
    const std::size_t n = run_at(i);
    std::size_t close = std::string::npos;
    for (std::size_t j = i + n; j < text.size();) {
      if (text[j] != '`') {
        ++j;
        continue;
      }
      const std::size_t m = run_at(j);
      if (m == n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close == std::string::npos || close == i + n) {
      // Two backticks that close nothing: what "`{}`" with nothing in it prints.
      out += n == 2 ? std::string("EMPTY-SPAN") : text.substr(i, n);
      i += n;
      continue;
    }
    out += "CODE";
    i = close + n;
  }
  return out;
}

std::vector<std::string> holes_in(const std::string& text) {
  std::vector<std::string> found;
  const std::string prose = prose_of(text);
  if (prose.find("EMPTY-SPAN") != std::string::npos) found.push_back("an empty code span");
  for (const char* hole :
       {"{}", " ,", ",,", ", .", "''", "\"\"", "( ", " )", ": ,", "<your", "<ns>", "<op"})
    if (prose.find(hole) != std::string::npos) found.push_back(std::string("'") + hole + "'");
  static const std::regex k_empty_brackets(
      R"((^|\s)(\(\)|\[\]))");  // "x.size()" is code; "named ()" a hole
  if (std::regex_search(prose, k_empty_brackets)) found.push_back("empty brackets");
  static const std::regex k_lone_stop(R"( \.(\s|$))");  // "the .so" is a word; "done ." is a hole
  if (std::regex_search(prose, k_lone_stop)) found.push_back("a full stop after a missing word");
  static const std::regex k_doubled(R"(\b([A-Za-z]{2,})\s+\1\b)", std::regex::icase);
  std::smatch m;
  if (std::regex_search(prose, m, k_doubled)) found.push_back("doubled word '" + m.str() + "'");
  return found;
}

// Runs a small Python or shell checker over many snippets at once; returns its complaints.
std::string check_snippets(const std::vector<std::string>& snippets, const std::string& checker) {
  aoti::test::TempDir scratch;
  const auto input = scratch.path / "snippets.json";
  aoti::test::write_file(input, json(snippets).dump());
  const auto script = scratch.path / "check.py";
  aoti::test::write_file(script, checker);
  std::string out;
  FILE* pipe = ::popen(("python3 " + aoti::test::shell_quote(script.string()) + " " +
                        aoti::test::shell_quote(input.string()) + " 2>&1")
                           .c_str(),
                       "r");
  REQUIRE(pipe);
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, got);
  CHECK(::pclose(pipe) == 0);
  return out;
}

}  // namespace

TEST_CASE("every quoted line of every corpus report is the artifact's text at that line") {
  const auto cases = corpus_cases();
  REQUIRE(cases.size() >= 12);
  std::size_t quotes_checked = 0;
  std::map<std::string, std::vector<std::string>> files;  // artifact[:entry] -> lines
  for (const auto& dir : cases) {
    const json& report = report_of(dir);
    for (const auto& finding : report["findings"])
      for (const auto& e : finding["evidence"]) {
        if (e["kind"] != "quote") continue;
        INFO(dir.filename().string() << ": " << finding["check"] << " quotes " << e.dump());
        REQUIRE(e["line"].is_number_integer());
        const std::string artifact = e["artifact"], entry = e["entry"];
        const std::string key = artifact + ":" + entry;
        if (!files.count(key))
          files[key] = split_lines(entry.empty() ? aoti::test::read_file(artifact)
                                                 : zip_entry_text(artifact, entry));
        const auto& lines = files[key];
        const int first = e["line"];
        const int last = e["line_end"].is_number_integer() ? e["line_end"].get<int>() : first;
        const auto quoted = split_lines(e["excerpt"].get<std::string>());
        REQUIRE(static_cast<int>(quoted.size()) == last - first + 1);
        for (int line = first; line <= last; ++line) {
          REQUIRE(line <= static_cast<int>(lines.size()));
          const std::string& want = lines[static_cast<std::size_t>(line - 1)];
          INFO("line " << line << " of the artifact: " << want);
          CHECK(quotes(quoted[static_cast<std::size_t>(line - first)], displayed(want)));
          ++quotes_checked;
        }
      }
  }
  MESSAGE("quoted lines checked against their artifacts: " << quotes_checked);
  CHECK(quotes_checked >= 40);
}

TEST_CASE("no report of any corpus case has template holes, in any format") {
  for (const auto& dir : corpus_cases()) {
    INFO(dir.filename().string());
    const json& report = report_of(dir);
    for (const auto& f : report["findings"]) {
      std::vector<std::pair<std::string, std::string>> prose = {
          {"title", f["title"]}, {"message", f["message"]}, {"why", f["why"]}};
      for (const auto& e : f["evidence"]) {
        prose.push_back({"evidence note", e["note"]});
        if (e["kind"] == "fact") prose.push_back({"derived fact", e["excerpt"]});
      }
      for (const auto& step : f["next_steps"]) {
        prose.push_back({"next step", step["what"]});
        const std::string command = step["command"];
        for (const char* placeholder : {"<your", "<op", "<ns>", "{}"}) {
          INFO(f["check"] << " next step command: " << command);
          CHECK(command.find(placeholder) == std::string::npos);
        }
      }
      for (const auto& [field, text] : prose) {
        auto holes = holes_in(text);
        // A sentence ends with a word; only a next step's text may end with ':' before its command.
        const std::string trimmed = text.substr(0, text.find_last_not_of(' ') + 1);
        if (field != "next step" &&
            (trimmed.ends_with(",") || trimmed.ends_with(":") || trimmed.ends_with(" -")))
          holes.push_back("a dangling separator at the end");
        INFO(f["check"] << " " << field << ": " << text);
        CHECK_MESSAGE(holes.empty(), (holes.empty() ? "" : holes.front()));
      }
    }
    for (const char* format : {"text", "markdown", "html"}) {
      const auto run = aoti::test::run_cli(std::string("--format ") + format + " " +
                                           aoti::test::shell_quote(dir.string()));
      REQUIRE(run.exit_code == 0);
      // Code spans with content, single or double backticks (Markdown's form for text holding a
      // backtick: single backticks may stand inside it, as in GCC's `x' quotes), are taken out
      // first: what is left of "``" outside fences is an empty span.
      static const std::regex k_span("``(?:[^`]|`(?!`))+``|`[^`\n]+`");
      static const std::regex k_empty_span("(^|[^`])``([^`]|$)");
      INFO(format);
      CHECK_FALSE(std::regex_search(std::regex_replace(run.out, k_span, "CODE"), k_empty_span));
      CHECK(run.out.find("<your") == std::string::npos);
    }
  }
}

TEST_CASE(
    "every Python snippet a report prints parses, every shell command is valid shell, fences say "
    "which") {
  if (std::system("python3 -c 'import ast' >/dev/null 2>&1") != 0) {
    MESSAGE("SKIPPED: python3 is not installed (scripts/setup.sh installs it)");
    return;
  }
  std::vector<std::string> python, shell;
  std::size_t markdown_python_fences = 0;
  for (const auto& dir : corpus_cases()) {
    const json& report = report_of(dir);
    std::size_t python_steps = 0;
    for (const auto& f : report["findings"])
      for (const auto& step : f["next_steps"]) {
        const std::string command = step["command"];
        if (command.empty()) continue;
        if (step["language"] == "python") python.push_back(command), ++python_steps;
        if (step["language"] == "sh") shell.push_back(command);
      }
    const auto markdown =
        aoti::test::run_cli("--format markdown " + aoti::test::shell_quote(dir.string())).out;
    std::size_t fences = 0;
    for (std::size_t at = markdown.find("```python"); at != std::string::npos;
         at = markdown.find("```python", at + 1))
      ++fences;
    INFO(dir.filename().string() << ": each Python step is fenced as python in Markdown");
    CHECK(fences == python_steps);
    markdown_python_fences += fences;
  }
  REQUIRE(python.size() >= 10);
  const std::string python_problems = check_snippets(python, R"(import ast, json, sys
for snippet in json.load(open(sys.argv[1])):
    try:
        ast.parse(snippet)
    except SyntaxError as error:
        print("does not parse:", repr(snippet), error)
)");
  CHECK_MESSAGE(python_problems.empty(), python_problems);
  const std::string shell_problems = check_snippets(shell, R"(import json, subprocess, sys
for snippet in json.load(open(sys.argv[1])):
    result = subprocess.run(["bash", "-n", "-c", snippet], capture_output=True, text=True)
    if result.returncode != 0:
        print("not valid shell:", repr(snippet), result.stderr)
)");
  CHECK_MESSAGE(shell_problems.empty(), shell_problems);
  MESSAGE(python.size() << " Python snippets and " << shell.size() << " shell commands checked; "
                        << markdown_python_fences << " python fences");
}
