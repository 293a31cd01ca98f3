// A graph's search binding: a float query's k nearest slots and distances, with no filter, a byte per slot,
// or a JS predicate on the slot; through our search (graph_search.h) or hnswlib's own searchKnn.
#pragma once
#include <queue>
#include "graph_core.h"
#include "graph_search.h"

namespace {

/** The filter of a search: a byte per slot (non-zero: allowed), or a JS predicate on the slot. */
class BytesFilter : public hnswlib::BaseFilterFunctor {
 public:
  BytesFilter(const uint8_t* allowed, size_t length) : allowed_(allowed), length_(length) {}
  bool operator()(hnswlib::labeltype slot) override { return slot < length_ && allowed_[slot] != 0; }

 private:
  const uint8_t* allowed_;
  size_t length_;
};

class CallbackFilter : public hnswlib::BaseFilterFunctor {
 public:
  CallbackFilter(Napi::Env env, Napi::Function fn) : env_(env), fn_(fn) {}
  bool operator()(hnswlib::labeltype slot) override {
    if (failed_) return false;
    Napi::Value r = fn_.Call({Napi::Number::New(env_, static_cast<double>(slot))});
    if (env_.IsExceptionPending()) {
      failed_ = true;
      return false;
    }
    return r.ToBoolean().Value();
  }
  bool failed_ = false;

 private:
  Napi::Env env_;
  Napi::Function fn_;
};

/**
 * search(query: Float32Array, k, ef, filter, outSlots: Uint32Array, outDistances: Float32Array): the hits
 * nearest first; how many. `filter`: undefined, a Uint8Array by slot, or a function of the slot (which may not
 * change the graph: it is busy meanwhile). Runs beside an insert in flight (hnswlib searches while it inserts). `hnswlibs`: hnswlib's own searchKnn (tests compare).
 */
template <bool hnswlibs>
Napi::Value searchGraph(const Napi::CallbackInfo& info, GraphCore& core) {
  Napi::Env env = info.Env();
  Hnsw& g = core.graph(env);
  const RowStore& rows = *core.rows;
  const float* values = typedData<float>(info[0], "query", rows.dim());
  uint32_t k = u32(info[1]);
  uint32_t ef = u32(info[2]);
  uint32_t* outSlots = typedData<uint32_t>(info[4], "outSlots", k);
  float* outDist = typedData<float>(info[5], "outDistances", k);
  vdb::FloatQuery query(rows, values);
  const vdb::QueryRef* q = &query.ref();
  // ef is per search: the graph's ef_ is a plain field read by searchKnn (set on the JS thread only).
  g.setEf(ef);
  std::priority_queue<std::pair<float, hnswlib::labeltype>> result;
  Napi::Value filter = info[3];
  try {
    vdb::GraphSearch ours(g, core.elementRows, rows, q, core.space->get_dist_func_param());
    auto knn = [&](hnswlib::BaseFilterFunctor* f) { return hnswlibs ? g.searchKnn(q, k, f) : ours.knn(k, f); };
    if (filter.IsFunction()) {
      BusyWhile busy(core);
      CallbackFilter f(env, filter.As<Napi::Function>());
      result = knn(&f);
      if (f.failed_) return Napi::Value();
    } else if (filter.IsTypedArray()) {
      BytesFilter f(typedData<uint8_t>(filter, "filter"), lengthOf(filter));
      result = knn(&f);
    } else {
      result = knn(nullptr);
    }
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, e.what());
  }
  size_t n = result.size();
  for (size_t i = n; i-- > 0;) {
    outSlots[i] = static_cast<uint32_t>(result.top().second);
    outDist[i] = result.top().first;
    result.pop();
  }
  return Napi::Number::New(env, static_cast<double>(n));
}

}  // namespace
