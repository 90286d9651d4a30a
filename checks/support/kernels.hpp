// Kernel launches and the range hazard: a fixed bound a kernel asserts on an index that follows a
// dynamic dim's size.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::checks {

// The kernel a wrapper defines under `name`; null when none.
const model::TritonKernel* find_kernel(const model::WrapperFacts& w, std::string_view name);
// The wrapper's launch of `kernel` (by its name or its launch name; the last launch when there are
// several); null when it has none.
const model::KernelCall* launch_of(const model::WrapperFacts& w, const model::TritonKernel& kernel);

// The package cubin entry whose size and CRC-32 are those of a GPU core's module: the same cubin.
// Null when no package in the case holds it (or the dump did not checksum the module).
const model::PackageEntry* package_cubin(const model::Case& c, const model::GpuModule& module);
// How many cubins the case's packages hold.
std::size_t package_cubin_count(const model::Case& c);
// The code a GPU fault is in was not compiled by any package of the case: with packages given, the
// module of `at` is none of their cubins (by size and CRC-32) and no wrapper defines its kernel.
// False when the dump did not say which module holds it.
bool outside_packages(const model::Case& c, const model::GpuCoreFacts& core,
                      const model::GpuCodeLocation& at);

// The model whose wrapper defines the kernel `name`, the kernel and its launch; all null when no
// model given defines it.
struct KernelSite {
  const model::ModelFacts* model = nullptr;
  const model::TritonKernel* kernel = nullptr;
  const model::KernelCall* call = nullptr;
};
KernelSite kernel_site(const model::Case& c, std::string_view name);

// The tensor a launch argument names: `(const int64_t*)(arg1_1.data_ptr())` -> "arg1_1".
std::string argument_name(std::string_view arg);

// The argument a kernel parameter received at its launch ("" if the parameter is not in the call).
std::string argument_for(const model::TritonKernel& kernel, const model::KernelCall& call,
                         std::string_view param);

// A fixed bound a kernel asserts on an index computed from a dynamic dim's size (`y0 = (yindex %
// ks0)`, ks0 bound at the launch to dim d of an input) while the input contract admits sizes above
// it.
struct RangeHazard {
  const model::TritonKernel* kernel = nullptr;
  const model::TritonAssert* assertion = nullptr;
  const model::KernelCall* call = nullptr;
  const model::SymbolBinding* binding = nullptr;
  int input_index = -1;
  std::string param;       // "ks0"
  std::string expression;  // "(yindex % ks0)"
  int expression_line = 0;
  std::int64_t bound = 0;  // 512
  std::int64_t min = 0;
  std::optional<std::int64_t> max;  // the contract's maximum; none: unbounded
  int max_line = 0;
  const model::WrapperConstant* table =
      nullptr;  // the constant the index addresses, with a dim of `bound`
};

std::vector<RangeHazard> unguarded_ranges(const model::WrapperFacts& w);

// What both the latent finding and the index-assert finding say of a hazard: the sentence, the
// quoted chain (index expression, bound, table rows, launch, binding, input check) and the fix.
std::string range_hazard_sentence(const model::WrapperFacts& w, const RangeHazard& r);

std::vector<model::Evidence> range_hazard_evidence(const model::WrapperFacts& w,
                                                   const RangeHazard& r);

model::NextStep range_hazard_fix(const model::WrapperFacts& w, const RangeHazard& r);

// Following a value through a kernel's body.
// The identifiers of an expression, once each, in order: `1 + ks0` -> ks0; `ks0*ks1` -> ks0, ks1.
std::vector<std::string> identifiers_in(std::string_view expr);
// The `tmpN` names an expression mentions, in order.
std::vector<std::string> temporaries_in(std::string_view expr);
// The load that defines `var` in `scope` (C++ kernels reuse tmp names in each loop nest).
const model::TritonLoad* load_of(const model::TritonKernel& kernel, const std::string& var,
                                 int scope);
// `var` and every temporary it is computed from, following assignments and stopping at loads.
std::set<std::string> derivation(const model::TritonKernel& kernel, const std::string& var,
                                 int scope);
// The loads the value of `var` is computed from, in line order.
std::vector<const model::TritonLoad*> index_sources(const model::TritonKernel& kernel,
                                                    const std::string& var, int scope);

// A read of one tensor at positions loaded from another: `tmp45 = tl.load(in_ptr6 + (tmp44))` where
// tmp44 is computed from `tmp40 = tl.load(in_ptr5 + (x0))` (an embedding's gather). The tensors are
// what the launch binds the two pointers to.
struct IndirectRead {
  const model::TritonLoad* access = nullptr;  // the read of the table
  const model::TritonLoad* index = nullptr;   // the load the position comes from
  std::string table_arg;                      // "bias_weight"
  std::string index_arg;                      // "arg9_1"
};
std::vector<IndirectRead> indirect_reads(const model::TritonKernel& kernel,
                                         const model::KernelCall& call);

// Wrapper symbols are `s77`, `u0`, `ks0`: anything else in a call argument is a constant or buffer.
bool is_size_symbol(std::string_view arg);

}  // namespace aoti::checks
