#include "torch/subsystem.hpp"

#include <array>
#include <string>
#include <utility>

namespace aoti::torch {
namespace {

constexpr auto k_npos = std::string_view::npos;

bool has(std::string_view text, std::string_view part) { return text.find(part) != k_npos; }

// Path parts below torch/ (or triton/), most specific first: the first that the file holds wins.
constexpr std::array<std::pair<std::string_view, Subsystem>, 30> k_paths = {{
    {"torch/_inductor/package/", Subsystem::aoti_package},
    {"torch/_export/serde/", Subsystem::export_serialize},
    {"torch/export/pt2_archive/", Subsystem::aoti_package},
    {"torch/_inductor/cpp_builder.py", Subsystem::inductor_build},
    {"torch/_inductor/select_algorithm.py", Subsystem::inductor_autotune},
    {"torch/_inductor/autotune_process.py", Subsystem::inductor_autotune},
    {"torch/_inductor/codegen/", Subsystem::inductor_codegen},
    {"torch/_inductor/scheduler.py", Subsystem::inductor_codegen},
    {"torch/_inductor/lowering.py", Subsystem::inductor_lowering},
    {"torch/_inductor/graph.py", Subsystem::inductor_lowering},
    {"torch/_inductor/ir.py", Subsystem::inductor_lowering},
    {"torch/_inductor/decomposition.py", Subsystem::inductor_lowering},
    {"torch/_inductor/fx_passes/", Subsystem::inductor_lowering},
    {"torch/_inductor/kernel/", Subsystem::inductor_lowering},
    {"torch/_inductor/", Subsystem::inductor},
    {"torch/_dynamo/", Subsystem::dynamo},
    {"torch/export/", Subsystem::export_},
    {"torch/_export/", Subsystem::export_},
    {"torch/_functorch/", Subsystem::aot_autograd},
    {"torch/fx/experimental/symbolic_shapes.py", Subsystem::symbolic_shapes},
    {"torch/fx/experimental/sym_node.py", Subsystem::symbolic_shapes},
    {"torch/fx/", Subsystem::fx},
    {"torch/_subclasses/", Subsystem::fake_tensor},
    {"torch/_library/", Subsystem::library},
    {"torch/library.py", Subsystem::library},
    {"torch/_ops.py", Subsystem::ops},
    {"torch/utils/cpp_extension.py", Subsystem::cpp_extension},
    {"torch/cuda/", Subsystem::cuda},
    {"triton/runtime/build.py", Subsystem::triton_compile},
    {"triton/runtime/", Subsystem::triton_runtime},
}};

// A path inside an installed torch or triton, or a source checkout of either ("torch/...").
bool in_package(std::string_view file, std::string_view package) {
  for (auto at = file.find(package); at != k_npos; at = file.find(package, at + 1))
    if (at == 0 || file[at - 1] == '/' || file[at - 1] == '\\') return true;
  return false;
}

// Inductor's code hash: `c` and the first 51 characters of a base32 SHA-256, lower case
// (torch/_inductor/codecache.py's code_hash).
bool is_code_hash_name(std::string_view name) {
  if (name.size() < 53 || name[0] != 'c' || name[52] != '.') return false;
  for (std::size_t i = 1; i < 52; ++i)
    if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '2' && name[i] <= '7'))) return false;
  return true;
}

}  // namespace

std::string_view to_string(Subsystem subsystem) {
  switch (subsystem) {
    case Subsystem::unknown:
      return "unknown";
    case Subsystem::user:
      return "user code";
    case Subsystem::third_party:
      return "an installed package";
    case Subsystem::python_runtime:
      return "the Python runtime";
    case Subsystem::export_:
      return "torch.export";
    case Subsystem::export_serialize:
      return "torch.export's serializer";
    case Subsystem::dynamo:
      return "Dynamo";
    case Subsystem::aot_autograd:
      return "AOTAutograd";
    case Subsystem::fx:
      return "torch.fx";
    case Subsystem::fake_tensor:
      return "fake tensors";
    case Subsystem::symbolic_shapes:
      return "symbolic shapes";
    case Subsystem::library:
      return "torch.library (custom ops)";
    case Subsystem::ops:
      return "the dispatcher";
    case Subsystem::inductor_lowering:
      return "Inductor lowering";
    case Subsystem::inductor_codegen:
      return "Inductor code generation";
    case Subsystem::inductor_autotune:
      return "Inductor autotuning";
    case Subsystem::inductor_build:
      return "Inductor's C++ build";
    case Subsystem::inductor:
      return "Inductor";
    case Subsystem::aoti_package:
      return "the AOTI package loader";
    case Subsystem::triton_compile:
      return "the Triton compiler";
    case Subsystem::triton_runtime:
      return "the Triton runtime";
    case Subsystem::kernel_load:
      return "loading a compiled kernel into the driver";
    case Subsystem::cpp_extension:
      return "torch.utils.cpp_extension";
    case Subsystem::cuda:
      return "torch.cuda";
    case Subsystem::generated:
      return "Inductor-generated code";
    case Subsystem::torch_other:
      return "torch";
  }
  return "unknown";
}

bool is_generated_file(std::string_view file) {
  const auto slash = file.find_last_of("/\\");
  const std::string_view name = slash == k_npos ? file : file.substr(slash + 1);
  return has(file, "/torchinductor_") || file.starts_with("torchinductor_") ||
         is_code_hash_name(name) || (name == "output_code.py" && has(file, "torch_compile_debug/"));
}

bool is_framework_file(std::string_view file) {
  return file.empty() || file.front() == '<' || is_generated_file(file) ||
         has(file, "/site-packages/") || has(file, "/dist-packages/") || has(file, "/torch/") ||
         has(file, "/lib/python3") || file.starts_with("torch/");
}

Subsystem subsystem_of(std::string_view file, std::string_view function) {
  if (file.empty() || file.front() == '<') return Subsystem::unknown;
  if (is_generated_file(file)) return Subsystem::generated;
  // Windows paths read like POSIX ones for the rules below (copied only when they are Windows').
  std::string normalized;
  std::string_view path = file;
  if (file.find('\\') != k_npos) {
    normalized.assign(file);
    for (auto& ch : normalized)
      if (ch == '\\') ch = '/';
    path = normalized;
  }
  if (in_package(path, "torch/")) {
    // aot_load and aoti_load_package are loaders wherever they live.
    if (function == "aot_load" || function == "aoti_load_package" || function == "load_package")
      return Subsystem::aoti_package;
    // A SymBool or SymInt converted to a Python value: the guard is evaluated.
    if (path.ends_with("torch/__init__.py") && (function == "__bool__" || function == "__int__" ||
                                                function == "__index__" || function == "__float__"))
      return Subsystem::symbolic_shapes;
    for (const auto& [part, subsystem] : k_paths)
      if (has(path, part)) return subsystem;
    return Subsystem::torch_other;
  }
  if (in_package(path, "triton/")) {
    // The compiled cubin handed to the driver: a driver that refuses it is not a compile error.
    if (function == "_init_handles" || function == "load_binary") return Subsystem::kernel_load;
    // The frontend turning the kernel's Python into IR: what it rejects is the kernel Inductor
    // generated (an fp8 type this GPU lacks, a construct Triton does not support).
    if (has(path, "triton/language/") || has(path, "triton/compiler/code_generator.py"))
      return Subsystem::inductor_codegen;
    if (has(path, "triton/compiler/") || has(path, "triton/backends/"))
      return Subsystem::triton_compile;
    for (const auto& [part, subsystem] : k_paths)
      if (part.starts_with("triton/") && has(path, part)) return subsystem;
    return Subsystem::triton_runtime;
  }
  if (has(path, "/site-packages/") || has(path, "/dist-packages/")) return Subsystem::third_party;
  if (has(path, "/lib/python3") || has(path, "/lib/python2")) return Subsystem::python_runtime;
  return Subsystem::user;
}

bool is_torch(Subsystem subsystem) {
  switch (subsystem) {
    case Subsystem::unknown:
    case Subsystem::user:
    case Subsystem::third_party:
    case Subsystem::python_runtime:
      return false;
    default:
      return true;
  }
}

}  // namespace aoti::torch
