#include "parsers/coredump/zstd_decode.hpp"

#include <zstd.h>

#include <memory>
#include <string>
#include <vector>

namespace aoti::parsers::coredump {

Parsed<void> decode_zstd(int in, Sink& sink) {
  std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> stream(ZSTD_createDStream(),
                                                                       ZSTD_freeDStream);
  if (!stream) return fail("cannot start the zstd decoder");
  std::vector<unsigned char> output(ZSTD_DStreamOutSize());
  std::size_t pending = 1;  // ZSTD_decompressStream's hint: 0 once a frame is complete
  bool seen_input = false;
  auto read = for_each_chunk(in, [&](const unsigned char* data, std::size_t size, bool at_end) {
    if (at_end) return false;
    seen_input = true;
    ZSTD_inBuffer input{data, size, 0};
    while (input.pos < input.size) {
      ZSTD_outBuffer out{output.data(), output.size(), 0};
      pending = ZSTD_decompressStream(stream.get(), &out, &input);
      if (ZSTD_isError(pending)) {
        sink.problem = std::string("corrupt zstd data: ") + ZSTD_getErrorName(pending);
        return false;
      }
      if (out.pos > 0 && !sink.take(output.data(), out.pos)) return false;
    }
    return true;
  });
  if (!read) return read;
  if (seen_input && pending != 0 && sink.problem.empty())
    sink.problem = "the zstd stream ends early (the file was cut)";
  return {};
}

}  // namespace aoti::parsers::coredump
