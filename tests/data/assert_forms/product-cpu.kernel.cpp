// Triton kernels are embedded as comments in /tmp/assert_forms/product-cpu/cache/c3iw6l4artjbpzo3uebjmjtbnam7q5kdfklpw5evtgh5s7d2lt6g/c5ro7mn6m7udmthtamngirtuglprmka2wjz3zdlbxj5ucxn3dnyk.wrapper.cpp

#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  cpp_fused_index_mul_view_0(const int64_t* in_ptr0,
                       const float* in_ptr1,
                       float* out_ptr0,
                       const int64_t ks0,
                       const int64_t ks1,
                       const int64_t ks2)
{
    {
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(16L))
        {
            {
                if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(16L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(16L))))))
                {
                    auto tmp0 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    auto tmp1 = ks1*ks2;
                    auto tmp2 = c10::convert<int64_t>(tmp1);
                    auto tmp3 = at::vec::VectorizedN<int64_t,2>(tmp2);
                    auto tmp4 = tmp0 + tmp3;
                    auto tmp5 = static_cast<int64_t>(0);
                    auto tmp6 = at::vec::VectorizedN<int64_t,2>(tmp5);
                    auto tmp7 = at::vec::VecMask<int64_t,2>(tmp0 < tmp6);
                    auto tmp8 = decltype(tmp4)::blendv(tmp0, tmp4, tmp7.template cast<int64_t,2>());
                    auto tmp9 =
                    [&]
                    {
                        __at_align__ std::array<int64_t, 16> tmpbuf;
                        tmp8.store(tmpbuf.data(), static_cast<int64_t>(16));
                        return tmpbuf;
                    }
                    ()
                    ;
                    auto tmp10 =
                    [&]
                    {
                        __at_align__ std::array<int64_t, 16> tmpbuf;
                        #pragma GCC unroll 16
                        for (long x0_inner = 0; x0_inner < static_cast<int64_t>(16); x0_inner++)
                        {
                            tmpbuf[x0_inner] = static_cast<int64_t>(tmp9[x0_inner]);
                        }
                        return at::vec::VectorizedN<int64_t,2>::loadu(tmpbuf.data(), static_cast<int64_t>(16));
                    }
                    ()
                    ;
                    AOTI_TORCH_CHECK((at::vec::VecMask<int64_t,2>((at::vec::VectorizedN<int64_t,2>(0) <= tmp10) & (tmp10 < at::vec::VectorizedN<int64_t,2>(ks1*ks2)))).all_masked(), "index out of bounds: 0 <= tmp10 < ks1*ks2");
                    auto tmp12 =
                    [&]
                    {
                        __at_align__ std::array<float, 16> tmpbuf;
                        #pragma GCC unroll 16
                        for (long x0_inner = 0; x0_inner < static_cast<int64_t>(16); x0_inner++)
                        {
                            tmpbuf[x0_inner] = in_ptr1[static_cast<int64_t>(tmp9[x0_inner])];
                        }
                        return at::vec::Vectorized<float>::loadu(tmpbuf.data(), static_cast<int64_t>(16));
                    }
                    ()
                    ;
                    auto tmp13 = static_cast<float>(2.0);
                    auto tmp14 = at::vec::Vectorized<float>(tmp13);
                    auto tmp15 = tmp12 * tmp14;
                    tmp15.store(out_ptr0 + static_cast<int64_t>(x0));
                }
                if(C10_UNLIKELY(x0 >= static_cast<int64_t>(16L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(16L)))) && x0 < static_cast<int64_t>(ks0)))
                {
                    auto tmp0 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-16L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(16L)))));
                    auto tmp1 = ks1*ks2;
                    auto tmp2 = c10::convert<int64_t>(tmp1);
                    auto tmp3 = at::vec::VectorizedN<int64_t,2>(tmp2);
                    auto tmp4 = tmp0 + tmp3;
                    auto tmp5 = static_cast<int64_t>(0);
                    auto tmp6 = at::vec::VectorizedN<int64_t,2>(tmp5);
                    auto tmp7 = at::vec::VecMask<int64_t,2>(tmp0 < tmp6);
                    auto tmp8 = decltype(tmp4)::blendv(tmp0, tmp4, tmp7.template cast<int64_t,2>());
                    auto tmp9 =
                    [&]
                    {
                        __at_align__ std::array<int64_t, 16> tmpbuf;
                        tmp8.store(tmpbuf.data(), static_cast<int64_t>(ks0 + (-16L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(16L)))));
                        return tmpbuf;
                    }
                    ()
                    ;
                    auto tmp10 =
                    [&]
                    {
                        __at_align__ std::array<int64_t, 16> tmpbuf;
                        #pragma GCC unroll 16
                        for (long x0_inner = 0; x0_inner < static_cast<int64_t>(ks0 + (-16L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(16L)))); x0_inner++)
                        {
                            tmpbuf[x0_inner] = static_cast<int64_t>(tmp9[x0_inner]);
                        }
                        return at::vec::VectorizedN<int64_t,2>::loadu(tmpbuf.data(), static_cast<int64_t>(ks0 + (-16L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(16L)))));
                    }
                    ()
                    ;
                    AOTI_TORCH_CHECK((at::vec::VecMask<int64_t,2>::set(at::vec::VecMask<int64_t,2>::from(1), (at::vec::VecMask<int64_t,2>((at::vec::VectorizedN<int64_t,2>(0) <= tmp10) & (tmp10 < at::vec::VectorizedN<int64_t,2>(ks1*ks2)))), static_cast<int64_t>(ks0 + (-16L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(16L)))))).all_masked(), "index out of bounds: 0 <= tmp10 < ks1*ks2");
                    auto tmp12 =
                    [&]
                    {
                        __at_align__ std::array<float, 16> tmpbuf;
                        #pragma GCC unroll 16
                        for (long x0_inner = 0; x0_inner < static_cast<int64_t>(ks0 + (-16L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(16L)))); x0_inner++)
                        {
                            tmpbuf[x0_inner] = in_ptr1[static_cast<int64_t>(tmp9[x0_inner])];
                        }
                        return at::vec::Vectorized<float>::loadu(tmpbuf.data(), static_cast<int64_t>(ks0 + (-16L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(16L)))));
                    }
                    ()
                    ;
                    auto tmp13 = static_cast<float>(2.0);
                    auto tmp14 = at::vec::Vectorized<float>(tmp13);
                    auto tmp15 = tmp12 * tmp14;
                    tmp15.store(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(ks0 + (-16L)*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(16L)))));
                }
            }
        }
    }
}

// Compile cmd
// /usr/bin/g++ /tmp/assert_forms/product-cpu/cache/c3iw6l4artjbpzo3uebjmjtbnam7q5kdfklpw5evtgh5s7d2lt6g/cw4hq2wz7b4knh35ljm7eq7dmutbnpmhp2yvs4gfwvgizjrmaogk.kernel.cpp -D TORCH_INDUCTOR_CPP_WRAPPER -D STANDALONE_TORCH_HEADER -D  C10_USING_CUSTOM_GENERATED_MACROS -D CPU_CAPABILITY_AVX512  -O3 -DNDEBUG -fno-trapping-math -funsafe-math-optimizations -ffinite-math-only -fno-signed-zeros -fno-math-errno -fno-finite-math-only -fno-unsafe-math-optimizations -ffp-contract=off -fexcess-precision=fast -fno-tree-loop-vectorize -march=native -fPIC -Wall -std=c++17 -Wno-unused-variable -Wno-unknown-pragmas -pedantic -fopenmp  -include /tmp/torchinductor_root/precompiled_headers/cwo2pwqzekof4n63ki74adhrrvw3l5wascdomfjsc5qyw3bg35xz.h -I/usr/include/python3.12 -I/opt/torch/.venv/lib/python3.12/site-packages/torch/include -I/opt/torch/.venv/lib/python3.12/site-packages/torch/include/torch/csrc/api/include   -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma -mavx512vnni -mavx512vl -mamx-tile -mamx-bf16 -mamx-int8 -mavx512bf16  -c -o /tmp/assert_forms/product-cpu/cache/c3iw6l4artjbpzo3uebjmjtbnam7q5kdfklpw5evtgh5s7d2lt6g/cw4hq2wz7b4knh35ljm7eq7dmutbnpmhp2yvs4gfwvgizjrmaogk.kernel.o
// Link cmd
// /usr/bin/g++ /tmp/assert_forms/product-cpu/cache/c3iw6l4artjbpzo3uebjmjtbnam7q5kdfklpw5evtgh5s7d2lt6g/c5ro7mn6m7udmthtamngirtuglprmka2wjz3zdlbxj5ucxn3dnyk.wrapper.o /tmp/assert_forms/product-cpu/cache/c3iw6l4artjbpzo3uebjmjtbnam7q5kdfklpw5evtgh5s7d2lt6g/cw4hq2wz7b4knh35ljm7eq7dmutbnpmhp2yvs4gfwvgizjrmaogk.kernel.o /tmp/assert_forms/product-cpu/cache/c3iw6l4artjbpzo3uebjmjtbnam7q5kdfklpw5evtgh5s7d2lt6g/c5ro7mn6m7udmthtamngirtuglprmka2wjz3zdlbxj5ucxn3dnyk/cgxre62qccm2hvjt32u3oobekucw5zks6ukxlzod6km7a4telymf.weights.o -D TORCH_INDUCTOR_CPP_WRAPPER -D STANDALONE_TORCH_HEADER -D  C10_USING_CUSTOM_GENERATED_MACROS -D CPU_CAPABILITY_AVX512  -O3 -DNDEBUG -fno-trapping-math -funsafe-math-optimizations -ffinite-math-only -fno-signed-zeros -fno-math-errno -fno-finite-math-only -fno-unsafe-math-optimizations -ffp-contract=off -fexcess-precision=fast -fno-tree-loop-vectorize -march=native -shared -fPIC -Wall -std=c++17 -Wno-unused-variable -Wno-unknown-pragmas -pedantic -fopenmp  -I/usr/include/python3.12 -I/opt/torch/.venv/lib/python3.12/site-packages/torch/include -I/opt/torch/.venv/lib/python3.12/site-packages/torch/include/torch/csrc/api/include   -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma -mavx512vnni -mavx512vl -mamx-tile -mamx-bf16 -mamx-int8 -mavx512bf16  -o /tmp/assert_forms/product-cpu/cache/c3iw6l4artjbpzo3uebjmjtbnam7q5kdfklpw5evtgh5s7d2lt6g/c5ro7mn6m7udmthtamngirtuglprmka2wjz3zdlbxj5ucxn3dnyk.wrapper.so  -ltorch -ltorch_cpu -lgomp  -L/usr/lib/x86_64-linux-gnu -L/opt/torch/.venv/lib/python3.12/site-packages/torch/lib 
