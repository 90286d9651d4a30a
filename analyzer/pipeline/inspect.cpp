#include "analyzer/pipeline/inspect.hpp"

#include "parsers/coredump/core_reader.hpp"
#include "parsers/elf/elf_reader.hpp"
#include "parsers/gpucore/gpu_core_reader.hpp"
#include "parsers/pt2/pt2_package.hpp"
#include "parsers/trace/trace_reader.hpp"

namespace aoti::pipeline {

CoreInspection inspect_core(const std::string& core, const std::vector<std::string>& models) {
  CoreInspection out;
  std::vector<parsers::coredump::ModelObject> objects;
  for (const auto& path : models) {
    if (!parsers::pt2::looks_like_pt2(path)) {
      // A bare model .so (torch._export.aot_compile) serves itself.
      auto so = parsers::elf::read_shared_object_file(path, {path, "", 0});
      if (so && parsers::elf::is_aoti_model(*so) && !so->build_id.empty()) {
        objects.push_back({so->build_id, path, ""});
        continue;
      }
    }
    auto contents = parsers::pt2::read_package(path, path);
    if (!contents) {
      out.diagnostics.push_back({path, contents.error().message});
      continue;
    }
    for (const auto& model : contents->models)
      if (model.so && !model.so->build_id.empty())
        objects.push_back({model.so->build_id, path, model.so->where.entry});
  }
  auto facts = parsers::coredump::read_core(core, core, objects);
  if (facts)
    out.core = std::move(*facts);
  else
    out.core = tl::unexpected(model::Diagnostic{core, facts.error().message});
  return out;
}

tl::expected<model::GpuCoreFacts, model::Diagnostic> inspect_gpu_core(const std::string& dump) {
  auto facts = parsers::gpucore::read_gpu_core(dump, dump);
  if (!facts) return tl::unexpected(model::Diagnostic{dump, facts.error().message});
  return std::move(*facts);
}

tl::expected<TraceInspection, model::Diagnostic> inspect_trace(const std::string& trace,
                                                               bool verify_payloads) {
  auto read = parsers::trace::read_trace(trace, trace, {verify_payloads});
  if (!read) return tl::unexpected(model::Diagnostic{trace, read.error().message});
  return TraceInspection{std::move(read->facts), std::move(read->diagnostics)};
}

}  // namespace aoti::pipeline
