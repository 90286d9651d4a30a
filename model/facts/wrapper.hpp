// What the generated wrapper (<hash>.wrapper.cpp) tells: inputs, constants, input checks, kernels
// and their launches, at exact lines.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/artifact.hpp"
#include "model/facts/debug_run.hpp"
#include "model/location.hpp"

namespace aoti::model {

struct WrapperInput {
  int index = 0;
  std::string name;  // "arg3_1"
  int line = 0;
  // Set by correlation with the trace of the export that made the wrapper, empty where it does not
  // say: the user's forward argument (symbol sources `L['ids'].size()[0]`) and, from the export
  // call's own text, the `Dim` of each dim and its range as written ("min=1, max=64").
  std::string user_name = {};
  std::map<int, std::string> dim_names = {};
  std::map<int, std::string> exported_ranges = {};
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
  int dim = -1;            // for dim_* and stride_equal
  std::int64_t value = 0;  // bound or expected value; dtype / device code for those kinds
  std::string label;       // "at::kFloat", "cuda" where the wrapper names it
  int line = 0;            // the `if` line
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
  std::string bound;  // the upper bound as written: "1000", "ks0", "1 + ks0", "1000L"; "" if none
  int line = 0;       // line in the kernel's source (the wrapper for Triton)
  std::string text = {};  // that line as it is there, trimmed
  int scope = 0;          // C++: the loop nest it is in (see TritonKernel::assignments)
};

// A memory access inside a kernel: `tmpN = tl.load(in_ptrK + (...), ...)`, `tl.store(...)`,
// `tl.atomic_add(...)`; in C++ `in_ptrK[...]`, `loadu(in_ptrK + ...)`, `tmpN.store(out_ptrK +
// ...)`.
struct TritonLoad {
  std::string var;      // "tmp0"; for a C++ lambda, the `auto tmpN =` it computes; "" for a store
  std::string pointer;  // "in_ptr0"
  std::string offset;   // "y0"
  int line = 0;
  bool is_store = false;
  std::string text = {};  // the line as it is in the source, trimmed
  int scope = 0;          // C++: the loop nest it is in (see TritonKernel::assignments)
};

enum class KernelLanguage { triton, cpp };

struct TritonKernel {
  std::string name;  // "triton_poi_fused_embedding_0", "cpp_fused_embedding_0"
  KernelLanguage language = KernelLanguage::triton;
  // The file its lines are numbered in when that is not the wrapper (a package's
  // <hash>.kernel.cpp, a trace's kernel dump); an empty artifact means the wrapper.
  Location source;
  std::vector<std::string> params;               // parameters in order (Triton constexprs excluded)
  std::map<std::string, std::string> signature;  // param -> type: triton_meta's, or the C++ type
  std::map<std::string, std::int64_t> constant_numels;  // "xnumel" -> 32 when set in the body
  std::vector<TritonAssert> asserts;
  std::vector<TritonLoad> loads;
  // Assignments in the body, "tmp4" -> "tl.where(tmp3, tmp2, tmp0)", to follow an index back. A
  // C++ kernel numbers its temporaries afresh in each top-level loop nest (scope 1, 2, ...): there
  // the key is "tmp0@2" (see scoped_name).
  std::map<std::string, std::string> assignments;
  // inductor_meta's `'assert_indirect_indexing': False` (torch.compile's config of that name): the
  // kernel was generated without device asserts on indirect indices. nullopt: the meta does not
  // say.
  std::optional<bool> assert_indirect_indexing;
  int inductor_meta_line = 0;  // the line of `inductor_meta=`, 0 when none was read
  // inductor_meta's 'kernel_name': the name the wrapper launches it by, when that is not `name` (a
  // user Triton kernel `k` is compiled as `k` and launched as `k_0`); "" otherwise.
  std::string launch_name;
  int line = 0;          // line of `def triton_...`
  int source_begin = 0;  // first line of the embedded source
  int source_end = 0;
};

// The key of `name` in TritonKernel::assignments for an assert or access in `scope`.
inline std::string scoped_name(const std::string& name, int scope) {
  return scope > 0 ? name + "@" + std::to_string(scope) : name;
}

struct KernelCall {
  std::string kernel;             // "triton_poi_fused_embedding_0"
  std::vector<std::string> args;  // as written: "arg3_1", "s23", "144L", ...
  std::vector<std::string>
      source_nodes;                   // from the preceding `// Topologically Sorted Source Nodes`
  std::vector<std::string> aten_ops;  // "aten.embedding", ...
  int line = 0;
  std::string text = {};  // the call's line as it is in the wrapper, trimmed
};

// `// Topologically Sorted Source Nodes: [embedding, linear], Original ATen: [aten.embedding,
// ...]`: which model code the wrapper lines after it implement.
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
  std::vector<std::string> aten_ops;  // "heldout.pad_rows"
  int line = 0;
};

// `auto buf2 = std::move(buf1);  // reuse`: the wrapper hands one buffer on under a new name.
struct BufferReuse {
  std::string from;  // "buf1"
  std::string to;    // "buf2"
  int line = 0;
};

// A call the intermediate value printer (AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER) put in the
// wrapper: mode 1 saves the tensor as a `.pt` file, modes 2 and 3 print its statistics or a
// scalar's value.
enum class PrinterCallKind {
  save,          // aoti_torch_save_tensor_handle(buf0, "buf0", "before_launch", "K");
  print,         // aoti_torch_print_tensor_handle(buf0, "before_launch - K - buf0");
  print_scalar,  // printf("[  before_launch - K - xnumel: %ld  ]", xnumel);
};
struct PrinterCall {
  PrinterCallKind kind = PrinterCallKind::save;
  PrintPhase phase = PrintPhase::before_launch;
  std::string kernel;  // "" for model inputs
  std::string arg;     // the name the printer gives the value: "arg3_1", "xnumel", "48L"
  std::string value;   // the expression the call passes: "arg3_1"
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
  std::vector<PrinterCall> printer_calls;  // in line order
  std::string compile_cmd;
  std::string link_cmd;
  int compile_cmd_line = 0;
  int link_cmd_line = 0;
  std::string in_spec;
  std::string out_spec;
  int line_count = 0;
};

}  // namespace aoti::model
