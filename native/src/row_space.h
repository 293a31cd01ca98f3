// hnswlib's space over the row store: an element's data is its 4-byte row id, and the distance reads the
// rows, computed by hnswlib's own kernels (L2Space, InnerProductSpace: SSE/AVX where hnswlib uses them).
// A search passes a QueryRef instead: its first 4 bytes are kQueryId, which no row id reaches.
#pragma once
#include "hnswlib.h"
#include "row_store.h"

namespace vdb {

constexpr uint32_t kQueryId = 0xffffffffu;

struct QueryRef {
  uint32_t id = kQueryId;
  const float* values = nullptr;
  float invNorm = 0;
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
    param_ = SpaceParam{rows, inner.get_dist_func(), inner.get_dist_func_param(), rows->metric() == Metric::Cosine};
  }
  size_t get_data_size() override { return sizeof(uint32_t); }
  hnswlib::DISTFUNC<float> get_dist_func() override { return &distance; }
  void* get_dist_func_param() override { return &param_; }

  static float distance(const void* a, const void* b, const void* p) {
    const SpaceParam* sp = static_cast<const SpaceParam*>(p);
    const float *va, *vb;
    float ia, ib;
    resolve(sp, a, va, ia);
    resolve(sp, b, vb, ib);
    float d = sp->kernel(va, vb, sp->kernelParam);
    // hnswlib's cosine is the inner product of normalised vectors: 1 - (1 - d) |a|^-1 |b|^-1 here.
    return sp->cosine ? 1.0f - (1.0f - d) * ia * ib : d;
  }

 private:
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
