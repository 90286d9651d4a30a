// The argument types of an operator schema as written (`int`, `SymInt[]`, `int?`): the dispatcher
// treats `int` and `SymInt` differently, while a parsed FunctionSchema folds both to IntType, so
// the spelling is what matters. Read by parsers/source (C5) and checks/customop (C3/C4, and which
// sizes the schema makes concrete).
#pragma once

#include <string_view>

namespace aoti::torch {

// `int`, `int?`, `int[]`, `int[2]`, `int[]?`: a value the schema makes concrete.
bool is_concrete_int_type(std::string_view type);
// `SymInt`, `SymInt?`.
bool is_symint_scalar_type(std::string_view type);
// `SymInt[]`, `SymInt[2]`, `SymInt[]?`.
bool is_symint_list_type(std::string_view type);
// An argument name torch's own operators type SymInt / SymInt[] (native_functions.yaml:
// view/expand/new_empty `size`, adaptive pools and upsample `output_size`, split `split_size` /
// `split_sizes`, split_with_sizes_copy `sizes`): an `int` there is C5. Exact names, not words.
bool is_symbolic_size_name(std::string_view name);

}  // namespace aoti::torch
