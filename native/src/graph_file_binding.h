// A graph's file bindings: save writes the graph and its rows to one file (graph_file.h), load replaces an
// empty graph by a file's, its rows read into fresh rows of the store; both off the JS thread.
#pragma once
#include <cstring>
#include <string>
#include "graph_core.h"

namespace {

class SaveWork : public GraphWork {
 public:
  SaveWork(Napi::Env env, Napi::Object self, GraphCore& core, std::string path) : GraphWork(env, self, core), path_(std::move(path)) {}
  void Execute() override {
    try {
      bytes_ = vdb::saveGraphFile(*core_.h, *core_.rows, path_);
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
Napi::Value saveGraph(const Napi::CallbackInfo& info, GraphCore& core) {
  core.graph(info.Env());
  auto* work = new SaveWork(info.Env(), info.This().As<Napi::Object>(), core, info[0].As<Napi::String>().Utf8Value());
  Napi::Promise p = work->promise();
  work->Queue();
  return p;
}

class LoadWork : public GraphWork {
 public:
  LoadWork(Napi::Env env, Napi::Object self, GraphCore& core, std::string path, vdb::FileHead head, uint32_t firstRow, size_t maxElements)
      : GraphWork(env, self, core), path_(std::move(path)), head_(head), firstRow_(firstRow), maxElements_(maxElements) {}
  ~LoadWork() override {
    if (loaded_) level0_.releaseFrom(*loaded_);  // hnswlib would free() it
  }
  void Execute() override {
    try {
      loaded_ = std::make_unique<Hnsw>(core_.space.get());
      vdb::loadGraphFile(*loaded_, loadedRows_, *core_.space, *core_.rows, path_, head_, firstRow_, maxElements_, [this](size_t bytes) { return level0_.allocate(bytes); });
    } catch (const std::exception& e) {
      if (loaded_) level0_.releaseFrom(*loaded_);
      loaded_.reset();
      SetError(e.what());
    }
  }

 private:
  void finished(bool ok) override {
    if (ok) {
      core_.release();
      core_.h = std::move(loaded_);  // its elements hold the references taken for the fresh rows
      core_.level0 = std::move(level0_);
      core_.elementRows = std::move(loadedRows_);
    } else {
      for (uint64_t i = 0; i < head_.count; i++) core_.rows->unref(firstRow_ + static_cast<uint32_t>(i));
    }
  }
  double result() const override { return static_cast<double>(head_.count); }
  std::string path_;
  vdb::FileHead head_;
  uint32_t firstRow_;
  size_t maxElements_;
  std::unique_ptr<Hnsw> loaded_;
  vdb::Level0Block level0_;
  vdb::ElementRows loadedRows_;
};

/**
 * load(path, maxElements, fileBytes): replaces this (empty) graph by the file's, its rows read into fresh
 * rows of the store, on a libuv thread; resolves to the element count. Rejects with a message starting
 * "incompatible:" when the file is not a graph file of this dimension or not `fileBytes` long.
 */
Napi::Value loadGraph(const Napi::CallbackInfo& info, GraphCore& core) {
  Napi::Env env = info.Env();
  core.idle(env);
  std::string path = info[0].As<Napi::String>().Utf8Value();
  size_t maxElements = u32(info[1]);
  double expected = info[2].IsNumber() ? info[2].As<Napi::Number>().DoubleValue() : -1;
  vdb::FileHead head{};
  uint64_t fileBytes = 0;
  auto deferred = Napi::Promise::Deferred::New(env);
  if (!vdb::readGraphHead(path, core.rows->dim(), head, fileBytes) || (expected >= 0 && static_cast<double>(fileBytes) != expected)) {
    deferred.Reject(Napi::Error::New(env, "incompatible: " + path + " is not a graph file of this dimension and length").Value());
    return deferred.Promise();
  }
  // An int8 file's rows go into a store of its scale: an empty one takes it; float rows cannot be read from codes.
  if (head.version == vdb::kInt8Version) {
    RowStore& rows = *core.rows;
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
  uint32_t firstRow = head.count > 0 ? core.rows->takeFresh(static_cast<uint32_t>(head.count)) : core.rows->used();
  auto* work = new LoadWork(env, info.This().As<Napi::Object>(), core, path, head, firstRow, maxElements);
  Napi::Promise p = work->promise();
  work->Queue();
  return p;
}

}  // namespace
