// zstd cores, as systemd-coredump stores them: one stream decoded in sequence by libzstd into
// `sink` (zstd frames carry no index to split them by). Internal to parsers/coredump; split from
// decompress.cpp so that each container format has its own file.
#pragma once

#include "parsers/coredump/decode_io.hpp"
#include "parsers/parse_error.hpp"

namespace aoti::parsers::coredump {

Parsed<void> decode_zstd(int in, Sink& sink);

}  // namespace aoti::parsers::coredump
