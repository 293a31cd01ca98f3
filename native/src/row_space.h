// hnswlib's space over the row store: an element's data is its 4-byte row id, and the distance reads the
// rows. Float32 rows: float_kernels.h's AVX2 + FMA kernels where the CPU has them, else hnswlib's own
// (L2Space, InnerProductSpace: SSE where hnswlib uses it).
// Int8 rows (int8_kernels.h): float values against a row's codes (asymmetric: the values keep their
// precision, prepared once for the scale: a search's query, or an insert's new row when its values are at
// hand, graph_insert.h), or a row against another row's codes (symmetric: both are codes). Float values
// come as a QueryRef instead of a row id: its first 4 bytes are kQueryId, which no row id reaches. Which format the rows are in is read per distance: a
// store quantized after a graph was built over its float rows goes on with the same graph.
#pragma once
#include <cmath>
#include <vector>
#include "hnswlib.h"
#include "float_kernels.h"
#include "int8_kernels.h"
#include "row_store.h"

namespace vdb {

constexpr uint32_t kQueryId = 0xffffffffu;

struct QueryRef {
  uint32_t id = kQueryId;
  const float* values = nullptr;
  float invNorm = 0;
  /** Int8 rows: the query prepared for the scale (q x step for dot products, q - lo for L2), and q . lo. */
  const float* prepared = nullptr;
  float base = 0;
};

/**
 * Float32 values made a QueryRef for the store's rows: their inverse norm (cosine), and with int8 rows the
 * values prepared for the scale. A search's query, and an insert's new row (asymmetric against codes).
 */
class FloatQuery {
 public:
  FloatQuery(const RowStore& rows, const float* values) {
    ref_.values = values;
    const uint32_t dim = rows.dim();
    if (rows.metric() == Metric::Cosine) {
      double sq = 0;
      for (uint32_t i = 0; i < dim; i++) sq += static_cast<double>(values[i]) * values[i];
      ref_.invNorm = sq > 0 ? static_cast<float>(1.0 / std::sqrt(sq)) : 0.0f;
    }
    if (!rows.int8()) return;
    prepared_.resize(dim);
    double base = 0;
    for (uint32_t i = 0; i < dim; i++) {
      prepared_[i] = rows.metric() == Metric::L2 ? values[i] - rows.lo()[i] : values[i] * rows.step()[i];
      base += static_cast<double>(values[i]) * rows.lo()[i];
    }
    ref_.prepared = prepared_.data();
    ref_.base = static_cast<float>(base);
  }
  FloatQuery(const FloatQuery&) = delete;
  FloatQuery& operator=(const FloatQuery&) = delete;

  const QueryRef& ref() const { return ref_; }

 private:
  QueryRef ref_;
  std::vector<float> prepared_;
};

struct SpaceParam {
  const RowStore* rows;
  hnswlib::DISTFUNC<float> kernel;
  void* kernelParam;
  bool cosine;
};

class RowSpace : public hnswlib::SpaceInterface<float> {
 public:
  RowSpace(const RowStore* rows)
      : l2_(rows->dim()), ip_(rows->dim()) {
    bool l2 = rows->metric() == Metric::L2;
    hnswlib::SpaceInterface<float>& inner = l2 ? static_cast<hnswlib::SpaceInterface<float>&>(l2_) : ip_;
    param_ = SpaceParam{rows, floatk::choose(l2, inner.get_dist_func()), inner.get_dist_func_param(), rows->metric() == Metric::Cosine};
  }
  size_t get_data_size() override { return sizeof(uint32_t); }
  hnswlib::DISTFUNC<float> get_dist_func() override { return &distance; }
  void* get_dist_func_param() override { return &param_; }

  static float distance(const void* a, const void* b, const void* p) {
    const SpaceParam* sp = static_cast<const SpaceParam*>(p);
    if (sp->rows->int8()) return int8Distance(sp, *static_cast<const uint32_t*>(a), *static_cast<const uint32_t*>(b), a, b);
    const float *va, *vb;
    float ia, ib;
    resolve(sp, a, va, ia);
    resolve(sp, b, vb, ib);
    float d = sp->kernel(va, vb, sp->kernelParam);
    // hnswlib's cosine is the inner product of normalised vectors: 1 - (1 - d) |a|^-1 |b|^-1 here.
    return sp->cosine ? 1.0f - (1.0f - d) * ia * ib : d;
  }

 private:
  /** The distance with int8 rows: hnswlib's formulas (1 - dot, 1 - cos, squared L2) on the decoded values. */
  static float int8Distance(const SpaceParam* sp, uint32_t ia, uint32_t ib, const void* a, const void* b) {
    const RowStore& rows = *sp->rows;
    const int8k::Kernels& k = int8k::kernels();
    const uint32_t dim = rows.dim();
    const Metric metric = rows.metric();
    if (ia == kQueryId || ib == kQueryId) {
      const QueryRef* q = static_cast<const QueryRef*>(ia == kQueryId ? a : b);
      uint32_t r = ia == kQueryId ? ib : ia;
      if (metric == Metric::L2) return k.l2(q->prepared, rows.codes(r), rows.step().data(), dim);
      float dot = q->base + k.dot(q->prepared, rows.codes(r), nullptr, dim);
      return metric == Metric::Cosine ? 1.0f - dot * q->invNorm * rows.invNorm(r) : 1.0f - dot;
    }
    if (metric == Metric::L2) return k.wL2(rows.w().data(), rows.codes(ia), rows.codes(ib), dim);
    // (lo + s ca) . (lo + s cb) = lo . lo + cross(a) + cross(b) + sum s^2 ca cb
    float dot = rows.loLo() + rows.cross(ia) + rows.cross(ib) + k.wDot(rows.w().data(), rows.codes(ia), rows.codes(ib), dim);
    return metric == Metric::Cosine ? 1.0f - dot * rows.invNorm(ia) * rows.invNorm(ib) : 1.0f - dot;
  }

  static inline void resolve(const SpaceParam* sp, const void* data, const float*& values, float& inv) {
    uint32_t id = *static_cast<const uint32_t*>(data);
    if (id == kQueryId) {
      const QueryRef* q = static_cast<const QueryRef*>(data);
      values = q->values;
      inv = q->invNorm;
    } else {
      values = sp->rows->row(id);
      inv = sp->cosine ? sp->rows->invNorm(id) : 1.0f;
    }
  }

  hnswlib::L2Space l2_;
  hnswlib::InnerProductSpace ip_;
  SpaceParam param_;
};

}  // namespace vdb
