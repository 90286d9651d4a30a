#include "parsers/trace/header_parse.hpp"

#include <nlohmann/json.hpp>

#include "util/text.hpp"

namespace aoti::parsers::trace {
namespace {

using nlohmann::json;

// Whether `text` holds `count` digits at `at`.
bool has_digits(std::string_view text, std::size_t at, std::size_t count) {
  return util::digits_at(text, at).size() >= count;
}

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

// The envelope's fields a light header reads, found in one pass over its keys (a pass per key was
// a tenth of a trace's ingest). Each holds the key's last occurrence: nlohmann keeps the last of
// duplicate keys, and so does this.
struct EnvelopeFields {
  std::optional<std::string_view> kind;  // the first key in sorted order that is not context
  std::optional<simdjson::dom::element> metadata;  // the kind's value
  std::optional<simdjson::dom::element> compiled_autograd_id, frame_id, frame_compile_id, attempt,
      rank, has_payload, stack, str;

  explicit EnvelopeFields(simdjson::dom::object envelope) {
    for (const auto field : envelope) {
      if (std::optional<simdjson::dom::element>* slot = context_slot(field.key)) {
        *slot = field.value;
        continue;
      }
      if (field.key == "str") str = field.value;  // not context: a str record's kind too
      if (!kind || field.key < *kind) {
        kind = field.key;
        metadata = field.value;
      } else if (field.key == *kind) {
        metadata = field.value;
      }
    }
  }

 private:
  // Where a context key's value goes; a dummy slot for the context keys not read here, null for a
  // key that is not context.
  std::optional<simdjson::dom::element>* context_slot(std::string_view key) {
    if (key == "rank") return &rank;
    if (key == "compiled_autograd_id") return &compiled_autograd_id;
    if (key == "frame_id") return &frame_id;
    if (key == "frame_compile_id") return &frame_compile_id;
    if (key == "attempt") return &attempt;
    if (key == "has_payload") return &has_payload;
    if (key == "stack") return &stack;
    if (is_context_key(key)) return &m_unread;
    return nullptr;
  }
  std::optional<simdjson::dom::element> m_unread;
};

// The header fields below, read the way TraceBuilder's text_of / int_of read nlohmann values;
// false for a value whose reading could differ (a huge or a floating number, a non-string text):
// such a header is parsed whole by nlohmann.
bool read_int(const std::optional<simdjson::dom::element>& value,
              std::optional<std::int64_t>& out) {
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

bool read_text(const std::optional<simdjson::dom::element>& value, std::size_t cap,
               std::string& out) {
  if (!value || value->is_null()) return true;
  if (!value->is_string()) return false;
  out = std::string(std::string_view(*value).substr(0, cap));
  return true;
}

// A header read by simdjson, its facts (record_facts.hpp) included; false leaves the header to
// nlohmann (anything unusual: a number simdjson reads differently, an export's stack frame named
// by its file).
bool read_light_header(simdjson::dom::element document, ParsedHeader& out) {
  simdjson::dom::object envelope_object;
  if (document.get_object().get(envelope_object)) return false;
  const EnvelopeFields envelope(envelope_object);
  if (envelope.kind && envelope.kind->size() > 256) return false;
  RecordHeader& header = out.header;
  header.kind = envelope.kind ? std::string(*envelope.kind) : "<none>";
  if (!read_int(envelope.compiled_autograd_id, header.compiled_autograd_id) ||
      !read_int(envelope.frame_id, header.frame_id) ||
      !read_int(envelope.frame_compile_id, header.frame_compile_id) ||
      !read_int(envelope.attempt, header.attempt) || !read_int(envelope.rank, header.rank) ||
      !read_text(envelope.has_payload, 64, header.has_payload))
    return false;
  const auto metadata = object_of(envelope.metadata);
  if ((header.kind == "artifact" || header.kind == "graph_dump") && metadata &&
      !read_text(last_field(*metadata, "name"), 256, header.name))
    return false;
  if (header.kind == "graph_dump" && metadata &&
      !read_text(last_field(*metadata, "type"), k_max_field_text, header.type))
    return false;
  header.facts = record_facts(SimdValue(document), header.kind,
                              fact_use(header.kind, header.name, header.type));

  if (const auto& str = envelope.str) {
    simdjson::dom::array pair;
    simdjson::dom::element text;
    simdjson::dom::element id;
    if (str->get_array().get(pair) || pair.size() != 2 || pair.at(0).get(text) ||
        pair.at(1).get(id) || !text.is_string() || id.type() != simdjson::dom::element_type::INT64)
      return false;
    out.is_str = true;
    out.str.emplace(std::int64_t(id), std::string(std::string_view(text)));
  }

  // TraceBuilder::track_export's stack: the envelope's, else the metadata's.
  simdjson::dom::array stack;
  bool has_stack = envelope.stack && !envelope.stack->get(stack);
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

}  // namespace

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

bool HeaderParser::parse(std::string_view json_text, const char* file_end, ParsedHeader& out,
                         std::string& why) {
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
  if (parsed && read_light_header(document, out)) {
    out.header.text = json_text;
    return true;
  }
  out.header = {};
  out.is_str = false;
  out.str.reset();
  // The whole header as nlohmann values, built from simdjson's parse (several times faster than
  // nlohmann's own on the kilobytes of stack a symbol or guard record carries).
  json envelope = parsed ? to_nlohmann(document) : json::parse(json_text, nullptr, false);
  if (envelope.is_discarded() || !envelope.is_object()) {
    why = envelope.is_discarded() ? "parse error" : "not an object";
    return false;
  }
  if (const auto str = envelope.find("str"); str != envelope.end()) {
    out.is_str = true;
    if (str->is_array() && str->size() == 2 && (*str)[0].is_string() &&
        (*str)[1].is_number_integer())
      out.str.emplace((*str)[1].get<std::int64_t>(), (*str)[0].get<std::string>());
  }
  out.header = header_of(std::move(envelope));
  return true;
}

}  // namespace aoti::parsers::trace
