// util/demangle: demangled names for people.
#include <doctest/doctest.h>

#include "util/demangle.hpp"

using aoti::util::short_symbol;

TEST_CASE("short_symbol keeps the name a person reads") {
  // gdb's frame of a lambda inside a GCC clone (spconv issue 245): the function the lambda is in.
  CHECK(short_symbol("auto spconv::create_conv_indice_pair_p2_cuda(at::Tensor, std::vector<long, "
                     "std::allocator<long> >, bool)::{lambda(auto:1)#1}::operator()<int>(int) "
                     "const::{lambda(auto:1)#1}::operator()<std::integral_constant<int, 2> "
                     ">(std::integral_constant<int, 2>) const [clone .isra.0] [clone .cold]") ==
        "spconv::create_conv_indice_pair_p2_cuda");
  CHECK(short_symbol("foo::bar(int) [clone .constprop.0]") == "foo::bar");
  CHECK(short_symbol(
            "std::__detail::_Compiler<std::__cxx11::regex_traits<char> >::_M_disjunction()") ==
        "std::__detail::_Compiler::_M_disjunction");
  CHECK(short_symbol("void std::__detail::_Compiler<std::__cxx11::regex_traits<char> "
                     ">::_M_insert<false>(bool)") == "std::__detail::_Compiler::_M_insert");
  CHECK(short_symbol(
            "torch::aot_inductor::AOTInductorModel::run_impl(AtenTensorOpaque**, void*) const") ==
        "torch::aot_inductor::AOTInductorModel::run_impl");
  CHECK(short_symbol("operator new(unsigned long)") == "operator new");
  CHECK(short_symbol("cpp_fused_convolution_0") == "cpp_fused_convolution_0");
}

TEST_CASE("demangle: host and device symbols, and what is not one passes unchanged") {
  using aoti::util::demangle;
  CHECK(demangle("_Z19scatter_rows_kernelPKfPKlPfll") ==
        "scatter_rows_kernel(float const*, long const*, float*, long, long)");
  CHECK(demangle("_ZN2at6native4add_ERNS_6TensorE") == "at::native::add_(at::Tensor&)");
  CHECK(demangle("triton_poi_fused_embedding_0") == "triton_poi_fused_embedding_0");
  CHECK(demangle("_Znot a symbol") == "_Znot a symbol");
  // A hostile name the demangler would recurse into: left as it is.
  const std::string deep = "_Z" + std::string(8192, 'P') + "i";
  CHECK(demangle(deep) == deep);
}
