// The Graph class of the addon: an hnswlib graph over a Rows object's store (row_space.h): inserts by our
// own insert (graph_insert.h; on this thread, or on several off it as async work), hnswlib's for comparison,
// replaces, deletes, its links for tests; searches (graph_search_binding.h) and the graph file
// (graph_file_binding.h) are delegated.
#pragma once
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include "graph_core.h"
#include "graph_file_binding.h"
#include "graph_insert.h"
#include "graph_search_binding.h"
#include "thread_priority.h"

namespace {

class Graph : public Napi::ObjectWrap<Graph> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "Graph",
                       {InstanceMethod("add", &Graph::Add<false>), InstanceMethod("addHnswlib", &Graph::Add<true>),
                        InstanceMethod("addAsync", &Graph::AddAsync), InstanceMethod("replace", &Graph::Replace),
                        InstanceMethod("markDelete", &Graph::MarkDelete), InstanceMethod("search", &Graph::Search<false>),
                        InstanceMethod("searchHnswlib", &Graph::Search<true>), InstanceMethod("resize", &Graph::Resize),
                        InstanceMethod("prepareResize", &Graph::PrepareResize), InstanceMethod("dropPrepared", &Graph::DropPrepared),
                        InstanceMethod("spareCapacity", &Graph::SpareCapacity),
                        InstanceMethod("count", &Graph::Count), InstanceMethod("capacity", &Graph::Capacity),
                        InstanceMethod("rowOf", &Graph::RowOf), InstanceMethod("elements", &Graph::Elements),
                        InstanceMethod("links", &Graph::Links), InstanceMethod("save", &Graph::Save),
                        InstanceMethod("load", &Graph::Load), InstanceMethod("dispose", &Graph::Dispose),
                        InstanceMethod("elementRowsOutOfStep", &Graph::ElementRowsOutOfStep),
                        InstanceMethod("growsInPlace", &Graph::GrowsInPlace), InstanceMethod("elementRowsRun", &Graph::ElementRowsRun)});
  }

  /** new Graph(rows, maxElements, M, efConstruction, seed) */
  Graph(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Graph>(info) {
    Rows* rows = unwrapRows(info[0]);
    rowsRef_ = Napi::Persistent(info[0].As<Napi::Object>());
    core_.rows = rows->store();
    core_.space = std::make_unique<RowSpace>(core_.rows.get());
    size_t maxElements = u32(info[1]);
    try {
      core_.elementRows.reserve(maxElements);
      core_.h = std::make_unique<Hnsw>(core_.space.get(), maxElements, u32(info[2]), u32(info[3]), u32(info[4]));
      core_.level0.adopt(*core_.h);
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), e.what());
    }
  }

  ~Graph() { core_.release(); }

 private:
  /** The new rows' float32 values for an insert over int8 rows (n x dim, argument `at`), else null. */
  const float* insertValues(const Napi::CallbackInfo& info, size_t at, uint32_t n) {
    if (!core_.rows->int8() || info.Length() <= at || !info[at].IsTypedArray()) return nullptr;
    return typedData<float>(info[at], "values", static_cast<size_t>(n) * core_.rows->dim());
  }

  /**
   * add(slots, rows, n, values?): inserts rows[i] as slot slots[i] (fresh slots), on this thread, by our
   * insert; `values` (Float32Array, n x dim): the rows' values, which an insert over int8 rows compares with
   * the codes. addHnswlib(slots, rows, n): by hnswlib's addPoint (tests and benches compare).
   */
  template <bool hnswlibs>
  Napi::Value Add(const Napi::CallbackInfo& info) {
    Hnsw& g = core_.idle(info.Env());
    uint32_t n = u32(info[2]);
    const uint32_t* slots = typedData<uint32_t>(info[0], "slots", n);
    const uint32_t* rows = typedData<uint32_t>(info[1], "rows", n);
    const float* values = hnswlibs ? nullptr : insertValues(info, 3, n);
    vdb::GraphInsert ours(g, core_.elementRows, *core_.rows, core_.space->get_dist_func_param());
    const uint32_t dim = core_.rows->dim();
    for (uint32_t i = 0; i < n; i++) {
      core_.rows->check(rows[i]);
      core_.rows->ref(rows[i]);
      try {
        if (hnswlibs) {
          g.addPoint(&rows[i], slots[i]);
          core_.elementRows.adopt(g, slots[i]);
        } else ours.add(&rows[i], slots[i], values == nullptr ? nullptr : values + static_cast<size_t>(i) * dim);
      } catch (const std::exception& e) {
        core_.rows->unref(rows[i]);
        throw Napi::Error::New(info.Env(), e.what());
      }
    }
    return info.Env().Undefined();
  }

  class AddWork : public GraphWork {
   public:
    AddWork(Napi::Env env, Napi::Object self, GraphCore& core, std::vector<uint32_t> slots, std::vector<uint32_t> rows,
            std::vector<float> values, unsigned threads)
        : GraphWork(env, self, core), slots_(std::move(slots)), rows_(std::move(rows)), values_(std::move(values)), threads_(threads) {}

    void Execute() override {
      Hnsw& g = *core_.h;
      const uint32_t dim = core_.rows->dim();
      // Held across taking the next item and claiming its element id (GraphInsert::claim, which takes the
      // label's and the label table's locks inside it), never taken under a graph lock: element ids follow
      // the items' order, so rows given in order keep the run of rows in element order (element_rows.h).
      std::mutex order;
      size_t next = 0;
      std::string error;
      auto run = [&]() {
        vdb::GraphInsert ours(g, core_.elementRows, *core_.rows, core_.space->get_dist_func_param());
        for (;;) {
          try {
            size_t i;
            vdb::GraphInsert::Claim claimed;
            {
              std::lock_guard<std::mutex> lock(order);
              if (next >= slots_.size()) return;
              i = next++;
              claimed = ours.claim(&rows_[i], slots_[i]);
            }
            ours.link(claimed, &rows_[i], slots_[i], values_.empty() ? nullptr : values_.data() + i * dim);
          } catch (const std::exception& e) {
            std::lock_guard<std::mutex> lock(order);
            if (error.empty()) error = e.what();
            next = slots_.size();
          }
        }
      };
      // Every insert on a thread of its own below the JS thread's priority (thread_priority.h): this libuv
      // thread, shared with LevelDB's work, only waits for them.
      std::vector<std::thread> pool;
      try {
        for (unsigned t = 0; t < threads_; t++) pool.emplace_back([&run] { vdb::becomeInsertThread(); run(); });
      } catch (const std::system_error&) {
        if (pool.empty()) run();  // no thread to be had: insert here
      }
      for (auto& t : pool) t.join();
      if (!error.empty()) SetError(error);
    }

   private:
    double result() const override { return static_cast<double>(slots_.size()); }
    std::vector<uint32_t> slots_, rows_;
    std::vector<float> values_;
    unsigned threads_;
  };

  /**
   * addAsync(slots, rows, n, threads, values?): inserts as add does, on `threads` threads off the JS thread
   * (our insert, as hnswlib's addPoint, is thread-safe for distinct labels); resolves once every one is in.
   * The items are taken in order and given element ids in that order (the link steps then overlap): rows in
   * order, as a bulk load writes them, keep the run of rows in element order whole, as on one thread.
   * The rows are referenced now: if an insert fails, the graph keeps those it took (count() tells).
   */
  Napi::Value AddAsync(const Napi::CallbackInfo& info) {
    Hnsw& g = core_.idle(info.Env());
    uint32_t n = u32(info[2]);
    const uint32_t* slots = typedData<uint32_t>(info[0], "slots", n);
    const uint32_t* rows = typedData<uint32_t>(info[1], "rows", n);
    unsigned threads = std::max(1u, u32(info[3]));
    const float* values = insertValues(info, 4, n);
    if (g.cur_element_count + n > g.max_elements_) throw Napi::RangeError::New(info.Env(), "the graph is full: resize first");
    for (uint32_t i = 0; i < n; i++) core_.rows->check(rows[i]);
    for (uint32_t i = 0; i < n; i++) core_.rows->ref(rows[i]);
    std::vector<float> copied;
    if (values != nullptr) copied.assign(values, values + static_cast<size_t>(n) * core_.rows->dim());
    auto* work = new AddWork(info.Env(), info.This().As<Napi::Object>(), core_, std::vector<uint32_t>(slots, slots + n),
                             std::vector<uint32_t>(rows, rows + n), std::move(copied), threads);
    Napi::Promise p = work->promise();
    work->Queue();
    return p;
  }

  /** replace(slot, row): a deleted slot made live again with another row (hnswlib's update path). */
  Napi::Value Replace(const Napi::CallbackInfo& info) {
    Hnsw& g = core_.idle(info.Env());
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
      core_.elementRows.adopt(g, slot);
    } catch (const std::exception& e) {
      core_.rows->unref(row);
      throw Napi::Error::New(info.Env(), e.what());
    }
    core_.rows->unref(old);
    return info.Env().Undefined();
  }

  Napi::Value MarkDelete(const Napi::CallbackInfo& info) {
    Hnsw& g = core_.idle(info.Env());
    try {
      g.markDelete(u32(info[0]));
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), e.what());
    }
    return info.Env().Undefined();
  }

  template <bool hnswlibs>
  Napi::Value Search(const Napi::CallbackInfo& info) { return searchGraph<hnswlibs>(info, core_); }

  /**
   * resize(capacity): grows the graph in place (graph_growth.h): quick when prepareResize(capacity) has
   * settled; false, the graph unchanged, when memory runs out.
   */
  Napi::Value Resize(const Napi::CallbackInfo& info) {
    Hnsw& g = core_.idle(info.Env());
    std::unique_ptr<vdb::GrowthTables> retired;
    try {
      core_.elementRows.reserve(u32(info[0]));
      vdb::growGraph(g, core_.level0, core_.prepared, retired, u32(info[0]));
    } catch (const std::exception&) {
      return Napi::Boolean::New(info.Env(), false);
    }
    drop(info.Env(), std::move(retired));
    return Napi::Boolean::New(info.Env(), true);
  }

  /** Frees tables on a libuv thread (tens of MB: freeing them is not the JS thread's work). */
  class DropWork : public Napi::AsyncWorker {
   public:
    DropWork(Napi::Env env, std::unique_ptr<vdb::GrowthTables> tables) : Napi::AsyncWorker(env), tables_(std::move(tables)) {}
    void Execute() override { tables_.reset(); }

   private:
    std::unique_ptr<vdb::GrowthTables> tables_;
  };
  static void drop(Napi::Env env, std::unique_ptr<vdb::GrowthTables> tables) {
    if (tables) (new DropWork(env, std::move(tables)))->Queue();
  }

  /**
   * dropPrepared(): frees the tables prepareResize made and no resize took (off the JS thread), and those a
   * prepareResize still makes, once made.
   */
  Napi::Value DropPrepared(const Napi::CallbackInfo& info) {
    core_.spareDrops++;
    drop(info.Env(), std::move(core_.prepared));
    return info.Env().Undefined();
  }

  /** spareCapacity(): the capacity whose tables prepareResize made and no resize took yet, or 0 (tests). */
  Napi::Value SpareCapacity(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), core_.prepared ? static_cast<double>(core_.prepared->capacity) : 0);
  }

  /** Makes the per-element tables of a capacity on a libuv thread. */
  class PrepareWork : public Napi::AsyncWorker {
   public:
    PrepareWork(Napi::Env env, Napi::Object self, GraphCore& core, size_t capacity)
        : Napi::AsyncWorker(env), core_(core), self_(Napi::Persistent(self)), deferred_(Napi::Promise::Deferred::New(env)), capacity_(capacity), drops_(core.spareDrops) {}
    Napi::Promise promise() { return deferred_.Promise(); }
    void Execute() override {
      try {
        tables_ = vdb::GrowthTables::make(capacity_);
      } catch (const std::exception& e) {
        SetError(e.what());
      }
    }
    void OnOK() override {
      if (drops_ != core_.spareDrops) {
        drop(Env(), std::move(tables_));  // dropped while being made: no growth is near
      } else {
        drop(Env(), std::move(core_.prepared));  // made for another capacity
        core_.prepared = std::move(tables_);
      }
      self_.Reset();
      deferred_.Resolve(Napi::Number::New(Env(), static_cast<double>(capacity_)));
    }
    void OnError(const Napi::Error& e) override {
      self_.Reset();
      deferred_.Reject(e.Value());
    }

   private:
    GraphCore& core_;
    Napi::ObjectReference self_;
    Napi::Promise::Deferred deferred_;
    size_t capacity_;
    uint64_t drops_;
    std::unique_ptr<vdb::GrowthTables> tables_;
  };

  /**
   * prepareResize(capacity): makes what resize(capacity) needs besides the level-0 block off the JS thread
   * (it reads nothing of the graph: inserts and searches go on); resolves once resize(capacity) is quick.
   */
  Napi::Value PrepareResize(const Napi::CallbackInfo& info) {
    core_.graph(info.Env());
    auto* work = new PrepareWork(info.Env(), info.This().As<Napi::Object>(), core_, u32(info[0]));
    Napi::Promise p = work->promise();
    work->Queue();
    return p;
  }

  Napi::Value Count(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(core_.graph(info.Env()).cur_element_count)); }
  /** growsInPlace(): whether the level-0 block lies in a reserved range (graph_growth.h), else it grows by realloc. */
  Napi::Value GrowsInPlace(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), core_.level0.reserved()); }

  Napi::Value Capacity(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(core_.graph(info.Env()).max_elements_)); }

  /** rowOf(slot): the row the slot's element reads, or -1. */
  Napi::Value RowOf(const Napi::CallbackInfo& info) {
    Hnsw& g = core_.graph(info.Env());
    std::lock_guard<std::mutex> lock(g.label_lookup_lock);
    auto found = g.label_lookup_.find(u32(info[0]));
    if (found == g.label_lookup_.end()) return Napi::Number::New(info.Env(), -1);
    return Napi::Number::New(info.Env(), vdb::elementRow(g, found->second));
  }

  /** elements(outSlots, outRows): every element's slot and row, by internal id; how many. */
  Napi::Value Elements(const Napi::CallbackInfo& info) {
    Hnsw& g = core_.graph(info.Env());
    size_t n = g.cur_element_count;
    uint32_t* slots = typedData<uint32_t>(info[0], "outSlots", n);
    uint32_t* rows = typedData<uint32_t>(info[1], "outRows", n);
    for (size_t i = 0; i < n; i++) {
      slots[i] = static_cast<uint32_t>(g.getExternalLabel(static_cast<hnswlib::tableint>(i)));
      rows[i] = vdb::elementRow(g, static_cast<hnswlib::tableint>(i));
    }
    return Napi::Number::New(info.Env(), static_cast<double>(n));
  }

  /** links(slot, level, out: Uint32Array): the slots the slot's element links to on `level`, in list order; how many, or -1 (no such element or level). */
  Napi::Value Links(const Napi::CallbackInfo& info) {
    Hnsw& g = core_.idle(info.Env());
    int level = info[1].As<Napi::Number>().Int32Value();
    uint32_t* out = typedData<uint32_t>(info[2], "out", g.maxM0_);
    auto found = g.label_lookup_.find(u32(info[0]));
    if (found == g.label_lookup_.end() || level < 0 || level > g.element_levels_[found->second]) return Napi::Number::New(info.Env(), -1);
    const hnswlib::linklistsizeint* list = g.get_linklist_at_level(found->second, level);
    size_t n = g.getListCount(const_cast<hnswlib::linklistsizeint*>(list));
    for (size_t i = 0; i < n; i++) out[i] = static_cast<uint32_t>(g.getExternalLabel(list[i + 1]));
    return Napi::Number::New(info.Env(), static_cast<double>(n));
  }

  /** elementRowsOutOfStep(): elements whose row id in ElementRows (our walks') is not their element data's (hnswlib's): 0 (tests). */
  Napi::Value ElementRowsOutOfStep(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), static_cast<double>(core_.elementRows.mismatches(core_.idle(info.Env()))));
  }

  /** elementRowsRun(): [first row, length] of the run of elements whose rows follow their ids (tests). */
  Napi::Value ElementRowsRun(const Napi::CallbackInfo& info) {
    core_.idle(info.Env());
    const vdb::ElementRows::Run run = core_.elementRows.run();
    Napi::Array out = Napi::Array::New(info.Env(), 2);
    out.Set(0u, Napi::Number::New(info.Env(), run.first));
    out.Set(1u, Napi::Number::New(info.Env(), run.length));
    return out;
  }

  Napi::Value Save(const Napi::CallbackInfo& info) { return saveGraph(info, core_); }
  Napi::Value Load(const Napi::CallbackInfo& info) { return loadGraph(info, core_); }

  Napi::Value Dispose(const Napi::CallbackInfo& info) {
    if (core_.busy.load() > 0) throw Napi::Error::New(info.Env(), "the graph is busy: dispose after it settles");
    core_.release();
    return info.Env().Undefined();
  }

  GraphCore core_;
  Napi::ObjectReference rowsRef_;
};

}  // namespace
