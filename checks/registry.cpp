#include "checks/registry.hpp"

#include "checks/api/deprecated.hpp"
#include "checks/build/compile_failed.hpp"
#include "checks/cuda/device_exception.hpp"
#include "checks/cuda/illegal_memory_access.hpp"
#include "checks/customop/fake_mismatch.hpp"
#include "checks/customop/fake_missing.hpp"
#include "checks/customop/fake_not_symint.hpp"
#include "checks/customop/fake_static_shape.hpp"
#include "checks/customop/kernel_crash.hpp"
#include "checks/customop/meta_not_symint.hpp"
#include "checks/device/constant_placement.hpp"
#include "checks/device/input_mismatch.hpp"
#include "checks/device/load_mismatch.hpp"
#include "checks/error/unclassified.hpp"
#include "checks/export/failed.hpp"
#include "checks/inductor/compile_failed.hpp"
#include "checks/load/library_failed.hpp"
#include "checks/numerics/nan_inf.hpp"
#include "checks/runtime/api_call_failed.hpp"
#include "checks/runtime/cxx_runtime_conflict.hpp"
#include "checks/runtime/openmp_conflict.hpp"
#include "checks/runtime/runner_error.hpp"
#include "checks/shape/data_dependent_guard.hpp"
#include "checks/shape/dim_specialized.hpp"
#include "checks/shape/input_checks_off.hpp"
#include "checks/shape/input_contract_violation.hpp"
#include "checks/shape/lower_bound_missing.hpp"
#include "checks/shape/unguarded_range.hpp"
#include "checks/triton/index_out_of_bounds.hpp"

namespace aoti::checks {

const std::vector<std::unique_ptr<Check>>& all_checks() {
  static const std::vector<std::unique_ptr<Check>> checks = [] {
    std::vector<std::unique_ptr<Check>> list;
    list.push_back(std::make_unique<DeviceLoadMismatchCheck>());
    list.push_back(std::make_unique<DeviceInputMismatchCheck>());
    list.push_back(std::make_unique<DeviceConstantPlacementCheck>());
    list.push_back(std::make_unique<ShapeInputChecksOffCheck>());
    list.push_back(std::make_unique<ShapeInputContractViolationCheck>());
    list.push_back(std::make_unique<ShapeDimSpecializedCheck>());
    list.push_back(std::make_unique<ShapeDataDependentGuardCheck>());
    list.push_back(std::make_unique<ShapeLowerBoundMissingCheck>());
    list.push_back(std::make_unique<ShapeUnguardedRangeCheck>());
    list.push_back(std::make_unique<CustomopFakeStaticShapeCheck>());
    list.push_back(std::make_unique<CustomopKernelCrashCheck>());
    list.push_back(std::make_unique<CustomopMetaNotSymintCheck>());
    list.push_back(std::make_unique<CustomopFakeNotSymintCheck>());
    list.push_back(std::make_unique<CustomopFakeMissingCheck>());
    list.push_back(std::make_unique<CustomopFakeMismatchCheck>());
    list.push_back(std::make_unique<TritonIndexOutOfBoundsCheck>());
    list.push_back(std::make_unique<CudaIllegalMemoryAccessCheck>());
    list.push_back(std::make_unique<RuntimeCxxRuntimeConflictCheck>());
    list.push_back(std::make_unique<RuntimeApiCallFailedCheck>());
    list.push_back(std::make_unique<ApiDeprecatedCheck>());
    list.push_back(std::make_unique<BuildCompileFailedCheck>());
    list.push_back(std::make_unique<LoadLibraryFailedCheck>());
    list.push_back(std::make_unique<ExportFailedCheck>());
    list.push_back(std::make_unique<InductorCompileFailedCheck>());
    list.push_back(std::make_unique<RuntimeRunnerErrorCheck>());
    list.push_back(std::make_unique<RuntimeOpenmpConflictCheck>());
    list.push_back(std::make_unique<NumericsNanInfCheck>());
    list.push_back(std::make_unique<CudaDeviceExceptionCheck>());
    list.push_back(std::make_unique<ErrorUnclassifiedCheck>());
    return list;
  }();
  return checks;
}

const Check* find_check(std::string_view id) {
  for (const auto& check : all_checks())
    if (check->id() == id) return check.get();
  return nullptr;
}

std::span<const CheckInfo> check_infos() {
  static const std::vector<CheckInfo> infos = [] {
    std::vector<CheckInfo> list;
    for (const auto& check : all_checks()) list.push_back(check->info());
    return list;
  }();
  return infos;
}

}  // namespace aoti::checks
