// torch/codes.hpp against c10's own enums: every code, enumerator and spelling.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>

#include "torch/codes.hpp"

namespace {

// c10/core/ScalarType.h (pytorch f0963997), AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS in
// order: `enum class ScalarType` numbers them from 0 in this order.
constexpr std::string_view k_c10_scalar_types[] = {"Byte",
                                                   "Char",
                                                   "Short",
                                                   "Int",
                                                   "Long",
                                                   "Half",
                                                   "Float",
                                                   "Double",
                                                   "ComplexHalf",
                                                   "ComplexFloat",
                                                   "ComplexDouble",
                                                   "Bool",
                                                   "QInt8",
                                                   "QUInt8",
                                                   "QInt32",
                                                   "BFloat16",
                                                   "QUInt4x2",
                                                   "QUInt2x4",
                                                   "Bits1x8",
                                                   "Bits2x4",
                                                   "Bits4x2",
                                                   "Bits8",
                                                   "Bits16",
                                                   "Float8_e5m2",
                                                   "Float8_e4m3fn",
                                                   "Float8_e5m2fnuz",
                                                   "Float8_e4m3fnuz",
                                                   "UInt16",
                                                   "UInt32",
                                                   "UInt64",
                                                   "UInt1",
                                                   "UInt2",
                                                   "UInt3",
                                                   "UInt4",
                                                   "UInt5",
                                                   "UInt6",
                                                   "UInt7"};

// c10/core/DeviceType.h (pytorch 1e595cc2), `enum class DeviceType : int8_t`, values as written.
constexpr std::pair<std::string_view, int> k_c10_device_types[] = {
    {"CPU", 0},  {"CUDA", 1},  {"MKLDNN", 2},      {"OPENGL", 3}, {"OPENCL", 4},  {"IDEEP", 5},
    {"HIP", 6},  {"FPGA", 7},  {"MAIA", 8},        {"XLA", 9},    {"Vulkan", 10}, {"Metal", 11},
    {"XPU", 12}, {"MPS", 13},  {"Meta", 14},       {"HPU", 15},   {"VE", 16},     {"Lazy", 17},
    {"IPU", 18}, {"MTIA", 19}, {"PrivateUse1", 20}};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& ch : out) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  return out;
}

}  // namespace

using namespace aoti::torch;

TEST_CASE("the scalar-type table is c10's ScalarType, code for code") {
  CHECK(k_scalar_types.size() == std::size(k_c10_scalar_types));
  for (int code = 0; code < static_cast<int>(std::size(k_c10_scalar_types)); ++code) {
    const ScalarTypeInfo* info = scalar_type(code);
    REQUIRE(info != nullptr);
    CHECK(info->c10 == k_c10_scalar_types[code]);
    CHECK(info->aten == "at::k" + std::string(info->c10));  // c10's DEFINE_CONSTANT: k##name
  }
  CHECK(scalar_type(-1) == nullptr);
  CHECK(scalar_type(37) == nullptr);
}

TEST_CASE("torch's dtype names and the ATen spellings find the same code") {
  CHECK(scalar_type_named("int64")->code == 4);
  CHECK(scalar_type_named("float32")->aten == "at::kFloat");
  CHECK(scalar_type_named("bfloat16")->code == 15);
  CHECK(scalar_type_named("complex32")->c10 == "ComplexHalf");
  CHECK(scalar_type_named("float8_e4m3fn")->code == 24);
  CHECK(scalar_type_named("uint64")->code == 29);
  CHECK(scalar_type_of_aten("at::kLong")->name == "int64");
  CHECK(scalar_type_of_aten("at::kHalf")->name == "float16");
  CHECK(scalar_type_named("long") == nullptr);
  CHECK(scalar_type_of_aten("kLong") == nullptr);
}

TEST_CASE("the device-type table is c10's DeviceType, value for value") {
  CHECK(k_device_types.size() == std::size(k_c10_device_types));
  for (const auto& [enumerator, value] : k_c10_device_types) {
    INFO(enumerator);
    const DeviceTypeInfo* info = device_type(value);
    REQUIRE(info != nullptr);
    CHECK(info->c10 == enumerator);
    // c10::DeviceTypeName(type, true) is the enumerator in lower case, except PrivateUse1's
    // default.
    CHECK(info->name ==
          (enumerator == "PrivateUse1" ? std::string("privateuseone") : lower(enumerator)));
  }
  CHECK(device_type(21) == nullptr);
}

TEST_CASE("AOTI's shim names the devices it has functions for") {
  // torch/csrc/inductor/aoti_torch/c/shim.h:
  // aoti_torch_device_type_{cpu,cuda,meta,xpu,mps,privateuse1}.
  CHECK(device_type_of_shim("cpu")->code == 0);
  CHECK(device_type_of_shim("cuda")->code == 1);
  CHECK(device_type_of_shim("meta")->code == 14);
  CHECK(device_type_of_shim("xpu")->code == 12);
  CHECK(device_type_of_shim("mps")->code == 13);
  CHECK(device_type_of_shim("privateuse1")->code == 20);
  CHECK(device_type_of_shim("hip") == nullptr);
  CHECK(device_type_of_shim("") == nullptr);
}
