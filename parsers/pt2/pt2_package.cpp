#include "parsers/pt2/pt2_package.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "parsers/elf/elf_reader.hpp"
#include "parsers/limits.hpp"
#include "parsers/zip/zip_archive.hpp"
#include "util/expected.hpp"
#include "util/format_size.hpp"

namespace aoti::parsers::pt2 {
namespace {

using nlohmann::json;
using zip::ZipArchive;
using zip::ZipEntry;

constexpr std::uint64_t k_max_header_record = 64;
constexpr std::uint64_t k_max_json = 16ull << 20;
constexpr std::size_t k_max_value_text = 200;
constexpr std::string_view k_aotinductor_dir = "data/aotinductor/";
// A package holds one model, or a few (one per method): past this many the rest are named, not
// read, so that a crafted package with thousands of model folders costs neither time nor a
// diagnostic per folder.
constexpr std::size_t k_max_models = 64;
// Wrapper and kernel sources stay in memory with their facts (checks quote their lines): past this
// many bytes for the whole package a model's sources are not read, so that 48 models of 63 MiB
// each cannot take 3 GiB.
constexpr std::uint64_t k_max_package_sources = 256ull << 20;

std::string trim(std::string text) {
  const auto is_space = [](unsigned char c) { return std::isspace(c) != 0; };
  text.erase(text.begin(), std::find_if_not(text.begin(), text.end(), is_space));
  text.erase(std::find_if_not(text.rbegin(), text.rend(), is_space).base(), text.end());
  return text;
}

// Where the package's records live: under one root folder (torch >= 2.8 names it after the
// file, "model/" for model.pt2), or at the top (legacy Python zipfile writer).
struct Root {
  std::string prefix;
  const ZipEntry* archive_format = nullptr;
};

// Found from the archive_format record rather than from the first entries, as torch's loader
// does, because the record is what makes the zip a pt2 package and it is never nested deeper.
std::optional<Root> find_root(const ZipArchive& archive) {
  if (const ZipEntry* entry = archive.find("archive_format")) return Root{"", entry};
  std::optional<Root> root;
  for (const ZipEntry& entry : archive.entries()) {
    const std::string_view name = entry.name;
    const auto slash = name.find('/');
    if (slash == std::string_view::npos || slash == 0 || name.substr(slash + 1) != "archive_format")
      continue;
    Root candidate{std::string(name.substr(0, slash + 1)), &entry};
    // With several candidates, the folder that holds the first entry is the package's.
    if (!root || archive.entries().front().name.starts_with(candidate.prefix)) root = candidate;
  }
  return root;
}

std::string record_text(const ZipArchive& archive, const ZipEntry& entry) {
  auto text = archive.read(entry, k_max_header_record);
  return text ? trim(std::move(*text)) : std::string();
}

std::string short_text(std::string text) {
  if (text.size() > k_max_value_text) text = text.substr(0, k_max_value_text) + "...";
  return text;
}

// One value of a torch.export schema Argument, shortly: a tensor by name, a number or a list.
std::string value_text(const json& value) {
  if (value.is_object()) {
    if (const auto it = value.find("name"); it != value.end() && it->is_string()) return *it;
    // Symbolic ints and optional tensors are nested one-key unions: {"as_name": "s0"}, ...
    if (value.size() == 1) return value_text(value.begin().value());
    return value.dump();
  }
  if (value.is_array()) {
    std::string text = "[";
    for (std::size_t i = 0; i < value.size(); ++i) text += (i ? ", " : "") + value_text(value[i]);
    return text + "]";
  }
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

// {"as_float": 0.5} -> "float 0.5", {"as_tensor": {"name": "arg0_1"}} -> "tensor arg0_1".
std::string argument_text(const json& argument) {
  if (!argument.is_object() || argument.empty()) return short_text(argument.dump());
  const auto first = argument.begin();
  const std::string& key = first.key();
  const json& value = first.value();
  const std::string kind = key.starts_with("as_") ? key.substr(3) : key;
  if (value.is_null() || kind == "none") return kind;
  return short_text(kind + " " + value_text(value));
}

std::string string_field(const json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void collect_tensor_names(const json& argument, std::vector<std::string>& names) {
  if (!argument.is_object()) return;
  if (const auto it = argument.find("as_tensor"); it != argument.end())
    if (auto name = string_field(*it, "name"); !name.empty()) names.push_back(std::move(name));
  if (const auto it = argument.find("as_tensors"); it != argument.end() && it->is_array())
    for (const json& tensor : *it)
      if (auto name = string_field(tensor, "name"); !name.empty()) names.push_back(std::move(name));
}

std::vector<model::ExternNode> extern_nodes_from(const json& document) {
  std::vector<model::ExternNode> nodes;
  const auto list = document.is_object() ? document.find("nodes") : document.end();
  if (!document.is_object() || list == document.end() || !list->is_array())
    throw std::invalid_argument("no \"nodes\" list");
  for (const json& item : *list) {
    model::ExternNode node;
    node.index = static_cast<int>(nodes.size());
    node.name = string_field(item, "name");
    const json empty = json::object();
    const json& body = item.is_object() && item.contains("node") ? item["node"] : empty;
    node.target = string_field(body, "target");
    if (const auto inputs = body.find("inputs"); inputs != body.end() && inputs->is_array())
      for (const json& input : *inputs)
        node.inputs.push_back(
            {string_field(input, "name"),
             input.is_object() && input.contains("arg") ? argument_text(input["arg"]) : ""});
    if (const auto outputs = body.find("outputs"); outputs != body.end() && outputs->is_array())
      for (const json& output : *outputs) collect_tensor_names(output, node.outputs);
    nodes.push_back(std::move(node));
  }
  return nodes;
}

// The files of one model folder, chosen by the names torch 2.7+ writes, then by the older
// <hash>.cpp / <hash>_metadata.json / <hash>.so / <hash>.json names.
struct ModelFiles {
  const ZipEntry* wrapper = nullptr;
  const ZipEntry* metadata = nullptr;
  const ZipEntry* so = nullptr;
  const ZipEntry* extern_json = nullptr;
  const ZipEntry* kernels = nullptr;  // <hash>.kernel.cpp: a CPU model's C++ kernels
};

const ZipEntry* pick(const std::vector<const ZipEntry*>& files, std::string_view preferred,
                     std::string_view fallback, std::string_view excluded) {
  for (const ZipEntry* entry : files)
    if (entry->name.ends_with(preferred)) return entry;
  for (const ZipEntry* entry : files)
    if (entry->name.ends_with(fallback) && (excluded.empty() || !entry->name.ends_with(excluded)))
      return entry;
  return nullptr;
}

ModelFiles pick_files(const std::vector<const ZipEntry*>& files) {
  ModelFiles picked;
  picked.wrapper = pick(files, ".wrapper.cpp", ".cpp", ".kernel.cpp");
  picked.metadata =
      pick(files, ".wrapper_metadata.json", "_metadata.json", ".kernel_metadata.json");
  picked.so = pick(files, ".wrapper.so", ".so", "");
  for (const ZipEntry* entry : files)
    if (entry->name.ends_with(".kernel.cpp")) picked.kernels = entry;
  // The extern node JSON is named after the .so: <hash>.wrapper.json, or <hash>.json.
  if (picked.so) {
    const std::string& so = picked.so->name;
    const std::string extern_json = so.substr(0, so.size() - 3) + ".json";
    for (const ZipEntry* entry : files)
      if (entry->name == extern_json) picked.extern_json = entry;
  }
  return picked;
}

class PackageReader {
 public:
  PackageReader(const ZipArchive& archive, const std::string& display, Pt2Contents& contents)
      : m_archive(archive), m_display(display), m_contents(contents) {}

  void read_model(const std::string& name, const std::vector<const ZipEntry*>& files) {
    model::ModelFacts model;
    model.name = name;
    model.package = m_display;
    for (const ZipEntry* entry : files) model.files.push_back(entry->name);
    const ModelFiles picked = pick_files(files);
    std::string wrapper_source;

    if (!picked.wrapper)
      diagnose("model '" + name + "': no wrapper source (*.wrapper.cpp) in the package");
    else if (!fits_source_budget(*picked.wrapper))
      ;  // diagnosed
    else if (auto text = m_archive.read(*picked.wrapper, k_max_wrapper_source))
      keep_source(wrapper_source, std::move(*text));
    else
      diagnose(picked.wrapper->name + ": " + text.error().message);

    if (!picked.metadata)
      diagnose("model '" + name + "': no metadata (*.wrapper_metadata.json) in the package");
    else
      read_metadata(*picked.metadata, model);

    if (!picked.so)
      diagnose("model '" + name + "': no shared object (*.wrapper.so) in the package");
    else
      read_so(*picked.so, model);

    if (picked.extern_json) read_extern_nodes(*picked.extern_json, model);

    std::string kernel_source;
    if (picked.kernels && fits_source_budget(*picked.kernels)) {
      if (auto text = m_archive.read(*picked.kernels, k_max_wrapper_source))
        keep_source(kernel_source, std::move(*text));
      else
        diagnose(picked.kernels->name + ": " + text.error().message);
    }

    m_contents.models.push_back(std::move(model));
    m_contents.wrapper_sources.push_back(std::move(wrapper_source));
    m_contents.kernel_entries.push_back(kernel_source.empty() ? std::string()
                                                              : picked.kernels->name);
    m_contents.kernel_sources.push_back(std::move(kernel_source));
  }

 private:
  // Whether `entry` (by its declared size; a lie is caught by ZipArchive::read) still fits the
  // package's source budget; a diagnostic names it when it does not.
  bool fits_source_budget(const ZipEntry& entry) {
    // An entry over the limit for one file is refused by the read itself, which says so.
    if (entry.size > k_max_wrapper_source) return true;
    if (entry.size <= k_max_package_sources - m_source_bytes) return true;
    diagnose(entry.name + ": not read: the package's sources already read take " +
             util::format_size(m_source_bytes) + " and this one " + util::format_size(entry.size) +
             ", more than the " + util::format_size(k_max_package_sources) +
             " read from one package");
    return false;
  }
  void keep_source(std::string& into, std::string text) {
    m_source_bytes += text.size();
    into = std::move(text);
  }

  void diagnose(std::string message) {
    m_contents.diagnostics.push_back({m_display, std::move(message)});
  }

  std::optional<json> read_json(const ZipEntry& entry) {
    auto text = m_archive.read(entry, k_max_json);
    if (!text) {
      diagnose(entry.name + ": " + text.error().message);
      return std::nullopt;
    }
    json document = json::parse(*text, nullptr, false);
    if (document.is_discarded()) {
      diagnose(entry.name + ": not valid JSON");
      return std::nullopt;
    }
    return document;
  }

  void read_metadata(const ZipEntry& entry, model::ModelFacts& model) {
    model.metadata_where = {m_display, entry.name, 0};
    const auto document = read_json(entry);
    if (!document) return;
    if (!document->is_object()) {
      diagnose(entry.name + ": metadata is not a JSON object");
      return;
    }
    for (const auto& [key, value] : document->items())
      model.metadata[key] = value.is_string() ? value.get<std::string>() : value.dump();
  }

  void read_so(const ZipEntry& entry, model::ModelFacts& model) {
    auto facts = read_elf(entry);
    if (facts)
      model.so = std::move(*facts);
    else
      diagnose(entry.name + ": " + facts.error().message);
  }

  // A stored .so is read in place; a compressed one (not written by torch) is inflated first.
  Parsed<model::ElfFacts> read_elf(const ZipEntry& entry) const {
    const model::Location where{m_display, entry.name, 0};
    const auto as_elf = [&](const RandomAccess& source) -> Parsed<model::ElfFacts> {
      auto facts = elf::read_shared_object(source, where);
      if (!facts) return fail("not a readable ELF shared object: " + facts.error().message);
      return facts;
    };
    if (entry.stored) {
      TRY_ASSIGN(const auto source, m_archive.open_stored(entry));
      return as_elf(*source);
    }
    TRY_ASSIGN(const std::string bytes, m_archive.read(entry, k_max_deflated_model_so));
    return as_elf(*open_memory(bytes));
  }

  void read_extern_nodes(const ZipEntry& entry, model::ModelFacts& model) {
    model.extern_nodes_where = {m_display, entry.name, 0};
    const auto document = read_json(entry);
    if (!document) return;
    try {
      model.extern_nodes = extern_nodes_from(*document);
    } catch (const std::exception& error) {
      diagnose(entry.name + ": unexpected extern node JSON: " + error.what());
    }
  }

  const ZipArchive& m_archive;
  const std::string& m_display;
  Pt2Contents& m_contents;
  std::uint64_t m_source_bytes = 0;
};

// An entry name that an extractor would resolve outside its target folder: absolute, or with a
// ".." component. Nothing here extracts entries, but such a name in a package is a forgery (torch
// writes none) and `unzip` of the package would write there.
bool escapes_folder(std::string_view name) {
  if (name.starts_with('/') || name.starts_with('\\') || (name.size() >= 2 && name[1] == ':'))
    return true;
  for (std::size_t at = 0; at <= name.size();) {
    const std::size_t end = std::min(name.find_first_of("/\\", at), name.size());
    if (name.substr(at, end - at) == "..") return true;
    at = end + 1;
  }
  return false;
}

}  // namespace

bool looks_like_pt2(const std::filesystem::path& path) {
  try {
    if (!zip::starts_like_zip(path)) return false;
    auto archive = ZipArchive::open(path);
    if (!archive) return false;
    const auto root = find_root(*archive);
    return root && record_text(*archive, *root->archive_format) == "pt2";
  } catch (...) {
    return false;
  }
}

Parsed<Pt2Contents> read_package(const std::filesystem::path& path, const std::string& display) {
  TRY_ASSIGN(const ZipArchive archive, ZipArchive::open(path));
  const auto root = find_root(archive);
  if (!root) return fail("no archive_format entry: not a pt2 package");
  const std::string format = record_text(archive, *root->archive_format);
  if (format != "pt2") return fail("archive_format is '" + short_text(format) + "', not 'pt2'");

  Pt2Contents contents;
  model::PackageFacts& package = contents.package;
  package.path = display;
  package.layout =
      root->prefix.empty() ? "legacy (no root folder)" : "root folder '" + root->prefix + "'";
  package.archive_format = format;
  for (const char* record : {"archive_version", "version"}) {
    if (const ZipEntry* entry = archive.find(root->prefix + record)) {
      package.archive_version = record_text(archive, *entry);
      break;
    }
  }

  // Models in name order: data/aotinductor/<model>/...
  const std::string models_dir = root->prefix + std::string(k_aotinductor_dir);
  std::map<std::string, std::vector<const ZipEntry*>> model_files;
  std::vector<std::string> outside_root;
  std::vector<std::string> escaping;
  for (const ZipEntry& entry : archive.entries()) {
    package.entries.push_back(
        {entry.name, entry.size, entry.compressed_size, entry.stored, entry.crc});
    if (escapes_folder(entry.name)) escaping.push_back(entry.name);
    if (!entry.name.starts_with(root->prefix)) outside_root.push_back(entry.name);
    if (!entry.name.starts_with(models_dir)) continue;
    const std::string rest = entry.name.substr(models_dir.size());
    const auto slash = rest.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == rest.size()) continue;
    model_files[rest.substr(0, slash)].push_back(&entry);
  }
  if (!outside_root.empty())
    contents.diagnostics.push_back(
        {display, std::to_string(outside_root.size()) + " entries lie outside the root folder '" +
                      root->prefix + "' (torch's loader rejects such a package), e.g. " +
                      outside_root.front()});
  if (!escaping.empty())
    contents.diagnostics.push_back(
        {display, std::to_string(escaping.size()) +
                      " entries have names that would extract outside the target folder "
                      "(absolute or with '..'; nothing was extracted), e.g. " +
                      escaping.front()});
  if (model_files.empty())
    contents.diagnostics.push_back({display, "no model under " + models_dir});

  PackageReader reader(archive, display, contents);
  std::size_t count = 0;
  for (const auto& [name, files] : model_files) {
    if (++count > k_max_models) {
      contents.diagnostics.push_back(
          {display, std::to_string(model_files.size() - k_max_models) +
                        " more model folders not read (a package is read for its first " +
                        std::to_string(k_max_models) + " models), from '" + name + "' on"});
      break;
    }
    reader.read_model(name, files);
  }
  return contents;
}

}  // namespace aoti::parsers::pt2
