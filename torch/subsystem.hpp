// Which part of PyTorch (or of the stack around it) a traceback frame belongs to, read from the
// frame's file path and function: the layout of torch's own source tree. Error routing asks this
// instead of matching messages: an exception raised below `torch/_inductor/lowering.py` is a
// lowering failure whatever its message says.
#pragma once

#include <cstdint>
#include <string_view>

namespace aoti::torch {

enum class Subsystem : std::uint8_t {
  unknown,            // no frame, or only frames of the Python runtime
  user,               // the user's own code (not torch, not an installed package, not Python's)
  third_party,        // another installed package (transformers, vllm, ...)
  python_runtime,     // Python's standard library (subprocess, contextlib, importlib, ...)
  export_,            // torch/export, torch/_export
  export_serialize,   // torch/_export/serde: writing or reading an ExportedProgram
  dynamo,             // torch/_dynamo
  aot_autograd,       // torch/_functorch
  fx,                 // torch/fx (tracing, the Interpreter)
  fake_tensor,        // torch/_subclasses (fake and functional tensors)
  symbolic_shapes,    // torch/fx/experimental/symbolic_shapes.py, sym_node.py, a SymBool's bool()
  library,            // torch/_library, torch/library.py: custom ops and their registrations
  ops,                // torch/_ops.py: the dispatcher's Python side
  inductor_lowering,  // torch/_inductor: graph lowering, IR, decompositions, FX passes
  inductor_codegen,   // torch/_inductor/codegen, scheduler
  inductor_autotune,  // torch/_inductor/select_algorithm.py, autotune_process.py
  inductor_build,     // torch/_inductor/cpp_builder.py: compiling generated code
  inductor,           // torch/_inductor, elsewhere
  aoti_package,       // loading a compiled model: torch/_inductor/package, aot_load, pt2_archive
  triton_compile,     // triton/compiler, triton/backends, triton/runtime/build.py
  triton_runtime,     // triton/runtime (jit, autotuner): launching kernels
  kernel_load,    // handing a compiled kernel to the driver (Triton's _init_handles, load_binary)
  cpp_extension,  // torch/utils/cpp_extension.py: building and loading C++ extensions
  cuda,           // torch/cuda
  torch_other,    // anywhere else in torch
  generated,      // code Inductor generated for a model (its compiled module, kernels, wrapper)
};
std::string_view to_string(Subsystem subsystem);

// The subsystem of one Python frame. `function` is the frame's function name ("" if unknown).
Subsystem subsystem_of(std::string_view file, std::string_view function);

// Files of PyTorch, of installed packages, of the Python runtime and the code Inductor generated:
// not the user's code.
bool is_framework_file(std::string_view file);

// A file Inductor generated: under its cache directory (`/tmp/torchinductor_<user>/`, the default
// TORCHINDUCTOR_CACHE_DIR) or named by its code hash (`c` and 51 base32 characters:
// `c7qimro...lb3.py`, `<hash>.wrapper.cpp`, `<hash>.main.cpp`), or a debug dump's output_code.py.
bool is_generated_file(std::string_view file);

// Whether a subsystem is part of torch or Triton (not the user's, a third party's or Python's).
bool is_torch(Subsystem subsystem);

}  // namespace aoti::torch
