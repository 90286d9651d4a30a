// A torch.save file holding one tensor, as the intermediate value printer's mode 1 saves each
// kernel argument: a zip of <prefix>/data.pkl (the pickle, read as data by pickle.hpp),
// <prefix>/data/<key> (raw storages), <prefix>/byteorder and <prefix>/version. Read without
// Python: the tensor's dtype, size, stride and device, and statistics over its elements.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "model/facts/debug_run.hpp"
#include "parsers/parse_error.hpp"
#include "parsers/pt/tensor_stats.hpp"

namespace aoti::parsers::pt {

struct DumpLimits {
  std::uint64_t max_pickle_bytes = 1ull << 20;  // a tensor's pickle is a few hundred bytes
  // A storage is read in place when stored (torch.save never compresses); one deflated by
  // another writer is inflated whole, up to this.
  std::uint64_t max_deflated_storage = 64ull << 20;
  StatsLimits stats;
};

struct TensorDump {
  ::aoti::model::TensorSummary tensor;
  std::string storage_record;    // "archive/data/0"
  std::uint64_t bytes_read = 0;  // storage bytes read for the statistics
  // What was left out while the rest was read: the statistics of a tensor too large to visit.
  std::vector<std::string> notes;
};

// True when the file is a zip holding a torch.save pickle (<prefix>/data.pkl) and no pt2
// archive_format record: content sniffing, no pickle read.
bool looks_like_tensor_dump(const std::filesystem::path& path);

Parsed<TensorDump> read_tensor_dump(const std::filesystem::path& path,
                                    const DumpLimits& limits = {});

}  // namespace aoti::parsers::pt
