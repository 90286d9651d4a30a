// The structure the log reader gives a Python error: the chain of exceptions and how they are
// linked, the subsystem each was raised in, tracebacks a paste cut off before their exception line,
// Dynamo's message footer without its exception, faulthandler's stacks under a crash, and the
// prefixes launchers put before every line. All on real logs: corpus cases built on the H200 and
// posts in corpus/wild.
#include <doctest/doctest.h>

#include <string>

#include "parsers/logs/failure_lines.hpp"
#include "tests/parsers_logs_support.hpp"

using namespace aoti::test::logs;
using aoti::model::ExceptionLink;
using aoti::torch::Subsystem;
namespace logs = aoti::parsers::logs;

namespace {

LogScan scan_wild(const std::string& name) {
  return scan_log_text(
      aoti::test::read_file(aoti::test::corpus_dir() / "wild" / name / "stderr.txt"), name);
}

const LogEvent* exception_at(const LogScan& scan, int line) {
  for (const auto& e : scan.events)
    if (e.kind == LogEventKind::python_exception && e.where.line == line) return &e;
  return nullptr;
}

}  // namespace

TEST_CASE("an exception chain: each link, where each exception was raised, the root cause") {
  // NotImplementedError (line 8), during its handling UnsupportedOperatorException (line 12),
  // which directly caused Dynamo's Unsupported: the chain of a custom op without a fake kernel.
  const auto scan = scan_corpus("export-custom-op-no-fake-strict", "stderr.txt");
  const LogEvent* first = exception_at(scan, 8);
  REQUIRE(first);
  CHECK(first->link == ExceptionLink::none);
  CHECK(first->raised_in == Subsystem::ops);  // torch/_ops.py's __call__, below fake_tensor.py
  const LogEvent* second = exception_at(scan, 12);
  REQUIRE(second);
  CHECK(second->link == ExceptionLink::during_handling);
  CHECK(second->chained_from_line == 8);
  CHECK(second->raised_in == Subsystem::fake_tensor);  // no frames: its class says who
  const LogEvent* last = nullptr;
  for (const auto& e : scan.events)
    if (e.kind == LogEventKind::python_exception && e.final) last = &e;
  REQUIRE(last);
  CHECK(last->subject == "torch._dynamo.exc.Unsupported");
  CHECK(last->link == ExceptionLink::direct_cause);
  CHECK(last->chained_from_line == 12);
  CHECK(last->raised_in == Subsystem::dynamo);
  // Direct causes are followed back; a `During handling` link is context, not cause.
  CHECK(last->root_cause_type == "torch._subclasses.fake_tensor.UnsupportedOperatorException");
  CHECK(last->root_cause_raised_in == Subsystem::fake_tensor);
}

TEST_CASE("a traceback cut off before its exception line keeps its frames") {
  // The post ends inside the traceback: Tensor.__bool__ on an .item() evaluating a guard.
  const auto scan = scan_wild("pytorch-163791-longrope-seq-len-branch");
  const LogEvent* cut = nullptr;
  for (const auto& e : scan.events)
    if (e.kind == LogEventKind::python_exception) cut = &e;
  REQUIRE(cut);
  CHECK_FALSE(cut->complete);
  CHECK(cut->final);
  CHECK(cut->subject.empty());
  CHECK(cut->raised_in == Subsystem::symbolic_shapes);
  // Its innermost frames evaluate a guard: a data-dependent guard, read from the frames.
  CHECK(cut->problem == "data-dependent guard");
  REQUIRE(!cut->frames.empty());
  CHECK(cut->frames.back().function == "evaluate");
  CHECK(cut->where.line == cut->frames.back().log_line);
}

TEST_CASE("Dynamo's footer without its exception line is a Dynamo error") {
  const auto scan = scan_wild("diffusers-10290-np-ceil-fullgraph-break");
  const auto exceptions = of_kind(scan, LogEventKind::python_exception);
  REQUIRE(exceptions.size() == 1);
  const auto& e = exceptions.front();
  CHECK_FALSE(e.complete);
  CHECK(e.raised_in == Subsystem::dynamo);
  // The frame the paste cut at its start: `...transformer_flux.py", line 519, in forward`.
  REQUIRE(e.frames.size() == 1);
  CHECK(e.frames[0].file.ends_with("diffusers/models/transformers/transformer_flux.py"));
  CHECK(e.frames[0].line == 519);
  CHECK(e.frames[0].code == "interval_control = int(np.ceil(interval_control))");
}

TEST_CASE("torch's exception classes without their module, and launchers' line prefixes") {
  SUBCASE("a bare `Unsupported:` is Dynamo's") {
    const auto scan = scan_wild("pytorch-112670-bound-method-graph-break");
    const auto exceptions = of_kind(scan, LogEventKind::python_exception);
    REQUIRE(exceptions.size() == 1);
    CHECK(exceptions[0].subject == "Unsupported");
    CHECK(exceptions[0].raised_in == Subsystem::dynamo);
  }
  SUBCASE("torchrun's `[rank7]: `") {
    const auto scan = scan_wild("flash-attention-1435-fa3-pybind-not-custom-op");
    const auto exceptions = of_kind(scan, LogEventKind::python_exception);
    REQUIRE(!exceptions.empty());
    CHECK(exceptions[0].subject == "torch._dynamo.exc.Unsupported");
  }
  SUBCASE("vLLM's `(EngineCore_DP0 pid=73386) `") {
    const auto scan = scan_wild("vllm-28982-foreach-node-cpp-scheduling");
    const auto exceptions = of_kind(scan, LogEventKind::python_exception);
    REQUIRE(exceptions.size() == 1);
    CHECK(exceptions[0].subject == "torch._inductor.exc.InductorError");
    REQUIRE(exceptions[0].frames.size() == 2);
    CHECK(exceptions[0].frames[0].function == "_codegen_partitions");
    CHECK(exceptions[0].raised_in == Subsystem::inductor_codegen);
  }
  CHECK(only_event("[rank0]: torch._dynamo.exc.UserError: boom").subject ==
        "torch._dynamo.exc.UserError");
  CHECK(only_event("(RayWorkerWrapper pid=12) ValueError: boom").subject == "ValueError");
}

TEST_CASE("faulthandler's stack belongs to the crash before it") {
  const auto scan = scan_wild("ao-2901-so-abi-abort-on-import");
  const auto crashes = of_kind(scan, LogEventKind::segfault);
  REQUIRE(crashes.size() == 1);
  const auto& crash = crashes[0];
  CHECK(crash.subject == "SIGABRT");
  REQUIRE(crash.frames.size() >= 2);
  // Kept outermost first, as Python frames are: the innermost is ctypes' CDLL.
  CHECK(crash.frames.back().file.ends_with("ctypes/__init__.py"));
  CHECK(crash.frames.back().function == "__init__");
  CHECK(crash.frames[crash.frames.size() - 2].function == "load_library");
  // Its frames did not start a traceback of their own.
  CHECK(of_kind(scan, LogEventKind::python_exception).empty());
}

TEST_CASE("runtime and build lines read by their tool's format") {
  SUBCASE("OpenMP's error #15 names both copies") {
    const auto scan = scan_wild("csprng-115-two-libiomp5md-dll");
    const auto errors = of_kind(scan, LogEventKind::runtime_error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].problem == "duplicate OpenMP runtime");
    CHECK(errors[0].subject == "libiomp5md.dll");
    CHECK(errors[0].expected == "libiomp5md.dll");
    CHECK(errors[0].source_line == 15);
  }
  SUBCASE("distutils: a compiler that does not exist, then its summary") {
    const auto scan = scan_wild("mmdetection-944-cuda-home-path-list-nvcc");
    const auto errors = of_kind(scan, LogEventKind::compile_error);
    REQUIRE(errors.size() == 2);
    CHECK(errors[0].problem == "missing compiler");
    CHECK(errors[0].subject ==
          "/usr/local/cuda-10.0:/usr/local/cuda-10.0:/usr/local/cuda-10.0:/bin/nvcc");
    CHECK(errors[1].problem == "compiler failed");
  }
  SUBCASE("an ImportError naming the compiled library it could not load") {
    const auto scan = scan_wild("sglang-17460-kernel-cpu-torch-too-new");
    const auto exceptions = of_kind(scan, LogEventKind::python_exception);
    REQUIRE(!exceptions.empty());
    CHECK(exceptions.back().problem == "load failure");
    CHECK(
        logs::shared_object_in("found files: ['/x/common_ops.cpython-312-x86_64-linux-gnu.so']") ==
        "/x/common_ops.cpython-312-x86_64-linux-gnu.so");
    CHECK(logs::shared_object_in("/lib/libstdc++.so.6: version") == "/lib/libstdc++.so.6");
    CHECK(logs::shared_object_in("the .so file") == "");
  }
}

TEST_CASE("errors read by their tool's format where no traceback states them") {
  SUBCASE("torch's own log prefix (`W0516 15:40:36.148000 12260 path:1280] `) is taken off") {
    const auto scan = scan_wild("ComfyUI-TeaCache-129-triton-ptx-version-cuda12.8");
    const auto exceptions = of_kind(scan, LogEventKind::python_exception);
    REQUIRE(exceptions.size() == 1);
    CHECK(exceptions[0].subject == "torch._inductor.exc.InductorError");
    REQUIRE(exceptions[0].frames.size() == 1);
    CHECK(exceptions[0].frames[0].function == "ptx_get_version");
    CHECK(exceptions[0].raised_in == Subsystem::triton_compile);
  }
  SUBCASE("a library's own CUDA check and glibc's backtrace_symbols frames under it") {
    const auto scan = scan_wild("k2-859-out-of-bounds-read-ima");
    const auto errors = of_kind(scan, LogEventKind::cuda_error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].value == "an illegal memory access was encountered");
    REQUIRE(errors[0].frames.size() == 3);
    CHECK(errors[0].frames[0].function == "k2::internal::GetStackTrace()");
    CHECK(errors[0].frames[2].function ==
          "k2::RowSplitsToRowIds(k2::Array1<int> const&, k2::Array1<int>*)");
    CHECK(errors[0].frames[2].file.ends_with("/libk2context.so"));
    const auto frame = logs::native_frame("/lib/libfoo.so(+0x1234) [0x7f0000001234]");  // no symbol
    REQUIRE(frame);
    CHECK(frame->module == "/lib/libfoo.so");
    CHECK(frame->symbol == "<unknown function>");
    CHECK_FALSE(logs::native_frame("see the docs [0x1]"));
  }
  SUBCASE("gdb's backtrace with no signal line states the crash; `bt` again restarts it") {
    const auto scan = scan_wild("spconv-245-gcc9-build-segfault");
    const auto crashes = of_kind(scan, LogEventKind::segfault);
    REQUIRE(crashes.size() == 1);
    CHECK(crashes[0].problem == "backtrace only");
    REQUIRE(crashes[0].frames.size() >= 2);
    CHECK(crashes[0].frames[0].file.ends_with("/libspconv.so"));
    CHECK(crashes[0].frames[0].log_line > 1);  // the first frame of the second `bt`
    // cuda-gdb's GPU thread (`#0  kernel<<<...>>> () at x.py:45`) is the GPU core's to report.
    CHECK(scan_log_text("#0  triton_poi_0<<<(1,1,1),(128,1,1)>>> () at /tmp/k.py:45\n", "g")
              .events.empty());
  }
  SUBCASE("torch/cuda's capability check: the GPU and what the build supports") {
    const auto scan = scan_wild("leggedlab-26-sm120-not-in-torch-wheel");
    const auto errors = of_kind(scan, LogEventKind::runtime_error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].problem == "GPU not supported by this torch build");
    CHECK(errors[0].subject == "sm_120");
    REQUIRE(errors[0].detail.size() == 1);
    CHECK(errors[0].detail[0].find("sm_50 sm_60") != std::string::npos);
  }
  SUBCASE("an unnamed dim in `Constraints violated` and its constraint's constant") {
    const auto scan = scan_wild("vllm-ascend-1324-moe-routing-specializes-tokens");
    const auto dims = of_kind(scan, LogEventKind::export_specialized);
    REQUIRE(dims.size() == 1);
    CHECK(dims[0].subject == "L['input_ids'].size()[0]");
    CHECK(dims[0].value == "2048");
    CHECK(dims[0].value_line == 7);
  }
  SUBCASE("TorchScript's traceback, innermost first, kept outermost first") {
    const auto scan = scan_wild("pytorch-43767-jit-trace-baked-cuda-device");
    const auto exceptions = of_kind(scan, LogEventKind::python_exception);
    REQUIRE(exceptions.size() == 1);
    REQUIRE(exceptions[0].frames.size() == 5);
    CHECK(exceptions[0].frames.front().function == "<module>");
    CHECK(exceptions[0].frames.back().function == "forward");
    REQUIRE(exceptions[0].user_frame == 4);
    CHECK(exceptions[0].frames.back().line == 5);
  }
  SUBCASE("terminate keeps its what() line") {
    const auto scan = scan_wild("pytorch-cpp-2-libtorch-older-than-model");
    const auto ends = of_kind(scan, LogEventKind::terminate);
    REQUIRE(ends.size() == 1);
    CHECK(ends[0].subject == "c10::Error");
    REQUIRE(!ends[0].detail.empty());
    CHECK(ends[0].detail[0].find("what():  INVALID_ARGUMENT") != std::string::npos);
    CHECK(ends[0].frames.size() == 8);
  }
}

TEST_CASE("debuggers' and test runners' formats") {
  SUBCASE("lldb: the stop reason, its frames and the loaded images") {
    const auto scan = scan_log_text(
        "* thread #3, stop reason = EXC_BAD_ACCESS (code=1, address=0x8)\n"
        "    frame #0: 0x0000000106438cf0 libomp.dylib`void __kmp_suspend_64<false, true>(int, "
        "kmp_flag_64<false, true>*) + 48\n"
        "(lldb) image list libomp.dylib\n"
        "[  0] E3A31AB3-3AE5-3371-87D0-7FD870A41A0D 0x00000001034d0000 /x/sklearn/.dylibs/"
        "libomp.dylib \n"
        "[  1] F53B1E01-AF16-30FC-8690-F7B131EB6CE5 0x0000000106754000 /x/torch/lib/libomp.dylib\n",
        "lldb.txt");
    const auto crashes = of_kind(scan, LogEventKind::segfault);
    REQUIRE(crashes.size() == 1);
    CHECK(crashes[0].subject == "EXC_BAD_ACCESS");
    REQUIRE(crashes[0].frames.size() == 1);
    CHECK(crashes[0].frames[0].file == "libomp.dylib");
    CHECK(crashes[0].frames[0].function ==
          "void __kmp_suspend_64<false, true>(int, kmp_flag_64<false, true>*)");
    const auto modules = of_kind(scan, LogEventKind::loaded_module);
    REQUIRE(modules.size() == 2);
    CHECK(modules[0].subject == "/x/sklearn/.dylibs/libomp.dylib");
    CHECK(modules[1].subject == "/x/torch/lib/libomp.dylib");
    // gdb's `info sharedlibrary`.
    const auto gdb = scan_log_text(
        "0x00007ffff7fc5090  0x00007ffff7fee335  Yes         /lib64/ld-linux-x86-64.so.2\n"
        "0x00007ffff7c28700  0x00007ffff7dbd93d  Yes (*)     /lib/x86_64-linux-gnu/libc.so.6\n",
        "gdb.txt");
    const auto listed = of_kind(gdb, LogEventKind::loaded_module);
    REQUIRE(listed.size() == 2);
    CHECK(listed[1].subject == "/lib/x86_64-linux-gnu/libc.so.6");
    // Rows cut after their address (found by fuzz_logs): no path, no event, no exception.
    const auto cut = scan_log_text(
        "[  2] F53B1E01-AF16-30FC-8690-F7B131EB6CE5 0x00000001h/lib/libc10.so)\n"
        "0x00007ffff7fc5090  0x00007ffff7fee335  Yes\n",
        "cut.txt");
    CHECK(of_kind(cut, LogEventKind::loaded_module).empty());
  }
  SUBCASE("a sanitizer's report: the fault and its frames") {
    const auto scan = scan_log_text(
        "AddressSanitizer:DEADLYSIGNAL\n"
        "==6330==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000010 (pc "
        "0x0001213f0cf0 "
        "bp 0x00016be8aa50 sp 0x00016be8a9a0 T2)\n"
        "    #0 0x1213f0cf0 in void __kmp_suspend_64<false, true>(int, kmp_flag_64<false, "
        "true>*)+0x30 "
        "(libomp.dylib:arm64+0x54cf0)\n"
        "    #1 0x4f1a2b in Darknet::load(char const*) (/home/u/app+0x4f1a2b)\n",
        "asan.txt");
    const auto crashes = of_kind(scan, LogEventKind::segfault);
    REQUIRE(crashes.size() == 1);
    CHECK(crashes[0].subject == "SIGSEGV");
    CHECK(crashes[0].value == "AddressSanitizer: SEGV on unknown address 0x000000000010");
    REQUIRE(crashes[0].frames.size() == 2);
    CHECK(crashes[0].frames[0].file == "libomp.dylib");
    CHECK(crashes[0].frames[0].function ==
          "void __kmp_suspend_64<false, true>(int, kmp_flag_64<false, true>*)");
    CHECK(crashes[0].frames[1].file == "/home/u/app");
    CHECK(crashes[0].frames[1].function == "Darknet::load(char const*)");
  }
  SUBCASE("IPython's traceback: the frame's line from the listing's arrow") {
    const auto scan = scan_log_text(
        "/opt/conda/lib/python3.8/site-packages/cpm_kernels/library/cuda.py in "
        "checkCUStatus(error)\n"
        "    214 def checkCUStatus(error : int) -> None:\n"
        "    215     if error != CUDA_SUCCESS:\n"
        "--> 216         raise RuntimeError(\"CUDA Error: %s\" % cuGetErrorString(error))\n"
        "    217 \n"
        "\n"
        "RuntimeError: CUDA Error: no kernel image is available for execution on the device\n",
        "notebook.txt");
    const auto exceptions = of_kind(scan, LogEventKind::python_exception);
    REQUIRE(exceptions.size() == 1);
    REQUIRE(exceptions[0].frames.size() == 1);
    const auto& frame = exceptions[0].frames[0];
    CHECK(frame.file == "/opt/conda/lib/python3.8/site-packages/cpm_kernels/library/cuda.py");
    CHECK(frame.function == "checkCUStatus");
    CHECK(frame.line == 216);
    CHECK(frame.code == "raise RuntimeError(\"CUDA Error: %s\" % cuGetErrorString(error))");
  }
  SUBCASE("Inductor's size/stride check names the op on the line above, or under the message") {
    const auto above = scan_log_text(
        "assert_size_stride(buf6, (32, 4096), (4096, 1), "
        "'torch.ops.sgl_kernel.rotary_embedding_cpu.default')\n"
        "AssertionError: expected size 32==32, stride 6144==4096 at dim=0\n",
        "a.txt");
    const auto exceptions = of_kind(above, LogEventKind::python_exception);
    REQUIRE(exceptions.size() == 1);
    CHECK(exceptions[0].problem == "size/stride assert");
    CHECK(exceptions[0].op == "torch.ops.sgl_kernel.rotary_embedding_cpu.default");
  }
  SUBCASE("MKL's threading layer refused beside another OpenMP runtime") {
    const auto scan = scan_log_text(
        "Error: mkl-service + Intel(R) MKL: MKL_THREADING_LAYER=INTEL is incompatible with "
        "libgomp.so.1 library.\n",
        "mkl.txt");
    auto errors = of_kind(scan, LogEventKind::runtime_error);
    std::erase_if(errors, [](const auto& e) { return e.problem != "threading layer conflict"; });
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].subject == "MKL_THREADING_LAYER=INTEL");
    CHECK(errors[0].expected == "libgomp.so.1");
  }
  SUBCASE("a frame's code line kept above the error, its File line lost") {
    const auto scan = scan_log_text(
        "return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)\n"
        "RuntimeError: CUDA error: device-side assert triggered\n",
        "orphan.txt");
    const auto errors = of_kind(scan, LogEventKind::cuda_error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].orphan_code_line == 1);
    CHECK(errors[0].orphan_code ==
          "return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)");
    // Prose above an error is not code.
    const auto prose = scan_log_text(
        "The run stopped here (see below)\nRuntimeError: CUDA error: device-side assert "
        "triggered\n",
        "prose.txt");
    CHECK(of_kind(prose, LogEventKind::cuda_error).at(0).orphan_code.empty());
  }
  SUBCASE("launchers' nested process tags before a logger's prefix") {
    const auto scan = scan_log_text(
        "(EngineCore_DP0 pid=26353) (Worker_TP7 pid=26373) ERROR 12-17 13:32:44 "
        "[multiproc_executor.py:815] torch._inductor.exc.InductorError: RuntimeError: Failed to "
        "run autotuning code block: name 'get_raw_stream' is not defined\n",
        "vllm.txt");
    const auto exceptions = of_kind(scan, LogEventKind::python_exception);
    REQUIRE(exceptions.size() == 1);
    CHECK(exceptions[0].subject == "torch._inductor.exc.InductorError");
  }
  SUBCASE("pytest's short traceback inside a Markdown quote") {
    const auto scan = scan_log_text(
        "> /venv/lib/python3.10/site-packages/torchvision/_meta_registrations.py:164: in "
        "<module>\n"
        ">     def meta_nms(dets, scores, iou_threshold):\n"
        "> /venv/lib/python3.10/site-packages/torch/library.py:440: in inner\n"
        ">     handle = entry.abstract_impl.register(func_to_register, source)\n"
        "> E   RuntimeError: operator torchvision::nms does not exist\n",
        "pytest.txt");
    const auto exceptions = of_kind(scan, LogEventKind::python_exception);
    REQUIRE(exceptions.size() == 1);
    CHECK(exceptions[0].subject == "RuntimeError");
    CHECK(exceptions[0].problem == "op not registered");
    REQUIRE(exceptions[0].frames.size() == 2);
    CHECK(exceptions[0].frames[0].function == "<module>");
    CHECK(exceptions[0].frames[1].code ==
          "handle = entry.abstract_impl.register(func_to_register, source)");
    // A line with `: in ` that is an error, not a frame, is still read as one.
    CHECK(only_event("RuntimeError: in function f: boom").subject == "RuntimeError");
  }
  SUBCASE("an exception printed as its repr") {
    const auto e = only_event(
        "NameError(\"Cannot access global variable X from within @jit'ed "
        "function. Triton kernels can only ...\")");
    CHECK(e.subject == "NameError");
    CHECK(e.value.starts_with("Cannot access global variable X"));
    CHECK(e.value.ends_with("only ..."));
  }
}

TEST_CASE("pytest's E margin on a line that holds nothing else (a fuzz_logs find)") {
  // `E` and spaces only: the margin is the whole line; reading it must not run past its end.
  const auto scan = scan_log_text("E      \nE   \n", "log");
  CHECK(scan.events.empty());
}
