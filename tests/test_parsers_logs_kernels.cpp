// The log scanner, one line per pattern as the debugging guide and the failure-mode catalogue quote
// them: input-check errors, device placement, failed API calls, device asserts and index checks,
// CUDA errors, terminate, crash signals, and the sizes a run printed.
#include <doctest/doctest.h>

#include <string>

#include "tests/parsers_logs_support.hpp"

using namespace aoti::test::logs;

TEST_CASE("input-check error forms") {
  struct Form {
    const char* line;
    const char* problem;
    int input_index;
    int dim;
    const char* expected;
    const char* value;  // the label inside `expected`, if any
    const char* actual;
  };
  const Form forms[] = {
      {"Error: input_handles[0]: dim value is too small at 0, expected it to be >= 2, but got: 1",
       "dim value is too small", 0, 0, "2", "", "1"},
      {"Error: input_handles[2]: unmatched dim value at 1, expected: 16, but got: 8",  // on another
                                                                                       // input
       "unmatched dim value", 2, 1, "16", "", "8"},
      {"Error: input_handles[0]: unmatched device type, expected: 0(cpu), but got: 1(cuda)",  // the
                                                                                              // guide's
                                                                                              // older
                                                                                              // form
       "unmatched device type", 0, -1, "0(cpu)", "cpu", "1(cuda)"},
      {"input_handles[1]: unmatched stride value at 0, expected: 16, but got: 1\r\n",  // no Error:
                                                                                       // prefix,
                                                                                       // CRLF
       "unmatched stride value", 1, 0, "16", "", "1"},
  };
  for (const Form& form : forms) {
    CAPTURE(form.line);
    const auto e = only_event(form.line);
    CHECK(e.kind == LogEventKind::input_check_error);
    CHECK(e.problem == form.problem);
    CHECK(e.input_index == form.input_index);
    CHECK(e.dim == form.dim);
    CHECK(e.expected == form.expected);
    CHECK(e.value == form.value);
    CHECK(e.actual == form.actual);
  }
  // A mention without expected/got is not an input-check error.
  CHECK(scan_log_text("input_handles[0]: something else", "log").events.empty());
}

TEST_CASE("device placement errors") {
  SUBCASE("mixed-device constants") {
    const auto e = only_event(
        "Error: Mixed-device constants are only supported when the secondary device is CPU. "
        "Constant "
        "'linear_weight' was compiled for a non-CPU device.");
    CHECK(e.kind == LogEventKind::mixed_device_constants);
    CHECK(e.subject == "linear_weight");
  }
  SUBCASE("tensors on two devices") {
    const auto e = only_event(
        "RuntimeError: Expected all tensors to be on the same device, but found at least two "
        "devices, cuda:0 and cpu!");
    CHECK(e.kind == LogEventKind::tensors_on_different_devices);
    CHECK(e.value == "cuda:0 and cpu");
  }
  SUBCASE("tensors on two devices, older wording") {
    const auto e = only_event(
        "Expected all tensors to be on the same device, but got index is on cpu, different from "
        "other tensors on "
        "cuda:0 (when checking argument in method wrapper_CUDA__index_select)");
    CHECK(e.value == "cpu and cuda:0");
  }
  SUBCASE("pointer on host") {
    const auto e = only_event(
        "The specified pointer resides on host memory and is not registered with any CUDA device.");
    CHECK(e.kind == LogEventKind::pointer_on_host);
  }
  SUBCASE("out tensor device") {
    const auto e = only_event("Expected out tensor to have device cuda:0, but got cpu instead");
    CHECK(e.kind == LogEventKind::out_tensor_device);
    CHECK(e.expected == "cuda:0");
    CHECK(e.actual == "cpu");
  }
}

TEST_CASE("API call failed in the generated wrapper") {
  const auto e = only_event(
      "RuntimeError: aoti_torch_cuda_mm_out(buf0, arg0_1, _frozen_param0) API call failed at "
      "/tmp/torchinductor_root/ab/cabcdef.wrapper.cpp, line 512");
  CHECK(e.kind == LogEventKind::api_call_failed);
  CHECK(e.subject == "aoti_torch_cuda_mm_out(buf0, arg0_1, _frozen_param0)");
  CHECK(e.source_file == "/tmp/torchinductor_root/ab/cabcdef.wrapper.cpp");
  CHECK(e.source_line == 512);
}

TEST_CASE("device-side asserts") {
  struct Assert {
    const char* line;
    LogEventKind kind;  // an index assert is a triton_assert, any other device assert a CUDA error
    const char* subject;
    const char* source_file;
    int source_line;
  };
  const Assert asserts[] = {
      // Triton, with the guide's quotes and a dynamic bound.
      {"/var/tmp/torchinductor_u/xy/cxyz.py:87: unknown: block: [12,0,0], thread: [3,0,0] "
       "Assertion 'index out of "
       "bounds: 0 <= tmp7 < ks0' failed.",
       LogEventKind::triton_assert, "index out of bounds: 0 <= tmp7 < ks0",
       "/var/tmp/torchinductor_u/xy/cxyz.py", 87},
      // Behind a service log's timestamp.
      {"2025-01-01 12:00:00.123 [worker] /k/cabc.py:33: unknown: block: [0,0,0], thread: [1,0,0] "
       "Assertion `index "
       "out of bounds: 0 <= tmp4 < 1000` failed.",
       LogEventKind::triton_assert, "index out of bounds: 0 <= tmp4 < 1000", "/k/cabc.py", 33},
      // ATen's index kernel, out of bounds.
      {"/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: "
       "[0,0,0] Assertion "
       "`-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.",
       LogEventKind::triton_assert,
       "-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"",
       "/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu", 92},
      // Another device assert.
      {"/pytorch/aten/src/ATen/native/cuda/Loss.cu:242: nll_loss_forward_reduce_cuda_kernel_2d: "
       "block: [0,0,0], "
       "thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.",
       LogEventKind::cuda_error, "t >= 0 && t < n_classes",
       "/pytorch/aten/src/ATen/native/cuda/Loss.cu", 242},
  };
  for (const Assert& expected : asserts) {
    CAPTURE(expected.line);
    const auto e = only_event(expected.line);
    CHECK(e.kind == expected.kind);
    CHECK(e.subject == expected.subject);
    CHECK(e.source_file == expected.source_file);
    CHECK(e.source_line == expected.source_line);
    CHECK(e.value ==
          (expected.kind == LogEventKind::cuda_error ? "device-side assert triggered" : ""));
  }
  SUBCASE("identical asserts fold, different lines do not") {
    const std::string a =
        "/k.py:33: unknown: block: [0,0,0], thread: [1,0,0] Assertion `index out of bounds: 0 <= "
        "tmp4 < 1000` failed.\n";
    const std::string b =
        "/k.py:33: unknown: block: [1,0,0], thread: [2,0,0] Assertion `index out of bounds: 0 <= "
        "tmp4 < 1000` failed.\n";
    const std::string c =
        "/k.py:40: unknown: block: [0,0,0], thread: [1,0,0] Assertion `index out of bounds: 0 <= "
        "tmp9 < 64` failed.\n";
    const auto scan = scan_log_text(a + b + c + a, "log");
    REQUIRE(scan.events.size() == 2);
    CHECK(scan.events[0].repeats == 3);
    CHECK(scan.events[0].where.line == 1);
    CHECK(scan.events[1].repeats == 1);
    CHECK(scan.events[1].where.line == 3);
  }
  SUBCASE("a host assert alone is not an event") {
    CHECK(scan_log_text("python3: /src/foo.cpp:12: void f(): Assertion `x > 0' failed.", "log")
              .events.empty());
  }
}

TEST_CASE("CUDA errors") {
  SUBCASE("illegal memory access, seen three ways, is one event") {
    const auto scan = scan_log_text(
        "RuntimeError: CUDA error: an illegal memory access was encountered\n"
        "Search for `cudaErrorIllegalAddress' in https://docs.nvidia.com/cuda/ for more "
        "information.\n"
        "  what():  CUDA error: an illegal memory access was encountered\n",
        "log");
    const auto cuda = of_kind(scan, LogEventKind::cuda_error);
    REQUIRE(cuda.size() == 1);
    CHECK(cuda[0].value == "an illegal memory access was encountered");
    CHECK(cuda[0].subject == "CUDA error");
    CHECK(cuda[0].repeats == 3);
  }
  SUBCASE("one line in each spelling: the subject says which, the value is the error's text") {
    struct Spelling {
      const char* line;
      const char* subject;
      const char* value;
    };
    const Spelling spellings[] = {
        {"failed with cudaErrorIllegalAddress", "cudaErrorIllegalAddress",
         "an illegal memory access was encountered"},
        {"Error: CUDA driver error: file not found", "CUDA driver error", "file not found"},
        {"cublas call failed: CUBLAS_STATUS_EXECUTION_FAILED", "CUBLAS_STATUS_EXECUTION_FAILED",
         "CUBLAS_STATUS_EXECUTION_FAILED"},
        {"RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered",
         "Triton Error [CUDA]", "an illegal memory access was encountered"},  // Triton's launcher
    };
    for (const Spelling& spelling : spellings) {
      CAPTURE(spelling.line);
      const auto e = only_event(spelling.line);
      CHECK(e.kind == LogEventKind::cuda_error);
      CHECK(e.subject == spelling.subject);
      CHECK(e.value == spelling.value);
    }
  }
  SUBCASE("the enum type is not an error") {
    CHECK(scan_log_text("cudaError_t err = cudaGetLastError();", "log").events.empty());
  }
}

TEST_CASE("terminate, with and without what()") {
  SUBCASE("what() on the next line") {
    const auto scan = scan_log_text(
        "terminate called after throwing an instance of 'std::runtime_error'\n"
        "  what():  run_func_(...) API call failed at x.cpp, line 1\n",
        "log");
    const auto terminate = of_kind(scan, LogEventKind::terminate);
    REQUIRE(terminate.size() == 1);
    CHECK(terminate[0].subject == "std::runtime_error");
    CHECK(terminate[0].value == "run_func_(...) API call failed at x.cpp, line 1");
    CHECK(terminate[0].where.line == 1);
    CHECK(of_kind(scan, LogEventKind::api_call_failed).size() == 1);
  }
  SUBCASE("at the end of the log") {
    const auto e = only_event("terminate called after throwing an instance of 'c10::Error'");
    CHECK(e.subject == "c10::Error");
    CHECK(e.value.empty());
  }
  SUBCASE("without an exception") {
    const auto e = only_event("terminate called without an active exception\nsomething else\n");
    CHECK(e.kind == LogEventKind::terminate);
    CHECK(e.subject.empty());
  }
}

TEST_CASE("crashes") {
  CHECK(only_event("Segmentation fault (core dumped)").subject == "SIGSEGV");
  CHECK(only_event("Fatal Python error: Segmentation fault").value ==
        "Fatal Python error: Segmentation fault");
  CHECK(only_event("Caught signal 11 (SIGSEGV)").subject == "SIGSEGV");
  CHECK(only_event("Aborted (core dumped)").subject == "SIGABRT");
  CHECK(only_event("Bus error (core dumped)").subject == "SIGBUS");
  CHECK(scan_log_text("no Bus error here, just words", "log").events.empty());
  // faulthandler's report and the shell's are one crash.
  const auto scan = scan_log_text(
      "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f (most recent call "
      "first):\n"
      "  File \"run.py\", line 3 in <module>\nSegmentation fault (core dumped)\n",
      "log");
  REQUIRE(scan.events.size() == 1);
  CHECK(scan.events[0].kind == LogEventKind::segfault);
  CHECK(scan.events[0].repeats == 2);
}

TEST_CASE("index asserts in every form, from Triton and from C++ kernels") {
  SUBCASE("cpu-index-check: AOTI's `Error:` line, then the kernel and line the exception names") {
    const auto scan = scan_corpus("cpu-index-check", "output.txt");
    const auto asserts = of_kind(scan, LogEventKind::triton_assert);
    REQUIRE(asserts.size() == 1);
    const auto& e = asserts[0];
    CHECK(e.subject == "index out of bounds: 0 <= tmp7 < 1000L");
    CHECK(e.text == "Error: index out of bounds: 0 <= tmp7 < 1000L");
    CHECK(e.where.line == 2);
    CHECK(e.kernel == "cpp_fused_embedding_mul_0");
    CHECK(e.source_file.ends_with(
        "/ceyvpne66rufofnrfdiv6iv4b2bojgtpawe75dedzerzvgaxtziq.kernel.cpp"));
    CHECK(e.source_line == 26);
    // The failing run is reported by the runner too.
    CHECK(of_kind(scan, LogEventKind::api_call_failed).size() == 1);
  }
  SUBCASE("a vectorized check, and an expression bound (assert_forms.py `product` on CPU)") {
    const auto scan = scan_log_text(
        "Error: index out of bounds: 0 <= tmp10 < ks1*ks2\n"
        "Exception raised from cpp_fused_index_mul_view_0 at /tmp/assert_forms/product-cpu/cache/"
        "c3iw6l4artjbpzo3uebjmjtbnam7q5kdfklpw5evtgh5s7d2lt6g/"
        "cw4hq2wz7b4knh35ljm7eq7dmutbnpmhp2yvs4gfwvgizjrmaogk."
        "kernel.cpp:100 (most recent call first):\n",
        "log");
    REQUIRE(scan.events.size() == 1);
    CHECK(scan.events[0].subject == "index out of bounds: 0 <= tmp10 < ks1*ks2");
    CHECK(scan.events[0].kernel == "cpp_fused_index_mul_view_0");
    CHECK(scan.events[0].source_line == 100);
  }
  SUBCASE("torch.compile's C++ kernel: `RuntimeError: kernel, <file>:<line>, <message>`") {
    const auto scan = scan_log_text(
        "    cpp_fused_embedding_mul_0(primals_3, primals_1, buf0, s23)\n"
        "RuntimeError: kernel, "
        "/tmp/assert_forms/jitcache/u3/"
        "cu3qdqvfvenavgecyxvwbsejgeyyvywj3sjviabeycyiz7gb57qc.main.cpp:25, "
        "index out of bounds: 0 <= tmp7 < 1000L\n",
        "log");
    const auto asserts = of_kind(scan, LogEventKind::triton_assert);
    REQUIRE(asserts.size() == 1);
    CHECK(asserts[0].subject == "index out of bounds: 0 <= tmp7 < 1000L");
    CHECK(asserts[0].source_file ==
          "/tmp/assert_forms/jitcache/u3/"
          "cu3qdqvfvenavgecyxvwbsejgeyyvywj3sjviabeycyiz7gb57qc.main.cpp");
    CHECK(asserts[0].source_line == 25);
    CHECK(asserts[0].kernel.empty());
  }
  SUBCASE("Triton asserts with expression bounds are one event each, not two") {
    struct Bound {
      const char* line;
      const char* subject;
      int source_line;
    };
    const Bound bounds[] = {
        // flat-index-product-bound.
        {"/tmp/assert_forms/product-cuda/cache/cc/"
         "cccbpr2a2ohskttvdu64kofwr7dczzagqh3htuiprmob2e6ixm32.py:28: unknown: "
         "block: [0,0,0], thread: [1,0,0] Assertion `index out of bounds: 0 <= tmp4 < ks0*ks1` "
         "failed.",
         "index out of bounds: 0 <= tmp4 < ks0*ks1", 28},
        // A line posted in pytorch/torchtitan#1640 (rank-prefixed).
        {"[rank0]:/tmp/torchinductor_danvm/k4/"
         "ck46uf2tjbfns332dtzd3q3m2mgw2hoguozdpq5bvqyjhntqiu23.py:30: unknown: block: "
         "[24127,0,0], thread: [23,0,0] Assertion `index out of bounds: 0 <= tmp4 < 1 + ks0` "
         "failed.",
         "index out of bounds: 0 <= tmp4 < 1 + ks0", 30},
        // One side only (common.py's `cond_print = cond`).
        {"/k/c.py:35: unknown: block: [0,0,0], thread: [9,0,0] Assertion `index out of bounds: "
         "tmp6 < 1000` failed.",
         "index out of bounds: tmp6 < 1000", 35},
        {"/k/c.py:35: unknown: block: [0,0,0], thread: [9,0,0] Assertion `index out of bounds: 0 "
         "<= tmp6` failed.",
         "index out of bounds: 0 <= tmp6", 35},
    };
    for (const Bound& bound : bounds) {
      CAPTURE(bound.line);
      const auto e = only_event(bound.line);
      CHECK(e.kind == LogEventKind::triton_assert);
      CHECK(e.subject == bound.subject);
      CHECK(e.source_line == bound.source_line);
    }
  }
  SUBCASE("a C++ runner's terminate prints the message as what()") {
    const auto scan = scan_log_text(
        "terminate called after throwing an instance of 'c10::Error'\n"
        "  what():  index out of bounds: 0 <= tmp7 < ks0\n"
        "Exception raised from cpp_fused_index_put_0 at /tmp/x/cnfg.kernel.cpp:46 (most recent "
        "call first):\n",
        "log");
    const auto asserts = of_kind(scan, LogEventKind::triton_assert);
    REQUIRE(asserts.size() == 1);
    CHECK(asserts[0].kernel == "cpp_fused_index_put_0");
    CHECK(asserts[0].source_line == 46);
  }
  SUBCASE("texts that are not Inductor's index asserts") {
    CHECK(scan_log_text("thread 'main' panicked at src/lib.rs:9:5:\nindex out of bounds: the len "
                        "is 3 but the index is 4\n",
                        "log")
              .events.empty());
    // `Exception raised from` with no index check before it names nothing.
    CHECK(scan_log_text("Exception raised from f at /a.cpp:3 (most recent call first):\n", "log")
              .events.empty());
  }
}

TEST_CASE("sizes a run used: a printed torch.Size and ATen's resize warning") {
  // healthy-cuda-dynamic's stdout: the program printed the result of a batch of 4096.
  const auto printed =
      of_kind(scan_corpus("healthy-cuda-dynamic", "stdout.txt"), LogEventKind::observed_shape);
  REQUIRE(printed.size() == 1);
  CHECK(printed[0].problem == "printed");
  CHECK(printed[0].value == "4096, 8");
  CHECK(printed[0].where.line == 4);
  // A resize warning as a user posted it (a torch.nn.Linear output resized at run time).
  const LogEvent resized = only_event(
      "/site-packages/torch/nn/modules/linear.py:114: UserWarning: An output with one or more "
      "elements was resized "
      "since it had shape [210459, 256], which does not match the required output shape [256]. "
      "This behavior is "
      "deprecated, and in a future PyTorch release outputs will not be resized unless they have "
      "zero elements.");
  CHECK(resized.kind == LogEventKind::observed_shape);
  CHECK(resized.problem == "resized");
  CHECK(resized.expected == "210459, 256");
  CHECK(resized.value == "256");
}
