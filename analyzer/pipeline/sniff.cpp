#include "analyzer/pipeline/sniff.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <map>
#include <string_view>

#include "parsers/coredump/core_reader.hpp"
#include "parsers/elf/elf_reader.hpp"
#include "parsers/gpucore/gpu_core_reader.hpp"
#include "parsers/pt/tensor_dump.hpp"
#include "parsers/pt2/pt2_package.hpp"
#include "parsers/source/source_reader.hpp"
#include "parsers/trace/trace_reader.hpp"
#include "parsers/wrapper/wrapper_parser.hpp"
#include "util/errno_text.hpp"
#include "util/open_file.hpp"

namespace aoti::pipeline {
using namespace aoti::model;
namespace fs = std::filesystem;
namespace {

constexpr std::size_t k_head_bytes = 4096;
constexpr std::size_t k_zstd_block_bytes = 256 << 10;
constexpr int k_max_depth = 16;

// The entries a folder walk skips, said in path order: the first k_max_skipped, then a count of
// the rest, so a folder of a million sockets does not flood the report.
class SkippedEntries {
 public:
  void add(const fs::path& path, std::string why) {
    ++m_count;
    m_first.emplace(path.string(), std::move(why));
    if (m_first.size() > k_max_skipped) m_first.erase(std::prev(m_first.end()));
  }
  void report(const std::string& folder, std::vector<Diagnostic>& diagnostics) const {
    for (const auto& [path, why] : m_first) diagnostics.push_back({path, why + "; skipped"});
    if (m_count > m_first.size())
      diagnostics.push_back({folder, std::to_string(m_count - m_first.size()) +
                                         " more entries that cannot be read were skipped"});
  }

 private:
  static constexpr std::size_t k_max_skipped = 20;
  std::map<std::string, std::string> m_first;
  std::size_t m_count = 0;
};

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// ELF e_type at offset 16 (little-endian): 4 = ET_CORE, 3 = ET_DYN.
std::string describe_elf(std::string_view head) {
  if (head.size() < 18 || !starts_with(head,
                                       "\x7f"
                                       "ELF"))
    return {};
  const int type =
      static_cast<unsigned char>(head[16]) | (static_cast<unsigned char>(head[17]) << 8);
  const int machine = head.size() >= 20 ? static_cast<unsigned char>(head[18]) |
                                              (static_cast<unsigned char>(head[19]) << 8)
                                        : 0;
  if (type == 4 && machine == 190) return "NVIDIA GPU core dump";
  if (type == 4) return "ELF core dump";
  if (type == 3) return "ELF shared object";
  return "ELF file";
}

bool is_binary(std::string_view head) { return std::count(head.begin(), head.end(), '\0') > 0; }

bool has_extension(const fs::path& path, std::initializer_list<std::string_view> extensions) {
  const std::string ext = path.extension().string();
  return std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
}

// A file name that says the file holds a program's output: `*.log`, `*.out`, `*.err`, `*.txt`
// (stderr.txt, cuda-gdb.txt; not CMakeLists.txt), or a name without an extension that says so
// (`stderr`, `build_log`).
bool named_like_output(const fs::path& path) {
  const std::string name = path.filename().string();
  const std::string ext = path.extension().string();
  if (name == "CMakeLists.txt") return false;
  if (ext == ".log" || ext == ".out" || ext == ".err" || ext == ".txt" || ext == ".stderr" ||
      ext == ".stdout")
    return true;
  if (!ext.empty()) return false;
  for (std::string_view word : {"log", "stderr", "stdout", "output", "err"})
    if (name.find(word) != std::string::npos) return true;
  return false;
}

}  // namespace

SniffedInput sniff(const fs::path& path, std::string display, bool named) {
  SniffedInput input;
  input.path = path;
  input.display = std::move(display);
  std::error_code ec;
  input.size = fs::file_size(path, ec);
  const std::string head = util::read_file_head(path, k_head_bytes);

  if (starts_with(head, "PK\x03\x04") || starts_with(head, "PK\x05\x06") ||
      has_extension(path, {".pt2"})) {
    // torch.save's files are zips too: a tensor the intermediate value printer saved (mode 1), or
    // a `.pt` that is no package, is a tensor dump, whose reader says what is wrong with it.
    if (!has_extension(path, {".pt2"}) &&
        (parsers::pt::looks_like_tensor_dump(path) ||
         (has_extension(path, {".pt"}) && !parsers::pt2::looks_like_pt2(path)))) {
      input.kind = ArtifactKind::tensor_dump;
      input.what = "torch.save tensor";
      return input;
    }
    input.kind = ArtifactKind::package;
    input.what = "AOTI package";
    return input;
  }
  if (const std::string elf = describe_elf(head); !elf.empty()) {
    input.kind = elf == "ELF core dump"          ? ArtifactKind::core_dump
                 : elf == "NVIDIA GPU core dump" ? ArtifactKind::gpu_core_dump
                                                 : ArtifactKind::unknown;
    input.what = elf;
    // A shared object exporting the AOTI model container API is a model (a bare
    // torch._export.aot_compile .so); any other stays what it is, a library the analysis does not
    // read (maybe a custom-op library).
    if (elf == "ELF shared object") {
      const auto facts =
          parsers::elf::read_shared_object_file(path, Location{input.display, "", 0});
      if (facts && parsers::elf::is_aoti_model(*facts)) {
        input.kind = ArtifactKind::model_so;
        input.what = "AOTI model .so";
      } else if (facts) {
        input.what = "ELF shared object without the AOTI model API (AOTInductorModelContainer*)";
      } else {
        input.what = "ELF shared object that cannot be read (" + facts.error().message + ")";
      }
    }
    return input;
  }
  const bool xz = starts_with(head,
                              "\xfd"
                              "7zXZ"),
             zstd = starts_with(head, "\x28\xb5\x2f\xfd");
  if (xz || zstd) {
    // The core reader knows its compressions; a zstd block decodes only whole (up to 128 KiB).
    const std::string stream = zstd ? util::read_file_head(path, k_zstd_block_bytes) : head;
    const bool gpu_core = parsers::gpucore::looks_like_gpu_core(stream);
    const bool core = !gpu_core && parsers::coredump::looks_like_core(stream);
    input.kind = gpu_core ? ArtifactKind::gpu_core_dump
                 : core   ? ArtifactKind::core_dump
                          : ArtifactKind::unknown;
    input.what = std::string(xz ? "xz" : "zstd") + "-compressed " +
                 (gpu_core ? "NVIDIA GPU core dump"
                  : core   ? "ELF core dump"
                           : "file");
    return input;
  }
  if (is_binary(head)) {
    // Named as a source, it was given as one: the source reader says why it cannot be read.
    if (has_extension(path, {".cpp", ".cc", ".cxx", ".cu", ".h", ".hpp", ".py"})) {
      input.kind = ArtifactKind::source;
      input.what = "custom-operator source";
      return input;
    }
    input.what = "binary file";
    return input;
  }
  if (parsers::trace::looks_like_trace(head)) {
    input.kind = ArtifactKind::trace;
    input.what = "TORCH_TRACE log";
    return input;
  }
  if (parsers::wrapper::looks_like_wrapper(head)) {
    input.kind = ArtifactKind::wrapper_source;
    input.what = "AOTI wrapper source";
    return input;
  }
  if (parsers::source::looks_like_source(path, head)) {
    input.kind = ArtifactKind::source;
    input.what = "custom-operator source";
    return input;
  }
  // A compilation database: a JSON array of {"directory", "file", "command" | "arguments"}.
  if (const auto open = head.find_first_not_of(" \t\r\n");
      open != std::string::npos && head[open] == '[' &&
      head.find("\"directory\"") != std::string::npos &&
      head.find("\"file\"") != std::string::npos &&
      (head.find("\"command\"") != std::string::npos ||
       head.find("\"arguments\"") != std::string::npos)) {
    input.kind = ArtifactKind::compile_database;
    input.what = "compilation database";
    return input;
  }
  // Documentation and JSON documents (a case's README, a saved report) are not error logs:
  // reading them as logs would turn their prose into false events.
  // A JSON object's first key is double-quoted; a Python dict a program printed (`{'loss': nan,
  // ...}`, a training loop's metrics) is output.
  const auto first = head.find_first_not_of(" \t\r\n");
  const auto key =
      first == std::string::npos ? first : head.find_first_not_of(" \t\r\n", first + 1);
  const bool json_object = first != std::string::npos && head[first] == '{' &&
                           (key == std::string::npos || head[key] == '"' || head[key] == '}');
  if (has_extension(path, {".md", ".rst"}) || json_object) {
    input.what = has_extension(path, {".md", ".rst"}) ? "documentation" : "JSON document";
    return input;
  }
  if (!named && !named_like_output(path)) {
    input.what = "text file whose name is not a log's";
    return input;
  }
  input.kind = ArtifactKind::log;
  input.what = "log";
  return input;
}

std::vector<SniffedInput> gather_inputs(const std::vector<std::string>& paths,
                                        std::vector<Diagnostic>& diagnostics,
                                        std::size_t max_files) {
  std::vector<SniffedInput> inputs;
  for (const auto& given : paths) {
    const fs::path path(given);
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      diagnostics.push_back(
          {given,
           "cannot read: " + (ec ? ec.message() : std::string("no such file or directory"))});
      continue;
    }
    if (!fs::is_directory(status)) {
      if (auto file = util::open_regular_file(path); !file) {
        diagnostics.push_back({given, "cannot read: " + file.error()});
        continue;
      }
      inputs.push_back(sniff(path, given));
      continue;
    }
    if (parsers::trace::is_tlparse_folder(path)) {
      inputs.push_back({path, given, ArtifactKind::trace, 0, "tlparse output folder"});
      continue;
    }
    std::vector<fs::path> files;
    std::vector<fs::path> trace_folders;
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec),
        end;
    if (ec) {
      diagnostics.push_back({given, "cannot list folder: " + ec.message()});
      continue;
    }
    SkippedEntries skipped;
    for (; it != end; it.increment(ec)) {
      if (ec) {
        diagnostics.push_back({given, "cannot list part of the folder: " + ec.message()});
        break;
      }
      if (it.depth() >= k_max_depth) it.disable_recursion_pending();
      std::error_code entry_error;
      if (it->is_directory(entry_error)) {
        // A tlparse output folder is one trace: its payload files are not logs of their own.
        if (parsers::trace::is_tlparse_folder(it->path())) {
          it.disable_recursion_pending();
          trace_folders.push_back(it->path());
        } else if (!it->is_symlink(entry_error) && ::access(it->path().c_str(), R_OK | X_OK) != 0) {
          // skip_permission_denied would pass over it without a word.
          skipped.add(it->path(), "cannot list folder: " + util::errno_text(errno));
          it.disable_recursion_pending();
        }
        continue;
      }
      // FIFOs, sockets, devices, broken or looping links: never opened, but said.
      if (const std::string problem = util::regular_file_problem(it->path()); !problem.empty()) {
        skipped.add(it->path(), "cannot read: " + problem);
        continue;
      }
      files.push_back(it->path());
      if (files.size() > max_files) {
        diagnostics.push_back(
            {given, "more than " + std::to_string(max_files) + " files; the rest were skipped"});
        break;
      }
    }
    skipped.report(given, diagnostics);
    std::sort(files.begin(), files.end());
    std::sort(trace_folders.begin(), trace_folders.end());
    for (const auto& folder : trace_folders)
      inputs.push_back({folder, folder.string(), ArtifactKind::trace, 0, "tlparse output folder"});
    for (const auto& file : files) {
      if (auto opened = util::open_regular_file(file); !opened) {
        diagnostics.push_back({file.string(), "cannot read: " + opened.error()});
        continue;
      }
      inputs.push_back(sniff(file, file.string(), /*named=*/false));
    }
  }
  // One file named twice (the same path, a link to it, a folder and a file in it) is read once: a
  // second reading would add every model, event and finding again.
  std::map<std::pair<dev_t, ino_t>, std::string> first_named;
  std::erase_if(inputs, [&](const SniffedInput& input) {
    struct stat info{};
    if (::stat(input.path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return false;
    const auto [first, added] = first_named.try_emplace({info.st_dev, info.st_ino}, input.display);
    if (!added)
      diagnostics.push_back(
          {input.display, "the same file as " + first->second + ", given again; read once"});
    return !added;
  });
  return inputs;
}

}  // namespace aoti::pipeline
