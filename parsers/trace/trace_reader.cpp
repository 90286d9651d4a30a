#include "parsers/trace/trace_reader.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include <simdjson.h>
#include <nlohmann/json.hpp>

#include "parsers/trace/trace_builder.hpp"
#include "util/errno_text.hpp"
#include "util/line_reader.hpp"
#include "util/open_file.hpp"
#include "util/text.hpp"

namespace aoti::parsers::trace {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t k_max_files = 4096;
constexpr std::size_t k_head_bytes = 4096;
constexpr std::uintmax_t k_max_payload_file = 64u << 20;
// Longer lines are cut (and reported): a record's metadata or payload line is never near this long.
constexpr std::size_t k_max_line = 16u << 20;
// A log is scanned in pieces of about this size, on as many threads as there are cores.
constexpr std::size_t k_piece_bytes = 4u << 20;
// Up to this size every payload is checked against its MD5; past it only those a fact reads, unless
// TraceOptions::verify_payloads asks for all.
constexpr std::size_t k_verify_all_bytes = 64u << 20;

// Whether `text` holds `count` digits at `at`.
bool has_digits(std::string_view text, std::size_t at, std::size_t count) {
  return util::digits_at(text, at).size() >= count;
}

// The metadata JSON of a record header, e.g.
//   V1129 07:41:33.791000 5575 torch/fx/experimental/symbolic_shapes.py:5388] {"create_symbol":
//   ...}
// or empty when `line` is not one. Checked by hand (no regex): the line may be huge.
std::string_view header_json(std::string_view line) {
  if (line.size() < 26 || std::string_view("VIWEC").find(line[0]) == std::string_view::npos)
    return {};
  if (!has_digits(line, 1, 4) || line[5] != ' ' || !has_digits(line, 6, 2) || line[8] != ':' ||
      !has_digits(line, 9, 2) || line[11] != ':' || !has_digits(line, 12, 2) || line[14] != '.' ||
      !has_digits(line, 15, 6) || line[21] != ' ')
    return {};
  std::size_t at = 22;
  const std::size_t pid = at;
  while (at < line.size() && util::is_digit(line[at])) ++at;
  if (at == pid || at >= line.size() || line[at] != ' ') return {};
  const std::size_t colon = line.find(':', at);
  if (colon == std::string_view::npos) return {};
  at = colon + 1;
  const std::size_t lineno = at;
  while (at < line.size() && util::is_digit(line[at])) ++at;
  if (at == lineno || line.substr(at, 3) != "] {") return {};
  return line.substr(at + 2);
}

std::string_view first_line(std::string_view head) { return head.substr(0, head.find('\n')); }

bool looks_like_raw_jsonl(std::string_view line) {
  if (line.substr(0, 16) == "{\"string_table\":") return true;
  return !line.empty() && line[0] == '{' && line.find("\"pathname\"") != std::string_view::npos &&
         line.find("\"lineno\"") != std::string_view::npos;
}

// Line numbers past INT32_MAX are reported as INT32_MAX.
int line_number(std::uint64_t number) {
  return static_cast<int>(std::min<std::uint64_t>(number, INT32_MAX));
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

// ---- TORCH_TRACE logs: mapped, split into pieces at record boundaries, scanned on threads -------

// A regular file's bytes: mapped read-only, or read whole where its file system cannot map it.
class FileBytes {
 public:
  static tl::expected<FileBytes, std::string> open(const fs::path& path) {
    auto file = util::open_regular_file(path);
    if (!file) return tl::unexpected(file.error());
    struct stat info{};
    if (::fstat(file->get(), &info) != 0) return tl::unexpected(util::errno_text(errno));
    FileBytes bytes;
    const auto size = static_cast<std::size_t>(info.st_size);
    if (size == 0) return bytes;
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file->get(), 0);
    if (map != MAP_FAILED) {
      bytes.m_map = map;
      bytes.m_size = size;
      bytes.m_fd = std::move(*file);
      return bytes;
    }
    auto read = util::read_regular_file(path, size);
    if (!read) return tl::unexpected(read.error());
    bytes.m_read = std::move(*read);
    return bytes;
  }
  FileBytes() = default;
  FileBytes(FileBytes&& other) noexcept
      : m_map(std::exchange(other.m_map, nullptr)),
        m_size(std::exchange(other.m_size, 0)),
        m_read(std::move(other.m_read)),
        m_fd(std::move(other.m_fd)) {}
  FileBytes& operator=(FileBytes&&) = delete;
  ~FileBytes() {
    if (m_map) ::munmap(m_map, m_size);
  }

  // Whether read() can copy bytes (a mapped file, whose descriptor is kept).
  bool readable() const { return static_cast<bool>(m_fd); }
  // Copies `count` bytes from `offset` into `out`: false when the file no longer has them (cut
  // while being read), where touching the mapping would have been a SIGBUS.
  bool read(char* out, std::size_t count, std::size_t offset) const {
    while (count > 0) {
      const ssize_t got = ::pread(m_fd.get(), out, count, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      out += got;
      offset += static_cast<std::size_t>(got);
      count -= static_cast<std::size_t>(got);
    }
    return true;
  }

  std::string_view view() const {
    return m_map ? std::string_view(static_cast<const char*>(m_map), m_size) : m_read;
  }
  // Maps the pages of [begin, end) in one call (where the kernel can: Linux 5.14 on) rather than
  // a page fault each as a scan first touches them.
  void prefault(const char* begin, const char* end) const {
#ifdef MADV_POPULATE_READ
    if (!m_map || end <= begin) return;
    static const auto k_page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(begin) & ~(k_page - 1);
    ::madvise(reinterpret_cast<void*>(first),
              static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(end) - first),
              MADV_POPULATE_READ);
#else
    (void)begin;
    (void)end;
#endif
  }
  // Drops the mapped pages wholly inside [begin, end) from this process: they stay in the page
  // cache and are mapped again if touched. What keeps the resident size flat on a huge trace.
  void release(const char* begin, const char* end) const {
    if (!m_map) return;
    static const auto k_page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const std::uintptr_t first =
        (reinterpret_cast<std::uintptr_t>(begin) + k_page - 1) & ~(k_page - 1);
    const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(end) & ~(k_page - 1);
    if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
  }

 private:
  void* m_map = nullptr;
  std::size_t m_size = 0;
  std::string m_read;
  util::Fd m_fd;
};

// Releases what a scan has passed, every k_release_bytes: a gigabyte line costs no more memory
// than the window.
class Releaser {
 public:
  static constexpr std::size_t k_release_bytes = 16u << 20;
  // `file` null: the bytes are a buffer of the scan's own, with nothing mapped to release.
  Releaser(const FileBytes* file, const char* from) : m_file(file), m_done(from) {}
  void passed(const char* at) {
    if (!m_file || static_cast<std::size_t>(at - m_done) < k_release_bytes) return;
    m_file->release(m_done, at);
    m_done = at;
  }

 private:
  const FileBytes* m_file;
  const char* m_done;
};

// One line of a mapped log, read the way util::LineReader reads it with CarriageReturn::drop: a
// line longer than k_max_line is cut to its first k_max_line bytes (`length` tells the whole).
struct MappedLine {
  std::string_view text;
  std::uint64_t length = 0;
  const char* next = nullptr;  // the next line's first byte
  bool cut() const { return length > text.size(); }
};

MappedLine line_at(const char* at, const char* end, Releaser& releaser) {
  const char* newline = nullptr;
  for (const char* window = at; window < end && !newline;) {
    const std::size_t span = std::min<std::size_t>(end - window, Releaser::k_release_bytes);
    newline = static_cast<const char*>(std::memchr(window, '\n', span));
    window += span;
    if (!newline) releaser.passed(window);
  }
  const char* stop = newline ? newline : end;
  MappedLine line;
  line.next = newline ? newline + 1 : end;
  line.length = static_cast<std::uint64_t>(stop - at);
  if (line.length > k_max_line) {
    line.text = std::string_view(at, k_max_line);
    return line;
  }
  line.text = std::string_view(at, line.length);
  if (newline && !line.text.empty() && line.text.back() == '\r') line.text.remove_suffix(1);
  line.length = line.text.size();
  return line;
}

// Whether the line starting at `at` starts a record (or is a stray header-like line): it is neither
// empty (tlparse skips those) nor a tab-indented payload line.
bool starts_record(const char* at, const char* end) {
  return *at != '\t' && *at != '\n' && !(*at == '\r' && at + 1 < end && at[1] == '\n');
}

// Payload lines of the legacy aot_compile's output .so (TraceBuilder::output_path_line).
bool names_output_path(std::string_view payload) {
  return payload.starts_with("torch._inductor.config.aot_inductor.output_path = '");
}

// What a piece scan found, in file order; lines are counted from the piece's first line (1).
struct PieceEvent {
  enum class Kind {
    record,        // a record header, with its payload
    bad_header,    // a line that is not a record header: ends the record before it
    bad_json,      // a header whose JSON does not parse: ends the record before it
    stray_payload  // a payload line where no record expects one
  };
  enum class Payload {
    none,        // no payload expected
    by_builder,  // a payload the builder uses: it reads the lines itself (from payload_begin)
    checked,     // read and checked here
    skipped      // not checked (a large file, without --verify)
  };
  Kind kind = Kind::record;
  std::uint64_t line = 0;
  std::string message;  // bad_header, bad_json
  RecordHeader header;
  bool is_str = false;  // a `str` record: defines an interned string
  std::optional<std::pair<std::int64_t, std::string>> str;  // none: malformed
  Payload payload = Payload::none;
  const char* payload_begin = nullptr;
  const char* payload_end = nullptr;
  std::uint64_t payload_lines = 0;
  bool payload_cut = false;
  bool payload_matches = false;
  std::vector<std::pair<std::uint64_t, std::string>> output_paths;  // line, payload text
};

struct Piece {
  const char* begin = nullptr;
  const char* end = nullptr;
  std::uint64_t lines = 0;
  std::vector<PieceEvent> events;
  std::exception_ptr failure;  // what a scan threw (out of memory), rethrown by the merge
};

// nlohmann keeps the last of duplicate keys; so does this.
std::optional<simdjson::dom::element> last_field(simdjson::dom::object object,
                                                 std::string_view key) {
  std::optional<simdjson::dom::element> found;
  for (const auto field : object)
    if (field.key == key) found = field.value;
  return found;
}

std::optional<simdjson::dom::object> object_of(std::optional<simdjson::dom::element> value) {
  simdjson::dom::object object;
  if (!value || value->get(object)) return std::nullopt;
  return object;
}

// The header fields below, read the way TraceBuilder's text_of / int_of read nlohmann values;
// false for a value whose reading could differ (a huge or a floating number, a non-string text):
// such a header is parsed whole by nlohmann.
bool read_int(simdjson::dom::object object, std::string_view key,
              std::optional<std::int64_t>& out) {
  const auto value = last_field(object, key);
  if (!value) return true;
  switch (value->type()) {
    case simdjson::dom::element_type::INT64:
      out = std::int64_t(*value);
      return true;
    case simdjson::dom::element_type::UINT64:
    case simdjson::dom::element_type::DOUBLE:
      return false;
    default:
      return true;
  }
}

bool read_text(simdjson::dom::object object, std::string_view key, std::size_t cap,
               std::string& out) {
  const auto value = last_field(object, key);
  if (!value || value->is_null()) return true;
  if (!value->is_string()) return false;
  out = std::string(std::string_view(*value).substr(0, cap));
  return true;
}

// `value` as nlohmann would have parsed the same text: a non-negative integer is unsigned, the last
// of duplicate keys wins. simdjson refuses what nlohmann reads differently (integers past 64 bits,
// numbers out of double range): such a header is parsed by nlohmann instead.
json to_nlohmann(simdjson::dom::element value) {
  switch (value.type()) {
    case simdjson::dom::element_type::ARRAY: {
      json array = json::array();
      for (const simdjson::dom::element item : simdjson::dom::array(value))
        array.push_back(to_nlohmann(item));
      return array;
    }
    case simdjson::dom::element_type::OBJECT: {
      json object = json::object();
      for (const auto field : simdjson::dom::object(value))
        object[std::string(field.key)] = to_nlohmann(field.value);
      return object;
    }
    case simdjson::dom::element_type::INT64: {
      const std::int64_t number = value;
      return number >= 0 ? json(static_cast<std::uint64_t>(number)) : json(number);
    }
    case simdjson::dom::element_type::UINT64:
      return json(std::uint64_t(value));
    case simdjson::dom::element_type::DOUBLE:
      return json(double(value));
    case simdjson::dom::element_type::STRING:
      return json(std::string(std::string_view(value)));
    case simdjson::dom::element_type::BOOL:
      return json(bool(value));
    case simdjson::dom::element_type::NULL_VALUE:
      break;
  }
  return json(nullptr);
}

// record_facts.hpp's Value over simdjson; a default one is null. Reads as NlohmannValue does over
// the same text parsed by nlohmann: the last of duplicate keys, unsigned integers as int64.
class SimdValue {
 public:
  SimdValue() = default;
  explicit SimdValue(simdjson::dom::element value) : m_value(value) {}
  bool is_null() const { return !m_value || m_value->is_null(); }
  bool is_object() const { return is(simdjson::dom::element_type::OBJECT); }
  bool is_array() const { return is(simdjson::dom::element_type::ARRAY); }
  bool is_string() const { return is(simdjson::dom::element_type::STRING); }
  bool is_integer() const {
    return is(simdjson::dom::element_type::INT64) || is(simdjson::dom::element_type::UINT64);
  }
  std::string_view string() const { return std::string_view(*m_value); }
  std::int64_t integer() const {
    return is(simdjson::dom::element_type::INT64)
               ? std::int64_t(*m_value)
               : static_cast<std::int64_t>(std::uint64_t(*m_value));
  }
  std::string dump() const { return to_nlohmann(*m_value).dump(); }
  std::size_t size() const { return simdjson::dom::array(*m_value).size(); }
  std::optional<SimdValue> find(std::string_view key) const {
    const auto field = last_field(simdjson::dom::object(*m_value), key);
    if (!field) return std::nullopt;
    return SimdValue(*field);
  }
  template <class Fn>
  void for_each_item(Fn&& fn) const {
    for (const simdjson::dom::element item : simdjson::dom::array(*m_value)) fn(SimdValue(item));
  }

 private:
  bool is(simdjson::dom::element_type type) const { return m_value && m_value->type() == type; }
  std::optional<simdjson::dom::element> m_value;
};

bool is_context_key(std::string_view key) {
  static constexpr std::array<std::string_view, 12> k_context = {"rank",     "compiled_autograd_id",
                                                                 "frame_id", "frame_compile_id",
                                                                 "attempt",  "has_payload",
                                                                 "stack",    "timestamp",
                                                                 "thread",   "pathname",
                                                                 "lineno",   "payload_filename"};
  return std::find(k_context.begin(), k_context.end(), key) != k_context.end();
}

// A header read by simdjson, its facts (record_facts.hpp) included; false leaves the header to
// nlohmann (anything unusual: a number simdjson reads differently, an export's stack frame named
// by its file).
bool read_light_header(simdjson::dom::element document, PieceEvent& event) {
  simdjson::dom::object envelope;
  if (document.get_object().get(envelope)) return false;
  std::optional<std::string_view> kind;
  for (const auto field : envelope)
    if (!is_context_key(field.key) && (!kind || field.key < *kind)) kind = field.key;
  if (kind && kind->size() > 256) return false;
  RecordHeader& header = event.header;
  header.kind = kind ? std::string(*kind) : "<none>";
  if (!read_int(envelope, "compiled_autograd_id", header.compiled_autograd_id) ||
      !read_int(envelope, "frame_id", header.frame_id) ||
      !read_int(envelope, "frame_compile_id", header.frame_compile_id) ||
      !read_int(envelope, "attempt", header.attempt) || !read_int(envelope, "rank", header.rank) ||
      !read_text(envelope, "has_payload", 64, header.has_payload))
    return false;
  const auto metadata = object_of(last_field(envelope, header.kind));
  if ((header.kind == "artifact" || header.kind == "graph_dump") && metadata &&
      !read_text(*metadata, "name", 256, header.name))
    return false;
  if (header.kind == "graph_dump" && metadata && !read_text(*metadata, "type", 4096, header.type))
    return false;
  header.facts = record_facts(SimdValue(document), header.kind,
                              fact_use(header.kind, header.name, header.type));

  if (const auto str = last_field(envelope, "str")) {
    simdjson::dom::array pair;
    simdjson::dom::element text;
    simdjson::dom::element id;
    if (str->get_array().get(pair) || pair.size() != 2 || pair.at(0).get(text) ||
        pair.at(1).get(id) || !text.is_string() || id.type() != simdjson::dom::element_type::INT64)
      return false;
    event.is_str = true;
    event.str.emplace(std::int64_t(id), std::string(std::string_view(text)));
  }

  // TraceBuilder::track_export's stack: the envelope's, else the metadata's.
  simdjson::dom::array stack;
  const auto envelope_stack = last_field(envelope, "stack");
  bool has_stack = envelope_stack && !envelope_stack->get(stack);
  if (!has_stack && metadata) {
    const auto metadata_stack = last_field(*metadata, "stack");
    has_stack = metadata_stack && !metadata_stack->get(stack);
  }
  if (has_stack) {
    for (const simdjson::dom::element frame : stack) {
      RecordHeader::StackFrame& ref = header.stack.emplace_back();
      ref.opaque = true;
      const auto frame_object = object_of(frame);
      if (!frame_object) continue;
      const auto file = last_field(*frame_object, "filename");
      if (!file) continue;
      if (file->type() == simdjson::dom::element_type::UINT64) return false;
      if (file->is_string() && is_export_or_compile_file(std::string_view(*file).substr(0, 4096)))
        return false;
      if (file->type() != simdjson::dom::element_type::INT64) continue;
      ref.file_id = std::int64_t(*file);
      // TraceBuilder reads a line with int_of: an integer, else 0.
      const auto line = last_field(*frame_object, "line");
      if (!line || line->type() == simdjson::dom::element_type::INT64)
        ref.line = line ? static_cast<int>(std::int64_t(*line)) : 0;
      else if (line->type() == simdjson::dom::element_type::UINT64 ||
               line->type() == simdjson::dom::element_type::DOUBLE)
        continue;
      ref.opaque = false;
    }
  }
  return true;
}

// The header of a record, with simdjson when it can and nlohmann when it must. False: not JSON,
// or not an object (`event` then says why).
class HeaderParser {
 public:
  bool parse(std::string_view json_text, const char* file_end, PieceEvent& event) {
    const char* text = json_text.data();
    // simdjson reads up to SIMDJSON_PADDING bytes past the JSON: the file's own bytes when there
    // are that many before its end, else a padded copy.
    if (file_end - (text + json_text.size()) <
        static_cast<std::ptrdiff_t>(simdjson::SIMDJSON_PADDING)) {
      m_padded.assign(json_text);
      m_padded.resize(json_text.size() + simdjson::SIMDJSON_PADDING);
      text = m_padded.data();
    }
    simdjson::dom::element document;
    const bool parsed = !m_parser.parse(text, json_text.size(), false).get(document);
    if (parsed && read_light_header(document, event)) {
      event.header.text = json_text;
      return true;
    }
    event.header = {};
    event.is_str = false;
    event.str.reset();
    // The whole header as nlohmann values, built from simdjson's parse (several times faster than
    // nlohmann's own on the kilobytes of stack a symbol or guard record carries).
    json envelope = parsed ? to_nlohmann(document) : json::parse(json_text, nullptr, false);
    if (envelope.is_discarded() || !envelope.is_object()) {
      event.message = envelope.is_discarded() ? "parse error" : "not an object";
      return false;
    }
    if (const auto str = envelope.find("str"); str != envelope.end()) {
      event.is_str = true;
      if (str->is_array() && str->size() == 2 && (*str)[0].is_string() &&
          (*str)[1].is_number_integer())
        event.str.emplace((*str)[1].get<std::int64_t>(), (*str)[0].get<std::string>());
    }
    event.header = header_of(std::move(envelope));
    return true;
  }

 private:
  simdjson::dom::parser m_parser;
  std::string m_padded;
};

struct ScanOptions {
  bool verify_all = false;  // check every payload's MD5, not only those the builder reads
};

// The first record start at or after `from`, if there is one before `limit`. Looks no further than
// `limit`: the pieces inside a gigabyte record cost no more than their own bytes.
const char* first_record_start(const char* begin, const char* from, const char* limit,
                               const char* end) {
  for (const char* at = from; at < limit;) {
    if ((at == begin || at[-1] == '\n') && starts_record(at, end)) return at;
    const void* newline = std::memchr(at, '\n', static_cast<std::size_t>(limit - at));
    if (!newline) return nullptr;
    at = static_cast<const char*>(newline) + 1;
  }
  return nullptr;
}

// The bytes a piece scan reads: [begin, end) are the file's from byte `offset` on; `file_end` says
// whether `end` is the end of the file. `mapped`: the file's own mapping (its pages released as the
// scan passes them), else a buffer read for the scan.
struct ScanView {
  const char* begin = nullptr;
  const char* end = nullptr;
  std::size_t offset = 0;
  bool file_end = true;
  const FileBytes* mapped = nullptr;
};

// Scans the records of one piece of `view`, from the record start `at` to the first record start
// at or past `limit`, into `piece`. False when that needs bytes past the view's end (a buffer that
// stops before the file does): the piece is then scanned again over the mapping.
bool scan_records(const ScanView& view, const char* at, const char* limit,
                  const ScanOptions& options, HeaderParser& parser, Piece& piece) {
  const char* end = view.end;
  // A line that reaches the end of a partial view may go on past it, and whether the next line
  // starts a record can take two bytes to tell.
  const auto ran_out = [&](const char* next) { return !view.file_end && end - next < 2; };
  // About the records of a piece: one allocation, not a dozen, sized by the piece (real records
  // are a kilobyte or more); only for a piece that has records: the pieces inside a gigabyte line
  // allocated megabytes each, which ASan's quarantine kept.
  piece.events.reserve(
      std::min<std::size_t>(4096, static_cast<std::size_t>(limit - at) / 512 + 16));
  piece.begin = at;
  Releaser releaser(view.mapped, at);
  while (at < end && !(at >= limit && starts_record(at, end))) {
    const MappedLine line = line_at(at, end, releaser);
    if (ran_out(line.next)) return false;
    at = line.next;
    const std::uint64_t number = ++piece.lines;
    if (line.text.empty()) continue;
    // Filled in place: an event is large, and most of a scan is making them.
    PieceEvent& event = piece.events.emplace_back();
    event.line = number;
    if (line.text[0] == '\t') {
      event.kind = PieceEvent::Kind::stray_payload;
      continue;
    }
    if (line.cut()) {
      event.kind = PieceEvent::Kind::bad_header;
      event.message = "line of " + std::to_string(line.length) + " bytes is longer than the " +
                      std::to_string(k_max_line) + "-byte cap; skipped";
      continue;
    }
    const std::string_view metadata = header_json(line.text);
    if (metadata.empty()) {
      event.kind = PieceEvent::Kind::bad_header;
      event.message = "not a trace record header";
      continue;
    }
    if (!parser.parse(metadata, end, event)) {
      event.kind = PieceEvent::Kind::bad_json;
      continue;
    }
    // A `str` record ends at once: payload lines after it are stray.
    if (event.is_str || event.header.has_payload.empty()) continue;
    const bool used =
        payload_use(event.header.kind, event.header.name, event.header.type) != PayloadUse::none;
    event.payload = used                 ? PieceEvent::Payload::by_builder
                    : options.verify_all ? PieceEvent::Payload::checked
                                         : PieceEvent::Payload::skipped;
    event.payload_begin = at;
    Md5 md5;
    while (at < end && !starts_record(at, end)) {
      const MappedLine payload_line = line_at(at, end, releaser);
      if (ran_out(payload_line.next)) return false;
      at = payload_line.next;
      ++piece.lines;
      if (payload_line.text.empty()) continue;
      const std::string_view text = payload_line.text.substr(1);
      if (event.payload == PieceEvent::Payload::checked) {
        if (event.payload_lines) md5.update("\n");
        md5.update(text);
      }
      ++event.payload_lines;
      event.payload_cut |= payload_line.cut();
      if (event.payload != PieceEvent::Payload::by_builder && names_output_path(text))
        event.output_paths.emplace_back(piece.lines, std::string(text));
      releaser.passed(at);
    }
    event.payload_end = at;
    if (event.payload == PieceEvent::Payload::checked)
      event.payload_matches = md5.hex_digest() == event.header.has_payload;
  }
  piece.end = at;
  return true;
}

// Moves what `piece` points into (header texts, payloads, its bounds) from a buffer to the same
// bytes of the mapping, `shift` bytes away: the merge reads them there.
void rebase(Piece& piece, std::ptrdiff_t shift) {
  const auto moved = [shift](const char* at) { return at ? at + shift : at; };
  piece.begin = moved(piece.begin);
  piece.end = moved(piece.end);
  for (PieceEvent& event : piece.events) {
    if (!event.header.text.empty())
      event.header.text =
          std::string_view(moved(event.header.text.data()), event.header.text.size());
    event.payload_begin = moved(event.payload_begin);
    event.payload_end = moved(event.payload_end);
  }
}

// What a scanning thread keeps from piece to piece: allocated once, touched again (fresh pages cost
// a fault each, dear in a virtual machine).
struct ScanScratch {
  std::string buffer;  // the piece's bytes
  HeaderParser parser;
  std::vector<PieceEvent> events;  // a merged piece's events, cleared, for the next piece
};

// How far past its piece a buffered scan reads: a record that starts in the piece usually ends
// within this; one that does not is scanned over the mapping.
constexpr std::size_t k_overlap_bytes = 256u << 10;

// Scans piece `index` of k_piece_bytes: from the first record start in it to the first record start
// past it (a record's payload stays with its header, so pieces are independent). A mapped file's
// piece is read into `buffer` with pread rather than through the mapping: where page faults are
// dear (a virtual machine's), touching the mapped pages cost more than the whole scan.
Piece scan_piece(const FileBytes& file, std::size_t index, const ScanOptions& options,
                 ScanScratch& scratch) {
  const std::string_view data = file.view();
  const char* begin = data.data();
  const char* end = begin + data.size();
  const std::size_t from = std::min(data.size(), index * k_piece_bytes);
  const std::size_t limit = std::min(data.size(), (index + 1) * k_piece_bytes);
  Piece piece;
  piece.events = std::move(scratch.events);
  piece.events.clear();
  try {
    if (file.readable()) {
      // From the byte before the piece (to tell a line start), with room for simdjson's padding.
      const std::size_t first = from > 0 ? from - 1 : 0;
      const std::size_t last = std::min(data.size(), limit + k_overlap_bytes);
      std::string& buffer = scratch.buffer;
      buffer.resize(last - first + simdjson::SIMDJSON_PADDING);
      if (file.read(buffer.data(), last - first, first)) {
        const ScanView view{buffer.data(), buffer.data() + (last - first), first,
                            last == data.size(), nullptr};
        const char* piece_limit = view.begin + (limit - first);
        // The file's first byte starts a record; elsewhere a line start after a newline does.
        const char* at = index == 0 ? view.begin
                                    : first_record_start(view.begin, view.begin + (from - first),
                                                         piece_limit, view.end);
        if (!at) {  // inside a record that began in an earlier piece
          piece.begin = piece.end = begin + limit;
          return piece;
        }
        if (scan_records(view, at, piece_limit, options, scratch.parser, piece)) {
          rebase(piece, begin + first - view.begin);
          return piece;
        }
        piece.events.clear();
        piece.lines = 0;
      }
    }
    const char* at =
        index == 0 ? begin : first_record_start(begin, begin + from, begin + limit, end);
    if (!at) {
      piece.begin = piece.end = begin + limit;
      file.release(begin + from, begin + limit);
      return piece;
    }
    file.prefault(at, begin + limit);
    scan_records(ScanView{begin, end, 0, true, &file}, at, begin + limit, options, scratch.parser,
                 piece);
  } catch (...) {
    piece.failure = std::current_exception();
  }
  if (piece.end) file.release(begin + from, piece.end);
  return piece;
}

// Hands one piece's events to the builder, in order; `first_line` is the number of the piece's
// first line in the file.
void merge_piece(Piece& piece, std::uint64_t first_line, const FileBytes& file,
                 const std::string& display, const ScanOptions& options, TraceBuilder& builder,
                 std::uint64_t& unchecked_payloads) {
  if (piece.failure) std::rethrow_exception(piece.failure);
  const char* file_end = file.view().data() + file.view().size();
  builder.count_lines(piece.lines);
  for (PieceEvent& event : piece.events) {
    const int number = line_number(first_line + event.line - 1);
    switch (event.kind) {
      case PieceEvent::Kind::stray_payload:
        builder.bad_line(number, "payload line outside a record that has a payload");
        continue;
      case PieceEvent::Kind::bad_header:
        builder.end_record();
        builder.bad_line(number, event.message);
        continue;
      case PieceEvent::Kind::bad_json:
        builder.end_record();
        builder.bad_json(number, event.message);
        continue;
      case PieceEvent::Kind::record:
        break;
    }
    builder.end_record();
    if (event.is_str) {
      if (event.str)
        builder.define_string(event.str->first, event.str->second);
      else
        builder.problem(number, "malformed str record");
      builder.begin_record(number, std::move(event.header), display, number + 1);
      builder.end_record();
      continue;
    }
    builder.begin_record(number, std::move(event.header), display, number + 1);
    for (const auto& [line, text] : event.output_paths)
      builder.output_path_line(text, line_number(first_line + line - 1));
    switch (event.payload) {
      case PieceEvent::Payload::none:
        break;
      case PieceEvent::Payload::checked:
        builder.payload_checked(event.payload_lines, event.payload_cut, event.payload_matches);
        break;
      case PieceEvent::Payload::skipped:
        ++unchecked_payloads;
        builder.end_record(false);
        break;
      case PieceEvent::Payload::by_builder: {
        // Past a cap (64 graphs, 16 code dumps) the builder keeps nothing of it: not read then.
        if (!builder.wants_payload() && !options.verify_all) {
          ++unchecked_payloads;
          builder.end_record(false);
          break;
        }
        Releaser releaser(&file, event.payload_begin);
        std::uint64_t line = event.line;
        for (const char* at = event.payload_begin; at < event.payload_end;) {
          const MappedLine payload_line = line_at(at, file_end, releaser);
          at = payload_line.next;
          ++line;
          if (!payload_line.text.empty())
            builder.payload_line(payload_line.text.substr(1), line_number(first_line + line - 1),
                                 payload_line.cut());
        }
        file.release(event.payload_begin, event.payload_end);
        break;
      }
    }
  }
  // Whole headers parsed here (a stack frame in an export) mapped their pages again.
  file.release(piece.begin, piece.end);
}

// One TORCH_TRACE log: headers, each followed by its tab-indented payload lines. Pieces are scanned
// on up to one thread per core, a bounded number ahead of the merge, and merged in file order: the
// facts are those of one scan from the first line to the last.
void read_log(const fs::path& path, const std::string& display, const TraceOptions& options,
              TraceBuilder& builder, std::vector<model::Diagnostic>& diagnostics) {
  auto file = FileBytes::open(path);
  if (!file) {
    diagnostics.push_back({display, "cannot open: " + file.error()});
    return;
  }
  builder.begin_file(display);
  const std::size_t size = file->view().size();
  const ScanOptions scan{options.verify_payloads || size <= k_verify_all_bytes};
  const std::size_t pieces = (size + k_piece_bytes - 1) / k_piece_bytes;
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
  const std::size_t ahead = 2 * threads;  // pieces scanned but not merged yet, at most

  std::mutex mutex;
  std::condition_variable changed;
  std::map<std::size_t, Piece> scanned;
  std::size_t next_scan = 0;
  std::size_t next_merge = 0;
  std::vector<std::vector<PieceEvent>> spare_events;  // of merged pieces, for the next ones
  const auto take_spare = [&](ScanScratch& scratch) {
    if (spare_events.empty()) return;
    scratch.events = std::move(spare_events.back());
    spare_events.pop_back();
  };
  const auto work = [&] {
    ScanScratch scratch;
    for (;;) {
      std::size_t index = 0;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return next_scan >= pieces || next_scan < next_merge + ahead; });
        if (next_scan >= pieces) return;
        index = next_scan++;
        take_spare(scratch);
      }
      Piece piece = scan_piece(*file, index, scan, scratch);
      std::lock_guard lock(mutex);
      scanned.emplace(index, std::move(piece));
      changed.notify_all();
    }
  };
  std::vector<std::jthread> workers;
  for (std::size_t i = 1; i < std::min(threads, pieces); ++i) workers.emplace_back(work);
  // A merge that throws stops the scans before the threads are joined (declared after them, this
  // guard is destroyed first).
  struct StopScans {
    std::mutex& mutex;
    std::condition_variable& changed;
    std::size_t& next_scan;
    std::size_t pieces;
    ~StopScans() {
      std::lock_guard lock(mutex);
      next_scan = pieces;
      changed.notify_all();
    }
  } stop_scans{mutex, changed, next_scan, pieces};
  ScanScratch scratch;  // for the pieces this thread scans
  std::uint64_t first_line = 1;
  std::uint64_t unchecked = 0;
  for (; next_merge < pieces;) {
    Piece piece;
    {
      std::unique_lock lock(mutex);
      // Until the next piece to merge is scanned, this thread scans pieces too.
      while (!scanned.count(next_merge)) {
        if (next_scan < pieces && next_scan < next_merge + ahead) {
          const std::size_t index = next_scan++;
          take_spare(scratch);
          lock.unlock();
          Piece own = scan_piece(*file, index, scan, scratch);
          lock.lock();
          scanned.emplace(index, std::move(own));
          changed.notify_all();
        } else {
          changed.wait(lock);
        }
      }
      auto node = scanned.extract(next_merge);
      piece = std::move(node.mapped());
      ++next_merge;
      changed.notify_all();
    }
    merge_piece(piece, first_line, *file, display, scan, builder, unchecked);
    first_line += piece.lines;
    piece.events.clear();
    std::lock_guard lock(mutex);
    spare_events.push_back(std::move(piece.events));
  }
  builder.end_file();
  if (unchecked)
    diagnostics.push_back({display, std::to_string(unchecked) +
                                        (unchecked == 1 ? " payload" : " payloads") +
                                        " not checked (--verify checks them)"});
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
        read_log(file, file_display, options, builder, read.diagnostics);
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
      read_log(path, display, options, builder, read.diagnostics);
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
