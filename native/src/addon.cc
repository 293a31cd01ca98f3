// vectordb-local's native addon: a row store (the one float32 copy of each vector: rows_binding.h) and
// hnswlib graphs over it (graph_binding.h), and malloc_trim. Used by src/vector-index/native-addon.ts;
// everything here deals in row ids and slots (hnswlib labels).
#include <napi.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include "graph_binding.h"

namespace {

/** glibc's malloc_trim(0) on a libuv thread (it walks the whole heap: hundreds of ms after a large build). */
class TrimWork : public Napi::AsyncWorker {
 public:
  explicit TrimWork(Napi::Env env) : Napi::AsyncWorker(env), deferred_(Napi::Promise::Deferred::New(env)) {}
  Napi::Promise promise() { return deferred_.Promise(); }
  void Execute() override {
#if defined(__GLIBC__)
    trimmed_ = malloc_trim(0) != 0;
#endif
  }
  void OnOK() override { deferred_.Resolve(Napi::Boolean::New(Env(), trimmed_)); }

 private:
  Napi::Promise::Deferred deferred_;
  bool trimmed_ = false;
};

/** mallocTrim(): resolves to whether glibc returned memory to the system (false off glibc). */
Napi::Value MallocTrim(const Napi::CallbackInfo& info) {
  auto* work = new TrimWork(info.Env());
  Napi::Promise p = work->promise();
  work->Queue();
  return p;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  Napi::Function rows = Rows::Init(env);
  auto* data = new AddonData{Napi::Persistent(rows)};
  env.SetInstanceData<AddonData>(data);
  exports.Set("Rows", rows);
  exports.Set("Graph", Graph::Init(env));
  exports.Set("mallocTrim", Napi::Function::New(env, MallocTrim));
  exports.Set("hardwareThreads", Napi::Number::New(env, std::max(1u, std::thread::hardware_concurrency())));
  return exports;
}

}  // namespace

NODE_API_MODULE(vectordb_native, Init)

