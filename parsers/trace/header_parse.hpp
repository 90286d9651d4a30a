// The header line of a TORCH_TRACE record and its metadata JSON, e.g.
//   V1129 07:41:33.791000 5575 torch/fx/experimental/symbolic_shapes.py:5388] {"create_symbol":
//   ...}
// Read with simdjson, facts and all (record_facts.hpp); with nlohmann only what simdjson reads
// differently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <simdjson.h>

#include "parsers/trace/trace_builder.hpp"

namespace aoti::parsers::trace {

// The metadata JSON of a record header line, or empty when `line` is not one. Checked by hand (no
// regex): the line may be huge.
std::string_view header_json(std::string_view line);

struct ParsedHeader {
  RecordHeader header;
  bool is_str = false;  // a `str` record: defines an interned string
  std::optional<std::pair<std::int64_t, std::string>> str;  // {id, text}; none: malformed
};

// Parses record headers; one per thread, its buffers kept from header to header.
class HeaderParser {
 public:
  // False: `json_text` is not JSON, or not an object (`why` says which). simdjson reads up to
  // SIMDJSON_PADDING bytes past the text: those of the buffer when it has that many before
  // `bytes_end`, else of a padded copy.
  bool parse(std::string_view json_text, const char* bytes_end, ParsedHeader& out,
             std::string& why);

 private:
  simdjson::dom::parser m_parser;
  std::string m_padded;
};

}  // namespace aoti::parsers::trace
