// Reading the inputs into a Case: every file sniffed and parsed, cores last (unwinding needs every
// model .so), then what ties artifacts to each other (wrappers to bare .so files, traces to
// models).
#include <algorithm>
#include <atomic>
#include <future>
#include <regex>
#include <set>
#include <system_error>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzer/pipeline/analyze.hpp"
#include "analyzer/pipeline/sniff.hpp"
#include "analyzer/pipeline/tensor_dumps.hpp"
#include "parsers/coredump/core_reader.hpp"
#include "parsers/elf/elf_reader.hpp"
#include "parsers/gpucore/gpu_core_reader.hpp"
#include "parsers/limits.hpp"
#include "parsers/logs/log_scanner.hpp"
#include "parsers/pt2/pt2_package.hpp"
#include "parsers/source/source_reader.hpp"
#include "parsers/trace/trace_reader.hpp"
#include "parsers/wrapper/cpp_kernel.hpp"
#include "parsers/wrapper/wrapper_parser.hpp"
#include "util/open_file.hpp"

namespace aoti::pipeline {
using namespace aoti::model;
namespace fs = std::filesystem;
namespace {

constexpr std::uint64_t k_max_wrapper_bytes = parsers::k_max_wrapper_source;

std::string file_name_of(std::string_view path) { return fs::path(path).filename().string(); }

// Parses a wrapper (its facts keep its text, so checks quote its lines as they are) and names it.
std::optional<WrapperFacts> read_wrapper(const std::string& text, const Location& where,
                                         std::string file_name, int line_offset, Case& c) {
  auto parsed = parsers::wrapper::parse_wrapper(text, where);
  if (!parsed) {
    c.diagnostics.push_back({where.display(), "wrapper source: " + parsed.error().message});
    return std::nullopt;
  }
  parsed->file_name = std::move(file_name);
  parsed->line_offset = line_offset;
  for (const WrapperInput& input : parsed->inputs)
    if (input.name.size() > k_max_report_field)
      c.diagnostics.push_back(
          {where.display(),
           fmt::format("input {}'s name is {} bytes long: reports cut it after {} bytes",
                       input.index, input.name.size(), k_max_report_field)});
  return std::move(*parsed);
}

void add_model(ModelFacts model, std::string text, const Location& where, Case& c) {
  if (!text.empty())
    model.wrapper = read_wrapper(std::move(text), where, file_name_of(where.entry), 0, c);
  c.models.push_back(std::move(model));
}

// Marks the artifact analyzed, or records why it could not be read; false in that case.
template <class T>
bool accepted(const parsers::Parsed<T>& parsed, const SniffedInput& input, Artifact& artifact,
              Case& c) {
  if (parsed) {
    artifact.analyzed = true;
    return true;
  }
  artifact.note = parsed.error().message;
  c.diagnostics.push_back({input.display, parsed.error().message});
  return false;
}

void load_package(const SniffedInput& input, Artifact& artifact, Case& c) {
  auto contents = parsers::pt2::read_package(input.path, input.display);
  if (!accepted(contents, input, artifact, c)) return;
  for (auto& d : contents->diagnostics) c.diagnostics.push_back(std::move(d));
  for (std::size_t i = 0; i < contents->models.size(); ++i) {
    ModelFacts& model = contents->models[i];
    std::string text = i < contents->wrapper_sources.size()
                           ? std::move(contents->wrapper_sources[i])
                           : std::string();
    const auto entry =
        std::find_if(model.files.begin(), model.files.end(),
                     [](const std::string& f) { return f.ends_with(".wrapper.cpp"); });
    const Location where{input.display, entry == model.files.end() ? "" : *entry, 0};
    add_model(std::move(model), std::move(text), where, c);
    // A CPU model's kernels are in <hash>.kernel.cpp, beside the wrapper that calls them.
    auto& wrapper = c.models.back().wrapper;
    if (wrapper && i < contents->kernel_sources.size() && !contents->kernel_sources[i].empty())
      parsers::wrapper::add_kernel_source(*wrapper, contents->kernel_sources[i],
                                          Location{input.display, contents->kernel_entries[i], 0});
  }
  artifact.note = fmt::format("{} model(s), {} entries", contents->models.size(),
                              contents->package.entries.size());
  c.packages.push_back(std::move(contents->package));
}

// A bare model .so (torch._export.aot_compile): a model of its own, read as ELF like the .so inside
// a package. Its wrapper comes from a wrapper source given beside it or from a trace's dump.
void load_model_so(const SniffedInput& input, Artifact& artifact, Case& c) {
  auto facts = parsers::elf::read_shared_object_file(input.path, Location{input.display, "", 0});
  if (!accepted(facts, input, artifact, c)) return;
  artifact.note = fmt::format(
      "AOTI model .so ({} model container functions exported{}{})", facts->aoti_exports.size(),
      facts->build_id.empty() ? "" : ", build-id " + facts->build_id,
      facts->needed.empty() ? "" : ", needs " + fmt::format("{}", fmt::join(facts->needed, ", ")));
  ModelFacts model;
  model.name = input.path.filename().string();
  model.package = input.display;
  model.so = std::move(*facts);
  c.models.push_back(std::move(model));
}

void load_wrapper_source(const SniffedInput& input, Artifact& artifact, Case& c) {
  if (input.size > k_max_wrapper_bytes) {
    artifact.note = fmt::format("{} bytes, more than the {} MiB limit for a wrapper", input.size,
                                k_max_wrapper_bytes >> 20);
    c.diagnostics.push_back({input.display, artifact.note});
    return;
  }
  auto text = util::read_regular_file(input.path, k_max_wrapper_bytes);
  if (!text) {
    artifact.note = "cannot read: " + text.error();
    c.diagnostics.push_back({input.display, artifact.note});
    return;
  }
  auto wrapper =
      read_wrapper(*text, Location{input.display, "", 0}, input.path.filename().string(), 0, c);
  if (!wrapper) {
    artifact.note = "wrapper source: " + c.diagnostics.back().message;
    return;
  }
  ModelFacts model;
  model.name = input.path.stem().string();
  model.wrapper = std::move(*wrapper);
  artifact.analyzed = true;
  c.models.push_back(std::move(model));
}

// Generated code a log holds (TORCH_LOGS=output_code), kept until every input is loaded: it
// stands for the model only when no package or wrapper given is that model.
struct LoggedCode {
  std::string display;
  parsers::logs::OutputCode code;
};

void load_log(const SniffedInput& input, Artifact& artifact, Case& c,
              std::vector<LoggedCode>& logged_code) {
  auto scan = parsers::logs::scan_log_file(input.path, input.display);
  if (!accepted(scan, input, artifact, c)) return;
  artifact.note = fmt::format("{} line{}, {} event(s)", scan->lines, scan->lines == 1 ? "" : "s",
                              scan->events.size());
  for (auto& d : scan->diagnostics) c.diagnostics.push_back(std::move(d));
  for (auto& e : scan->events) c.log_events.push_back(std::move(e));
  if (scan->debug_run) {
    for (const auto& problem : scan->debug_run->problems)
      c.diagnostics.push_back({input.display, "intermediate value printer: " + problem});
    c.debug_runs.push_back(std::move(*scan->debug_run));
  }
  if (scan->output_code) {
    if (scan->output_code->cut)
      c.diagnostics.push_back(
          {input.display,
           fmt::format("the generated code logged from line {} is longer than "
                       "{} MiB; only its first part was read",
                       scan->output_code->first_line, parsers::k_max_wrapper_source >> 20)});
    logged_code.push_back({input.display, std::move(*scan->output_code)});
  }
}

// A log's generated wrapper as a model of its own, unless a model given is the same wrapper (the
// file the log says it wrote, by name; a log that names none stands for the model only when no
// model given has a wrapper). Its lines are the log's lines from first_line on, and quotes show
// them as the log holds them (prefix and all).
void adopt_logged_code(std::vector<LoggedCode>& logged_code, Case& c) {
  for (auto& logged : logged_code) {
    const std::string name = file_name_of(logged.code.file);
    if (std::any_of(c.models.begin(), c.models.end(), [&](const ModelFacts& m) {
          return m.wrapper && (name.empty() || m.wrapper->file_name == name);
        }))
      continue;
    auto wrapper = read_wrapper(logged.code.code, Location{logged.display, "", 0}, name,
                                logged.code.first_line - 1, c);
    if (!wrapper) continue;
    wrapper->source = SourceText(std::move(logged.code.raw));
    ModelFacts model;
    model.name = "output code";
    model.wrapper = std::move(*wrapper);
    c.models.push_back(std::move(model));
  }
}

// What limits the reading of a core (CPU or GPU) is worth a line among the diagnostics too; that it
// was decompressed is not.
void add_health_diagnostics(const SniffedInput& input, const std::vector<std::string>& health,
                            Case& c) {
  for (const auto& note : health)
    if (!note.starts_with("decompressed")) c.diagnostics.push_back({input.display, note});
}

using OpenedCoreDump = parsers::Parsed<parsers::coredump::OpenedDump>;

// Opens (and inflates, when compressed) the core `input` on a thread of its own: a core is read
// after every other input (unwinding needs their model .so files), but inflating it needs nothing
// of them, so it runs while they load. Where no thread can start, it runs when asked for.
std::future<OpenedCoreDump> open_core_early(const SniffedInput& input) {
  const auto open = [&input] {
    return parsers::coredump::open_core_dump(input.path, input.display);
  };
  try {
    return std::async(std::launch::async, open);
  } catch (const std::system_error&) {
    return std::async(std::launch::deferred, open);
  }
}

void load_core(const SniffedInput& input, OpenedCoreDump dump, Artifact& artifact, Case& c) {
  std::vector<parsers::coredump::ModelObject> objects;
  for (const auto& model : c.models)
    if (model.so && !model.so->build_id.empty())
      objects.push_back({model.so->build_id, model.so->where.artifact, model.so->where.entry});
  auto facts = parsers::coredump::read_core(std::move(dump), input.display, objects);
  if (!accepted(facts, input, artifact, c)) return;
  artifact.note = fmt::format("{}{}, {} thread(s), {} module(s)", input.what,
                              facts->signal_name.empty() ? "" : ", " + facts->signal_name,
                              facts->threads.size(), facts->modules.size());
  add_health_diagnostics(input, facts->health, c);
  c.cores.push_back(std::move(*facts));
}

void load_gpu_core(const SniffedInput& input, Artifact& artifact, Case& c) {
  auto facts = parsers::gpucore::read_gpu_core(input.path, input.display);
  if (!accepted(facts, input, artifact, c)) return;
  artifact.note = fmt::format("{}, {} device(s), {} module(s), {} grid(s), {} faulting warp(s)",
                              input.what, facts->devices.size(), facts->modules.size(),
                              facts->grids.size(), facts->faulting_warps.size());
  add_health_diagnostics(input, facts->health, c);
  c.gpu_cores.push_back(std::move(*facts));
}

void load_trace(const SniffedInput& input, bool verify_payloads, Artifact& artifact, Case& c) {
  auto read = parsers::trace::read_trace(input.path, input.display, {verify_payloads});
  if (!accepted(read, input, artifact, c)) return;
  artifact.note = fmt::format("{}, {} records", input.what, read->facts.records);
  for (auto& d : read->diagnostics) c.diagnostics.push_back(std::move(d));
  c.traces.push_back(std::move(read->facts));
}

using SourceResult = parsers::Parsed<parsers::source::SourceRead>;

// Every source of the case, read on all cores (libclang parses each file on its own index; the
// Python front end shares nothing): an extension tree costs its largest file, not their sum.
std::vector<std::optional<SourceResult>> read_sources(
    const std::vector<SniffedInput>& inputs, const parsers::source::SourceOptions& options) {
  std::vector<std::optional<SourceResult>> results(inputs.size());
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].kind == ArtifactKind::source) todo.push_back(i);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t k = next++; k < todo.size(); k = next++) {
      const SniffedInput& input = inputs[todo[k]];
      try {
        results[todo[k]] = parsers::source::read_source(input.path, input.display, options);
      } catch (const std::exception& e) {  // out of memory: this file fails, not the process
        results[todo[k]] = parsers::fail(std::string("the analysis stopped: ") + e.what());
      }
    }
  };
  const std::size_t workers =
      std::min<std::size_t>(todo.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < workers; ++t) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  return results;
}

// The `include` folders of an extension tree given without a compile_commands.json: its own
// headers (macros, types) then resolve as the build would find them.
std::vector<std::string> tree_include_dirs(const std::vector<SniffedInput>& inputs) {
  std::set<std::string> dirs;
  for (const auto& input : inputs) {
    if (input.kind != ArtifactKind::source) continue;
    fs::path prefix;
    for (const auto& part : input.path.parent_path()) {
      prefix /= part;
      if (part == "include") dirs.insert(prefix.string());
    }
  }
  return {dirs.begin(), dirs.end()};
}

// The macros an extension tree defines that expand to a registration (vLLM's
// TORCH_LIBRARY_EXPAND, FBGEMM's dispatch macros), also through one another: a cheap text pass
// over its C++ files, so that the files using them are parsed in full and the others skimmed.
std::vector<std::string> tree_registration_macros(const std::vector<SniffedInput>& inputs) {
  std::vector<std::string> texts;
  for (const auto& input : inputs)
    if (input.kind == ArtifactKind::source && !parsers::source::is_python_source(input.path))
      if (auto text = util::read_regular_file(input.path, parsers::source::k_max_source_bytes);
          text && text->find("#define") != std::string::npos)
        texts.push_back(std::move(*text));
  std::vector<std::string> macros;
  // Each round finds the macros defined through the ones found before it.
  for (std::size_t round = 0; round < 4; ++round) {
    const std::size_t before = macros.size();
    for (const auto& text : texts)
      for (auto& name : parsers::source::registration_macros(text, macros))
        if (std::find(macros.begin(), macros.end(), name) == macros.end())
          macros.push_back(std::move(name));
    if (macros.size() == before) break;
  }
  return macros;
}

void load_source(SourceResult read, const SniffedInput& input, Artifact& artifact, Case& c) {
  if (!accepted(read, input, artifact, c)) return;
  if (read->skimmed) {
    artifact.note = fmt::format("{} source without an op registration: read as text only",
                                read->facts.language);
    c.sources.push_back(std::move(read->facts));
    return;
  }
  artifact.note = fmt::format("{} source, {} op(s), {} kernel(s), {} pattern(s)",
                              read->facts.language, read->facts.ops.size(),
                              read->facts.kernels.size(), read->facts.violations.size());
  for (auto& d : read->diagnostics) c.diagnostics.push_back(std::move(d));
  c.sources.push_back(std::move(read->facts));
}

// The file name without its last extension: "<hash>.wrapper.so" and "<hash>.wrapper.cpp" (torch
// >= 2.7),
// "<hash>.so" and "<hash>.cpp" (older), name one compiled model.
std::string stem_of(std::string_view path) {
  std::string name = file_name_of(path);
  const auto dot = name.rfind('.');
  if (dot != std::string::npos && dot > 0) name.resize(dot);
  return name;
}

bool is_bare_so(const ModelFacts& model) {
  return model.so && model.so->where.entry.empty() && !model.package.empty();
}

// A wrapper source given beside a bare model .so, with the same name, is that model's wrapper.
void attach_wrappers_to_bare_sos(Case& c) {
  for (std::size_t m = 0; m < c.models.size(); ++m) {
    if (!is_bare_so(c.models[m]) || c.models[m].wrapper) continue;
    const fs::path so = fs::path(c.models[m].package).lexically_normal();
    for (std::size_t w = 0; w < c.models.size(); ++w) {
      const ModelFacts& other = c.models[w];
      if (w == m || !other.package.empty() || !other.wrapper || !other.wrapper->where.entry.empty())
        continue;
      const fs::path wrapper = fs::path(other.wrapper->where.artifact).lexically_normal();
      if (wrapper.parent_path() != so.parent_path() ||
          stem_of(wrapper.string()) != stem_of(so.string()))
        continue;
      c.models[m].wrapper = std::move(c.models[w].wrapper);
      c.models.erase(c.models.begin() + static_cast<std::ptrdiff_t>(w));
      if (w < m) --m;
      break;
    }
  }
}

// The C++ kernels of the trace's `inductor_aot_kernel_code` dump, for a model that has none yet (a
// wrapper given alone, or made from the trace's own wrapper dump).
void adopt_trace_kernels(const TraceFacts& trace, WrapperFacts& w) {
  const bool has_cpp = std::any_of(w.kernels.begin(), w.kernels.end(), [](const TritonKernel& k) {
    return k.language == KernelLanguage::cpp;
  });
  if (has_cpp) return;
  for (const TraceCodeDump& dump : trace.code_dumps)
    if (dump.name == "inductor_aot_kernel_code" && !dump.text.empty())
      // The dump's lines are the payload file's lines from first_line on: kernels are quoted there.
      parsers::wrapper::add_kernel_source(
          w, dump.text,
          Location{dump.payload_artifact.empty() ? trace.artifact : dump.payload_artifact, "", 0},
          dump.first_line > 0 ? dump.first_line - 1 : 0);
}

// Ties each trace to the model whose wrapper it produced, by the wrapper's file name (the same
// hash names the package entry and the trace's dump); a trace whose package is not in the case
// brings its own wrapper dump, so its facts are still there.
void adopt_trace_wrappers(Case& c) {
  for (auto& trace : c.traces) {
    const TraceCodeDump* dump = trace.wrapper_code();
    if (!dump) continue;
    const std::string name = file_name_of(dump->filename);
    for (std::size_t m = 0; m < c.models.size() && !trace.model; ++m)
      if (c.models[m].wrapper && !name.empty() &&
          (c.models[m].wrapper->file_name == name ||
           (is_bare_so(c.models[m]) && stem_of(c.models[m].package) == stem_of(name))))
        trace.model = m;
    if (trace.model) {
      if (auto& tied = c.models[*trace.model].wrapper) adopt_trace_kernels(trace, *tied);
      continue;
    }
    if (dump->text.empty()) continue;
    // The dump's lines are the trace file's lines from first_line on, so quotes point there.
    auto wrapper = read_wrapper(dump->text, Location{dump->payload_artifact, "", 0}, name,
                                dump->first_line - 1, c);
    if (!wrapper) continue;
    adopt_trace_kernels(trace, *wrapper);
    // A bare model .so is named after the wrapper it was compiled from, or is the output_path the
    // trace's logged config names (aot_compile's options): the dump is its wrapper.
    for (std::size_t m = 0; m < c.models.size() && !trace.model; ++m) {
      ModelFacts& model = c.models[m];
      if (!is_bare_so(model) || model.wrapper || name.empty()) continue;
      const bool named_after = stem_of(model.package) == stem_of(name);
      const bool output_path = !trace.aoti_output_path.empty() &&
                               file_name_of(trace.aoti_output_path) == file_name_of(model.package);
      if (!named_after && !output_path) continue;
      model.wrapper = std::move(*wrapper);
      trace.model = m;
    }
    if (trace.model) continue;
    ModelFacts model;
    model.name = "model (from the trace)";
    model.wrapper = std::move(*wrapper);
    trace.model = c.models.size();
    c.models.push_back(std::move(model));
  }
}

// `L['ids'].size()[0]` -> "ids"; `L['kwargs']['ids']...` -> "ids"; positional `L['args'][0]` -> "".
std::string argument_of_source(std::string_view source) {
  static const std::regex k_local(R"(^L\['(\w+)'\](?:\['(\w+)'\])?)");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(source.begin(), source.end(), m, k_local)) return "";
  if (m[1] == "kwargs" && m[2].matched) return m[2].str();
  if (m[1] == "args" || m[1] == "kwargs" || m[1] == "self") return "";
  return m[1].str();
}

// The `{0: Dim("b", min=1, max=64), ...}` entry of `argument` in an export call's dynamic_shapes.
void dims_from_export_call(std::string_view code, WrapperInput& input) {
  std::size_t at = std::string_view::npos;
  for (const std::string& key : {"\"" + input.user_name + "\"", "'" + input.user_name + "'"})
    if (const auto found = code.find(key + ":"); found != std::string_view::npos)
      at = found + key.size() + 1;
  if (at == std::string_view::npos) return;
  const auto open = code.find('{', at);
  if (open == std::string_view::npos ||
      code.substr(at, open - at).find_first_not_of(' ') != std::string_view::npos)
    return;
  const auto close = code.find('}', open);
  const std::string_view body =
      code.substr(open, close == std::string_view::npos ? code.size() - open : close - open);
  static const std::regex k_dim(
      R"((\d+)\s*:\s*(?:torch\.export\.)?Dim\(\s*["'](\w+)["']\s*,?\s*([^)]*)\))");
  for (std::regex_iterator<std::string_view::const_iterator> it(body.begin(), body.end(), k_dim),
       end;
       it != end; ++it) {
    const int dim = std::stoi((*it)[1].str());
    input.dim_names[dim] = (*it)[2].str();
    if ((*it)[3].length() > 0) input.exported_ranges[dim] = (*it)[3].str();
  }
}

// The user's names for each wrapper input, from the trace of the export that made it: symbol
// sources name the forward argument, the export call's text names the Dims.
void attach_user_names(Case& c) {
  for (const auto& trace : c.traces) {
    if (!trace.model) continue;
    auto& model = c.models[*trace.model];
    if (!model.wrapper) continue;
    const auto& bindings = model.wrapper->bindings;
    const auto bound = [&](const std::string& symbol) {
      return std::any_of(bindings.begin(), bindings.end(),
                         [&](const SymbolBinding& b) { return b.symbol == symbol; });
    };
    // Two inputs exported with one Dim get two symbols, and Dynamo keeps one of them for both: the
    // kept symbol's source names either input. A symbol is a name only when no symbol the wrapper
    // dropped has its hint and range.
    const auto ambiguous = [&](const TraceSymbol& kept) {
      return std::any_of(trace.symbols.begin(), trace.symbols.end(), [&](const TraceSymbol& other) {
        return other.name != kept.name && !other.unbacked && !bound(other.name) &&
               other.value == kept.value && other.range_lo == kept.range_lo &&
               other.range_hi == kept.range_hi;
      });
    };
    // The forward's own parameters, as the graph before Inductor's passes prints them: the package
    // takes the user's inputs flattened in that order, so the i-th is wrapper input i when the
    // counts agree (a name a dim's symbol cannot give, e.g. two inputs sharing one Dim).
    std::vector<std::string> forward_params;
    for (const auto& graph : trace.graphs) {
      if (graph.name != "before_pre_grad_graph") continue;
      for (const auto& node : graph.nodes)
        if (node.op == "placeholder") forward_params.push_back(node.name);
      break;
    }
    if (forward_params.size() != model.wrapper->inputs.size()) forward_params.clear();
    for (auto& input : model.wrapper->inputs) {
      if (input.index >= 0 && static_cast<std::size_t>(input.index) < forward_params.size())
        input.user_name = forward_params[static_cast<std::size_t>(input.index)];
      for (const auto& b : bindings) {
        if (b.input != input.name || b.is_stride) continue;
        for (const auto& symbol : trace.symbols)
          if (symbol.name == b.symbol && !ambiguous(symbol))
            if (auto argument = argument_of_source(symbol.source); !argument.empty())
              input.user_name = std::move(argument);
      }
      if (input.user_name.empty()) continue;
      for (const auto& call : trace.exports)
        if (call.compiled) dims_from_export_call(call.call_site.code, input);
    }
  }
}

}  // namespace

Case load_case(const std::vector<std::string>& paths, bool verify_trace_payloads) {
  Case c;
  std::vector<LoggedCode> logged_code;
  const auto inputs = gather_inputs(paths, c.diagnostics);
  parsers::source::SourceOptions source_options;
  for (const auto& input : inputs)
    if (input.kind == ArtifactKind::compile_database) source_options.compile_commands = input.path;
  if (!source_options.compile_commands) source_options.include_dirs = tree_include_dirs(inputs);
  source_options.registration_macros = tree_registration_macros(inputs);
  source_options.cuda_kernels = std::any_of(
      inputs.begin(), inputs.end(),
      [](const SniffedInput& input) { return input.kind == ArtifactKind::gpu_core_dump; });
  source_options.precompiled_stubs =
      std::count_if(inputs.begin(), inputs.end(), [](const SniffedInput& input) {
        return input.kind == ArtifactKind::source && !parsers::source::is_python_source(input.path);
      }) >= 3;
  std::vector<std::future<OpenedCoreDump>> core_dumps(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].kind == ArtifactKind::core_dump) core_dumps[i] = open_core_early(inputs[i]);
  auto sources = read_sources(inputs, source_options);
  // Read last: unwinding needs every package's model .so. Each: its input, then its artifact.
  std::vector<std::pair<std::size_t, std::size_t>> cores;
  TensorDumpFolders tensor_dumps;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const SniffedInput& input = inputs[i];
    Artifact artifact{input.display, input.kind, input.size, false, input.what};
    switch (input.kind) {
      case ArtifactKind::package:
        load_package(input, artifact, c);
        break;
      case ArtifactKind::model_so:
        load_model_so(input, artifact, c);
        break;
      case ArtifactKind::wrapper_source:
        load_wrapper_source(input, artifact, c);
        break;
      case ArtifactKind::log:
        load_log(input, artifact, c, logged_code);
        break;
      case ArtifactKind::core_dump:
        cores.emplace_back(i, c.artifacts.size());
        break;
      case ArtifactKind::gpu_core_dump:
        load_gpu_core(input, artifact, c);
        break;
      case ArtifactKind::trace:
        load_trace(input, verify_trace_payloads, artifact, c);
        break;
      case ArtifactKind::source:
        load_source(std::move(*sources[i]), input, artifact, c);
        break;
      case ArtifactKind::tensor_dump:
        tensor_dumps.load(input, artifact, c);
        break;
      case ArtifactKind::compile_database:
        // libclang reads it for each C++ source; one that lists none of them changes nothing.
        artifact.analyzed = true;
        artifact.note = input.what + ": the C++ sources' compile flags";
        break;
      case ArtifactKind::unknown:
        artifact.note = input.what + "; skipped";
        break;
    }
    c.artifacts.push_back(std::move(artifact));
  }
  tensor_dumps.finish(c);
  for (const auto& [input, artifact] : cores)
    load_core(inputs[input], core_dumps[input].get(), c.artifacts[artifact], c);
  attach_wrappers_to_bare_sos(c);
  adopt_trace_wrappers(c);
  adopt_logged_code(logged_code, c);
  attach_user_names(c);
  correlate(c);
  return c;
}

bool anything_analyzed(const Case& c) {
  return std::any_of(c.artifacts.begin(), c.artifacts.end(),
                     [](const Artifact& a) { return a.analyzed; });
}

}  // namespace aoti::pipeline
