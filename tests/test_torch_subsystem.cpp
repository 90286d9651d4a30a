// torch/subsystem and torch/error_messages: who raised an error, from frame paths as real logs
// print them (corpus/wild posts: pip, conda, Debian's dist-packages, Windows, source checkouts).
#include <doctest/doctest.h>

#include "torch/error_messages.hpp"
#include "torch/subsystem.hpp"

using namespace aoti::torch;

TEST_CASE("a frame's subsystem from its path and function") {
  CHECK(subsystem_of("/usr/local/lib/python3.12/dist-packages/torch/fx/experimental/sym_node.py",
                     "guard_bool") == Subsystem::symbolic_shapes);
  CHECK(subsystem_of("/usr/local/lib/python3.12/dist-packages/torch/__init__.py", "__bool__") ==
        Subsystem::symbolic_shapes);
  CHECK(subsystem_of("/usr/local/lib/python3.12/dist-packages/torch/__init__.py",
                     "_load_global_deps") == Subsystem::torch_other);
  CHECK(subsystem_of(".venv/lib/python3.10/site-packages/torch/_inductor/lowering.py",
                     "embedding") == Subsystem::inductor_lowering);
  CHECK(subsystem_of("/data/users/x/pytorch/torch/_inductor/async_compile.py", "triton") ==
        Subsystem::inductor);
  CHECK(subsystem_of(
            "Y:\\ComfyUI\\python_embeded\\Lib\\site-packages\\torch\\_dynamo\\output_graph.py",
            "call_user_compiler") == Subsystem::dynamo);
  CHECK(subsystem_of("/x/site-packages/torch/_inductor/package/package.py", "load_package") ==
        Subsystem::aoti_package);
  CHECK(subsystem_of("/x/site-packages/triton/backends/nvidia/compiler.py", "make_cubin") ==
        Subsystem::triton_compile);
  CHECK(subsystem_of("/x/site-packages/triton/compiler/compiler.py", "_init_handles") ==
        Subsystem::kernel_load);
  CHECK(subsystem_of("/x/site-packages/triton/runtime/jit.py", "run") == Subsystem::triton_runtime);
  // Triton's frontend rejects the kernel Inductor generated: code generation's failure.
  CHECK(
      subsystem_of("D:\\ComfyUI\\python_embeded\\Lib\\site-packages\\triton\\language\\semantic.py",
                   "cast") == Subsystem::inductor_codegen);
  CHECK(subsystem_of("/x/site-packages/transformers/modeling_rope_utils.py", "wrapper") ==
        Subsystem::third_party);
  CHECK(subsystem_of("/home/me/.conda/envs/x/lib/python3.11/ctypes/__init__.py", "__init__") ==
        Subsystem::python_runtime);
  CHECK(subsystem_of("/home/me/export.py", "<module>") == Subsystem::user);
  CHECK(subsystem_of("<frozen importlib._bootstrap>", "_call_with_frames_removed") ==
        Subsystem::unknown);
  // A user's folder that only ends in "torch" is not torch.
  CHECK(subsystem_of("/home/me/mytorch/model.py", "forward") == Subsystem::user);
  // Code Inductor generated: its cache folder, or its code-hash file names wherever they are.
  CHECK(subsystem_of("/tmp/torchinductor_me/7q/"
                     "c7qimro7rryowl6fbgxobggppym6ux4mwk4x5htmdqso66ydxlb3.py",
                     "call") == Subsystem::generated);
  CHECK(
      is_generated_file("/cache/ab/cabcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrs.main.cpp"));
  CHECK(is_generated_file("/tmp/torchinductor_root/xy/triton_poi_fused_0.py"));
  CHECK_FALSE(is_generated_file("/home/me/cache.py"));
  CHECK_FALSE(
      is_generated_file("/home/me/c7qimro7rryowl6fbgxobggppym6ux4mwk4x5htmdqso66yDXLB3.py"));
  CHECK(is_framework_file("/tmp/torchinductor_me/7q/c7q.py"));
  CHECK(is_torch(Subsystem::inductor_build));
  CHECK_FALSE(is_torch(Subsystem::third_party));
}

TEST_CASE("torch's exception classes, module-qualified or bare") {
  CHECK(subsystem_of_exception("torch._dynamo.exc.Unsupported") == Subsystem::dynamo);
  CHECK(subsystem_of_exception("Unsupported") == Subsystem::dynamo);
  CHECK(subsystem_of_exception("torch._inductor.exc.InductorError") == Subsystem::inductor);
  CHECK(subsystem_of_exception("LoweringException") == Subsystem::inductor_lowering);
  CHECK(subsystem_of_exception("torch._inductor.exc.CppCompileError") == Subsystem::inductor_build);
  CHECK(
      subsystem_of_exception("torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode") ==
      Subsystem::symbolic_shapes);
  CHECK(subsystem_of_exception("torch._subclasses.fake_tensor.UnsupportedOperatorException") ==
        Subsystem::fake_tensor);
  CHECK(subsystem_of_exception("ValueError") == Subsystem::unknown);
  CHECK(subsystem_of_exception("transformers.SomeError") == Subsystem::unknown);
}

TEST_CASE("what torch's messages state") {
  CHECK(problem_in_message("Could not guard on data-dependent expression Eq(u2, 1)") ==
        "data-dependent guard");
  CHECK(problem_in_message("There was no fake impl registered for <CustomOpDef(ns::op)>") ==
        "missing fake");
  CHECK(problem_in_message("Operator does not support running with fake tensors\n  Developer debug "
                           "context: unsupported operator: corpus.row_scale.default") ==
        "missing fake");
  CHECK(problem_in_message("Operator does not support running with fake tensors") == "");
  CHECK(problem_in_message("list index out of range") == "");
  CHECK(subsystem_of_message("RuntimeError: Triton only support CUDA 10.0 or higher, but got CUDA "
                             "version: 12.8") == Subsystem::triton_compile);
  CHECK(subsystem_of_message("RuntimeError: list index out of range") == Subsystem::unknown);
}

TEST_CASE("custom ops among FX call targets") {
  CHECK(is_custom_op_target("torch.ops.corpus.row_scale.default"));
  CHECK(is_custom_op_target("torch.ops.torchvision.nms.default"));
  CHECK_FALSE(is_custom_op_target("torch.ops.aten.linear.default"));
  CHECK_FALSE(is_custom_op_target("torch.ops.higher_order.cond"));
  CHECK_FALSE(is_custom_op_target("operator.getitem"));
}
