// vectordb-local's native addon: a row store (the one float32 copy of each vector: rows_binding.h) and
// hnswlib graphs over it (graph_binding.h), malloc_trim, and glibc's mmap threshold fixed (below). Used by
// src/vector-index/native-addon.ts; everything here deals in row ids and slots (hnswlib labels).
#include <napi.h>
#include <cstdlib>
#include <cstring>
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

/**
 * glibc serves a block of this size or more by its own mmap (unmapped when freed), always. Left to itself it
 * raises that threshold to the size of each such block freed (up to 32 MiB) and its heaps' trim threshold to
 * twice that: a graph's growth frees its per-element tables (4-40 MB at 1M) and makes larger ones (graph_growth.h),
 * so after the first growths those tables, and every block under the raised threshold, went into the heaps of the
 * threads that made them, whose free tops glibc never gives back (malloc_trim does not either): about 15 MB of
 * thread heaps at 200k vectors, issue 31. Not set when the user set it (GLIBC_TUNABLES or MALLOC_MMAP_THRESHOLD_).
 */
constexpr int kMmapThreshold = 1 << 20;

void fixMmapThreshold() {
#if defined(__GLIBC__)
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if ((tunables != nullptr && std::strstr(tunables, "mmap_threshold") != nullptr) || std::getenv("MALLOC_MMAP_THRESHOLD_") != nullptr) return;
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
#endif
}

/** heapStats(): glibc's bytes in its own mmaps and in its heaps (mallinfo2; zeros off glibc): tests. */
Napi::Value HeapStats(const Napi::CallbackInfo& info) {
  Napi::Object out = Napi::Object::New(info.Env());
  double mmapped = 0, heaps = 0;
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 33)
  struct mallinfo2 m = mallinfo2();
  mmapped = static_cast<double>(m.hblkhd);
  heaps = static_cast<double>(m.arena);
#endif
  out.Set("mmapped", mmapped);
  out.Set("heaps", heaps);
  return out;
}

/** level0Moves(): times a graph's level-0 block moved as it grew, in this process (graph_growth.h): tests. */
Napi::Value Level0Moves(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(vdb::Level0Block::moves())); }

/** mallocTrim(): resolves to whether glibc returned memory to the system (false off glibc). */
Napi::Value MallocTrim(const Napi::CallbackInfo& info) {
  auto* work = new TrimWork(info.Env());
  Napi::Promise p = work->promise();
  work->Queue();
  return p;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  fixMmapThreshold();
  Napi::Function rows = Rows::Init(env);
  auto* data = new AddonData{Napi::Persistent(rows)};
  env.SetInstanceData<AddonData>(data);
  exports.Set("Rows", rows);
  exports.Set("Graph", Graph::Init(env));
  exports.Set("mallocTrim", Napi::Function::New(env, MallocTrim));
  exports.Set("heapStats", Napi::Function::New(env, HeapStats));
  exports.Set("level0Moves", Napi::Function::New(env, Level0Moves));
  exports.Set("hardwareThreads", Napi::Number::New(env, std::max(1u, std::thread::hardware_concurrency())));
  return exports;
}

}  // namespace

NODE_API_MODULE(vectordb_native, Init)

