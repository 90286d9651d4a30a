// Small helpers shared by checks: reading the Case, describing facts, building next steps.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/case.hpp"
#include "analyzer/core/check.hpp"
#include "analyzer/core/finding.hpp"

namespace aoti::checks {

// The boilerplate every check shares: id, family and summary held as data.
class BasicCheck : public core::Check {
 public:
  BasicCheck(std::string_view id, std::string_view summary)
      : m_id(id), m_family(id.substr(0, id.find('.'))), m_summary(summary) {}
  std::string_view id() const override { return m_id; }
  std::string_view family() const override { return m_family; }
  std::string_view summary() const override { return m_summary; }

 protected:
  core::Finding new_finding(core::Severity severity, double confidence) const;

 private:
  std::string_view m_id;
  std::string_view m_family;
  std::string_view m_summary;
};

const core::ModelFacts* model_of(const core::Case& c, const core::LogEvent& e);
core::Evidence event_evidence(const core::LogEvent& e, std::string note);

// "[2, 1024]" for a dim with both bounds in the input contract, "= 16" for a static dim, "" if none.
std::string dim_contract(const core::WrapperFacts& w, int input_index, int dim);
// Every condition on one input, for a person: "dim 0 in [2, 1024], dim 1 = 16, float32, on cuda".
std::string input_contract(const core::WrapperFacts& w, int input_index);
int input_index_of(const core::WrapperFacts& w, std::string_view name);

// Wrapper symbols are `s77`, `u0`, `ks0`: anything else in a call argument is a constant or buffer.
bool is_size_symbol(std::string_view arg);
std::optional<std::int64_t> integer_literal(std::string_view arg);  // "144L" -> 144

// `unzip -p PACKAGE ENTRY | sed -n 'A,Bp'`: shows lines of a file inside a package.
std::string show_lines_command(const core::Location& where, int first, int last);
// The wrapper's own location with `line` set.
core::Location wrapper_at(const core::WrapperFacts& w, int line);
// Where line `line` of a kernel's source is: the wrapper for Triton kernels (and C++ kernels a
// single-file wrapper defines), the kernel file (<hash>.kernel.cpp, a trace's dump) otherwise.
core::Location kernel_at(const core::WrapperFacts& w, const core::TritonKernel& kernel, int line);

// "ns::op" -> "ns.op", the path under torch.ops (unchanged without "::").
std::string torch_ops_path(std::string op);
std::string shape_text(const std::vector<std::int64_t>& shape);  // "[1000, 32]"
std::string join(const std::vector<std::string>& parts, std::string_view separator = ", ");

// ---- crashes ----------------------------------------------------------------------------------
// Frames of the C++ runtime itself: std::, __cxxabiv1, __gnu_cxx.
bool is_cxx_runtime_symbol(std::string_view symbol);
// "#3 torch::aot_inductor::parse_device_str in model.so", for evidence.
std::string frame_text(const core::StackFrame& frame, std::size_t index);
std::string module_name(std::string_view path);  // the file name of a module path
// The process mapped a module whose file name starts with `prefix` ("libstdc++.so.6", "libcuda.so").
const core::MappedModule* mapped(const core::CoreFacts& core, std::string_view prefix);
// A core's location as evidence.
core::Location core_location(const core::CoreFacts& core);

std::string dtype_name_of_code(std::string_view code);   // "5" -> "float16"
std::string device_name_of_code(std::string_view code);  // "0" -> "cpu"

}  // namespace aoti::checks
