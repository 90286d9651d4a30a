// The C++ kernels Inductor writes for CPU (`extern "C" void cpp_fused_...(...)`): in a package's
// <hash>.kernel.cpp (torch 2.6+), inside the wrapper of older single-file packages, and in the
// trace's `inductor_aot_kernel_code` dump; the wrapper itself declares each one it calls.
//
// What is read, line by line as the Triton reader does: the parameters in order, each
// `AOTI_TORCH_CHECK(cond, "msg")` / `TORCH_CHECK(...)` (the index asserts of cpp.py's
// `indirect_assert`), `auto tmpN = ...;` assignments (multi-line lambdas included) and the
// addresses built from pointer parameters (`in_ptr1[...]`, `in_ptr1 + static_cast<int64_t>(...)`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/case.hpp"

namespace aoti::parsers::wrapper {

class CppKernelReader {
 public:
  // `extern "C"  void  cpp_fused_embedding_mul_0(const int64_t* in_ptr0,`
  static bool opens_kernel(std::string_view line);

  CppKernelReader(std::string_view line, int number);

  // Feeds the next line (trimmed); false once this line ended the declaration or the body.
  bool read_line(std::string_view line, int number);
  // True when a body was read, false for a declaration (`...);`).
  bool defined() const { return m_body_seen; }
  // True when the opening line alone held the whole declaration or definition.
  bool finished() const { return m_done; }
  ::aoti::model::TritonKernel finish(int last_line);

 private:
  void read_signature_text(std::string_view text, int number);
  void read_body_line(std::string_view line, int number);
  void read_check(std::string_view line, int number, std::size_t open);
  void read_accesses(std::string_view line, int number, const std::string& var);

  ::aoti::model::TritonKernel m_kernel;
  std::string m_signature;  // the parameter list, gathered over its lines
  bool m_in_signature = true;
  bool m_body_seen = false;
  bool m_done = false;
  long m_depth = 0;        // braces open in the body
  int m_scope = 0;         // the top-level loop nest being read (1, 2, ...)
  std::string m_open_var;  // `auto tmp9 =` whose value spans the next lines
  std::string m_open_value;
};

// The C++ kernels defined in `text` (a <hash>.kernel.cpp or a trace's kernel dump), each with
// `source` set to `where`.
std::vector<::aoti::model::TritonKernel> read_cpp_kernels(std::string_view text,
                                                          const ::aoti::model::Location& where);

// Adds the kernels of a kernel source file to a wrapper's facts (a kernel the wrapper itself
// defines is replaced). `line_offset` is added to every line: the text's line 1 is line 1 +
// line_offset of `where` (a trace file holding the text from one of its lines on).
void add_kernel_source(::aoti::model::WrapperFacts& wrapper, std::string_view text,
                       const ::aoti::model::Location& where, int line_offset = 0);

}  // namespace aoti::parsers::wrapper
