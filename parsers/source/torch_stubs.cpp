// The bundled torch declarations. Names, overloads and return types follow libtorch closely
// enough that the checks can tell `size` from `sym_size` and `at::empty` from `at::empty_symint`
// by the declaration a call resolves to; bodies are absent or trivial.
#include "parsers/source/torch_stubs.hpp"

#include <array>

namespace aoti::parsers::source {
namespace {

constexpr std::string_view k_stub_text = R"stub(
#pragma once
#pragma clang system_header
#if __has_include(<cstdint>)
#include <cstdint>
#endif
#if __has_include(<initializer_list>)
#include <initializer_list>
#endif
#if __has_include(<vector>)
#include <vector>
#include <string>
#include <optional>
#include <tuple>
#include <utility>
#include <cstring>
#include <unordered_map>
#include <map>
#include <memory>
#endif
typedef __INT64_TYPE__ int64_t;
typedef __INT32_TYPE__ int32_t;

namespace c10 {
template <class T> class ArrayRef {
 public:
  ArrayRef();
  ArrayRef(const T& one);
  ArrayRef(const T* data, __SIZE_TYPE__ n);
  ArrayRef(std::initializer_list<T> list);
#if __has_include(<vector>)
  template <class A> ArrayRef(const std::vector<T, A>& v);
#endif
  template <unsigned N> ArrayRef(const T (&array)[N]);
  __SIZE_TYPE__ size() const;
  const T* begin() const;
  const T* end() const;
  const T& operator[](__SIZE_TYPE__ i) const;
  bool equals(ArrayRef other) const;
  bool operator==(ArrayRef other) const;
  bool operator!=(ArrayRef other) const;
  const T& front() const;
  const T& back() const;
  bool empty() const;
  const T* data() const;
#if __has_include(<vector>)
  std::vector<T> vec() const;
#endif
  ArrayRef slice(__SIZE_TYPE__ n) const;
  ArrayRef slice(__SIZE_TYPE__ n, __SIZE_TYPE__ m) const;
};
template <class T, unsigned N> class SmallVector {
 public:
  SmallVector();
  SmallVector(std::initializer_list<T> list);
  template <class It> SmallVector(It first, It last);
  void push_back(const T& value);
  template <class... A> void emplace_back(A&&... a);
  __SIZE_TYPE__ size() const;
  T& operator[](__SIZE_TYPE__ i);
  T* begin();
  T* end();
  const T* begin() const;
  const T* end() const;
  T* data();
  template <class It> void insert(T* at, It first, It last);
  void insert(T* at, const T& value);
  void resize(__SIZE_TYPE__ n);
  void reserve(__SIZE_TYPE__ n);
  T& back();
  bool empty() const;
  operator ArrayRef<T>() const;
};
// c10::irange(n) / irange(a, b): the integers of a loop, of n's type.
template <class I> struct IntegerRange {
  struct iterator {
    I operator*() const;
    iterator& operator++();
    bool operator!=(const iterator& other) const;
  };
  iterator begin() const;
  iterator end() const;
};
template <class I> IntegerRange<I> irange(I end);
template <class I, class J> IntegerRange<I> irange(I begin, J end);
class SymBool {
 public:
  SymBool(bool b);
  bool expect_true(const char* file, int64_t line) const;
  bool guard_bool(const char* file, int64_t line) const;
  SymBool sym_and(const SymBool& other) const;
  SymBool sym_or(const SymBool& other) const;
  SymBool sym_not() const;
  explicit operator bool() const;
};
class SymInt {
 public:
  SymInt(int64_t value = 0);
  SymInt operator+(const SymInt& o) const;
  SymInt operator-(const SymInt& o) const;
  SymInt operator*(const SymInt& o) const;
  SymInt operator/(const SymInt& o) const;
  SymInt operator%(const SymInt& o) const;
  SymInt& operator+=(const SymInt& o);
  SymInt& operator-=(const SymInt& o);
  SymInt& operator*=(const SymInt& o);
  SymInt& operator/=(const SymInt& o);
  SymInt operator-() const;
  bool operator==(const SymInt& o) const;
  bool operator!=(const SymInt& o) const;
  bool operator<(const SymInt& o) const;
  bool operator<=(const SymInt& o) const;
  bool operator>(const SymInt& o) const;
  bool operator>=(const SymInt& o) const;
  SymBool sym_eq(const SymInt& o) const;
  SymBool sym_ne(const SymInt& o) const;
  SymBool sym_lt(const SymInt& o) const;
  SymBool sym_le(const SymInt& o) const;
  SymBool sym_gt(const SymInt& o) const;
  SymBool sym_ge(const SymInt& o) const;
  int64_t guard_int(const char* file, int64_t line) const;
  int64_t expect_int() const;
  bool is_symbolic() const;
  std::optional<int64_t> maybe_as_int() const;
};
inline SymBool sym_eq(const SymInt& a, const SymInt& b) { return a.sym_eq(b); }
inline SymBool sym_ne(const SymInt& a, const SymInt& b) { return a.sym_ne(b); }
inline SymBool sym_lt(const SymInt& a, const SymInt& b) { return a.sym_lt(b); }
inline SymBool sym_le(const SymInt& a, const SymInt& b) { return a.sym_le(b); }
inline SymBool sym_gt(const SymInt& a, const SymInt& b) { return a.sym_gt(b); }
inline SymBool sym_ge(const SymInt& a, const SymInt& b) { return a.sym_ge(b); }
SymInt sym_max(const SymInt& a, const SymInt& b);
SymInt sym_min(const SymInt& a, const SymInt& b);
bool guard_or_false(const SymBool& b, const char* file, int64_t line);
bool guard_or_true(const SymBool& b, const char* file, int64_t line);
bool guard_size_oblivious(const SymBool& b, const char* file, int64_t line);
using IntArrayRef = ArrayRef<int64_t>;
using SymIntArrayRef = ArrayRef<SymInt>;
using OptionalIntArrayRef = std::optional<IntArrayRef>;
using OptionalSymIntArrayRef = std::optional<SymIntArrayRef>;
using DimVector = SmallVector<int64_t, 5>;
using SymDimVector = SmallVector<SymInt, 5>;
template <class T> using optional = std::optional<T>;
inline constexpr std::nullopt_t nullopt = std::nullopt;
enum class ScalarType {
  Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16, Float8_e4m3fn, Float8_e5m2,
  Float8_e4m3fnuz, Float8_e5m2fnuz, QInt8, QUInt8, UInt16, UInt32, UInt64, ComplexFloat
};
struct Half { Half(float v = 0); operator float() const; };
struct BFloat16 { BFloat16(float v = 0); operator float() const; };
enum class Layout { Strided, Sparse };
enum class MemoryFormat { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };
enum class DeviceType { CPU, CUDA, Meta, XPU, PrivateUse1 };
enum class DispatchKey {
  CPU, CUDA, Meta, XPU, PrivateUse1, CompositeImplicitAutograd, CompositeExplicitAutograd,
  CompositeExplicitAutogradNonFunctional, Autograd, AutogradCPU, AutogradCUDA, BackendSelect,
  FuncTorchBatched, Functionalize, Python, CatchAll
};
class Device {
 public:
  Device(DeviceType type, int index = -1);
  Device(const std::string& spec);
  DeviceType type() const;
  bool is_cuda() const;
  bool is_cpu() const;
  bool is_meta() const;
};
class Scalar {
 public:
  Scalar(double v = 0);
  Scalar(int64_t v);
  Scalar(int v);
  Scalar(bool v);
  template <class T> T to() const;
  double toDouble() const;
  int64_t toLong() const;
};
class TensorOptions {
 public:
  TensorOptions();
  TensorOptions(ScalarType dtype);
  TensorOptions(DeviceType device);
  TensorOptions(Device device);
  TensorOptions dtype(ScalarType dtype) const;
  TensorOptions device(Device device) const;
  TensorOptions layout(Layout layout) const;
  TensorOptions requires_grad(bool r) const;
  TensorOptions pinned_memory(bool p = true) const;
  TensorOptions memory_format(MemoryFormat f) const;
  ScalarType dtype() const;
  Device device() const;
};
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kFloat8_e4m3fn = ScalarType::Float8_e4m3fn;
constexpr ScalarType kFloat8_e5m2 = ScalarType::Float8_e5m2;
constexpr ScalarType kQUInt8 = ScalarType::QUInt8;
namespace detail {
template <class... A> void torch_check(bool cond, const A&... message);
}  // namespace detail
}  // namespace c10

namespace at {
using c10::ArrayRef; using c10::IntArrayRef; using c10::SymIntArrayRef; using c10::SymInt;
using c10::SymBool; using c10::DimVector; using c10::SymDimVector; using c10::SmallVector;
using c10::OptionalIntArrayRef; using c10::OptionalSymIntArrayRef; using c10::ScalarType;
using c10::TensorOptions; using c10::Device; using c10::DeviceType; using c10::Scalar;
using c10::MemoryFormat; using c10::Layout;
using c10::kCPU; using c10::kCUDA; using c10::kMeta; using c10::kFloat; using c10::kHalf;
using c10::kBFloat16; using c10::kDouble; using c10::kLong; using c10::kInt; using c10::kBool;
using c10::kByte; using c10::kChar; using c10::kFloat8_e4m3fn; using c10::kFloat8_e5m2;
using c10::kQUInt8; using c10::Half; using c10::BFloat16; using c10::irange;
template <class T, int N> class TensorAccessor { public: T& operator[](int64_t i); };
class Tensor;
class TensorBase {
 public:
  int64_t dim() const;
  int64_t ndimension() const;
  int64_t size(int64_t dim) const;
  IntArrayRef sizes() const;
  int64_t numel() const;
  int64_t stride(int64_t dim) const;
  IntArrayRef strides() const;
  int64_t storage_offset() const;
  c10::SymInt sym_size(int64_t dim) const;
  c10::SymIntArrayRef sym_sizes() const;
  c10::SymInt sym_numel() const;
  c10::SymInt sym_stride(int64_t dim) const;
  c10::SymIntArrayRef sym_strides() const;
  c10::SymInt sym_storage_offset() const;
  bool is_contiguous(MemoryFormat format = MemoryFormat::Contiguous) const;
  bool defined() const;
  bool is_cuda() const;
  bool is_cpu() const;
  bool is_meta() const;
  ScalarType scalar_type() const;
  TensorOptions options() const;
  Device device() const;
  ScalarType dtype() const;
  void* data_ptr() const;
  template <class T> T* data_ptr() const;
  const void* const_data_ptr() const;
  template <class T> const T* const_data_ptr() const;
  void* mutable_data_ptr() const;
  template <class T> T* mutable_data_ptr() const;
  template <class T, int N> TensorAccessor<T, N> accessor() const;
  template <class T, int N> TensorAccessor<T, N> packed_accessor32() const;
  template <class T, int N> TensorAccessor<T, N> packed_accessor64() const;
};
class Tensor : public TensorBase {
 public:
  Tensor();
  Tensor(const Tensor& other);
  Tensor& operator=(const Tensor& other);
  Scalar item() const;
  template <class T> T item() const;
  Tensor cpu() const;
  Tensor cuda() const;
  Tensor to(Device device, bool non_blocking = false, bool copy = false) const;
  Tensor to(DeviceType device, bool non_blocking = false, bool copy = false) const;
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(TensorOptions options, bool non_blocking = false, bool copy = false) const;
  Tensor contiguous(MemoryFormat format = MemoryFormat::Contiguous) const;
  Tensor view(IntArrayRef size) const;
  Tensor view_symint(SymIntArrayRef size) const;
  Tensor reshape(IntArrayRef size) const;
  Tensor reshape_symint(SymIntArrayRef size) const;
  Tensor expand(IntArrayRef size, bool implicit = false) const;
  Tensor expand_symint(SymIntArrayRef size, bool implicit = false) const;
  Tensor new_empty(IntArrayRef size, TensorOptions options = {}) const;
  Tensor new_empty_symint(SymIntArrayRef size, TensorOptions options = {}) const;
  Tensor new_zeros(IntArrayRef size, TensorOptions options = {}) const;
  Tensor new_zeros_symint(SymIntArrayRef size, TensorOptions options = {}) const;
  Tensor transpose(int64_t a, int64_t b) const;
  Tensor t() const;
  Tensor permute(IntArrayRef dims) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor squeeze(int64_t dim) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor narrow_symint(int64_t dim, SymInt start, SymInt length) const;
  Tensor slice(int64_t dim, std::optional<int64_t> start = {}, std::optional<int64_t> end = {}, int64_t step = 1) const;
  Tensor index_select(int64_t dim, const Tensor& index) const;
  Tensor sum(int64_t dim, bool keepdim = false) const;
  Tensor sum() const;
  Tensor mean() const;
  Tensor matmul(const Tensor& other) const;
  Tensor clone() const;
  Tensor detach() const;
  Tensor relu() const;
  Tensor copy_(const Tensor& src, bool non_blocking = false);
  Tensor& zero_();
  Tensor& fill_(const Scalar& value);
  Tensor operator[](int64_t index) const;
  Tensor operator-() const;
};
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, const Scalar& b);
Tensor operator-(const Tensor& a, const Scalar& b);
Tensor operator*(const Tensor& a, const Scalar& b);
Tensor operator/(const Tensor& a, const Scalar& b);
Tensor empty(IntArrayRef size, TensorOptions options = {}, std::optional<MemoryFormat> format = std::nullopt);
Tensor empty_symint(SymIntArrayRef size, TensorOptions options = {}, std::optional<MemoryFormat> format = std::nullopt);
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options = {});
Tensor empty_strided_symint(SymIntArrayRef size, SymIntArrayRef stride, TensorOptions options = {});
Tensor zeros(IntArrayRef size, TensorOptions options = {});
Tensor zeros_symint(SymIntArrayRef size, TensorOptions options = {});
Tensor ones(IntArrayRef size, TensorOptions options = {});
Tensor ones_symint(SymIntArrayRef size, TensorOptions options = {});
Tensor full(IntArrayRef size, const Scalar& value, TensorOptions options = {});
Tensor full_symint(SymIntArrayRef size, const Scalar& value, TensorOptions options = {});
Tensor rand(IntArrayRef size, TensorOptions options = {});
Tensor randn(IntArrayRef size, TensorOptions options = {});
Tensor empty_like(const Tensor& self, TensorOptions options = {}, std::optional<MemoryFormat> format = std::nullopt);
Tensor zeros_like(const Tensor& self, TensorOptions options = {});
Tensor ones_like(const Tensor& self, TensorOptions options = {});
Tensor full_like(const Tensor& self, const Scalar& value, TensorOptions options = {});
Tensor matmul(const Tensor& a, const Tensor& b);
Tensor cat(ArrayRef<Tensor> tensors, int64_t dim = 0);
Tensor stack(ArrayRef<Tensor> tensors, int64_t dim = 0);
Tensor relu(const Tensor& self);
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);
using TensorList = ArrayRef<Tensor>;
template <class F> void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& f);
}  // namespace at

namespace torch {
using at::Tensor; using at::IntArrayRef; using at::SymIntArrayRef; using c10::SymInt;
using at::TensorOptions; using at::ScalarType; using at::Device; using at::DeviceType;
using at::Scalar;
using at::empty; using at::empty_symint; using at::zeros; using at::zeros_symint; using at::ones;
using at::ones_symint; using at::full; using at::full_symint; using at::empty_like;
using at::zeros_like; using at::ones_like; using at::empty_strided; using at::empty_strided_symint;
using at::rand; using at::randn; using at::cat; using at::stack; using at::matmul;
using c10::kCPU; using c10::kCUDA; using c10::kMeta; using c10::kFloat; using c10::kHalf;
using c10::kBFloat16; using c10::kDouble; using c10::kLong; using c10::kInt; using c10::kBool;
constexpr c10::ScalarType kFloat32 = c10::ScalarType::Float;
constexpr c10::ScalarType kFloat16 = c10::ScalarType::Half;
constexpr c10::ScalarType kInt64 = c10::ScalarType::Long;
constexpr c10::ScalarType kInt32 = c10::ScalarType::Int;
class CppFunction {
 public:
  template <class F> explicit CppFunction(F&& f) {}
};
template <class F> CppFunction dispatch(c10::DispatchKey key, F&& f) { return CppFunction(f); }
template <class F> CppFunction dispatch(c10::DeviceType type, F&& f) { return CppFunction(f); }
#if __has_include(<unordered_map>)
namespace autograd {
using variable_list = std::vector<at::Tensor>;
struct AutogradContext {
  std::unordered_map<std::string, c10::Scalar> saved_data;
  template <class... A> void save_for_backward(A&&... a);
  variable_list get_saved_variables() const;
};
template <class T> struct Function {
  template <class... A> static variable_list apply(A&&... a);
};
}  // namespace autograd
#endif
class Library {
 public:
  // Defined, so that lambdas (types without linkage) can be passed without an error.
  template <class... A> Library& def(A&&... args) & { return *this; }
  template <class... A> Library& impl(A&&... args) & { return *this; }
  template <class... A> Library& fallback(A&&... args) & { return *this; }
};
}  // namespace torch

// The registration macros become functions; the reader takes the namespace and dispatch key
// from the macro invocation's text, as it does with real torch headers.
#define TORCH_SELECTIVE_SCHEMA(s) s
#define TORCH_SELECTIVE_NAME(s) s
#define AOTI_STUB_CAT_(a, b) a##b
#define AOTI_STUB_CAT(a, b) AOTI_STUB_CAT_(a, b)
#define TORCH_LIBRARY(ns, m) \
  static void AOTI_STUB_CAT(aoti_torch_library__##ns##__, __COUNTER__)(torch::Library & m)
#define TORCH_LIBRARY_FRAGMENT(ns, m) \
  static void AOTI_STUB_CAT(aoti_torch_library_fragment__##ns##__, __COUNTER__)(torch::Library & m)
#define TORCH_LIBRARY_IMPL(ns, k, m) \
  static void AOTI_STUB_CAT(aoti_torch_library_impl__##ns##__##k##__, __COUNTER__)(torch::Library & m)
#define TORCH_FN(f) (f)
#define TORCH_CHECK(cond, ...) ::c10::detail::torch_check((cond), ##__VA_ARGS__)
#define TORCH_SYM_CHECK(cond, ...) TORCH_CHECK((cond).expect_true(__FILE__, __LINE__), ##__VA_ARGS__)
#define TORCH_INTERNAL_ASSERT(cond, ...) ::c10::detail::torch_check((cond), ##__VA_ARGS__)
#define TORCH_CHECK_VALUE(cond, ...) ::c10::detail::torch_check((cond), ##__VA_ARGS__)
#define TORCH_CHECK_EQ(a, b) TORCH_CHECK((a) == (b))
#define TORCH_CHECK_NE(a, b) TORCH_CHECK((a) != (b))
#define TORCH_CHECK_LT(a, b) TORCH_CHECK((a) < (b))
#define TORCH_CHECK_LE(a, b) TORCH_CHECK((a) <= (b))
#define TORCH_CHECK_GT(a, b) TORCH_CHECK((a) > (b))
#define TORCH_CHECK_GE(a, b) TORCH_CHECK((a) >= (b))
#define TORCH_WARN(...) ((void)0)
#define C10_UNUSED [[maybe_unused]]
#define PYBIND11_MODULE(name, m) static void aoti_pybind11_module_##name(void* m)
#define TORCH_EXTENSION_NAME aoti_extension
#define AT_DISPATCH_FLOATING_TYPES(type, name, ...) [&] { using scalar_t = float; return __VA_ARGS__(); }()
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(type, name, ...) [&] { using scalar_t = float; return __VA_ARGS__(); }()
#define AT_DISPATCH_ALL_TYPES(type, name, ...) [&] { using scalar_t = float; return __VA_ARGS__(); }()
#ifdef __CUDACC__
#define __global__ __attribute__((global))
#elif !defined(__CUDA__)
#define __global__
#define __device__
#define __host__
#define __shared__
#define __forceinline__ inline
#endif
)stub";

constexpr std::array<StubFile, 12> k_files{{
    {"/aoti-analyze-stubs/torch/extension.h", k_stub_text},
    {"/aoti-analyze-stubs/torch/library.h", "#include <torch/extension.h>\n"},
    {"/aoti-analyze-stubs/torch/torch.h", "#include <torch/extension.h>\n"},
    {"/aoti-analyze-stubs/torch/all.h", "#include <torch/extension.h>\n"},
    {"/aoti-analyze-stubs/torch/script.h", "#include <torch/extension.h>\n"},
    {"/aoti-analyze-stubs/ATen/ATen.h", "#include <torch/extension.h>\n"},
    {"/aoti-analyze-stubs/ATen/Tensor.h", "#include <torch/extension.h>\n"},
    {"/aoti-analyze-stubs/ATen/core/Tensor.h", "#include <torch/extension.h>\n"},
    {"/aoti-analyze-stubs/ATen/core/op_registration/op_registration.h",
     "#include <torch/extension.h>\n"},
    {"/aoti-analyze-stubs/c10/core/SymInt.h", "#include <torch/extension.h>\n"},
    {"/aoti-analyze-stubs/c10/core/SymIntArrayRef.h", "#include <torch/extension.h>\n"},
    {"/aoti-analyze-stubs/c10/util/ArrayRef.h", "#include <torch/extension.h>\n"},
}};

}  // namespace

std::span<const StubFile> stub_files() { return k_files; }

}  // namespace aoti::parsers::source
