#include "torch/schema_types.hpp"

#include <algorithm>
#include <array>

namespace aoti::torch {

bool is_concrete_int_type(std::string_view type) {
  return type == "int" || type == "int?" || type.starts_with("int[");
}

bool is_symint_scalar_type(std::string_view type) { return type == "SymInt" || type == "SymInt?"; }

bool is_symint_list_type(std::string_view type) { return type.starts_with("SymInt["); }

bool is_symbolic_size_name(std::string_view name) {
  static constexpr std::array<std::string_view, 8> k_names{
      "size",       "sizes",       "output_size", "output_sizes",
      "split_size", "split_sizes", "new_size",    "new_sizes"};
  return std::find(k_names.begin(), k_names.end(), name) != k_names.end();
}

}  // namespace aoti::torch
