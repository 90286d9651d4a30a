// What a TORCH_TRACE log (or a tlparse output folder) tells about export and compile.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aoti::core {

struct TraceFrame {
  std::string file;
  int line = 0;
  std::string function;
};

struct TraceRecord {
  std::string artifact;  // the trace file
  int line = 0;          // line of the record's header in that file
};

struct TraceFacts {
  std::string artifact;  // the trace file or tlparse folder as given
  std::map<std::string, std::uint64_t> records_by_kind;  // "dynamo_start" -> 3
};

}  // namespace aoti::core
