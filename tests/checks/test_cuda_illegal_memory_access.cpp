// cuda.illegal-memory-access: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/cuda/illegal_memory_access.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("cuda.illegal-memory-access") {
  Case c = cuda_case();
  c.models[0].wrapper->kernel_calls.push_back({"triton_poi_fused_add_0", {"arg0_1"}, {}, {}, 300});
  c.log_events.push_back(
      event(LogEventKind::cuda_error, "", "an illegal memory access was encountered"));
  const auto found = run_check<CudaIllegalMemoryAccessCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "triton_poi_fused_add_0"));
  CHECK(mentions(found[0], "CUDA_LAUNCH_BLOCKING=1"));
  CHECK(run_check<CudaIllegalMemoryAccessCheck>(corpus("embedding-device-assert")).empty());
}

TEST_CASE("cuda.illegal-memory-access from a GPU core dump: the kernel, line, access and tensors") {
  const auto found = run_check<CudaIllegalMemoryAccessCheck>(corpus("embedding-ima-gpu-core"));
  REQUIRE(found.size() == 1);
  const auto& f = found[0];
  CHECK(f.severity == Severity::error);
  CHECK(f.explains_failure);
  CHECK(f.title.find("Warp Illegal Address in `triton_poi_fused_embedding_0` at line 33") == 0);
  // The faulting line, quoted from the wrapper; the table it addresses; the input of its offset.
  bool quoted_line = false;
  for (const auto& e : f.evidence)
    quoted_line = quoted_line || (e.kind == EvidenceKind::quote &&
                                  e.excerpt ==
                                      "tmp5 = tl.load(in_ptr1 + (x1 + 64*tmp4), xmask & "
                                      "ymask)");
  CHECK(quoted_line);
  CHECK(mentions(f, "`emb.weight`"));
  CHECK(mentions(f, "model input 0 `arg3_1` (your `ids`)"));
  CHECK(mentions(f, "block (0,1,0) thread (96,0,0)"));
  CHECK(mentions(f, "assert_indirect_indexing"));
  CHECK(mentions(f, "thread 455 of pid 435 launched grid 2442"));
  // The dump names the kernel: no step asks to re-run to find it.
  for (const auto& step : f.next_steps)
    CHECK(step.command.find("AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=3") ==
          std::string::npos);
  // Without the GPU core the same case has no CUDA error line: no finding from logs alone.
  Case no_dump = corpus("embedding-ima-gpu-core");
  no_dump.gpu_cores.clear();
  CHECK(run_check<CudaIllegalMemoryAccessCheck>(no_dump).empty());
}

TEST_CASE("cuda.illegal-memory-access: the printer's last launch of the same run corroborates") {
  const auto found = run_check<CudaIllegalMemoryAccessCheck>(corpus("printer3-two-towers-ima"));
  REQUIRE(found.size() == 1);
  CHECK(found[0].title.find("`triton_poi_fused_embedding_0`") != std::string::npos);
  CHECK(mentions(found[0], "[ before_launch: triton_poi_fused_embedding_0 ]"));
  CHECK(mentions(found[0], "`users.weight`"));
  CHECK(mentions(found[0], "your `user_ids`"));
}

TEST_CASE("cuda.illegal-memory-access from a library's own CUDA check names its native frames") {
  const auto found = analyze_wild("k2-859-out-of-bounds-read-ima");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "cuda.illegal-memory-access");
  CHECK(mentions(found[0], "`k2::RowSplitsToRowIds(k2::Array1<int> const&, k2::Array1<int>*)`"));
  CHECK(mentions(found[0], "in libk2context.so"));
  // The error printer's own frame (GetStackTrace in libk2_log.so) is not named as where it was.
  CHECK(found[0].message.find("GetStackTrace") == std::string::npos);
}

TEST_CASE("cuda.illegal-memory-access: a library's own report and torch's, one finding") {
  const auto found = analyze_wild("flashinfer-1928-trtllm-gen-uninitialized-int-workspace");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "cuda.illegal-memory-access");
  CHECK(mentions(found[0], "fmhaKernels.cuh"));
  CHECK(mentions(found[0], "workspace_buffer"));
  std::size_t ima = 0;
  for (const auto& f : found) ima += f.check == "cuda.illegal-memory-access";
  CHECK(ima == 1);
}

TEST_CASE(
    "cuda.illegal-memory-access raised while Inductor ran its compiled graph, not a compile") {
  // torchdynamo#1821 as posted: the IMA surfaced in cudagraphify's warm-up run of the compiled
  // module, at its next allocation. A kernel faulted; Inductor's frames are only who launched it.
  const auto found = analyze_log(
      "Traceback (most recent call last):\n"
      "  File \"/scratch/u/pytorch/torch/_inductor/compile_fx.py\", line 257, in "
      "cudagraphify_impl\n"
      "    model(list(static_inputs))\n"
      "  File \"/tmp/torchinductor_u/7q/c7qimro7rryowl6fbgxobggppym6ux4mwk4x5htmdqso66ydxlb3.py\", "
      "line 691, in call\n"
      "    buf3 = empty_strided((4096, 64, 56, 56), (200704, 3136, 56, 1), device='cuda', "
      "dtype=torch.int64)\n"
      "RuntimeError: CUDA error: an illegal memory access was encountered\n");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "cuda.illegal-memory-access");
  CHECK(mentions(found[0], "buf3 = empty_strided((4096, 64, 56, 56)"));
  CHECK(found[0].message.find("the code Inductor generated (`call`, line 691") !=
        std::string::npos);
  // The generated module is not the user's own code.
  for (const auto& e : found[0].evidence) CHECK(e.note.find("your own code") == std::string::npos);
  for (const auto& f : found) CHECK(f.check != "inductor.compile-failed");
}
