// The log reader on stated failures around AOTI: compiler and linker diagnostics, compiler
// commands, loader errors, the AOTI runtime's error lines, whole Python tracebacks, draft_export's
// report. The lines are real: from corpus/wild (as users posted them) or in the formats of the
// tools that print them (GCC, Clang, binutils, glibc's dlerror, c10, CPython, torch.export).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "parsers/logs/failure_lines.hpp"
#include "tests/parsers_logs_support.hpp"

using namespace aoti::test::logs;
namespace logs = aoti::parsers::logs;

namespace {

LogScan scan_wild(const std::string& name) {
  return scan_log_text(
      aoti::test::read_file(aoti::test::corpus_dir() / "wild" / name / "stderr.txt"), name);
}

}  // namespace

TEST_CASE("compiler diagnostics, one line at a time") {
  SUBCASE("GCC: file, line, column, message") {
    const auto d = logs::compiler_diagnostic(
        "/tmp/cmezixbshurefmdsgmafaulooifjf4hu5ofsldijijfkuo5iwvvs.cpp:384:33: error: \xE2\x80\x98"
        "aoti_torch__embedding_bag\xE2\x80\x99 was not declared in this scope");
    REQUIRE(d);
    CHECK(d->problem == "compile error");
    CHECK(d->file == "/tmp/cmezixbshurefmdsgmafaulooifjf4hu5ofsldijijfkuo5iwvvs.cpp");
    CHECK(d->line == 384);
    CHECK(d->message.find("aoti_torch__embedding_bag") != std::string::npos);
  }
  SUBCASE("GCC's missing header, Clang's and MSVC's") {
    auto d = logs::compiler_diagnostic(
        "/usr/local/lib/python3.12/dist-packages/torch/include/torch/csrc/inductor/aoti_runtime/"
        "device_utils.h:14:10: "
        "fatal error: cuda.h: No such file or directory");
    REQUIRE(d);
    CHECK(d->problem == "missing header");
    CHECK(d->subject == "cuda.h");
    CHECK(d->line == 14);
    d = logs::compiler_diagnostic("/tmp/x.cpp:3:10: fatal error: 'omp.h' file not found");
    REQUIRE(d);
    CHECK(d->problem == "missing header");
    CHECK(d->subject == "omp.h");
    d = logs::compiler_diagnostic(
        "C:\\t\\x.cpp(4): fatal error C1083: Cannot open include file: 'Python.h': No such file or "
        "directory");
    REQUIRE(d);
    CHECK(d->problem == "missing header");
    CHECK(d->subject == "Python.h");
    CHECK(d->line == 4);
  }
  SUBCASE("the linker") {
    auto d =
        logs::compiler_diagnostic("/usr/bin/ld: cannot find -lcuda: No such file or directory");
    REQUIRE(d);
    CHECK(d->problem == "missing library");
    CHECK(d->subject == "-lcuda");
    d = logs::compiler_diagnostic("collect2: error: ld returned 1 exit status");
    REQUIRE(d);
    CHECK(d->problem == "link error");
    CHECK(d->tool == "collect2");
    d = logs::compiler_diagnostic(
        "/usr/bin/ld: x.o: in function `f': x.cpp:(.text+0x1f): undefined reference to "
        "`cudaMalloc'");
    REQUIRE(d);
    CHECK(d->problem == "undefined reference");
    CHECK(d->subject == "cudaMalloc");
  }
  SUBCASE("CUDA's tools, and nvcc's file(line)") {
    auto d = logs::compiler_diagnostic(
        "ptxas fatal   : PTX with .target 'sm_120a' cannot be compiled for architecture 'sm_120'");
    REQUIRE(d);
    CHECK(d->problem == "assembler error");
    CHECK(d->tool == "ptxas");
    d = logs::compiler_diagnostic("/tmp/k.cu(12): error: identifier \"foo\" is undefined");
    REQUIRE(d);
    CHECK(d->file == "/tmp/k.cu");
    CHECK(d->line == 12);
  }
  SUBCASE("what is not a compiler's") {
    CHECK_FALSE(logs::compiler_diagnostic("RuntimeError: CUDA error: out of memory"));
    CHECK_FALSE(logs::compiler_diagnostic(
        "/usr/bin/ld: warning: x.o: missing .note.GNU-stack section implies executable stack"));
    CHECK_FALSE(logs::compiler_diagnostic(
        "torch._inductor.exc.InductorError: CppCompileError: C++ compile error"));
    CHECK_FALSE(logs::compiler_diagnostic("ERROR: test_x (__main__.T.test_x)"));
    const auto bare = logs::compiler_diagnostic("error: invalid user-d");
    REQUIRE(bare);
    CHECK(bare->bare);  // a compiler's only when its source excerpt follows
  }
}

TEST_CASE("compiler commands") {
  auto c = logs::compiler_command(
      "g++ /tmp/torchinductor_u/ab/cabc.cpp -D TORCH_INDUCTOR_CPP_WRAPPER -shared -fPIC -O3 -o "
      "/tmp/torchinductor_u/ab/cabc.so");
  REQUIRE(c);
  CHECK(c->compiler == "g++");
  CHECK(c->source == "/tmp/torchinductor_u/ab/cabc.cpp");
  CHECK(c->output == "/tmp/torchinductor_u/ab/cabc.so");
  c = logs::compiler_command(
      "subprocess.CalledProcessError: Command '['nvcc', '-fatbin', '/tmp/a/k.ptx', '-o', "
      "'/tmp/a/k.fatbin']' returned "
      "non-zero exit status 255.");
  REQUIRE(c);
  CHECK(c->compiler == "nvcc");
  CHECK(c->source == "/tmp/a/k.ptx");
  CHECK(c->status == "255");
  CHECK(logs::compiler_command("+ x86_64-linux-gnu-g++-12 -c a.cpp -o a.o"));
  CHECK_FALSE(logs::compiler_command("gcc version 12.2.0 (Debian 12.2.0-14)"));
  CHECK_FALSE(logs::compiler_command("ccache is not installed"));
}

TEST_CASE("loader errors") {
  SUBCASE("undefined symbol, through ImportError") {
    const auto f = logs::load_failure(
        "ImportError: "
        "/usr/local/lib/python3.10/dist-packages/vllm/_C.cpython-310-x86_64-linux-gnu.so: "
        "undefined symbol: "
        "_ZN2at4_ops15to_dtype_layout4callE");
    REQUIRE(f);
    CHECK(f->problem == "undefined symbol");
    CHECK(f->library ==
          "/usr/local/lib/python3.10/dist-packages/vllm/_C.cpython-310-x86_64-linux-gnu.so");
    CHECK(f->detail == "_ZN2at4_ops15to_dtype_layout4callE");
  }
  SUBCASE("a symbol version, with the library that needs it") {
    const auto f = logs::load_failure(
        "OSError: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by "
        "/opt/m/model.so)");
    REQUIRE(f);
    CHECK(f->problem == "missing symbol version");
    CHECK(f->library == "/lib64/libstdc++.so.6");
    CHECK(f->detail == "GLIBCXX_3.4.32");
    CHECK(f->required_by == "/opt/m/model.so");
  }
  SUBCASE("a missing library, an ELF of another class, a missing op") {
    auto f = logs::load_failure(
        "OSError: libcudart.so.12: cannot open shared object file: No such file or directory");
    REQUIRE(f);
    CHECK(f->problem == "missing library");
    CHECK(f->detail == "libcudart.so.12");
    f = logs::load_failure("OSError: /m/lib32.so: wrong ELF class: ELFCLASS32");
    REQUIRE(f);
    CHECK(f->detail == "ELFCLASS32");
    f = logs::load_failure("Error: Could not find schema for mylib::custom_add.");
    REQUIRE(f);
    CHECK(f->problem == "missing op schema");
    CHECK(f->detail == "mylib::custom_add");
  }
  SUBCASE("a version error a paste broke over two lines") {
    const auto scan = scan_wild("mlverse-torch-866-glibcxx-too-old");
    const auto loads = of_kind(scan, LogEventKind::load_error);
    REQUIRE(loads.size() == 1);
    CHECK(loads[0].value == "GLIBCXX_3.4.20");
    CHECK(loads[0].subject == "/lib64/libstdc++.so.6");
    CHECK(loads[0].source_file ==
          "/home/R/x86_64-pc-linux-gnu-library/4.1/torch/lib/liblantern.so");
    CHECK(loads[0].detail.size() == 1);
  }
}

TEST_CASE("compiler output in a log: the include chain, the excerpt, a pasted bare error") {
  SUBCASE("a header error names the generated file that included it") {
    const auto scan = scan_wild("pytorch-150442-cuda-h-missing-ctk");
    const auto errors = of_kind(scan, LogEventKind::compile_error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].problem == "missing header");
    CHECK(errors[0].subject == "cuda.h");
    CHECK(errors[0].unit.ends_with("cmt6f253zl4hyovrmrmpja5p6g7cjd2i4ookgutf7baavulnnrc6.cpp"));
    REQUIRE(errors[0].detail.size() == 2);  // `   14 | #include <cuda.h>` and the caret line
    CHECK(errors[0].detail[0].find("14 | #include <cuda.h>") != std::string::npos);
  }
  SUBCASE("bare `error:` lines count once their source excerpt follows") {
    const auto scan = scan_wild("pytorch-122048-tensor-in-int-array");
    const auto errors = of_kind(scan, LogEventKind::compile_error);
    REQUIRE(errors.size() == 2);
    CHECK(errors[0].where.line == 3);
    CHECK(errors[0].detail.front().find("RAIIAtenTensorHandle") !=
          std::string::npos);  // the broken message's end
    CHECK(errors[0].detail[1].find("int_array_0") != std::string::npos);  // the excerpt
  }
  SUBCASE("lines behind a CI timestamp are read, and quoted as the log holds them") {
    const auto scan = scan_wild("rocm-docker-127-python-h-missing");
    const auto errors = of_kind(scan, LogEventKind::compile_error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].subject == "Python.h");
    CHECK(errors[0].source_file == "/tmp/tmpdebje0fu/main.c");
    CHECK(errors[0].text.starts_with("[2024-04-11T19:39:33.162Z] /tmp/tmpdebje0fu/main.c:4:10"));
  }
}

TEST_CASE(
    "a Python traceback is one event: frames, the user frame, the message, the end of the run") {
  const auto scan = scan_log_text(
      "Traceback (most recent call last):\n"                   // 1
      "  File \"/home/me/export.py\", line 77, in <module>\n"  // 2
      "    so_path = torch._export.aot_compile(\n"             // 3
      "              ^^^^^^^^^^^^^^^^^^^^^^^^^^\n"             // 4
      "  File \"/usr/lib/python3.11/site-packages/torch/_inductor/compile_fx.py\", line 1191, in "
      "compile_fx_aot\n"                                                       // 5
      "    assert os.path.exists(\n"                                           // 6
      "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"  // 7
      "LoweringException: NotImplementedError: no lowering\n"                  // 8
      "  target: aten.nonzero.default\n"                                       // 9
      "\n"                                                                     // 10
      "Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace\n",              // 11
      "log");
  const auto exceptions = of_kind(scan, LogEventKind::python_exception);
  REQUIRE(exceptions.size() == 1);
  const LogEvent& e = exceptions[0];
  CHECK(e.where.line == 7);
  CHECK(e.subject == "torch._dynamo.exc.BackendCompilerFailed");
  CHECK(e.final);
  REQUIRE(e.frames.size() == 2);
  CHECK(e.frames[0].file == "/home/me/export.py");
  CHECK(e.frames[0].line == 77);
  CHECK(e.frames[0].code == "so_path = torch._export.aot_compile(");  // not the caret line
  CHECK(e.frames[0].text == "File \"/home/me/export.py\", line 77, in <module>");
  CHECK(e.frames[1].function == "compile_fx_aot");
  CHECK(e.user_frame == 0);  // the innermost frame outside torch and site-packages
  REQUIRE(e.detail.size() >= 2);
  CHECK(e.detail[0] == "LoweringException: NotImplementedError: no lowering");
  CHECK(e.detail[1] == "  target: aten.nonzero.default");
}

TEST_CASE(
    "chained exceptions: the last one ended the run; a paste that starts at a frame is still "
    "read") {
  const auto scan = scan_wild("pytorch-134137-make-fx-specialized");
  const auto exceptions = of_kind(scan, LogEventKind::python_exception);
  REQUIRE(exceptions.size() == 2);
  CHECK(exceptions[0].subject == "torch.fx.experimental.symbolic_shapes.ConstraintViolationError");
  CHECK(exceptions[0].problem == "constraint violation");
  CHECK_FALSE(exceptions[0].final);
  REQUIRE(exceptions[0].frames.size() == 1);
  CHECK(exceptions[0].frames[0].function == "produce_guards");
  // The second traceback's exception line was cut off the paste: its frames remain, raised in
  // export, while handling the first.
  CHECK_FALSE(exceptions[1].complete);
  CHECK(exceptions[1].final);
  CHECK(exceptions[1].link == aoti::model::ExceptionLink::during_handling);
  CHECK(exceptions[1].chained_from_line == exceptions[0].where.line);
  CHECK(exceptions[1].raised_in == aoti::torch::Subsystem::export_);
  CHECK(exceptions[1].frames.back().function == "_export_to_torch_ir");

  const auto two = scan_log_text(
      "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nKeyError: 'x'\n\n"
      "During handling of the above exception, another exception occurred:\n\n"
      "Traceback (most recent call last):\n  File \"a.py\", line 3, in g\nRuntimeError: second\n",
      "log");
  const auto chain = of_kind(two, LogEventKind::python_exception);
  REQUIRE(chain.size() == 2);
  CHECK_FALSE(chain[0].final);
  CHECK(chain[1].final);
  CHECK(chain[0].detail.empty());  // the message stops at the chain's marker, blank lines dropped
}

TEST_CASE("the AOTI runtime's error lines and c10's native frames") {
  SUBCASE("`Error: <what>` before the failed runner call") {
    const auto scan = scan_wild("torchchat-1302-aot-load-cuda-oom");
    const auto cuda = of_kind(scan, LogEventKind::cuda_error);
    REQUIRE(cuda.size() == 1);
    CHECK(cuda[0].value == "out of memory");
    CHECK(cuda[0].where.line == 7);
    CHECK(of_kind(scan, LogEventKind::runtime_error)
              .empty());  // the line said something more specific
  }
  SUBCASE("the shim's exception keeps c10's `Exception raised from` and the frames after it") {
    const auto scan = scan_wild("pytorch-141042-segfault-other-gpu");
    const auto errors = of_kind(scan, LogEventKind::runtime_error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].problem == "shim exception");
    CHECK(errors[0].value == "Specified device cuda:1 does not match device of data cuda:0");
    CHECK(errors[0].source_file == "shim_common.cpp");
    CHECK(errors[0].source_line == 403);
    REQUIRE(errors[0].detail.size() == 1);
    CHECK(errors[0].detail[0].starts_with("Exception raised from make_tensor"));
    REQUIRE(errors[0].frames.size() == 5);
    CHECK(errors[0].frames[4].native);
    CHECK(errors[0].frames[4].function.find("load_constants") != std::string::npos);
  }
  SUBCASE("a debugger's backtrace belongs to the crash before it") {
    const auto scan = scan_wild("pytorch-124034-unaligned-constants-segv");
    const auto crashes = of_kind(scan, LogEventKind::segfault);
    REQUIRE(crashes.size() == 1);
    REQUIRE(!crashes[0].frames.empty());
    CHECK(crashes[0].frames[0].function.find("tinygemm_kernel<1, 64>") != std::string::npos);
  }
}

TEST_CASE("export's own reports and FX's node") {
  SUBCASE("draft_export's data-dependent error, with its user stack") {
    const auto scan = scan_wild("transformers-43631-distributions-dde-report");
    const auto events = of_kind(scan, LogEventKind::python_exception);
    REQUIRE(!events.empty());
    CHECK(events[0].problem == "data-dependent guard");
    CHECK(events[0].value == "Eq(u0, 1)");
    REQUIRE(events[0].frames.size() == 3);
    CHECK(events[0].frames[2].file.ends_with("time_series_utils.py"));
    CHECK(events[0].frames[2].line == 98);
    CHECK(events[0].frames[2].code == "return self.distribution_class(*distr_args)");
    CHECK(events[0].user_frame == 2);
  }
  SUBCASE("`While executing %node` names the line above as the error's message") {
    const auto scan = scan_wild("ao-1381-quant-bias-inplace-frozen");
    const auto events = of_kind(scan, LogEventKind::python_exception);
    REQUIRE(events.size() == 1);
    CHECK(events[0].where.line == 1);
    CHECK(events[0].value == "cannot mutate tensors with frozen storage");
    REQUIRE(events[0].detail.size() >= 2);
    CHECK(events[0].detail[0].empty());
    CHECK(events[0].detail[1].find("torch.ops.aten.add_.Tensor") != std::string::npos);
  }
}

TEST_CASE("strace: a failing mmap of a shared object's descriptor") {
  const auto scan = scan_wild("pytorch-145610-mmap-64k-pages");
  const auto loads = of_kind(scan, LogEventKind::load_error);
  REQUIRE(loads.size() == 1);
  CHECK(loads[0].problem == "mmap failed");
  CHECK(loads[0].subject == "/pytorch-llama/torchchat/exportedModels/llama3.1.so");
  CHECK(loads[0].value == "EINVAL");
  // A failing stat of a file that does not exist is a probe, not an event.
  CHECK(scan.events.size() == 1);
}

TEST_CASE("the compiler inside Triton crashing, and a compiler's error line posted alone") {
  // LLVM's report_fatal_error and a failed assert in LLVM's sources, as Triton's compile prints
  // them before the process aborts.
  const auto fatal =
      of_kind(scan_log_text("LLVM ERROR: Cannot select: 0x5611d8a0: i64 = NVPTXISD::Wrapper\n"
                            "Aborted (core dumped)\n",
                            "log"),
              LogEventKind::compile_error);
  REQUIRE(fatal.size() == 1);
  CHECK(fatal[0].problem == "compiler crash");
  const auto assert_failed =
      of_kind(scan_log_text(
                  "python: /root/.triton/llvm/llvm-1188b1ff-ubuntu-x64/include/llvm/Support/"
                  "Casting.h:566: decltype(auto) llvm::cast(const From&): Assertion `isa<To>(Val) "
                  "&& \"cast<Ty>() argument of incompatible type!\"' failed.\n",
                  "log"),
              LogEventKind::compile_error);
  REQUIRE(assert_failed.size() == 1);
  CHECK(assert_failed[0].problem == "compiler crash");
  CHECK(assert_failed[0].source_line == 566);
  // A host assert anywhere else is the crash's, not a compiler's.
  CHECK(
      of_kind(scan_log_text("python: /src/app.cpp:12: int main(): Assertion `x' failed.\n", "log"),
              LogEventKind::compile_error)
          .empty());
  // GCC's error line without its file or excerpt, the only line of the post: it quotes a name.
  const auto alone = of_kind(
      scan_log_text("error: 'aoti_torch_cpu__weight_int4pack_mm_cpu_tensor' was not declared in "
                    "this scope\n",
                    "log"),
      LogEventKind::compile_error);
  REQUIRE(alone.size() == 1);
  CHECK(alone[0].value.find("aoti_torch_cpu__weight_int4pack_mm_cpu_tensor") != std::string::npos);
  CHECK(of_kind(scan_log_text("error: subprocess-exited-with-error\n", "log"),
                LogEventKind::compile_error)
            .empty());
  // A preprocessor #error directive posted without the compiler's line above it (corpus/
  // wild-heldout-2, opened after its measurement); the compiler's own excerpt of one is not an
  // event of its own.
  const auto directive =
      of_kind(scan_log_text(
                  "#error C++17 or later compatible compiler is required to use PyTorch.\n", "log"),
              LogEventKind::compile_error);
  REQUIRE(directive.size() == 1);
  CHECK(directive[0].problem == "error directive");
  CHECK(directive[0].value.find("C++17") != std::string::npos);
  const auto excerpt = of_kind(
      scan_log_text("/usr/include/c10/macros/Macros.h:9:2: error: #error You need C++17 to compile "
                    "PyTorch\n    9 | #error You need C++17 to compile PyTorch\n      |  ^~~~~\n",
                    "log"),
      LogEventKind::compile_error);
  REQUIRE(excerpt.size() == 1);
  CHECK(excerpt[0].source_line == 9);
  // Beside another stated error it is not read as one.
  CHECK(of_kind(scan_log_text("#error no\nRuntimeError: something else\n", "log"),
                LogEventKind::compile_error)
            .empty());
}

TEST_CASE("a build failure seen only through setuptools' and pip's lines") {
  // corpus/wild-heldout (opened after its measurement): setuptools' bare `error:` naming the
  // compiler it could not run, then pip's summary; and a header error posted alone.
  const auto read = [](const std::string& name) {
    return scan_log_text(
        aoti::test::read_file(aoti::test::corpus_dir() / "wild-heldout" / name / "stderr.txt"),
        name);
  };
  auto wheel = of_kind(read("torchtitan-492-torchao-build-no-nvcc"), LogEventKind::compile_error);
  REQUIRE(wheel.size() == 2);
  // The bare line is committed when the log ends (no other error was stated): order by line.
  std::sort(wheel.begin(), wheel.end(),
            [](const LogEvent& a, const LogEvent& b) { return a.where.line < b.where.line; });
  CHECK(wheel[0].value.find("No such file or directory: '/usr/local/cuda/bin/nvcc'") !=
        std::string::npos);
  CHECK(wheel[1].problem == "compiler failed");
  CHECK(wheel[1].subject == "torchao");
  const auto header =
      of_kind(read("sglang-18644-python-h-missing-triton-jit"), LogEventKind::compile_error);
  REQUIRE(header.size() == 1);
  CHECK(header[0].problem == "missing header");
  CHECK(header[0].subject == "Python.h");
  // A harness's tag before vLLM's worker prefix is read through too.
  CHECK(of_kind(scan_log_text("[test 1] (EngineCore pid=2328) torch._inductor.exc.InductorError: "
                              "AssertionError:\n",
                              "log"),
                LogEventKind::python_exception)
            .size() == 1);
}
