// The caps on every list TraceBuilder fills, in one place: trace_builder.cpp applies most of them
// as it commits records, export_calls.cpp those on export calls and the failures it infers.
// Internal to parsers/trace; the limits several readers share are in parsers/limits.hpp.
#pragma once

#include <cstddef>

namespace aoti::parsers::trace {

inline constexpr std::size_t k_max_symbols = 4096;
inline constexpr std::size_t k_max_specializations = 1024;
inline constexpr std::size_t k_max_guards = 1024;
inline constexpr std::size_t k_max_data_dependent = 1024;
inline constexpr std::size_t k_max_failures = 256;
inline constexpr std::size_t k_max_fake_kernels = 1024;
inline constexpr std::size_t k_max_graphs = 64;
inline constexpr std::size_t k_max_code_dumps = 16;
inline constexpr std::size_t k_max_total_code_bytes = 128u << 20;
inline constexpr std::size_t k_max_failure_text = 64u << 10;
inline constexpr std::size_t k_max_exports = 256;
inline constexpr std::size_t k_max_per_export = 64;
inline constexpr std::size_t k_max_keys = 1024;  // distinct kinds / names / compile ids counted
inline constexpr std::size_t k_max_strings = 1u << 20;
inline constexpr std::size_t k_max_string_bytes = 64u << 20;
inline constexpr std::size_t k_max_ranks = 4096;
inline constexpr std::size_t k_max_user_frames = 8;

}  // namespace aoti::parsers::trace
