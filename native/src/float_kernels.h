// The float32 rows' distance kernels (row_space.h), in hnswlib's DISTFUNC form (the dimension behind the
// third pointer, a size_t): 1 - dot and squared L2. hnswlib's own SSE kernels (what the addon gets without
// -mavx, as hnswlib-node is built) sum into one register, so a distance waits on a chain of dim / 4 adds
// (25 at 100 dimensions); these keep four AVX2 + FMA sums apart and read the last dim % 8 values with a
// masked load (any dimension, no scalar tail). Chosen once, at load, where the CPU has AVX2 and FMA and
// VECTORDB_NO_SIMD is not 1; else hnswlib's kernels. The sums' order differs from hnswlib's, so a distance
// may differ from its in the last bits (test/vector-index/native-float-kernels.test.ts: within float
// tolerance of a float64 sum at every dimension's remainder); our search and hnswlib's over our rows share
// the kernel, so their hits stay the same.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include "hnswlib.h"
#include "int8_kernels.h"

namespace vdb {
namespace floatk {

#ifdef VDB_X86_SIMD
/** Lanes 0..rest-1 of eight set: the masked load of a row's last rest (< 8) values. */
VDB_AVX2 inline __m256i tailMask(size_t rest) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(rest)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

VDB_AVX2 inline float dotAvx2(const float* a, const float* b, size_t n) {
  __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps(), s2 = _mm256_setzero_ps(), s3 = _mm256_setzero_ps();
  size_t d = 0;
  for (; d + 32 <= n; d += 32) {
    s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + d), _mm256_loadu_ps(b + d), s0);
    s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + d + 8), _mm256_loadu_ps(b + d + 8), s1);
    s2 = _mm256_fmadd_ps(_mm256_loadu_ps(a + d + 16), _mm256_loadu_ps(b + d + 16), s2);
    s3 = _mm256_fmadd_ps(_mm256_loadu_ps(a + d + 24), _mm256_loadu_ps(b + d + 24), s3);
  }
  for (; d + 8 <= n; d += 8) s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + d), _mm256_loadu_ps(b + d), s0);
  if (d < n) {
    const __m256i m = tailMask(n - d);
    s1 = _mm256_fmadd_ps(_mm256_maskload_ps(a + d, m), _mm256_maskload_ps(b + d, m), s1);
  }
  return int8k::hsum(_mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
}

VDB_AVX2 inline float l2Avx2(const float* a, const float* b, size_t n) {
  __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps(), s2 = _mm256_setzero_ps(), s3 = _mm256_setzero_ps();
  size_t d = 0;
  for (; d + 32 <= n; d += 32) {
    __m256 v0 = _mm256_sub_ps(_mm256_loadu_ps(a + d), _mm256_loadu_ps(b + d));
    __m256 v1 = _mm256_sub_ps(_mm256_loadu_ps(a + d + 8), _mm256_loadu_ps(b + d + 8));
    __m256 v2 = _mm256_sub_ps(_mm256_loadu_ps(a + d + 16), _mm256_loadu_ps(b + d + 16));
    __m256 v3 = _mm256_sub_ps(_mm256_loadu_ps(a + d + 24), _mm256_loadu_ps(b + d + 24));
    s0 = _mm256_fmadd_ps(v0, v0, s0);
    s1 = _mm256_fmadd_ps(v1, v1, s1);
    s2 = _mm256_fmadd_ps(v2, v2, s2);
    s3 = _mm256_fmadd_ps(v3, v3, s3);
  }
  for (; d + 8 <= n; d += 8) {
    __m256 v = _mm256_sub_ps(_mm256_loadu_ps(a + d), _mm256_loadu_ps(b + d));
    s0 = _mm256_fmadd_ps(v, v, s0);
  }
  if (d < n) {
    const __m256i m = tailMask(n - d);
    __m256 v = _mm256_sub_ps(_mm256_maskload_ps(a + d, m), _mm256_maskload_ps(b + d, m));
    s1 = _mm256_fmadd_ps(v, v, s1);
  }
  return int8k::hsum(_mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
}

VDB_AVX2 inline float ipDistanceAvx2(const void* a, const void* b, const void* dim) {
  return 1.0f - dotAvx2(static_cast<const float*>(a), static_cast<const float*>(b), *static_cast<const size_t*>(dim));
}
VDB_AVX2 inline float l2DistanceAvx2(const void* a, const void* b, const void* dim) {
  return l2Avx2(static_cast<const float*>(a), static_cast<const float*>(b), *static_cast<const size_t*>(dim));
}
#endif

/** The float32 kernel of a metric (l2: squared L2, else 1 - dot) on this CPU: ours with AVX2 + FMA, else `fallback` (hnswlib's). */
inline hnswlib::DISTFUNC<float> choose(bool l2, hnswlib::DISTFUNC<float> fallback) {
#ifdef VDB_X86_SIMD
  const char* off = std::getenv("VECTORDB_NO_SIMD");
  const bool allowed = off == nullptr || off[0] != '1';
  __builtin_cpu_init();
  if (allowed && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return l2 ? l2DistanceAvx2 : ipDistanceAvx2;
#endif
  return fallback;
}

}  // namespace floatk
}  // namespace vdb
