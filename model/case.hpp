// The Case: every fact the parsers found, as plain data. Checks read only this.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/facts/core_dump.hpp"
#include "model/facts/source.hpp"
#include "model/facts/trace.hpp"

namespace aoti::model {

// Where a fact was seen. `artifact` is the path the user gave (or found in a folder);
// `entry` names a file inside it (a zip entry of a package), empty otherwise.
struct Location {
  std::string artifact;
  std::string entry;
  int line = 0;  // 1-based; 0 when the fact has no line

  std::string display() const;  // "model.pt2:model/.../x.wrapper.cpp:42"
};

// Two artifacts are outputs of one run when one's folder holds the other's: stderr.txt beside
// trace/, a log and the core of the same process. What ties findings and facts of one run together.
bool same_run(std::string_view artifact_a, std::string_view artifact_b);

enum class ArtifactKind { package, model_so, wrapper_source, log, core_dump, trace, source, unknown };
std::string_view to_string(ArtifactKind kind);

// A text artifact's own lines, kept so that checks quote them instead of rebuilding them.
class SourceText {
 public:
  SourceText() = default;
  explicit SourceText(std::string text);
  // Line n (1-based) without its line break; empty past the end.
  std::string_view line(int n) const;
  int line_count() const { return static_cast<int>(m_starts.size()); }
  const std::string& text() const { return m_text; }

 private:
  std::string m_text;
  std::vector<std::size_t> m_starts;  // offset of each line's first byte
};

// What a diagnostic is about: an input (almost always), or a check that failed internally.
enum class DiagnosticSource { artifact, check };

struct Diagnostic {
  std::string artifact;  // the input as displayed; the check's id when source is check
  std::string message;
  DiagnosticSource source = DiagnosticSource::artifact;
};

struct Artifact {
  std::string path;
  ArtifactKind kind = ArtifactKind::unknown;
  std::uint64_t size = 0;
  bool analyzed = false;  // false: recognised but not read (kind not supported yet) or unreadable
  std::string note;       // why it was not analyzed, or what was read
};

// ---- the generated wrapper (<hash>.wrapper.cpp) -------------------------------------------

struct WrapperInput {
  int index = 0;
  std::string name;  // "arg3_1"
  int line = 0;
  // Set by correlation with the trace of the export that made the wrapper, empty where it does not
  // say: the user's forward argument (symbol sources `L['ids'].size()[0]`) and, from the export
  // call's own text, the `Dim` of each dim and its range as written ("min=1, max=64").
  std::string user_name;
  std::map<int, std::string> dim_names;
  std::map<int, std::string> exported_ranges;
};

struct WrapperConstant {
  int index = 0;
  std::string name;          // "scale_cuda0"
  std::string dtype;         // "float32"
  std::string device_type;   // "cuda" | "cpu" | ...
  std::string kind;          // "Parameter" | "Buffer" | "TensorConstant" | ...
  std::string original_fqn;  // "emb.weight"
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> stride;
  std::int64_t data_size = 0;
  bool from_folded = false;
  int line = 0;  // the `.name = ` line
};

// One condition of a check_input_N function, e.g. `if (arg4_1_size[0] > 1024)`.
enum class InputCheckKind { dtype, dim_min, dim_max, dim_equal, stride_equal, device_type };
struct InputCheck {
  int input_index = 0;
  std::string input_name;
  InputCheckKind kind = InputCheckKind::dim_equal;
  int dim = -1;                 // for dim_* and stride_equal
  std::int64_t value = 0;       // bound or expected value; dtype / device code for those kinds
  std::string label;            // "at::kFloat", "cuda" where the wrapper names it
  int line = 0;                 // the `if` line
};

// `int64_t s77 = arg0_1_size[0];` (also `_stride[...]`).
struct SymbolBinding {
  std::string symbol;  // "s77"
  std::string input;   // "arg0_1"
  int dim = 0;
  bool is_stride = false;
  int line = 0;
};

// An assert in a kernel: `tl.device_assert(cond, "msg")` in Triton, `AOTI_TORCH_CHECK(cond,
// "msg");` / `TORCH_CHECK(...)` in C++. For an index assert (torch/index_assert.hpp reads every
// form of its message) index_var and bound are set.
struct TritonAssert {
  std::string message;    // "index out of bounds: 0 <= tmp4 < 1000"
  std::string condition;  // "((0 <= tmp4) & (tmp4 < 1000)) | ~(ymask)"
  std::string index_var;  // "tmp4"
  std::string bound;      // the upper bound as written: "1000", "ks0", "1 + ks0", "1000L"; "" if none
  int line = 0;           // line in the kernel's source (the wrapper for Triton)
  std::string text = {};  // that line as it is there, trimmed
  int scope = 0;          // C++: the loop nest it is in (see TritonKernel::assignments)
};

// A memory access inside a kernel: `tmpN = tl.load(in_ptrK + (...), ...)`, `tl.store(...)`,
// `tl.atomic_add(...)`; in C++ `in_ptrK[...]`, `loadu(in_ptrK + ...)`, `tmpN.store(out_ptrK + ...)`.
struct TritonLoad {
  std::string var;      // "tmp0"; for a C++ lambda, the `auto tmpN =` it computes; "" for a store
  std::string pointer;  // "in_ptr0"
  std::string offset;   // "y0"
  int line = 0;
  bool is_store = false;
  std::string text = {};  // the line as it is in the source, trimmed
  int scope = 0;        // C++: the loop nest it is in (see TritonKernel::assignments)
};

enum class KernelLanguage { triton, cpp };

struct TritonKernel {
  std::string name;                      // "triton_poi_fused_embedding_0", "cpp_fused_embedding_0"
  KernelLanguage language = KernelLanguage::triton;
  // The file its lines are numbered in when that is not the wrapper (a package's
  // <hash>.kernel.cpp, a trace's kernel dump); an empty artifact means the wrapper.
  Location source;
  std::vector<std::string> params;       // parameters in order (Triton constexprs excluded)
  std::map<std::string, std::string> signature;  // param -> type: triton_meta's, or the C++ type
  std::map<std::string, std::int64_t> constant_numels;  // "xnumel" -> 32 when set in the body
  std::vector<TritonAssert> asserts;
  std::vector<TritonLoad> loads;
  // Assignments in the body, "tmp4" -> "tl.where(tmp3, tmp2, tmp0)", to follow an index back. A
  // C++ kernel numbers its temporaries afresh in each top-level loop nest (scope 1, 2, ...): there
  // the key is "tmp0@2" (see scoped_name).
  std::map<std::string, std::string> assignments;
  int line = 0;         // line of `def triton_...`
  int source_begin = 0; // first line of the embedded source
  int source_end = 0;
};

// The key of `name` in TritonKernel::assignments for an assert or access in `scope`.
inline std::string scoped_name(const std::string& name, int scope) {
  return scope > 0 ? name + "@" + std::to_string(scope) : name;
}

struct KernelCall {
  std::string kernel;              // "triton_poi_fused_embedding_0"
  std::vector<std::string> args;   // as written: "arg3_1", "s23", "144L", ...
  std::vector<std::string> source_nodes;  // from the preceding `// Topologically Sorted Source Nodes`
  std::vector<std::string> aten_ops;      // "aten.embedding", ...
  int line = 0;
  std::string text = {};  // the call's line as it is in the wrapper, trimmed
};

// `// Topologically Sorted Source Nodes: [embedding, linear], Original ATen: [aten.embedding, ...]`:
// which model code the wrapper lines after it implement.
struct SourceNodesComment {
  std::vector<std::string> nodes;
  std::vector<std::string> aten_ops;
  int line = 0;
};

// `aoti_torch_proxy_executor_call_function(proxy_executor, <extern node>, ...)`.
struct ProxyCall {
  int extern_node_index = 0;
  std::vector<std::string> tensor_args;  // "arg0_1", "buf1"
  std::vector<std::string> source_nodes;
  std::vector<std::string> aten_ops;     // "heldout.pad_rows"
  int line = 0;
};

// `auto buf2 = std::move(buf1);  // reuse`: the wrapper hands one buffer on under a new name.
struct BufferReuse {
  std::string from;  // "buf1"
  std::string to;    // "buf2"
  int line = 0;
};

struct WrapperFacts {
  // Where the source is: a package entry, a file, or the payload of a trace's wrapper dump, where
  // the wrapper's line 1 is line 1 + line_offset of the trace file (wrapper_at applies it).
  Location where;
  int line_offset = 0;
  std::string file_name;  // "<hash>.wrapper.cpp" as Inductor named it, to match logs and traces
  SourceText source;      // the text itself, for quoting
  std::vector<WrapperInput> inputs;
  std::vector<std::string> outputs;
  std::vector<WrapperConstant> constants;
  std::vector<InputCheck> input_checks;
  bool checks_gated_by_env = false;  // _check_aoti_runtime_check_inputs_env gate present
  int gate_line = 0;
  std::vector<SymbolBinding> bindings;
  std::vector<TritonKernel> kernels;
  std::vector<KernelCall> kernel_calls;
  std::vector<ProxyCall> proxy_calls;
  std::vector<BufferReuse> buffer_reuses;
  std::vector<SourceNodesComment> source_node_comments;
  std::string compile_cmd;
  std::string link_cmd;
  int compile_cmd_line = 0;
  int link_cmd_line = 0;
  std::string in_spec;
  std::string out_spec;
  int line_count = 0;
};

// ---- the model shared object, read as ELF from inside the package or as a bare .so ----------

struct ElfFacts {
  Location where;
  std::string machine;  // "x86_64"
  std::vector<std::string> needed;   // DT_NEEDED
  std::string soname;
  std::string build_id;              // hex
  std::vector<std::string> comments; // .comment strings: "GCC: (Ubuntu 13.3.0-...) 13.3.0"
  std::size_t defined_dynamic_symbols = 0;
  // Strongly defined dynamic symbols that belong to the C++ runtime itself (std::locale,
  // std::ios_base, __cxa_*, ...): present only when libstdc++ was linked in statically.
  std::vector<std::string> cxx_runtime_symbols;  // mangled names, a sample (at most 32)
  std::size_t cxx_runtime_symbol_count = 0;
  // Defined dynamic symbols of the AOTI model C API (AOTInductorModelContainerCreateWithDevice,
  // AOTInductorModelContainerRun, ...), sorted: a model .so exports them, a custom-op library not.
  std::vector<std::string> aoti_exports;
};

// ---- one AOTI model inside a package -----------------------------------------------------------

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
};

struct ModelFacts {
  std::string name;             // "model"
  // The model artifact as given: a .pt2 package, or a bare model .so (torch._export.aot_compile);
  // empty for a standalone wrapper. Core frames in this model's .so carry the same string.
  std::string package;
  std::map<std::string, std::string> metadata;  // wrapper_metadata.json: AOTI_DEVICE_KEY, ...
  Location metadata_where;
  std::optional<WrapperFacts> wrapper;
  std::optional<ElfFacts> so;
  std::vector<ExternNode> extern_nodes;  // wrapper.json
  Location extern_nodes_where;
  std::vector<std::string> files;        // the model's entries in the package

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
  bool zip64 = false;
};

// ---- logs (stderr, stdout, error logs) ---------------------------------------------------------

enum class LogEventKind {
  input_check_error,        // Error: input_handles[0]: unmatched dtype, expected: 6(at::kFloat), but got: 5
  mixed_device_constants,   // Mixed-device constants ...
  tensors_on_different_devices,  // Expected all tensors to be on the same device ...
  pointer_on_host,          // The specified pointer resides on host memory ... (problem "blob on host": ATen's from_blob
                            // check; "tensor on host": a CUDA-tagged tensor whose memory is the host's)
  out_tensor_device,        // Expected out tensor to have device cuda:0, but got cpu instead
  api_call_failed,          // ... API call failed at <file>, line N
  triton_assert,            // an index assert that failed: Triton `Assertion `index out of bounds: 0 <= tmp4 < 1000` failed.`, C++ `Error: index out of bounds: 0 <= tmp7 < 1000L`
  cuda_error,               // CUDA error: device-side assert triggered / illegal memory access ...
  terminate,                // terminate called after throwing an instance of '...'
  segfault,                 // Segmentation fault (core dumped) / Fatal Python error: Segmentation fault
  deprecated_api,           // torch._export.aot_compile / aot_load
  export_specialized,       // You marked batch as dynamic but your code specialized it to be a constant (8)
  python_exception,         // torch.AcceleratorError: ... / RuntimeError: ... (last line of a traceback)
  compile_error,            // x.cpp:384:33: error: ... / fatal error: cuda.h: No such file ... / ld: cannot find -lcuda
  compile_command,          // the compiler command that failed (CppCompileError's `Command:`, an echoed g++ / nvcc line)
  load_error,               // dlopen / ImportError / OSError: undefined symbol, cannot open shared object file, ...
  runtime_error,            // the AOTI runtime's `Error: <what>`, the shim's `Exception in aoti_torch: ...`
  test_failure,             // unittest's `ERROR: test_x (module.Class.test_x)` / `FAIL: ...`: the test that failed
  observed_shape,           // a result's size the program printed (`torch.Size([4096, 8])`, value "4096, 8"), or
                            // ATen's Resize.cpp warning that an output was resized (problem "resized": expected =
                            // the shape it had, value = the shape required)
};
std::string_view to_string(LogEventKind kind);

// One frame of a Python traceback in a log: `File "x.py", line 77, in <module>` and its code line.
struct LogFrame {
  std::string file;
  int line = 0;
  std::string function;
  std::string code;  // the next line, trimmed; "" when the log does not show it
  int log_line = 0;  // the line of `File "..."` in the log
  bool native = false;  // a C++ frame (c10's `frame #4: f + 0x4c (... in lib.so)`, gdb's `#0  0x.. in f (...)`):
                        // `function` is the symbol, `file` the library or source file
  std::string text;  // the frame's own line as the log holds it, trimmed
};

struct LogEvent {
  LogEventKind kind = LogEventKind::python_exception;
  Location where;
  std::string text;  // the line, trimmed, at most 1,000 characters
  int repeats = 1;   // identical events folded into one

  // input_check_error
  int input_index = -1;
  std::string problem;   // "unmatched device type", "dim value is too large", "unmatched dtype", ...
  int dim = -1;
  std::string expected;  // as printed: "11(cuda)", "1024", "6(at::kFloat)", "16"
  std::string actual;    // "0", "4096", "5", "1"

  // triton_assert: the assert message; api_call_failed: the failing call; export_specialized: symbol
  std::string subject;
  std::string value;     // export_specialized: "8"; cuda_error: the error text; api_call_failed: "144"
  // triton_assert: the kernel's .py / .cpp path; api_call_failed: the .cpp file; compile_error: the
  // file the diagnostic is about; compile_command: the source it compiles; load_error: the library
  // that required a missing symbol version; runtime_error: c10's or glog's file
  std::string source_file;
  int source_line = 0;
  // triton_assert raised by a C++ kernel's check: "Exception raised from <kernel> at <file>:<line>".
  std::string kernel;

  // python_exception read from a traceback (one event per exception, its frames and message):
  // Python frames outermost first (the innermost 48 when there are more); native frames (also on
  // crashes and C++ errors) innermost first, the first 48.
  std::vector<LogFrame> frames;
  int user_frame = -1;           // index into frames of the innermost frame of the user's own code
  // The message's further lines as printed (`backend='inductor' raised:` / `LoweringException: ...`,
  // CppCompileError's `Command:` and `Output:`), from line where.line + 1 on, at most 60.
  // compile_error: the lines under the diagnostic, up to its source excerpt (`  605 |     code`).
  std::vector<std::string> detail;
  std::string unit;              // compile_error: the file being compiled, when the error is in a header it includes
  bool final = false;            // the last exception of the log: the one that ended the run
  // compile_error / load_error / runtime_error: what kind of failure the line states ("missing header",
  // "undefined symbol", ...) is in `problem`; the library, header or op it names in `subject`.

  // Set by correlation: index into Case::models of the model this event concerns, -1 if unknown.
  int model = -1;
};

// ---- the whole case ----------------------------------------------------------------------------

struct Case {
  std::vector<Artifact> artifacts;
  std::vector<Diagnostic> diagnostics;
  std::vector<PackageFacts> packages;
  std::vector<ModelFacts> models;
  std::vector<LogEvent> log_events;
  std::vector<CoreFacts> cores;
  std::vector<TraceFacts> traces;
  std::vector<SourceFacts> sources;

};

}  // namespace aoti::model
