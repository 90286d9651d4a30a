// c10's scalar-type and device-type codes, the one table of them: AOTI wrappers test inputs
// against these numbers, its error messages print them ("expected: 6(at::kFloat), but got: 5"),
// and the analyzer names them for people.
//
// Values from c10/core/ScalarType.h (AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS, "Order matters
// for this macro; it is relied upon in ... the serialization format") and c10/core/DeviceType.h
// (enum class DeviceType); tests/test_torch_codes.cpp holds c10's enumerators and checks them.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace aoti::torch {

struct ScalarTypeInfo {
  int code;               // c10::ScalarType: 4
  std::string_view c10;   // the enumerator: "Long"
  std::string_view name;  // torch's dtype name, also aoti_torch_dtype_<name>: "int64"
  std::string_view aten;  // as wrappers and errors print it: "at::kLong"
};

inline constexpr std::array<ScalarTypeInfo, 37> k_scalar_types = {{
    {0, "Byte", "uint8", "at::kByte"},
    {1, "Char", "int8", "at::kChar"},
    {2, "Short", "int16", "at::kShort"},
    {3, "Int", "int32", "at::kInt"},
    {4, "Long", "int64", "at::kLong"},
    {5, "Half", "float16", "at::kHalf"},
    {6, "Float", "float32", "at::kFloat"},
    {7, "Double", "float64", "at::kDouble"},
    {8, "ComplexHalf", "complex32", "at::kComplexHalf"},
    {9, "ComplexFloat", "complex64", "at::kComplexFloat"},
    {10, "ComplexDouble", "complex128", "at::kComplexDouble"},
    {11, "Bool", "bool", "at::kBool"},
    {12, "QInt8", "qint8", "at::kQInt8"},
    {13, "QUInt8", "quint8", "at::kQUInt8"},
    {14, "QInt32", "qint32", "at::kQInt32"},
    {15, "BFloat16", "bfloat16", "at::kBFloat16"},
    {16, "QUInt4x2", "quint4x2", "at::kQUInt4x2"},
    {17, "QUInt2x4", "quint2x4", "at::kQUInt2x4"},
    {18, "Bits1x8", "bits1x8", "at::kBits1x8"},
    {19, "Bits2x4", "bits2x4", "at::kBits2x4"},
    {20, "Bits4x2", "bits4x2", "at::kBits4x2"},
    {21, "Bits8", "bits8", "at::kBits8"},
    {22, "Bits16", "bits16", "at::kBits16"},
    {23, "Float8_e5m2", "float8_e5m2", "at::kFloat8_e5m2"},
    {24, "Float8_e4m3fn", "float8_e4m3fn", "at::kFloat8_e4m3fn"},
    {25, "Float8_e5m2fnuz", "float8_e5m2fnuz", "at::kFloat8_e5m2fnuz"},
    {26, "Float8_e4m3fnuz", "float8_e4m3fnuz", "at::kFloat8_e4m3fnuz"},
    {27, "UInt16", "uint16", "at::kUInt16"},
    {28, "UInt32", "uint32", "at::kUInt32"},
    {29, "UInt64", "uint64", "at::kUInt64"},
    {30, "UInt1", "uint1", "at::kUInt1"},
    {31, "UInt2", "uint2", "at::kUInt2"},
    {32, "UInt3", "uint3", "at::kUInt3"},
    {33, "UInt4", "uint4", "at::kUInt4"},
    {34, "UInt5", "uint5", "at::kUInt5"},
    {35, "UInt6", "uint6", "at::kUInt6"},
    {36, "UInt7", "uint7", "at::kUInt7"},
}};

struct DeviceTypeInfo {
  int code;               // c10::DeviceType: 1
  std::string_view c10;   // the enumerator: "CUDA"
  std::string_view name;  // c10::DeviceTypeName(type, /*lower_case=*/true): "cuda", "privateuseone"
  std::string_view shim;  // aoti_torch_device_type_<shim>() in AOTI's C shim, "" where it has none
};

inline constexpr std::array<DeviceTypeInfo, 21> k_device_types = {{
    {0, "CPU", "cpu", "cpu"},
    {1, "CUDA", "cuda", "cuda"},
    {2, "MKLDNN", "mkldnn", ""},
    {3, "OPENGL", "opengl", ""},
    {4, "OPENCL", "opencl", ""},
    {5, "IDEEP", "ideep", ""},
    {6, "HIP", "hip", ""},
    {7, "FPGA", "fpga", ""},
    {8, "MAIA", "maia", ""},
    {9, "XLA", "xla", ""},
    {10, "Vulkan", "vulkan", ""},
    {11, "Metal", "metal", ""},
    {12, "XPU", "xpu", "xpu"},
    {13, "MPS", "mps", "mps"},
    {14, "Meta", "meta", "meta"},
    {15, "HPU", "hpu", ""},
    {16, "VE", "ve", ""},
    {17, "Lazy", "lazy", ""},
    {18, "IPU", "ipu", ""},
    {19, "MTIA", "mtia", ""},
    {20, "PrivateUse1", "privateuseone", "privateuse1"},
}};

// Lookups; null when nothing matches.
const ScalarTypeInfo* scalar_type(std::int64_t code);
const ScalarTypeInfo* scalar_type_named(std::string_view name);    // "int64"
const ScalarTypeInfo* scalar_type_of_aten(std::string_view aten);  // "at::kLong"
const DeviceTypeInfo* device_type(std::int64_t code);
const DeviceTypeInfo* device_type_of_shim(std::string_view shim);  // "privateuse1"

}  // namespace aoti::torch
