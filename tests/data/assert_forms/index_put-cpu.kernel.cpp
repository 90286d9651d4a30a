// Triton kernels are embedded as comments in /tmp/assert_forms/index_put-cpu/cache/cwuqgwnbo7nqukni4guxfgc4uuc2mliw2zhig6n43ylfkshfuy4q/cx6nv5azeaae5vtapwecwahpdizo4iz7fnh5wasvh5vscfpevbz6.wrapper.cpp

#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  cpp_fused_index_put_0(const float* in_ptr0,
                       const int64_t* in_ptr1,
                       const float* in_ptr2,
                       float* out_ptr0,
                       const int64_t ks0,
                       const int64_t ks1)
{
    {
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(8L*ks0); x0+=static_cast<int64_t>(16L))
        {
            {
                if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(16L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(2L))))))
                {
                    auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    tmp0.store(out_ptr0 + static_cast<int64_t>(x0));
                }
                if(C10_UNLIKELY(x0 >= static_cast<int64_t>(16L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(2L)))) && x0 < static_cast<int64_t>(8L*ks0)))
                {
                    auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>((-16L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(2L))) + 8L*ks0));
                    tmp0.store(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>((-16L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(2L))) + 8L*ks0));
                }
            }
        }
    }
    {
        #pragma GCC ivdep
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks1); x0+=static_cast<int64_t>(1L))
        {
            for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(8L); x1+=static_cast<int64_t>(16L))
            {
                {
                    if(C10_LIKELY(x1 >= static_cast<int64_t>(0L) && x1 < static_cast<int64_t>(8L)))
                    {
                        auto tmp0 = in_ptr1[static_cast<int64_t>(x0)];
                        auto tmp9 = at::vec::Vectorized<float>::loadu(in_ptr2 + static_cast<int64_t>(x1 + 8L*x0), static_cast<int64_t>(8L));
                        auto tmp1 = ks0;
                        auto tmp2 = c10::convert<int64_t>(tmp1);
                        auto tmp3 = int64_t(tmp0 + tmp2);
                        auto tmp4 = tmp0 < 0;
                        auto tmp5 = tmp4 ? tmp3 : tmp0;
                        auto tmp6 = tmp5;
                        auto tmp7 = c10::convert<int64_t>(tmp6);
                        AOTI_TORCH_CHECK((0 <= tmp7) & (tmp7 < ks0), "index out of bounds: 0 <= tmp7 < ks0");
                        auto tmp10 = x1 + 8L*tmp5;
                        auto tmp11 = c10::convert<int64_t>(tmp10);
                        auto tmp12 = at::vec::VectorizedN<int64_t,2>::arange(tmp11, 1);
                        atomic_add_vec<float, 2, 1>(out_ptr0, tmp12, tmp9, static_cast<int64_t>(8L));
                    }
                }
            }
        }
    }
}

// Compile cmd
// /usr/bin/g++ /tmp/assert_forms/index_put-cpu/cache/cwuqgwnbo7nqukni4guxfgc4uuc2mliw2zhig6n43ylfkshfuy4q/cnfgdbyezl4ao4otxlj4zm2jwexdkjewbg47uvty7xeayq7cfjrt.kernel.cpp -D TORCH_INDUCTOR_CPP_WRAPPER -D STANDALONE_TORCH_HEADER -D  C10_USING_CUSTOM_GENERATED_MACROS -D CPU_CAPABILITY_AVX512  -O3 -DNDEBUG -fno-trapping-math -funsafe-math-optimizations -ffinite-math-only -fno-signed-zeros -fno-math-errno -fno-finite-math-only -fno-unsafe-math-optimizations -ffp-contract=off -fexcess-precision=fast -fno-tree-loop-vectorize -march=native -fPIC -Wall -std=c++17 -Wno-unused-variable -Wno-unknown-pragmas -pedantic -fopenmp  -include /tmp/torchinductor_root/precompiled_headers/cwo2pwqzekof4n63ki74adhrrvw3l5wascdomfjsc5qyw3bg35xz.h -I/usr/include/python3.12 -I/opt/torch/.venv/lib/python3.12/site-packages/torch/include -I/opt/torch/.venv/lib/python3.12/site-packages/torch/include/torch/csrc/api/include   -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma -mavx512vnni -mavx512vl -mamx-tile -mamx-bf16 -mamx-int8 -mavx512bf16  -c -o /tmp/assert_forms/index_put-cpu/cache/cwuqgwnbo7nqukni4guxfgc4uuc2mliw2zhig6n43ylfkshfuy4q/cnfgdbyezl4ao4otxlj4zm2jwexdkjewbg47uvty7xeayq7cfjrt.kernel.o
// Link cmd
// /usr/bin/g++ /tmp/assert_forms/index_put-cpu/cache/cwuqgwnbo7nqukni4guxfgc4uuc2mliw2zhig6n43ylfkshfuy4q/cx6nv5azeaae5vtapwecwahpdizo4iz7fnh5wasvh5vscfpevbz6.wrapper.o /tmp/assert_forms/index_put-cpu/cache/cwuqgwnbo7nqukni4guxfgc4uuc2mliw2zhig6n43ylfkshfuy4q/cnfgdbyezl4ao4otxlj4zm2jwexdkjewbg47uvty7xeayq7cfjrt.kernel.o /tmp/assert_forms/index_put-cpu/cache/cwuqgwnbo7nqukni4guxfgc4uuc2mliw2zhig6n43ylfkshfuy4q/cx6nv5azeaae5vtapwecwahpdizo4iz7fnh5wasvh5vscfpevbz6/cgxre62qccm2hvjt32u3oobekucw5zks6ukxlzod6km7a4telymf.weights.o -D TORCH_INDUCTOR_CPP_WRAPPER -D STANDALONE_TORCH_HEADER -D  C10_USING_CUSTOM_GENERATED_MACROS -D CPU_CAPABILITY_AVX512  -O3 -DNDEBUG -fno-trapping-math -funsafe-math-optimizations -ffinite-math-only -fno-signed-zeros -fno-math-errno -fno-finite-math-only -fno-unsafe-math-optimizations -ffp-contract=off -fexcess-precision=fast -fno-tree-loop-vectorize -march=native -shared -fPIC -Wall -std=c++17 -Wno-unused-variable -Wno-unknown-pragmas -pedantic -fopenmp  -I/usr/include/python3.12 -I/opt/torch/.venv/lib/python3.12/site-packages/torch/include -I/opt/torch/.venv/lib/python3.12/site-packages/torch/include/torch/csrc/api/include   -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma -mavx512vnni -mavx512vl -mamx-tile -mamx-bf16 -mamx-int8 -mavx512bf16  -o /tmp/assert_forms/index_put-cpu/cache/cwuqgwnbo7nqukni4guxfgc4uuc2mliw2zhig6n43ylfkshfuy4q/cx6nv5azeaae5vtapwecwahpdizo4iz7fnh5wasvh5vscfpevbz6.wrapper.so  -ltorch -ltorch_cpu -lgomp  -L/usr/lib/x86_64-linux-gnu -L/opt/torch/.venv/lib/python3.12/site-packages/torch/lib 
