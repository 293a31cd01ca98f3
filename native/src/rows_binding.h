// The Rows class of the addon: JS's handle on a RowStore (row_store.h): taking, writing, reading and
// referencing rows, quantizing them to int8, and the float64 sums of exact scans.
#pragma once
#include <memory>
#include "napi_args.h"
#include "int8_kernels.h"
#include "row_store.h"

namespace {

using vdb::RowStore;

// ---------------------------------------------------------------------------------------------- Rows

class Rows : public Napi::ObjectWrap<Rows> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "Rows",
                       {InstanceMethod("take", &Rows::Take), InstanceMethod("write", &Rows::Write),
                        InstanceMethod("writeMany", &Rows::WriteMany), InstanceMethod("ref", &Rows::Ref),
                        InstanceMethod("unref", &Rows::Unref), InstanceMethod("read", &Rows::Read),
                        InstanceMethod("dots", &Rows::Dots), InstanceMethod("refs", &Rows::Refs),
                        InstanceMethod("refMany", &Rows::RefMany),
                        InstanceMethod("quantize", &Rows::Quantize), InstanceMethod("scale", &Rows::Scale),
                        InstanceMethod("readCodes", &Rows::ReadCodes), InstanceAccessor("int8", &Rows::Int8, nullptr),
                        InstanceAccessor("kernel", &Rows::Kernel, nullptr),
                        InstanceAccessor("used", &Rows::Used, nullptr), InstanceAccessor("free", &Rows::Free, nullptr),
                        InstanceAccessor("codedValues", &Rows::CodedValues, nullptr),
                        InstanceAccessor("clampedValues", &Rows::ClampedValues, nullptr)});
  }

  Rows(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Rows>(info) {
    uint32_t dim = u32(info[0]);
    int metric = info[1].As<Napi::Number>().Int32Value();
    if (dim == 0 || metric < 0 || metric > 2) throw Napi::RangeError::New(info.Env(), "bad dimension or metric");
    store_ = std::make_shared<RowStore>(dim, static_cast<vdb::Metric>(metric));
  }

  std::shared_ptr<RowStore> store() const { return store_; }

 private:
  /** take(): a row holding one reference. */
  Napi::Value Take(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), store_->take()); }

  /** write(row, values, offset): the dimension values of `values` from `offset` into the row. */
  Napi::Value Write(const Napi::CallbackInfo& info) {
    uint32_t row = u32(info[0]);
    uint32_t at = u32(info[2]);
    const float* values = typedData<float>(info[1], "values", static_cast<size_t>(at) + store_->dim());
    store_->check(row);
    store_->write(row, values + at);
    return info.Env().Undefined();
  }

  /** writeMany(values, n, out): takes n rows for the n vectors of `values`, their ids into `out`. */
  Napi::Value WriteMany(const Napi::CallbackInfo& info) {
    uint32_t n = u32(info[1]);
    const float* values = typedData<float>(info[0], "values", static_cast<size_t>(n) * store_->dim());
    uint32_t* out = typedData<uint32_t>(info[2], "out", n);
    for (uint32_t i = 0; i < n; i++) {
      out[i] = store_->take();
      store_->write(out[i], values + static_cast<size_t>(i) * store_->dim());
    }
    return info.Env().Undefined();
  }

  Napi::Value Ref(const Napi::CallbackInfo& info) {
    store_->ref(u32(info[0]));
    return info.Env().Undefined();
  }
  /** refMany(rows, n): a reference more on each of rows[0..n). */
  Napi::Value RefMany(const Napi::CallbackInfo& info) {
    uint32_t n = u32(info[1]);
    const uint32_t* rows = typedData<uint32_t>(info[0], "rows", n);
    for (uint32_t i = 0; i < n; i++) store_->check(rows[i]);
    for (uint32_t i = 0; i < n; i++) store_->ref(rows[i]);
    return info.Env().Undefined();
  }
  Napi::Value Unref(const Napi::CallbackInfo& info) {
    store_->unref(u32(info[0]));
    return info.Env().Undefined();
  }
  Napi::Value Refs(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), store_->refs(u32(info[0]))); }

  /** read(row, out, offset): copies the row into `out` at `offset` (float32 rows only). */
  Napi::Value Read(const Napi::CallbackInfo& info) {
    if (store_->int8()) throw Napi::Error::New(info.Env(), "int8 rows hold no float32 values");
    uint32_t row = u32(info[0]);
    uint32_t at = u32(info[2]);
    float* out = typedData<float>(info[1], "out", static_cast<size_t>(at) + store_->dim());
    store_->check(row);
    std::memcpy(out + at, store_->row(row), sizeof(float) * store_->dim());
    return info.Env().Undefined();
  }

  /**
   * dots(query: Float64Array, rows: Uint32Array, n, out: Float64Array, norms?: Float64Array): float64 dot
   * products of the query with rows[0..n), summed in the order FlatVectorStore's WebAssembly kernel
   * (asm/kernels.ts dotRows) sums them: four running sums by j % 4, joined as (s0 + s2) + (s1 + s3), then
   * the tail. The scores agree bit for bit. With `norms`, each row's squared norm too, summed in order as
   * validate.ts's checkVector sums it (so an exact scan needs no norms kept by row on the JS side); the
   * rows go four at a time so that their four in-order sums overlap (one alone would be a chain of dim adds).
   */
  Napi::Value Dots(const Napi::CallbackInfo& info) {
    const uint32_t dim = store_->dim();
    const double* q = typedData<double>(info[0], "query", dim);
    uint32_t n = u32(info[2]);
    const uint32_t* rows = typedData<uint32_t>(info[1], "rows", n);
    double* out = typedData<double>(info[3], "out", n);
    double* norms = info.Length() > 4 && !info[4].IsUndefined() ? typedData<double>(info[4], "norms", n) : nullptr;
    for (uint32_t i = 0; i < n; i++) store_->check(rows[i]);
    if (store_->int8()) {
      int8Dots(q, rows, n, out);
      if (norms != nullptr) for (uint32_t i = 0; i < n; i++) norms[i] = int8SquaredNorm(rows[i]);
      return info.Env().Undefined();
    }
    uint32_t i = 0;
    if (norms != nullptr) {
      for (; i + 4 <= n; i += 4) {
        const float* r[4] = {store_->row(rows[i]), store_->row(rows[i + 1]), store_->row(rows[i + 2]), store_->row(rows[i + 3])};
        double sq[4] = {0, 0, 0, 0};
        for (uint32_t j = 0; j < dim; j++) {
          for (int k = 0; k < 4; k++) sq[k] += static_cast<double>(r[k][j]) * r[k][j];
        }
        for (int k = 0; k < 4; k++) {
          out[i + k] = dot(q, r[k], dim);
          norms[i + k] = sq[k];
        }
      }
    }
    for (; i < n; i++) {
      const float* r = store_->row(rows[i]);
      out[i] = dot(q, r, dim);
      if (norms != nullptr) norms[i] = squaredNorm(r, dim);
    }
    return info.Env().Undefined();
  }

  /** The float64 dot product of `dots`, in its order. */
  static double dot(const double* q, const float* r, uint32_t dim) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    const uint32_t end4 = dim & ~3u;
    uint32_t j = 0;
    for (; j < end4; j += 4) {
      s0 += static_cast<double>(r[j]) * q[j];
      s1 += static_cast<double>(r[j + 1]) * q[j + 1];
      s2 += static_cast<double>(r[j + 2]) * q[j + 2];
      s3 += static_cast<double>(r[j + 3]) * q[j + 3];
    }
    double s = (s0 + s2) + (s1 + s3);
    for (; j < dim; j++) s += q[j] * static_cast<double>(r[j]);
    return s;
  }

  /** A float32 row's squared norm, summed in order (checkVector's order). */
  static double squaredNorm(const float* r, uint32_t dim) {
    double s = 0;
    for (uint32_t j = 0; j < dim; j++) s += static_cast<double>(r[j]) * r[j];
    return s;
  }

  /** An int8 row has no values to sum: the square of the norm kept beside its codes (it ranks a shortlist only). */
  double int8SquaredNorm(uint32_t row) const {
    double inv = store_->invNorm(row);
    return inv > 0 ? 1.0 / (inv * inv) : 0;
  }

  /**
   * The approximate dot products of int8 rows: q . lo once, plus (q x step) . codes by the int8 distance
   * kernel (int8_kernels.h: AVX2 where the CPU has it). They only choose the shortlist an exact ranking
   * orders (FlatVectorStore's int8 rows sum in another order: the same shortlist but at near-ties).
   */
  void int8Dots(const double* q, const uint32_t* rows, uint32_t n, double* out) const {
    const uint32_t dim = store_->dim();
    std::vector<float> qs(dim);
    double base = 0;
    for (uint32_t d = 0; d < dim; d++) {
      qs[d] = static_cast<float>(q[d] * store_->step()[d]);
      base += q[d] * store_->lo()[d];
    }
    const vdb::int8k::Kernels& k = vdb::int8k::kernels();
    for (uint32_t i = 0; i < n; i++) {
      out[i] = base + k.dot(qs.data(), store_->codes(rows[i]), nullptr, dim);
    }
  }

  /** quantize(lo: Float32Array, step: Float32Array): makes the rows int8 codes of this scale; false while a graph reads them. */
  Napi::Value Quantize(const Napi::CallbackInfo& info) {
    const float* lo = typedData<float>(info[0], "lo", store_->dim());
    const float* step = typedData<float>(info[1], "step", store_->dim());
    for (uint32_t d = 0; d < store_->dim(); d++) {
      if (!(step[d] > 0) || !std::isfinite(step[d]) || !std::isfinite(lo[d])) throw Napi::RangeError::New(info.Env(), "bad int8 scale");
    }
    try {
      return Napi::Boolean::New(info.Env(), store_->quantize(lo, step));
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), e.what());
    }
  }

  /** scale(outLo, outStep): the int8 rows' scale into the arrays; false (nothing written) for float32 rows. */
  Napi::Value Scale(const Napi::CallbackInfo& info) {
    if (!store_->int8()) return Napi::Boolean::New(info.Env(), false);
    std::memcpy(typedData<float>(info[0], "outLo", store_->dim()), store_->lo().data(), sizeof(float) * store_->dim());
    std::memcpy(typedData<float>(info[1], "outStep", store_->dim()), store_->step().data(), sizeof(float) * store_->dim());
    return Napi::Boolean::New(info.Env(), true);
  }

  /** readCodes(row, out: Uint8Array): an int8 row's codes (tests compare them with int8-rows.ts's). */
  Napi::Value ReadCodes(const Napi::CallbackInfo& info) {
    if (!store_->int8()) throw Napi::Error::New(info.Env(), "the rows are float32");
    uint32_t row = u32(info[0]);
    store_->check(row);
    std::memcpy(typedData<uint8_t>(info[1], "out", store_->dim()), store_->codes(row), store_->dim());
    return info.Env().Undefined();
  }

  Napi::Value Int8(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), store_->int8()); }
  /** Which int8 distance kernels this CPU runs: 'avx2' or 'scalar'. */
  Napi::Value Kernel(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), vdb::int8k::kernels().name); }

  Napi::Value Used(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), store_->used()); }
  Napi::Value Free(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), store_->freeCount()); }
  /** The int8 coding's counters (stats): values coded, and of those clamped (row_store.h). */
  Napi::Value CodedValues(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(store_->codedValues())); }
  Napi::Value ClampedValues(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(store_->clampedValues())); }

  std::shared_ptr<RowStore> store_;
};

/** Per environment (the main thread and each worker thread that loads the addon): the Rows class. */
struct AddonData {
  Napi::FunctionReference rows;
};

Rows* unwrapRows(const Napi::Value& v) {
  if (!v.IsObject() || !v.As<Napi::Object>().InstanceOf(v.Env().GetInstanceData<AddonData>()->rows.Value())) {
    throw Napi::TypeError::New(v.Env(), "expected a Rows object");
  }
  return Rows::Unwrap(v.As<Napi::Object>());
}


}  // namespace
