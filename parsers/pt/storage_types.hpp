// The storage classes a saved tensor names (torch.FloatStorage, ...): torch's legacy typed
// storages, one per dtype, named after c10's ScalarType enumerator (torch/codes.hpp). Only the
// dtypes whose values this reader summarizes are here.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "torch/codes.hpp"

namespace aoti::parsers::pt {

enum class Element {
  uint8,
  int8,
  int16,
  int32,
  int64,
  float16,
  float32,
  float64,
  boolean,
  bfloat16
};

struct StorageType {
  const torch::ScalarTypeInfo* scalar = nullptr;  // scalar->name is the dtype: "float32"
  Element element = Element::float32;
  std::size_t element_size = 0;
};

// "FloatStorage" -> float32; nullopt for any other name, and for dtypes not summarized (complex,
// quantized, float8).
std::optional<StorageType> storage_type_named(std::string_view class_name);

}  // namespace aoti::parsers::pt
