// Schema argument types as written: `int` and `SymInt` differ to the dispatcher, and torch's own
// operators name the arguments they type SymInt.
#include <doctest/doctest.h>

#include "torch/schema_types.hpp"

using namespace aoti::torch;

TEST_CASE("concrete and symbolic integer types, scalar and list, optional or not") {
  for (const char* type : {"int", "int?", "int[]", "int[2]", "int[]?"}) {
    CAPTURE(type);
    CHECK(is_concrete_int_type(type));
    CHECK_FALSE(is_symint_scalar_type(type));
    CHECK_FALSE(is_symint_list_type(type));
  }
  CHECK(is_symint_scalar_type("SymInt"));
  CHECK(is_symint_scalar_type("SymInt?"));
  CHECK_FALSE(is_symint_scalar_type("SymInt[]"));
  for (const char* type : {"SymInt[]", "SymInt[2]", "SymInt[]?"}) {
    CAPTURE(type);
    CHECK(is_symint_list_type(type));
    CHECK_FALSE(is_concrete_int_type(type));
  }
  for (const char* type : {"Tensor", "Tensor[]", "float", "bool", "str", "ScalarType", "intx"})
    CHECK_FALSE(
        (is_concrete_int_type(type) || is_symint_scalar_type(type) || is_symint_list_type(type)));
}

TEST_CASE("the argument names torch types SymInt are exact names, not words in a name") {
  for (const char* name : {"size", "sizes", "output_size", "split_sizes", "split_size"})
    CHECK(is_symbolic_size_name(name));
  // bitsandbytes' `int blocksize` and `int[] shape` are concrete by design.
  for (const char* name : {"blocksize", "shape", "shapeB", "step", "num_rows", "Size"})
    CHECK_FALSE(is_symbolic_size_name(name));
}
