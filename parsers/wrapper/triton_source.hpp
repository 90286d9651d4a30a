// The Triton source that the wrapper embeds in a comment of each `call_triton_<kernel>` function:
// `async_compile.triton('name', ''' ... ''', device_str='cuda')`, read one line at a time.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/case.hpp"

namespace aoti::parsers::wrapper {

class TritonSourceReader {
 public:
  // `opening` is the trimmed `async_compile.triton(...` line; false when it names no kernel.
  static bool opens_source(std::string_view opening);
  TritonSourceReader(std::string_view opening, int line);

  // Reads one trimmed line of the source; false when that line closed it (the closing line
  // holds no Python worth reading).
  bool read_line(std::string_view line, int number);

  model::TritonKernel finish(int last_line);

 private:
  void read_signature(std::string_view line);
  void read_def(std::string_view line, int number);
  void read_body_line(std::string_view line, int number);

  model::TritonKernel m_kernel;
  std::string m_closing;  // the quotes that end the source: ''' or """
  bool m_in_body = false;
  // All def parameters, constexprs included: older Triton signatures are keyed by position.
  std::vector<std::string> m_all_params;
  std::vector<std::pair<std::string, std::string>> m_raw_signature;
};

}  // namespace aoti::parsers::wrapper
