#include "parsers/trace/log_scan.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include <simdjson.h>

#include "parsers/trace/file_bytes.hpp"
#include "parsers/trace/header_parse.hpp"
#include "parsers/trace/md5.hpp"

namespace aoti::parsers::trace {
namespace {

// A log is scanned in pieces of about this size, on as many threads as there are cores.
constexpr std::size_t k_piece_bytes = 4u << 20;
// Up to this size every payload is checked against its MD5; past it only those a fact reads, unless
// TraceOptions::verify_payloads asks for all.
constexpr std::size_t k_verify_all_bytes = 64u << 20;

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
  ParsedHeader parsed;
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
    if (!parser.parse(metadata, end, event.parsed, event.message)) {
      event.kind = PieceEvent::Kind::bad_json;
      continue;
    }
    // A `str` record ends at once: payload lines after it are stray.
    const RecordHeader& header = event.parsed.header;
    if (event.parsed.is_str || header.has_payload.empty()) continue;
    const bool used = payload_use(header.kind, header.name, header.type) != PayloadUse::none;
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
      event.payload_matches = md5.hex_digest() == header.has_payload;
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
    if (!event.parsed.header.text.empty())
      event.parsed.header.text =
          std::string_view(moved(event.parsed.header.text.data()), event.parsed.header.text.size());
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
    if (event.parsed.is_str) {
      if (event.parsed.str)
        builder.define_string(event.parsed.str->first, event.parsed.str->second);
      else
        builder.problem(number, "malformed str record");
      builder.begin_record(number, std::move(event.parsed.header), display, number + 1);
      builder.end_record();
      continue;
    }
    builder.begin_record(number, std::move(event.parsed.header), display, number + 1);
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

}  // namespace

// One TORCH_TRACE log: headers, each followed by its tab-indented payload lines. Pieces are scanned
// on up to one thread per core, a bounded number ahead of the merge, and merged in file order: the
// facts are those of one scan from the first line to the last.
void read_log(const std::filesystem::path& path, const std::string& display, bool verify_payloads,
              TraceBuilder& builder, std::vector<model::Diagnostic>& diagnostics) {
  auto file = FileBytes::open(path);
  if (!file) {
    diagnostics.push_back({display, "cannot open: " + file.error()});
    return;
  }
  builder.begin_file(display);
  const std::size_t size = file->view().size();
  const ScanOptions scan{verify_payloads || size <= k_verify_all_bytes};
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
  if (const std::string change = file->changed_while_read(); !change.empty())
    diagnostics.push_back({display, change});
  if (unchecked)
    diagnostics.push_back({display, std::to_string(unchecked) +
                                        (unchecked == 1 ? " payload" : " payloads") +
                                        " not checked (--verify checks them)"});
}

}  // namespace aoti::parsers::trace
