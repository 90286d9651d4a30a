// The statement shapes the AOTI wrapper generator writes that more than one reader of the wrapper
// parses: `arg3_1_size[0]`, `constants_info_[0].shape = {...};`, and the identifiers around a key.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace aoti::parsers::wrapper {

// `arg3_1_size[0]` or `arg3_1_stride[1]`.
struct DimAccess {
  std::string_view input;
  int dim = 0;
  bool is_stride = false;
};
std::optional<DimAccess> parse_dim_access(std::string_view text);

// `constants_info_[0].shape = {1000, 32};` -> (0, "shape", "{1000, 32}").
struct IndexedAssignment {
  int index = 0;
  std::string_view field;
  std::string_view value;
};
std::optional<IndexedAssignment> parse_indexed_assignment(std::string_view line,
                                                          std::string_view prefix);

// The identifier that follows `key` in `text`: `cached_torch_dtype_float32` -> "float32".
std::string_view identifier_after(std::string_view text, std::string_view key);

// The identifier that ends just before `end` in `text`.
std::string_view identifier_before(std::string_view text, std::size_t end);

}  // namespace aoti::parsers::wrapper
