// What a graph binding holds (GraphCore: the row store, its space, the hnswlib graph, its elements' rows and
// its level-0 block, the tables of its next capacity (graph_growth.h), the busy count) and the async work on
// it (GraphWork: an insert, a save or a load off the JS thread, settling a promise).
// Shared by graph_binding.h and the bindings it delegates to (graph_search_binding.h, graph_file_binding.h).
#pragma once
#include <atomic>
#include <memory>
#include "graph_file.h"
#include "graph_growth.h"
#include "rows_binding.h"

namespace {

using vdb::Hnsw;
using vdb::RowSpace;

struct GraphCore {
  std::shared_ptr<RowStore> rows;
  std::unique_ptr<RowSpace> space;
  std::unique_ptr<Hnsw> h;
  /** Each element's row id, by internal id, in step with h's element data (element_rows.h). */
  vdb::ElementRows elementRows;
  /** h's level-0 block (h never frees or reallocs it: see release and Graph.resize). */
  vdb::Level0Block level0;
  /** Per-element tables made off the JS thread for the next resize (Graph.prepareResize). */
  std::unique_ptr<vdb::GrowthTables> prepared;
  /**
   * Counts dropPrepared calls: tables whose making began before the latest one are dropped when they come,
   * not kept (a load that ended while its last growth's tables were being made would else hold them).
   */
  uint64_t spareDrops = 0;
  /** Set while async work uses the graph: changes are refused (the JS side orders them anyway). */
  std::atomic<int> busy{0};

  Hnsw& graph(const Napi::Env& env) {
    if (!h) throw Napi::Error::New(env, "the graph was disposed");
    return *h;
  }
  /** The graph, when no async work uses it (else an error). */
  Hnsw& idle(const Napi::Env& env) {
    Hnsw& g = graph(env);
    if (busy.load() > 0) throw Napi::Error::New(env, "the graph is busy (an insert, a save or a search's filter runs)");
    return g;
  }

  /** Drops the references the graph's elements hold on rows, and the graph. */
  void release() {
    if (!h) return;
    for (size_t i = 0; i < h->cur_element_count; i++) rows->unref(vdb::elementRow(*h, static_cast<hnswlib::tableint>(i)));
    level0.releaseFrom(*h);
    h.reset();
  }
};

/**
 * Marks a graph busy and its rows read while a search on the JS thread calls into JS (its filter): what that JS
 * does to the graph meanwhile (a resize, which frees the tables and row-id array the walk holds and may move the
 * level-0 block; a delete; a dispose) is refused, as during async work.
 */
struct BusyWhile {
  explicit BusyWhile(GraphCore& core) : core_(core) {
    core_.busy++;
    core_.rows->readers++;
  }
  ~BusyWhile() {
    core_.rows->readers--;
    core_.busy--;
  }
  BusyWhile(const BusyWhile&) = delete;
  BusyWhile& operator=(const BusyWhile&) = delete;

 private:
  GraphCore& core_;
};

/**
 * Async work on a graph: holds the graph's JS object and marks the graph busy (changes refused) and its rows
 * read (no quantize) until it settles its promise; subclasses do the work in Execute and say what it resolves to.
 */
class GraphWork : public Napi::AsyncWorker {
 public:
  GraphWork(Napi::Env env, Napi::Object self, GraphCore& core)
      : Napi::AsyncWorker(env), core_(core), self_(Napi::Persistent(self)), deferred_(Napi::Promise::Deferred::New(env)) {
    core_.busy++;
    core_.rows->readers++;
  }
  Napi::Promise promise() { return deferred_.Promise(); }

 protected:
  /** Runs on the JS thread once the work is done, before the promise settles. */
  virtual void finished(bool ok) {}
  virtual double result() const = 0;
  void OnOK() override {
    release();
    finished(true);
    deferred_.Resolve(Napi::Number::New(Env(), result()));
  }
  void OnError(const Napi::Error& e) override {
    release();
    finished(false);
    deferred_.Reject(e.Value());
  }
  GraphCore& core_;

 private:
  void release() {
    core_.rows->readers--;
    core_.busy--;
    self_.Reset();
  }
  Napi::ObjectReference self_;
  Napi::Promise::Deferred deferred_;
};

}  // namespace
