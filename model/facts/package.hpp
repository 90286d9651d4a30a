// What a .pt2 package tells: its entries, and each AOTI model in it (metadata, wrapper, .so,
// extern nodes).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/facts/elf.hpp"
#include "model/facts/wrapper.hpp"
#include "model/location.hpp"

namespace aoti::model {

struct ExternArg {
  std::string name;   // schema argument name, "x"
  std::string value;  // "tensor arg0_1", "float 0.5", ...
};
struct ExternNode {
  int index = 0;
  std::string name;    // "buf0"
  std::string target;  // "heldout::pad_rows"
  std::vector<ExternArg> inputs;
  std::vector<std::string> outputs;  // tensor names
};

struct PackageEntry {
  std::string name;
  std::uint64_t size = 0;
  std::uint64_t compressed_size = 0;
  bool stored = true;
  std::uint32_t crc32 = 0;  // the central directory's: a GPU core's cubin is matched by it
};

struct ModelFacts {
  std::string name;  // "model"
  // The model artifact as given: a .pt2 package, or a bare model .so (torch._export.aot_compile);
  // empty for a standalone wrapper. Core frames in this model's .so carry the same string.
  std::string package;
  std::map<std::string, std::string> metadata;  // wrapper_metadata.json: AOTI_DEVICE_KEY, ...
  Location metadata_where;
  std::optional<WrapperFacts> wrapper;
  std::optional<ElfFacts> so;
  std::vector<ExternNode> extern_nodes;  // wrapper.json
  Location extern_nodes_where;
  std::vector<std::string> files;  // the model's entries in the package

  // AOTI_DEVICE_KEY, else the device runtime the .so links (libtorch_cuda.so: "cuda"), else
  // guessed from the wrapper, else "".
  std::string device() const;
};

struct PackageFacts {
  std::string path;
  std::string layout;  // "root folder 'model/'" or "legacy (no root folder)"
  std::string archive_format;
  std::string archive_version;
  std::vector<PackageEntry> entries;
};

}  // namespace aoti::model
