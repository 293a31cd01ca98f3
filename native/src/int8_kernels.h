// The int8 rows' distance kernels (row_space.h): sums over a row's uint8 codes, against a float query
// prepared for the row store's scale (asymmetric: searches) or against another row's codes (symmetric:
// inserts), with a per-dimension weight. AVX2 + FMA where the CPU has them (chosen once, at load), else
// plain loops; both sum in float (these only rank candidates: the engine rescores a shortlist exactly).
#pragma once
#include <cstdint>
#include <cstdlib>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define VDB_X86_SIMD 1
#endif

namespace vdb {
namespace int8k {

/** sum x[d] c[d] */
inline float dotScalar(const float* x, const uint8_t* c, const float*, uint32_t n) {
  float s = 0;
  for (uint32_t d = 0; d < n; d++) s += x[d] * static_cast<float>(c[d]);
  return s;
}
/** sum (x[d] - s[d] c[d])^2 */
inline float l2Scalar(const float* x, const uint8_t* c, const float* s, uint32_t n) {
  float t = 0;
  for (uint32_t d = 0; d < n; d++) {
    float v = x[d] - s[d] * static_cast<float>(c[d]);
    t += v * v;
  }
  return t;
}
/** sum w[d] a[d] b[d] */
inline float wDotScalar(const float* w, const uint8_t* a, const uint8_t* b, uint32_t n) {
  float s = 0;
  for (uint32_t d = 0; d < n; d++) s += w[d] * static_cast<float>(a[d] * b[d]);
  return s;
}
/** sum w[d] (a[d] - b[d])^2 */
inline float wL2Scalar(const float* w, const uint8_t* a, const uint8_t* b, uint32_t n) {
  float s = 0;
  for (uint32_t d = 0; d < n; d++) {
    float v = static_cast<float>(static_cast<int>(a[d]) - static_cast<int>(b[d]));
    s += w[d] * v * v;
  }
  return s;
}

#ifdef VDB_X86_SIMD
#define VDB_AVX2 __attribute__((target("avx2,fma")))

VDB_AVX2 inline __m256 load8(const uint8_t* c) {
  return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(c))));
}
VDB_AVX2 inline float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 0x55));
  return _mm_cvtss_f32(s);
}

VDB_AVX2 inline float dotAvx2(const float* x, const uint8_t* c, const float*, uint32_t n) {
  __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
  uint32_t d = 0;
  for (; d + 16 <= n; d += 16) {
    a0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + d), load8(c + d), a0);
    a1 = _mm256_fmadd_ps(_mm256_loadu_ps(x + d + 8), load8(c + d + 8), a1);
  }
  for (; d + 8 <= n; d += 8) a0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + d), load8(c + d), a0);
  return hsum(_mm256_add_ps(a0, a1)) + dotScalar(x + d, c + d, nullptr, n - d);
}
VDB_AVX2 inline float l2Avx2(const float* x, const uint8_t* c, const float* s, uint32_t n) {
  __m256 acc = _mm256_setzero_ps();
  uint32_t d = 0;
  for (; d + 8 <= n; d += 8) {
    __m256 v = _mm256_fnmadd_ps(_mm256_loadu_ps(s + d), load8(c + d), _mm256_loadu_ps(x + d));
    acc = _mm256_fmadd_ps(v, v, acc);
  }
  return hsum(acc) + l2Scalar(x + d, c + d, s + d, n - d);
}
VDB_AVX2 inline float wDotAvx2(const float* w, const uint8_t* a, const uint8_t* b, uint32_t n) {
  __m256 acc = _mm256_setzero_ps();
  uint32_t d = 0;
  for (; d + 8 <= n; d += 8) acc = _mm256_fmadd_ps(_mm256_loadu_ps(w + d), _mm256_mul_ps(load8(a + d), load8(b + d)), acc);
  return hsum(acc) + wDotScalar(w + d, a + d, b + d, n - d);
}
VDB_AVX2 inline float wL2Avx2(const float* w, const uint8_t* a, const uint8_t* b, uint32_t n) {
  __m256 acc = _mm256_setzero_ps();
  uint32_t d = 0;
  for (; d + 8 <= n; d += 8) {
    __m256 v = _mm256_sub_ps(load8(a + d), load8(b + d));
    acc = _mm256_fmadd_ps(_mm256_loadu_ps(w + d), _mm256_mul_ps(v, v), acc);
  }
  return hsum(acc) + wL2Scalar(w + d, a + d, b + d, n - d);
}
#endif

using QueryKernel = float (*)(const float*, const uint8_t*, const float*, uint32_t);
using PairKernel = float (*)(const float*, const uint8_t*, const uint8_t*, uint32_t);

struct Kernels {
  QueryKernel dot, l2;
  PairKernel wDot, wL2;
  const char* name;
};

inline Kernels choose() {
#ifdef VDB_X86_SIMD
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return {dotAvx2, l2Avx2, wDotAvx2, wL2Avx2, "avx2"};
#endif
  return {dotScalar, l2Scalar, wDotScalar, wL2Scalar, "scalar"};
}

/** The kernels of this CPU (VECTORDB_NO_SIMD=1: the plain loops, for tests of the fallback). */
inline const Kernels& kernels() {
  static const Kernels chosen = [] {
    const char* off = std::getenv("VECTORDB_NO_SIMD");
    if (off != nullptr && off[0] == '1') return Kernels{dotScalar, l2Scalar, wDotScalar, wL2Scalar, "scalar"};
    return choose();
  }();
  return chosen;
}

}  // namespace int8k
}  // namespace vdb
