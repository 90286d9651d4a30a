// The message of Inductor's index asserts, as torch's codegen writes it. Both the kernels in a
// package and the error texts in logs carry it, so both sides read it with this one function.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace aoti::torch {

// Every form comes from `Kernel.indirect_assert` (torch/_inductor/codegen/common.py, and its
// vectorized override in cpp.py), called by each backend's `check_bounds` with lower "0" or None
// and upper the size printed for that backend (Triton `texpr`: `1000`, `ks0`, `ks0*ks1`,
// `1 + ks0`; C++ `cexpr`: `1000L`, `1L + ks0`). `CSEProxy.indirect_indexing` leaves a side out when
// the index's value range already satisfies it:
//   "index out of bounds: 0 <= tmp4 < ks0"   both sides
//   "index out of bounds: 0 <= tmp4"         lower only (the range's upper end is below a static
//   size) "index out of bounds: tmp4 < 1000"       upper only (the range starts at 0 or above)
inline constexpr std::string_view k_index_assert_prefix = "index out of bounds: ";

struct IndexAssertForm {
  std::string index_var;  // "tmp4"
  std::string lower;      // "0"; empty when only the upper side is checked
  std::string upper;      // "ks0", "1000L", "1 + ks0"; empty when only the lower side is checked
};

// Reads `message` (which may start with the prefix or be the condition alone); nullopt when it is
// not one of the forms above (Rust's "index out of bounds: the len is 3 but the index is 4").
std::optional<IndexAssertForm> parse_index_assert(std::string_view message);

// The condition as torch printed it: "0 <= tmp4 < ks0", "0 <= tmp4", "tmp4 < 1000".
std::string condition_text(const IndexAssertForm& form);

}  // namespace aoti::torch
