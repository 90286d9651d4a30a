#include "parsers/pt/tensor_dump.hpp"

#include <fmt/format.h>

#include <memory>
#include <optional>

#include "parsers/pt/pickle.hpp"
#include "parsers/zip/zip_archive.hpp"
#include "util/expected.hpp"
#include "util/format_size.hpp"

namespace aoti::parsers::pt {
namespace {

using zip::ZipArchive;
using zip::ZipEntry;

constexpr std::uint64_t k_max_record_text = 64;  // byteorder, version: a word

// The folder the records sit in: torch's writer puts every record under one ("archive/" for the
// runtime's pickle_save, the file's stem for torch.save), and its reader takes the first entry's.
std::optional<std::string> record_prefix(const ZipArchive& archive) {
  if (archive.find("data.pkl")) return "";
  std::optional<std::string> prefix;
  for (const ZipEntry& entry : archive.entries()) {
    const auto slash = entry.name.find('/');
    if (slash == std::string::npos || slash == 0 || entry.name.substr(slash + 1) != "data.pkl")
      continue;
    std::string candidate = entry.name.substr(0, slash + 1);
    if (!prefix || archive.entries().front().name.starts_with(candidate)) prefix = candidate;
  }
  return prefix;
}

bool has_archive_format(const ZipArchive& archive) {
  for (const ZipEntry& entry : archive.entries())
    if (entry.name == "archive_format" || entry.name.ends_with("/archive_format")) return true;
  return false;
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.pop_back();
  return text;
}

// The storage record's bytes, in place when stored, else inflated into `inflated`.
Parsed<std::unique_ptr<RandomAccess>> open_storage(const ZipArchive& archive, const ZipEntry& entry,
                                                   const DumpLimits& limits,
                                                   std::string& inflated) {
  if (entry.stored) return archive.open_stored(entry);
  TRY_ASSIGN(inflated, archive.read(entry, limits.max_deflated_storage));
  return open_memory(inflated);
}

std::string summary_note(const ElementStats& stats) {
  return "statistics left out: " + stats.skipped;
}

}  // namespace

bool looks_like_tensor_dump(const std::filesystem::path& path) {
  try {
    if (!parsers::zip::starts_like_zip(path)) return false;
    const auto archive = ZipArchive::open(path);
    return archive && record_prefix(*archive) && !has_archive_format(*archive);
  } catch (...) {
    return false;
  }
}

Parsed<TensorDump> read_tensor_dump(const std::filesystem::path& path, const DumpLimits& limits) {
  TRY_ASSIGN(const ZipArchive archive, ZipArchive::open(path));
  const auto prefix = record_prefix(archive);
  if (!prefix) return fail("no data.pkl record: not a torch.save file");
  if (has_archive_format(archive))
    return fail("an archive_format record: a pt2 package, not a torch.save file");

  bool big_endian = false;  // files written before the byteorder record are little-endian
  if (const ZipEntry* entry = archive.find(*prefix + "byteorder")) {
    TRY_ASSIGN(const std::string order, archive.read(*entry, k_max_record_text));
    if (trimmed(order) == "big")
      big_endian = true;
    else if (trimmed(order) != "little")
      return fail(fmt::format("byteorder record is '{}', neither 'little' nor 'big'",
                              trimmed(order).substr(0, 16)));
  }

  const ZipEntry* pickle_entry = archive.find(*prefix + "data.pkl");
  TRY_ASSIGN(const std::string pickle, archive.read(*pickle_entry, limits.max_pickle_bytes));
  TRY_ASSIGN(const PickledTensor pickled, read_tensor_pickle(pickle));

  // The pickle names only types storage_type_named knows.
  const StorageType type = *storage_type_named(pickled.storage.type);
  TensorDump dump;
  dump.storage_record = *prefix + "data/" + pickled.storage.key;
  model::TensorSummary& tensor = dump.tensor;
  tensor.dtype = std::string(type.scalar->name);
  tensor.size = pickled.size;
  tensor.stride = pickled.stride;
  tensor.device = pickled.storage.location;

  const ZipEntry* storage_entry = archive.find(dump.storage_record);
  if (!storage_entry)
    return fail(fmt::format("storage '{}' has no record {} in the file",
                            pickled.storage.key.substr(0, 64), dump.storage_record.substr(0, 80)));
  if (static_cast<std::uint64_t>(pickled.storage.numel) > storage_entry->size / type.element_size)
    return fail(fmt::format("storage record {} holds {} bytes; the pickle claims {} {} elements",
                            dump.storage_record, storage_entry->size, pickled.storage.numel,
                            tensor.dtype));

  std::string inflated;
  TRY_ASSIGN(const auto storage, open_storage(archive, *storage_entry, limits, inflated));
  const TensorLayout layout{type,         pickled.storage.numel, pickled.storage_offset,
                            pickled.size, pickled.stride,        big_endian};
  TRY_ASSIGN(const ElementStats stats, summarize_elements(*storage, layout, limits.stats));
  tensor.numel = stats.numel;
  dump.bytes_read = stats.bytes_read;
  if (!stats.summarized) {
    dump.notes.push_back(summary_note(stats));
    return dump;
  }
  tensor.min = stats.min;
  tensor.max = stats.max;
  tensor.mean = stats.mean;
  tensor.nan_count = stats.nan_count;
  tensor.inf_count = stats.inf_count;
  return dump;
}

}  // namespace aoti::parsers::pt
