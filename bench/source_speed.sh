#!/bin/sh
# Times the source reader on a generated 5,000-line extension source (ops, meta kernels calling
# helpers, CPU kernels, registrations). Fails when one read takes 2 seconds or more.
#   bench/source_speed.sh BUILD_DIR
set -eu
build=${1:?usage: source_speed.sh BUILD_DIR}
limit=${LIMIT_SECONDS:-2}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
src=$scratch/big_ops.cpp

# 200 ops x 25 lines: a helper, a meta kernel (half of them SymInt-unaware), a CPU kernel.
awk 'BEGIN {
  print "#include <torch/extension.h>";
  print "#include <vector>";
  for (i = 0; i < 200; i++) {
    printf "static int64_t rows_%d(const at::Tensor& x) {\n  return x.size(0) + %d;\n}\n", i, i;
    if (i % 2 == 0) {
      printf "at::Tensor op_%d_meta(const at::Tensor& x, int64_t n) {\n", i;
      printf "  int64_t r = rows_%d(x);\n  std::vector<int64_t> shape{r, x.size(1) * n};\n", i;
      printf "  TORCH_CHECK(x.sizes() == x.sizes(), \"same\");\n  return at::empty(shape, x.options());\n}\n";
    } else {
      printf "at::Tensor op_%d_meta(const at::Tensor& x, c10::SymInt n) {\n", i;
      printf "  c10::SymDimVector shape{x.sym_size(0), x.sym_size(1) * n};\n";
      printf "  TORCH_SYM_CHECK(x.sym_size(0).sym_ge(1), \"rows\");\n  return at::empty_symint(shape, x.options());\n}\n";
    }
    printf "at::Tensor op_%d_cpu(const at::Tensor& x, int64_t n) {\n", i;
    printf "  auto out = at::empty({x.size(0), x.size(1) * n}, x.options());\n";
    printf "  const float* p = x.data_ptr<float>();\n  float* o = out.data_ptr<float>();\n";
    printf "  for (int64_t j = 0; j < x.numel(); ++j) o[j] = p[j] * 2.0f;\n";
    printf "  int64_t total = 0;\n  for (int64_t r = 0; r < x.size(0); ++r) {\n";
    printf "    total += r %% 3;\n  }\n  (void)total;\n";
    printf "  // the real kernel may read data and concrete sizes\n  return out;\n}\n";
    printf "TORCH_LIBRARY_FRAGMENT(bench, m) { m.def(\"op_%d(Tensor x, SymInt n) -> Tensor\"); }\n", i;
    printf "TORCH_LIBRARY_IMPL(bench, Meta, m) { m.impl(\"op_%d\", op_%d_meta); }\n", i, i;
    printf "TORCH_LIBRARY_IMPL(bench, CPU, m) { m.impl(\"op_%d\", op_%d_cpu); }\n\n", i, i;
  }
}' > "$src"

lines=$(wc -l < "$src")
out=$("$build/source_bench" "$src")
seconds=$(printf '%s\n' "$out" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
echo "source_speed: $lines lines: $out"
if awk -v s="$seconds" -v l="$limit" 'BEGIN { exit !(s >= l) }'; then
  echo "source_speed: FAIL: ${seconds}s >= ${limit}s" >&2
  exit 1
fi
