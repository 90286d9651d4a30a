// The pickle torch.save writes for one tensor (data.pkl), read as data: only the opcodes and the
// globals such a pickle holds are understood, nothing is ever called or imported, and anything
// else is a ParseError naming the opcode or global and its byte.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/parse_error.hpp"

namespace aoti::parsers::pt {

// The persistent id of a storage: ('storage', torch.FloatStorage, '0', 'cuda:0', 3456).
struct PickledStorage {
  std::string type;  // the class's name: "FloatStorage"
  std::string key;   // its record: <prefix>/data/<key>
  std::string location;
  std::int64_t numel = 0;  // elements of the storage's type
};

// torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, ...).
struct PickledTensor {
  PickledStorage storage;
  std::int64_t storage_offset = 0;
  std::vector<std::int64_t> size;
  std::vector<std::int64_t> stride;
};

Parsed<PickledTensor> read_tensor_pickle(std::string_view pickle);

}  // namespace aoti::parsers::pt
