#include "parsers/trace/trace_reader.hpp"

#include <algorithm>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "parsers/trace/header_parse.hpp"
#include "parsers/trace/log_scan.hpp"
#include "parsers/trace/trace_builder.hpp"
#include "util/line_reader.hpp"
#include "util/open_file.hpp"

namespace aoti::parsers::trace {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t k_max_files = 4096;
constexpr std::size_t k_head_bytes = 4096;
constexpr std::uintmax_t k_max_payload_file = 64u << 20;

std::string_view first_line(std::string_view head) { return head.substr(0, head.find('\n')); }

bool looks_like_raw_jsonl(std::string_view line) {
  if (line.substr(0, 16) == "{\"string_table\":") return true;
  return !line.empty() && line[0] == '{' && line.find("\"pathname\"") != std::string_view::npos &&
         line.find("\"lineno\"") != std::string_view::npos;
}

// The skeleton of a raw.jsonl read: opens `path` (a diagnostic when it cannot be opened), and
// between the builder's begin_file and end_file counts every line and hands each non-empty one to
// `record` with its number (tlparse drops empty lines: log collectors stutter blank lines, and an
// empty payload line is written as a lone tab). A read error ends the file with a problem.
template <typename RecordFn>
void for_each_line(const fs::path& path, const std::string& display, TraceBuilder& builder,
                   std::vector<model::Diagnostic>& diagnostics, RecordFn&& record) {
  util::LineReader reader(path, k_max_line, util::CarriageReturn::drop);
  if (!reader.is_open()) {
    diagnostics.push_back({display, "cannot open: " + reader.error()});
    return;
  }
  builder.begin_file(display);
  util::Line line;
  while (reader.next(line)) {
    builder.count_line();
    if (!line.text.empty()) record(line, line_number(line.number));
  }
  if (!reader.error().empty())
    builder.problem(static_cast<int>(line.number), "read error: " + reader.error());
  builder.end_file();
}

// A payload file written by tlparse, named by `payload_filename` relative to its output folder.
void read_payload_file(const fs::path& folder, const std::string& relative, int record_line,
                       TraceBuilder& builder) {
  const fs::path rel(relative);
  const bool escapes =
      rel.is_absolute() ||
      std::any_of(rel.begin(), rel.end(), [](const fs::path& part) { return part == ".."; });
  std::error_code error;
  const fs::path path = folder / rel;
  if (escapes || !fs::is_regular_file(path, error)) {
    builder.problem(record_line, "payload file '" + relative.substr(0, 256) +
                                     "' is missing or outside the folder");
    builder.end_record(false);
    return;
  }
  if (fs::file_size(path, error) > k_max_payload_file) {
    builder.problem(record_line, "payload file '" + relative.substr(0, 256) +
                                     "' is larger than 64 MiB; not read");
    builder.end_record(false);
    return;
  }
  util::LineReader reader(path, k_max_line, util::CarriageReturn::drop);
  util::Line line;
  bool any = false;
  while (reader.next(line)) {
    any = true;
    builder.payload_line(line.text, line_number(line.number), line.cut());
  }
  // A payload ending in "\n" was written with an empty last line that the reader does not return.
  if (reader.bytes_read() > 0) {
    std::ifstream in(path, std::ios::binary);
    in.seekg(-1, std::ios::end);
    if (in.get() == '\n') builder.payload_line({}, static_cast<int>(line.number + 1), false);
  } else if (!any) {
    builder.payload_line({}, 1, false);
  }
  builder.end_record();
}

// tlparse's raw.jsonl: a string table, then one envelope per record (chromium events and `str`
// records left out) with timestamp, thread, pathname, lineno and payload_filename added.
void read_raw_jsonl(const fs::path& path, const std::string& display, const fs::path& folder,
                    const std::string& folder_display, TraceBuilder& builder,
                    std::vector<model::Diagnostic>& diagnostics) {
  for_each_line(path, display, builder, diagnostics, [&](const util::Line& line, int number) {
    if (line.cut()) {
      builder.bad_line(number, "line of " + std::to_string(line.length) +
                                   " bytes is longer than the cap; skipped");
      return;
    }
    json object = json::parse(line.text, nullptr, false);
    if (object.is_discarded() || !object.is_object()) {
      builder.bad_json(number, object.is_discarded() ? "parse error" : "not an object");
      return;
    }
    if (const auto table = object.find("string_table");
        table != object.end() && object.size() == 1) {
      if (table->is_array())
        for (std::size_t id = 0; id < table->size(); ++id)
          if ((*table)[id].is_string())
            builder.define_string(static_cast<std::int64_t>(id), (*table)[id].get<std::string>());
      return;
    }
    std::string payload_file;
    if (const auto it = object.find("payload_filename"); it != object.end() && it->is_string())
      payload_file = it->get<std::string>();
    const std::string payload_display =
        payload_file.empty() ? display : folder_display + "/" + payload_file;
    builder.begin_record(number, header_of(std::move(object)), payload_display, 1);
    if (!payload_file.empty() && builder.wants_payload())
      read_payload_file(folder, payload_file, number, builder);
    else
      builder.end_record(false);  // payload not used: not read, not checked
  });
}

std::string join(const fs::path& folder_display, const fs::path& name) {
  return (folder_display / name).string();
}

}  // namespace

bool looks_like_trace(std::string_view head) {
  const std::string_view line = first_line(head);
  return !header_json(line).empty() || looks_like_raw_jsonl(line);
}

bool is_tlparse_folder(const fs::path& dir) {
  std::error_code error;
  return fs::is_directory(dir, error) && fs::is_regular_file(dir / "raw.jsonl", error);
}

Parsed<TraceRead> read_trace(const fs::path& path, const std::string& display,
                             const TraceOptions& options) {
  TraceRead read;
  read.facts.artifact = display;
  TraceBuilder builder(read.facts, read.diagnostics);
  std::error_code error;
  if (is_tlparse_folder(path)) {
    read_raw_jsonl(path / "raw.jsonl", join(display, "raw.jsonl"), path, display, builder,
                   read.diagnostics);
  } else if (fs::is_directory(path, error)) {
    std::vector<fs::path> files;
    for (fs::directory_iterator it(path, error), end; !error && it != end; it.increment(error)) {
      std::error_code kind_error;
      if (it->is_regular_file(kind_error) && files.size() < k_max_files)
        files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      const std::string head = util::read_file_head(file, k_head_bytes);
      if (!looks_like_trace(head)) continue;
      const std::string file_display = join(display, file.filename());
      if (looks_like_raw_jsonl(first_line(head)))
        read_raw_jsonl(file, file_display, path, display, builder, read.diagnostics);
      else
        read_log(file, file_display, options.verify_payloads, builder, read.diagnostics);
    }
    if (read.facts.files.empty())
      return fail("no TORCH_TRACE log or tlparse raw.jsonl in this folder");
  } else {
    if (!fs::exists(path, error)) return fail("no such file");
    if (const std::string problem = util::regular_file_problem(path); !problem.empty())
      return fail(problem);
    if (fs::file_size(path, error) == 0) return fail("empty file");
    const std::string head = util::read_file_head(path, k_head_bytes);
    if (looks_like_raw_jsonl(first_line(head))) {
      const fs::path folder = path.parent_path();
      read_raw_jsonl(path, display, folder, fs::path(display).parent_path().string(), builder,
                     read.diagnostics);
    } else {
      read_log(path, display, options.verify_payloads, builder, read.diagnostics);
    }
  }
  builder.finish();
  if (read.facts.records == 0) {
    std::string why = "no trace record";
    if (!read.diagnostics.empty()) why += " (" + read.diagnostics.front().message + ")";
    return fail(why);
  }
  return read;
}

}  // namespace aoti::parsers::trace
