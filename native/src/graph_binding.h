// The Graph class of the addon: an hnswlib graph over a Rows object's store (row_space.h): inserts (on
// this thread, or on several off it as async work), deletes, searches with a byte or callback filter, and
// the graph file (graph_file.h) saved and loaded off the JS thread.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include "graph_file.h"
#include "graph_search.h"
#include "rows_binding.h"

namespace {

using vdb::Hnsw;
using vdb::RowSpace;

// --------------------------------------------------------------------------------------------- Graph

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

struct GraphCore {
  std::shared_ptr<RowStore> rows;
  std::unique_ptr<RowSpace> space;
  std::unique_ptr<Hnsw> h;
};

/**
 * Async work on a graph (insert, save, load): holds the graph object and marks it busy (changes refused)
 * until it settles its promise; subclasses do the work in Execute and say what it resolves to.
 */
class Graph;
class GraphWork : public Napi::AsyncWorker {
 public:
  GraphWork(Napi::Env env, Graph* graph);
  Napi::Promise promise() { return deferred_.Promise(); }

 protected:
  /** Runs on the JS thread once the work is done, before the promise settles. */
  virtual void finished(bool ok) {}
  virtual double result() const = 0;
  void OnOK() override;
  void OnError(const Napi::Error& e) override;
  Graph* graph_;

 private:
  void release();
  Napi::Promise::Deferred deferred_;
};

class Graph : public Napi::ObjectWrap<Graph> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "Graph",
                       {InstanceMethod("add", &Graph::Add), InstanceMethod("addAsync", &Graph::AddAsync),
                        InstanceMethod("replace", &Graph::Replace), InstanceMethod("markDelete", &Graph::MarkDelete),
                        InstanceMethod("search", &Graph::Search<false>),
                        InstanceMethod("searchHnswlib", &Graph::Search<true>), InstanceMethod("resize", &Graph::Resize),
                        InstanceMethod("count", &Graph::Count), InstanceMethod("capacity", &Graph::Capacity),
                        InstanceMethod("rowOf", &Graph::RowOf), InstanceMethod("elements", &Graph::Elements),
                        InstanceMethod("save", &Graph::Save),
                        InstanceMethod("load", &Graph::Load), InstanceMethod("dispose", &Graph::Dispose)});
  }

  /** new Graph(rows, maxElements, M, efConstruction, seed) */
  Graph(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Graph>(info) {
    Rows* rows = unwrapRows(info[0]);
    rowsRef_ = Napi::Persistent(info[0].As<Napi::Object>());
    core_.rows = rows->store();
    core_.space = std::make_unique<RowSpace>(core_.rows.get());
    size_t maxElements = u32(info[1]);
    try {
      core_.h = std::make_unique<Hnsw>(core_.space.get(), maxElements, u32(info[2]), u32(info[3]), u32(info[4]));
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), e.what());
    }
  }

  ~Graph() { release(); }

  /** Set while async work uses the graph: changes are refused (the JS side orders them anyway). */
  std::atomic<int> busy{0};

 private:
  friend class GraphWork;
  Hnsw& h(const Napi::Env& env) {
    if (!core_.h) throw Napi::Error::New(env, "the graph was disposed");
    return *core_.h;
  }
  Hnsw& idle(const Napi::Env& env) {
    Hnsw& g = h(env);
    if (busy.load() > 0) throw Napi::Error::New(env, "the graph is busy (an insert or a save runs)");
    return g;
  }

  /** Drops the references the graph's elements hold on rows, and the graph. */
  void release() {
    if (!core_.h) return;
    Hnsw& g = *core_.h;
    for (size_t i = 0; i < g.cur_element_count; i++) core_.rows->unref(vdb::elementRow(g, static_cast<hnswlib::tableint>(i)));
    core_.h.reset();
  }

  /** add(slots, rows, n): inserts rows[i] as slot slots[i] (fresh slots), on this thread. */
  Napi::Value Add(const Napi::CallbackInfo& info) {
    Hnsw& g = idle(info.Env());
    uint32_t n = u32(info[2]);
    const uint32_t* slots = typedData<uint32_t>(info[0], "slots", n);
    const uint32_t* rows = typedData<uint32_t>(info[1], "rows", n);
    for (uint32_t i = 0; i < n; i++) {
      core_.rows->check(rows[i]);
      core_.rows->ref(rows[i]);
      try {
        g.addPoint(&rows[i], slots[i]);
      } catch (const std::exception& e) {
        core_.rows->unref(rows[i]);
        throw Napi::Error::New(info.Env(), e.what());
      }
    }
    return info.Env().Undefined();
  }

  class AddWork : public GraphWork {
   public:
    AddWork(Napi::Env env, Graph* graph, std::vector<uint32_t> slots, std::vector<uint32_t> rows, unsigned threads)
        : GraphWork(env, graph), slots_(std::move(slots)), rows_(std::move(rows)), threads_(threads) {}

    void Execute() override {
      Hnsw& g = *graph_->core_.h;
      std::atomic<size_t> next{0};
      std::mutex errorLock;
      std::string error;
      auto run = [&]() {
        for (size_t i = next++; i < slots_.size(); i = next++) {
          try {
            g.addPoint(&rows_[i], slots_[i]);
          } catch (const std::exception& e) {
            std::lock_guard<std::mutex> lock(errorLock);
            if (error.empty()) error = e.what();
            next = slots_.size();
          }
        }
      };
      std::vector<std::thread> pool;
      for (unsigned t = 1; t < threads_; t++) pool.emplace_back(run);
      run();
      for (auto& t : pool) t.join();
      if (!error.empty()) SetError(error);
    }

   private:
    double result() const override { return static_cast<double>(slots_.size()); }
    std::vector<uint32_t> slots_, rows_;
    unsigned threads_;
  };

  /**
   * addAsync(slots, rows, n, threads): inserts as add does, on `threads` threads off the JS thread
   * (hnswlib's addPoint is thread-safe for distinct labels); resolves once every one is in. The rows are
   * referenced now: if an insert fails, the graph keeps those it took (count() tells).
   */
  Napi::Value AddAsync(const Napi::CallbackInfo& info) {
    Hnsw& g = idle(info.Env());
    uint32_t n = u32(info[2]);
    const uint32_t* slots = typedData<uint32_t>(info[0], "slots", n);
    const uint32_t* rows = typedData<uint32_t>(info[1], "rows", n);
    unsigned threads = std::max(1u, u32(info[3]));
    if (g.cur_element_count + n > g.max_elements_) throw Napi::RangeError::New(info.Env(), "the graph is full: resize first");
    for (uint32_t i = 0; i < n; i++) core_.rows->check(rows[i]);
    for (uint32_t i = 0; i < n; i++) core_.rows->ref(rows[i]);
    auto* work = new AddWork(info.Env(), this, std::vector<uint32_t>(slots, slots + n), std::vector<uint32_t>(rows, rows + n), threads);
    Napi::Promise p = work->promise();
    work->Queue();
    return p;
  }

  /** replace(slot, row): a deleted slot made live again with another row (hnswlib's update path). */
  Napi::Value Replace(const Napi::CallbackInfo& info) {
    Hnsw& g = idle(info.Env());
    uint32_t slot = u32(info[0]);
    uint32_t row = u32(info[1]);
    core_.rows->check(row);
    uint32_t old;
    {
      std::lock_guard<std::mutex> lock(g.label_lookup_lock);
      auto found = g.label_lookup_.find(slot);
      if (found == g.label_lookup_.end()) throw Napi::RangeError::New(info.Env(), "no such slot");
      old = vdb::elementRow(g, found->second);
    }
    core_.rows->ref(row);
    try {
      g.unmarkDelete(slot);
      g.addPoint(&row, slot);
    } catch (const std::exception& e) {
      core_.rows->unref(row);
      throw Napi::Error::New(info.Env(), e.what());
    }
    core_.rows->unref(old);
    return info.Env().Undefined();
  }

  Napi::Value MarkDelete(const Napi::CallbackInfo& info) {
    Hnsw& g = idle(info.Env());
    try {
      g.markDelete(u32(info[0]));
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), e.what());
    }
    return info.Env().Undefined();
  }

  /**
   * search(query: Float32Array, k, ef, filter, outSlots: Uint32Array, outDistances: Float32Array): the
   * hits nearest first; how many. `filter`: undefined, a Uint8Array by slot, or a function of the slot.
   * Runs beside an insert in flight (hnswlib searches while it inserts). Our search (graph_search.h);
   * searchHnswlib, with the same arguments, is hnswlib's own searchKnn (tests compare the two).
   */
  template <bool hnswlibs>
  Napi::Value Search(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Hnsw& g = h(env);
    const RowStore& rows = *core_.rows;
    const float* query = typedData<float>(info[0], "query", rows.dim());
    uint32_t k = u32(info[1]);
    uint32_t ef = u32(info[2]);
    uint32_t* outSlots = typedData<uint32_t>(info[4], "outSlots", k);
    float* outDist = typedData<float>(info[5], "outDistances", k);
    vdb::QueryRef q;
    q.values = query;
    if (rows.metric() == vdb::Metric::Cosine) {
      double sq = 0;
      for (uint32_t i = 0; i < rows.dim(); i++) sq += static_cast<double>(query[i]) * query[i];
      q.invNorm = sq > 0 ? static_cast<float>(1.0 / std::sqrt(sq)) : 0.0f;
    }
    std::vector<float> prepared;
    if (rows.int8()) {
      prepared.resize(rows.dim());
      double base = 0;
      for (uint32_t i = 0; i < rows.dim(); i++) {
        prepared[i] = rows.metric() == vdb::Metric::L2 ? query[i] - rows.lo()[i] : query[i] * rows.step()[i];
        base += static_cast<double>(query[i]) * rows.lo()[i];
      }
      q.prepared = prepared.data();
      q.base = static_cast<float>(base);
    }
    // ef is per search: the graph's ef_ is a plain field read by searchKnn (set on the JS thread only).
    g.setEf(ef);
    std::priority_queue<std::pair<float, hnswlib::labeltype>> result;
    Napi::Value filter = info[3];
    try {
      vdb::GraphSearch ours(g, rows, q, core_.space->get_dist_func_param());
      auto knn = [&](hnswlib::BaseFilterFunctor* f) { return hnswlibs ? g.searchKnn(&q, k, f) : ours.knn(k, f); };
      if (filter.IsFunction()) {
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

  Napi::Value Resize(const Napi::CallbackInfo& info) {
    Hnsw& g = idle(info.Env());
    try {
      g.resizeIndex(u32(info[0]));
    } catch (const std::exception&) {
      return Napi::Boolean::New(info.Env(), false);
    }
    return Napi::Boolean::New(info.Env(), true);
  }

  Napi::Value Count(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(h(info.Env()).cur_element_count)); }
  Napi::Value Capacity(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(h(info.Env()).max_elements_)); }

  /** rowOf(slot): the row the slot's element reads, or -1. */
  Napi::Value RowOf(const Napi::CallbackInfo& info) {
    Hnsw& g = h(info.Env());
    std::lock_guard<std::mutex> lock(g.label_lookup_lock);
    auto found = g.label_lookup_.find(u32(info[0]));
    if (found == g.label_lookup_.end()) return Napi::Number::New(info.Env(), -1);
    return Napi::Number::New(info.Env(), vdb::elementRow(g, found->second));
  }

  /** elements(outSlots, outRows): every element's slot and row, by internal id; how many. */
  Napi::Value Elements(const Napi::CallbackInfo& info) {
    Hnsw& g = h(info.Env());
    size_t n = g.cur_element_count;
    uint32_t* slots = typedData<uint32_t>(info[0], "outSlots", n);
    uint32_t* rows = typedData<uint32_t>(info[1], "outRows", n);
    for (size_t i = 0; i < n; i++) {
      slots[i] = static_cast<uint32_t>(g.getExternalLabel(static_cast<hnswlib::tableint>(i)));
      rows[i] = vdb::elementRow(g, static_cast<hnswlib::tableint>(i));
    }
    return Napi::Number::New(info.Env(), static_cast<double>(n));
  }

  class SaveWork : public GraphWork {
   public:
    SaveWork(Napi::Env env, Graph* graph, std::string path) : GraphWork(env, graph), path_(std::move(path)) {}
    void Execute() override {
      try {
        bytes_ = vdb::saveGraphFile(*graph_->core_.h, *graph_->core_.rows, path_);
      } catch (const std::exception& e) {
        SetError(e.what());
      }
    }

   private:
    double result() const override { return static_cast<double>(bytes_); }
    std::string path_;
    uint64_t bytes_ = 0;
  };

  /** save(path): writes the graph and its rows on a libuv thread (no change meanwhile); resolves to the file's length. */
  Napi::Value Save(const Napi::CallbackInfo& info) {
    h(info.Env());
    auto* work = new SaveWork(info.Env(), this, info[0].As<Napi::String>().Utf8Value());
    Napi::Promise p = work->promise();
    work->Queue();
    return p;
  }

  class LoadWork : public GraphWork {
   public:
    LoadWork(Napi::Env env, Graph* graph, std::string path, vdb::FileHead head, uint32_t firstRow, size_t maxElements)
        : GraphWork(env, graph), path_(std::move(path)), head_(head), firstRow_(firstRow), maxElements_(maxElements) {}
    void Execute() override {
      try {
        loaded_ = std::make_unique<Hnsw>(graph_->core_.space.get());
        vdb::loadGraphFile(*loaded_, *graph_->core_.space, *graph_->core_.rows, path_, head_, firstRow_, maxElements_);
      } catch (const std::exception& e) {
        loaded_.reset();
        SetError(e.what());
      }
    }

   private:
    void finished(bool ok) override {
      if (ok) {
        graph_->release();
        graph_->core_.h = std::move(loaded_);  // its elements hold the references taken for the fresh rows
      } else {
        for (uint64_t i = 0; i < head_.count; i++) graph_->core_.rows->unref(firstRow_ + static_cast<uint32_t>(i));
      }
    }
    double result() const override { return static_cast<double>(head_.count); }
    std::string path_;
    vdb::FileHead head_;
    uint32_t firstRow_;
    size_t maxElements_;
    std::unique_ptr<Hnsw> loaded_;
  };

  /**
   * load(path, maxElements, fileBytes): replaces this (empty) graph by the file's, its rows read into
   * fresh rows of the store, on a libuv thread; resolves to the element count. Rejects with a message
   * starting "incompatible:" when the file is not a graph file of this dimension or not `fileBytes` long.
   */
  Napi::Value Load(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    idle(env);
    std::string path = info[0].As<Napi::String>().Utf8Value();
    size_t maxElements = u32(info[1]);
    double expected = info[2].IsNumber() ? info[2].As<Napi::Number>().DoubleValue() : -1;
    vdb::FileHead head{};
    uint64_t fileBytes = 0;
    auto deferred = Napi::Promise::Deferred::New(env);
    if (!vdb::readGraphHead(path, core_.rows->dim(), head, fileBytes) || (expected >= 0 && static_cast<double>(fileBytes) != expected)) {
      deferred.Reject(Napi::Error::New(env, "incompatible: " + path + " is not a graph file of this dimension and length").Value());
      return deferred.Promise();
    }
    // An int8 file's rows go into a store of its scale: an empty one takes it; float rows cannot be read from codes.
    if (head.version == vdb::kInt8Version) {
      RowStore& rows = *core_.rows;
      bool same = false, taken = false;
      try {
        std::vector<float> scale = vdb::readGraphScale(path, head.dim);
        same = rows.int8() && std::memcmp(rows.lo().data(), scale.data(), sizeof(float) * head.dim) == 0 &&
               std::memcmp(rows.step().data(), scale.data() + head.dim, sizeof(float) * head.dim) == 0;
        taken = !same && !rows.int8() && rows.used() == 0 && rows.quantize(scale.data(), scale.data() + head.dim);
      } catch (const std::exception& e) {
        throw Napi::Error::New(env, e.what());
      }
      if (!same && !taken) {
        deferred.Reject(Napi::Error::New(env, "incompatible: " + path + " holds int8 rows of another scale than the store's").Value());
        return deferred.Promise();
      }
    }
    uint32_t firstRow = head.count > 0 ? core_.rows->takeFresh(static_cast<uint32_t>(head.count)) : core_.rows->used();
    auto* work = new LoadWork(env, this, path, head, firstRow, maxElements);
    Napi::Promise p = work->promise();
    work->Queue();
    return p;
  }

  Napi::Value Dispose(const Napi::CallbackInfo& info) {
    if (busy.load() > 0) throw Napi::Error::New(info.Env(), "the graph is busy: dispose after it settles");
    release();
    return info.Env().Undefined();
  }

  GraphCore core_;
  Napi::ObjectReference rowsRef_;
};

GraphWork::GraphWork(Napi::Env env, Graph* graph) : Napi::AsyncWorker(env), graph_(graph), deferred_(Napi::Promise::Deferred::New(env)) {
  graph_->Ref();
  graph_->busy++;
  graph_->core_.rows->readers++;
}

void GraphWork::release() {
  graph_->core_.rows->readers--;
  graph_->busy--;
  graph_->Unref();
}

void GraphWork::OnOK() {
  release();
  finished(true);
  deferred_.Resolve(Napi::Number::New(Env(), result()));
}

void GraphWork::OnError(const Napi::Error& e) {
  release();
  finished(false);
  deferred_.Reject(e.Value());
}


}  // namespace
