// inductor.compile-failed: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/inductor/compile_failed.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("inductor.compile-failed") {
  SUBCASE("a lowering that failed: the op, its arguments and the exception") {
    const std::string log =
        "Traceback (most recent call last):\n"
        "  File \"/home/me/aot.py\", line 9, in <module>\n"
        "    torch._inductor.aoti_compile_and_package(ep)\n"
        "  File \"/usr/lib/python3.12/site-packages/torch/_inductor/graph.py\", line 1100, in "
        "call_function\n"
        "    raise LoweringException(e, target, args, kwargs).with_traceback(\n"
        "torch._inductor.exc.InductorError: LoweringException: AssertionError: unsupported dtype\n"
        "  target: aten.cumsum.default\n"
        "  args[0]: TensorBox(StorageBox(InputBuffer(name='arg0_1', layout=FixedLayout('cuda:0', "
        "torch.bool, size=[8, 16]))))\n";
    const auto found = analyze_log(log);
    REQUIRE(found.size() == 1);
    CHECK(found[0].check == "inductor.compile-failed");
    CHECK(found[0].title ==
          "Inductor failed to lower `aten.cumsum.default`: `LoweringException: AssertionError: "
          "unsupported dtype`");
    CHECK(mentions(found[0], "torch/_inductor/graph.py:1100"));
    check_quotes(found, log);
  }
  SUBCASE("an error raised inside torch/_inductor, named by its frame") {
    const auto found = analyze_wild("pytorch-129719-make-fx-non-tuple-output");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "inductor.compile-failed");
    CHECK(mentions(found[0], "compile_fx_aot"));
  }
  SUBCASE("a GPU too old for Triton") {
    const auto found = analyze_wild("nnunet-2188-gpu-too-old-for-triton");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "inductor.compile-failed");
  }
  SUBCASE("a C++ compile error wrapped by BackendCompilerFailed is the build's") {
    const auto found = analyze_log(
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
        "CppCompileError: C++ compile error\n");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "build.compile-failed");
    CHECK(!first_of(found, "inductor.compile-failed"));
  }
}

TEST_CASE("inductor.compile-failed: Triton rejecting a line of the kernel Inductor generated") {
  const auto found = analyze_wild("pytorch-104759-broadcast-to-constant-index");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "inductor.compile-failed");
  CHECK(mentions(found[0], "tmp3 = tl.broadcast_to(1, [XBLOCK, YBLOCK])"));
  CHECK(mentions(found[0], "AttributeError(\"'constexpr' object has no attribute 'type'\")"));
  check_quotes(found, read_file(corpus_dir() /
                                "wild/pytorch-104759-broadcast-to-constant-index/stderr.txt"));
}

TEST_CASE(
    "inductor.compile-failed: a subprocess's traceback cut off after the error that carries it") {
  const auto found = analyze_wild("pytorch-pr158277-flex-attention-sliced-blockmask-extra-strides");
  REQUIRE(!found.empty());
  const Finding& f = found[0];
  CHECK(f.check == "inductor.compile-failed");
  CHECK(f.title.find("SubprocException") != std::string::npos);
  CHECK(mentions(f, "_worker_compile_triton"));
  check_no_holes(f);
}

TEST_CASE("inductor.compile-failed: a traceback cut off in autotuning names the op lowering") {
  // nixpkgs#432046 as posted (its last lines): the paste stops inside select_algorithm's frames.
  const std::string prefix =
      "> [rank5]:   File \"/nix/store/9kyf-python3.13-torch-2.7.1/lib/python3.13/site-packages/"
      "torch/_inductor/";
  const auto found =
      analyze_log(prefix + "kernel/flex_attention.py\", line 1565, in flex_attention\n" +
                  "> [rank5]:     autotune_select_algorithm(\n" + prefix +
                  "select_algorithm.py\", line 2350, in autotune_select_algorithm\n" +
                  "> [rank5]:     return _ALGORITHM_SELECTOR_CACHE(*args, **kwargs)\n" + prefix +
                  "select_algorithm.py\", line 1985, in __call__\n" +
                  "> [rank5]:     timings = do_autotuning(precompile_fn)\n");
  REQUIRE(!found.empty());
  const Finding& f = found[0];
  CHECK(f.check == "inductor.compile-failed");
  CHECK(f.message.find("It was lowering `flex_attention` "
                       "(torch/_inductor/kernel/flex_attention.py:1565)") != std::string::npos);
  // The cut-off traceback's last line is a frame: not quoted as an exception.
  REQUIRE(!f.evidence.empty());
  CHECK(f.evidence[0].note == "the last line the log shows of the error (cut off after it)");
  for (const auto& e : f.evidence) CHECK(e.note != "the exception that stopped the compile");
}

TEST_CASE("inductor.compile-failed from Dynamo's graph-break record in torch's log format") {
  // prime-rl#999 as posted: a warning record (compile id `[5/0_2]` after the log prefix) whose
  // explanation says Inductor failed, and FX's node that was running; no exception line at all.
  const std::string prefix =
      "[rank0]:W0924 02:40:50.243000 546904 torch/_dynamo/exc.py:525] [5/0_2] ";
  const std::string log =
      prefix + "Backend compiler exception\n" + prefix +
      "  Explanation: Backend compiler `inductor` failed with aten._local_scalar_dense.default\n" +
      prefix + "\n" + prefix +
      "    While executing %item : [num_users=2] = call_method[target=item](args = (%getitem,), "
      "kwargs = {})\n";
  const auto found = analyze_log(log);
  REQUIRE(!found.empty());
  const Finding& f = found[0];
  CHECK(f.check == "inductor.compile-failed");
  CHECK(f.title.find("aten._local_scalar_dense.default") != std::string::npos);
  CHECK(f.message.find("the graph node `item`") != std::string::npos);
  CHECK(f.why.find("capture_scalar_outputs") != std::string::npos);
  CHECK(mentions(f, "While executing %item"));
  check_quotes(found, log);
}

TEST_CASE("inductor.compile-failed: pytest's E margin, a lowering's argument layouts") {
  const auto pytest = analyze_wild("pytorch-167187-triton36-kernelmetadata-no-cluster-dims");
  REQUIRE(!pytest.empty());
  CHECK(pytest[0].check == "inductor.compile-failed");
  CHECK(pytest[0].title ==
        "Inductor failed to compile the graph: `AttributeError: 'KernelMetadata' object has no "
        "attribute 'cluster_dims'`");
  const auto lowering = analyze_wild("sglang-16356-fp8-scale-rank-mismatch-scaled-mm");
  REQUIRE(!lowering.empty());
  CHECK(mentions(lowering[0], "size=[], stride=[]"));
  CHECK(lowering[0].message.find("the line Python shows for it") != std::string::npos);
}
