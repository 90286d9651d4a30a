#include "analyzer/core/analyze.hpp"

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "analyzer/core/registry.hpp"
#include "analyzer/core/sniff.hpp"
#include "parsers/core/core_reader.hpp"
#include "parsers/logs/log_scanner.hpp"
#include "parsers/source/source_reader.hpp"
#include "parsers/trace/trace_reader.hpp"
#include "parsers/pt2/pt2_package.hpp"
#include "parsers/wrapper/cpp_kernel.hpp"
#include "parsers/wrapper/wrapper_parser.hpp"

namespace aoti::core {
namespace fs = std::filesystem;
namespace {

constexpr std::uint64_t k_max_wrapper_bytes = 64ull << 20;

// Wrapper sources, aligned with Case::models, kept while loading so that log lines naming
// `<hash>.wrapper.cpp, line N` can quote that line.
using WrapperTexts = std::vector<std::string>;

void add_model(ModelFacts model, std::string text, const Location& where, Case& c, WrapperTexts& texts) {
  if (!text.empty()) {
    auto parsed = parsers::wrapper::parse_wrapper(text, where);
    if (parsed) model.wrapper = std::move(*parsed);
    else c.diagnostics.push_back({where.display(), "wrapper source: " + parsed.error().message});
  }
  if (!model.wrapper) text.clear();
  c.models.push_back(std::move(model));
  texts.push_back(std::move(text));
}

// Marks the artifact analyzed, or records why it could not be read; false in that case.
template <class T>
bool accepted(const parsers::Parsed<T>& parsed, const SniffedInput& input, Artifact& artifact, Case& c) {
  if (parsed) {
    artifact.analyzed = true;
    return true;
  }
  artifact.note = parsed.error().message;
  c.diagnostics.push_back({input.display, parsed.error().message});
  return false;
}

void load_package(const SniffedInput& input, Artifact& artifact, Case& c, WrapperTexts& texts) {
  auto contents = parsers::pt2::read_package(input.path, input.display);
  if (!accepted(contents, input, artifact, c)) return;
  for (auto& d : contents->diagnostics) c.diagnostics.push_back(std::move(d));
  for (std::size_t i = 0; i < contents->models.size(); ++i) {
    ModelFacts& model = contents->models[i];
    std::string text = i < contents->wrapper_sources.size() ? std::move(contents->wrapper_sources[i]) : std::string();
    const auto entry = std::find_if(model.files.begin(), model.files.end(), [](const std::string& f) {
      return f.ends_with(".wrapper.cpp");
    });
    const Location where{input.display, entry == model.files.end() ? "" : *entry, 0};
    add_model(std::move(model), std::move(text), where, c, texts);
    // A CPU model's kernels are in <hash>.kernel.cpp, beside the wrapper that calls them.
    auto& wrapper = c.models.back().wrapper;
    if (wrapper && i < contents->kernel_sources.size() && !contents->kernel_sources[i].empty())
      parsers::wrapper::add_kernel_source(*wrapper, contents->kernel_sources[i],
                                          Location{input.display, contents->kernel_entries[i], 0});
  }
  artifact.note = fmt::format("{} model(s), {} entries", contents->models.size(), contents->package.entries.size());
  c.packages.push_back(std::move(contents->package));
}

void load_wrapper_source(const SniffedInput& input, Artifact& artifact, Case& c, WrapperTexts& texts) {
  if (input.size > k_max_wrapper_bytes) {
    artifact.note = fmt::format("{} bytes, more than the {} MiB limit for a wrapper", input.size, k_max_wrapper_bytes >> 20);
    c.diagnostics.push_back({input.display, artifact.note});
    return;
  }
  std::ifstream in(input.path, std::ios::binary);
  std::string text(input.size, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  auto parsed = parsers::wrapper::parse_wrapper(text, Location{input.display, "", 0});
  if (!parsed) {
    artifact.note = "wrapper source: " + parsed.error().message;
    c.diagnostics.push_back({input.display, artifact.note});
    return;
  }
  ModelFacts model;
  model.name = input.path.stem().string();
  model.wrapper = std::move(*parsed);
  artifact.analyzed = true;
  c.models.push_back(std::move(model));
  texts.push_back(std::move(text));
}

void load_log(const SniffedInput& input, Artifact& artifact, Case& c) {
  auto scan = parsers::logs::scan_log_file(input.path, input.display);
  if (!accepted(scan, input, artifact, c)) return;
  artifact.note = fmt::format("{} lines, {} event(s)", scan->lines, scan->events.size());
  for (auto& d : scan->diagnostics) c.diagnostics.push_back(std::move(d));
  for (auto& e : scan->events) c.log_events.push_back(std::move(e));
}

void load_core(const SniffedInput& input, Artifact& artifact, Case& c) {
  std::vector<parsers::core::ModelObject> objects;
  for (const auto& model : c.models)
    if (model.so && !model.so->build_id.empty())
      objects.push_back({model.so->build_id, model.so->where.artifact, model.so->where.entry});
  auto facts = parsers::core::read_core(input.path, input.display, objects);
  if (!accepted(facts, input, artifact, c)) return;
  artifact.note = fmt::format("{}{}, {} thread(s), {} module(s)", input.what,
                              facts->signal_name.empty() ? "" : ", " + facts->signal_name, facts->threads.size(),
                              facts->modules.size());
  // What limits the reading of a core is worth a line among the diagnostics too.
  for (const auto& note : facts->health)
    if (!note.starts_with("decompressed")) c.diagnostics.push_back({input.display, note});
  c.cores.push_back(std::move(*facts));
}

void load_trace(const SniffedInput& input, Artifact& artifact, Case& c) {
  auto read = parsers::trace::read_trace(input.path, input.display);
  if (!accepted(read, input, artifact, c)) return;
  artifact.note = fmt::format("{}, {} records", input.what, read->facts.records);
  for (auto& d : read->diagnostics) c.diagnostics.push_back(std::move(d));
  c.traces.push_back(std::move(read->facts));
}

void load_source(const SniffedInput& input, Artifact& artifact, Case& c, const parsers::source::SourceOptions& options) {
  auto read = parsers::source::read_source(input.path, input.display, options);
  if (!accepted(read, input, artifact, c)) return;
  artifact.note = fmt::format("{} source, {} op(s), {} kernel(s), {} pattern(s)", read->facts.language,
                              read->facts.ops.size(), read->facts.kernels.size(), read->facts.violations.size());
  for (auto& d : read->diagnostics) c.diagnostics.push_back(std::move(d));
  c.sources.push_back(std::move(read->facts));
}

std::string basename_of(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// How well an input-check error matches a model's own input contract: the error text repeats the
// bound the wrapper was generated with, so a matching bound names the package that raised it.
// Line `number` (1-based) of `text`, trimmed; empty when out of range.
std::string line_of(std::string_view text, int number) {
  std::size_t begin = 0;
  for (int line = 1; line < number; ++line) {
    begin = text.find('\n', begin);
    if (begin == std::string_view::npos) return "";
    ++begin;
  }
  std::string_view line = text.substr(begin, text.find('\n', begin) - begin);
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return "";
  line = line.substr(first);
  return std::string(line.substr(0, std::min<std::size_t>(line.size(), 1000)));
}

// Quotes the wrapper line an `API call failed at <hash>.wrapper.cpp, line N` error points at.
void attach_source_lines(Case& c, const WrapperTexts& texts) {
  for (auto& e : c.log_events) {
    if (e.kind != LogEventKind::api_call_failed || e.model < 0 || e.source_line <= 0) continue;
    const auto& model = c.models[static_cast<std::size_t>(e.model)];
    if (!model.wrapper || !e.source_file.ends_with(".wrapper.cpp")) continue;
    if (static_cast<std::size_t>(e.model) < texts.size()) e.source_excerpt = line_of(texts[static_cast<std::size_t>(e.model)], e.source_line);
  }
}

// Ties each trace to the model whose wrapper it produced, by the wrapper's file name (the same
// hash names the package entry and the trace's dump); a trace whose package is not in the case
// brings its own wrapper dump, so its facts are still there.
// The C++ kernels of the trace's `inductor_aot_kernel_code` dump, for a model that has none yet (a
// wrapper given alone, or made from the trace's own wrapper dump).
void adopt_trace_kernels(const TraceFacts& trace, WrapperFacts& w) {
  const bool has_cpp = std::any_of(w.kernels.begin(), w.kernels.end(),
                                   [](const TritonKernel& k) { return k.language == KernelLanguage::cpp; });
  if (has_cpp) return;
  for (const TraceCodeDump& dump : trace.code_dumps)
    if (dump.name == "inductor_aot_kernel_code" && !dump.text.empty())
      // The dump's lines are the payload file's lines from first_line on: kernels are quoted there.
      parsers::wrapper::add_kernel_source(
          w, dump.text, Location{dump.payload_artifact.empty() ? trace.artifact : dump.payload_artifact, "", 0},
          dump.first_line > 0 ? dump.first_line - 1 : 0);
}

void adopt_trace_wrappers(Case& c, WrapperTexts& texts) {
  for (auto& trace : c.traces) {
    const TraceCodeDump* dump = trace.wrapper_code();
    if (!dump) continue;
    const std::string name = basename_of(dump->filename);
    for (std::size_t m = 0; m < c.models.size() && trace.model < 0; ++m)
      if (c.models[m].wrapper && !name.empty() && basename_of(c.models[m].wrapper->where.entry) == name)
        trace.model = static_cast<int>(m);
    if (trace.model >= 0) {
      if (auto& tied = c.models[static_cast<std::size_t>(trace.model)].wrapper) adopt_trace_kernels(trace, *tied);
      continue;
    }
    if (dump->text.empty()) continue;
    auto parsed = parsers::wrapper::parse_wrapper(dump->text, Location{trace.artifact, name.empty() ? "wrapper dump" : name, 0});
    if (!parsed) continue;
    ModelFacts model;
    model.name = "model (from the trace)";
    model.wrapper = std::move(*parsed);
    adopt_trace_kernels(trace, *model.wrapper);
    trace.model = static_cast<int>(c.models.size());
    c.models.push_back(std::move(model));
    texts.push_back(dump->text);
  }
}

int contract_match(const LogEvent& e, const ModelFacts& model) {
  if (!model.wrapper || e.input_index < 0) return 0;
  const auto& w = *model.wrapper;
  if (static_cast<std::size_t>(e.input_index) >= w.inputs.size()) return -1;
  int score = 1;
  for (const auto& check : w.input_checks) {
    if (check.input_index != e.input_index) continue;
    if (check.dim >= 0 && check.dim == e.dim && std::to_string(check.value) == e.expected) score += 2;
  }
  return score;
}

// How strongly an event's own text ties it to a model: an assert text only its kernels hold, its
// wrapper's file name, one of its kernels' names, its input contract. Negative: ruled out.
int content_match(const LogEvent& e, const ModelFacts& model) {
  if (!model.wrapper) return 0;
  const auto& w = *model.wrapper;
  if (e.kind == LogEventKind::triton_assert) {
    for (const auto& kernel : w.kernels)
      for (const auto& a : kernel.asserts)
        if (a.message == e.subject && (e.kernel.empty() || e.kernel == kernel.name)) return 10;
  }
  if (e.kind == LogEventKind::api_call_failed &&
      basename_of(e.source_file) == basename_of(w.where.entry.empty() ? w.where.artifact : w.where.entry))
    return 10;
  if (e.kind == LogEventKind::input_check_error) return contract_match(e, model);
  for (const auto& kernel : w.kernels)
    if (e.text.find(kernel.name) != std::string::npos) return 6;
  return 0;
}

std::string artifact_of(const ModelFacts& model) {
  return !model.package.empty() ? model.package : model.wrapper ? model.wrapper->where.artifact : std::string();
}

fs::path folder_of(const std::string& artifact) { return fs::path(artifact).lexically_normal().parent_path(); }

bool is_within(const fs::path& inner, const fs::path& outer) {
  auto [end, ignored] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
  return end == outer.end();
}

}  // namespace

Case load_case(const std::vector<std::string>& paths) {
  Case c;
  WrapperTexts texts;
  const auto inputs = gather_inputs(paths, c.diagnostics);
  parsers::source::SourceOptions source_options;
  for (const auto& input : inputs)
    if (input.path.filename() == "compile_commands.json") source_options.compile_commands = input.path;
  std::vector<std::size_t> cores;  // read last: unwinding needs every package's model .so
  for (const auto& input : inputs) {
    Artifact artifact{input.display, input.kind, input.size, false, input.what};
    switch (input.kind) {
      case ArtifactKind::package: load_package(input, artifact, c, texts); break;
      case ArtifactKind::wrapper_source: load_wrapper_source(input, artifact, c, texts); break;
      case ArtifactKind::log: load_log(input, artifact, c); break;
      case ArtifactKind::core_dump: cores.push_back(c.artifacts.size()); break;
      case ArtifactKind::trace: load_trace(input, artifact, c); break;
      case ArtifactKind::source: load_source(input, artifact, c, source_options); break;
      case ArtifactKind::unknown:
        artifact.note = input.what + "; skipped";
        break;
    }
    c.artifacts.push_back(std::move(artifact));
  }
  for (std::size_t index : cores) {
    const auto input = std::find_if(inputs.begin(), inputs.end(), [&](const SniffedInput& i) {
      return i.display == c.artifacts[index].path;
    });
    load_core(*input, c.artifacts[index], c);
  }
  adopt_trace_wrappers(c, texts);
  correlate(c);
  attach_source_lines(c, texts);
  return c;
}

void correlate(Case& c) {
  for (auto& e : c.log_events) {
    int best = -1, best_score = 0;
    bool ruled_out_only_model = false;
    for (std::size_t m = 0; m < c.models.size(); ++m) {
      int score = content_match(e, c.models[m]);
      if (score < 0) {
        ruled_out_only_model = c.models.size() == 1;
        continue;
      }
      // The artifacts of one run usually sit in one folder: a log beside (or below) a package is
      // about that package when nothing in its text says otherwise.
      if (is_within(folder_of(e.where.artifact), folder_of(artifact_of(c.models[m])))) score += 1;
      if (score > best_score) best = static_cast<int>(m), best_score = score;
    }
    // With a single model in the case, every event is about it unless its contract rules it out.
    if (best < 0 && c.models.size() == 1 && !ruled_out_only_model) best = 0;
    e.model = best;
  }
}

std::vector<Finding> run_checks(Case& c) {
  std::vector<Finding> findings;
  for (const auto& check : all_checks()) {
    try {
      auto found = check->run(c);
      for (auto& f : found) {
        if (f.check.empty()) f.check = std::string(check->id());
        findings.push_back(std::move(f));
      }
    } catch (const std::exception& ex) {
      c.diagnostics.push_back({std::string(check->id()), std::string("check failed internally: ") + ex.what()});
    }
  }
  return findings;
}

namespace {
// FNV-1a: a small, stable, dependency-free hash; fingerprints only need to be stable, not secret.
std::string fingerprint_of(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char ch : text) {
    hash ^= ch;
    hash *= 0x100000001b3ull;
  }
  return fmt::format("{:016x}", hash);
}
}  // namespace

void rank(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.explains_failure != b.explains_failure) return a.explains_failure;
    if (a.severity != b.severity) return a.severity > b.severity;
    if (a.confidence != b.confidence) return a.confidence > b.confidence;
    if (a.check != b.check) return a.check < b.check;
    return a.subject < b.subject;
  });
  for (std::size_t i = 0; i < findings.size(); ++i) {
    findings[i].rank = static_cast<int>(i + 1);
    // The artifact (not the entry: wrapper names change at every build) tells apart the same
    // problem in two packages of one scan.
    const std::string artifact = findings[i].evidence.empty() ? "" : findings[i].evidence.front().where.artifact;
    findings[i].fingerprint = fingerprint_of(findings[i].check + "\n" + findings[i].subject + "\n" + artifact);
  }
}

bool anything_analyzed(const Case& c) {
  return std::any_of(c.artifacts.begin(), c.artifacts.end(), [](const Artifact& a) { return a.analyzed; });
}

}  // namespace aoti::core
