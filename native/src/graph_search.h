// Our walk over an addon graph: hnswlib's searchKnn step for step (greedy walk down the upper layers, then
// the base layer with ef, the same heaps fed in the same order: the same hits and distances), and the same
// two steps as an insert takes them (graph_insert.h: any layer, link lists read under their locks), but it
// reads a neighbour's row id from ElementRows (element_rows.h: 4 bytes an element, kept in the caches)
// where hnswlib reads its element data, which here is only that id: at 1M two dependent cache misses a
// distance (the element data, then the row, row_store.h) become one. Elements in the run of rows in element
// order (a loaded graph file, or inserts in row order, on one thread or several) need no id at all: their
// row follows from the element id. The loop is hnswlib's, prefetching as hnswlib does its element data: the
// next neighbour's row unless it is visited (its first 8 lines, as every row prefetch here: with
// float_kernels.h's kernels a distance outran the hardware's stream after the first line), and two ahead its visited mark and its row id, which
// that prefetch reads (bench/README.md, graph-search-bench: prefetching the rows of all of a node's
// neighbours at once cost 10-20 % at 200k, one ahead saves). The insert's heuristic prefetches the rows it
// reads in an order known ahead (prefetchRow).
#pragma once
#include <algorithm>
#include <limits>
#include <mutex>
#include <queue>
#include <stdexcept>
#include <vector>
#include "element_rows.h"
#include "row_space.h"

// GCC 12 drops a __builtin_prefetch (_mm_prefetch) of a row whose id the run decides (rowOf): as an asm
// statement it stays.
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define VDB_PREFETCH(p) asm volatile("prefetcht0 %0" : : "m"(*reinterpret_cast<const char*>(p)))
#elif defined(__SSE__) || defined(_M_X64) || defined(__x86_64__)
#include <xmmintrin.h>
#define VDB_PREFETCH(p) _mm_prefetch(reinterpret_cast<const char*>(p), _MM_HINT_T0)
#elif defined(__GNUC__)
#define VDB_PREFETCH(p) __builtin_prefetch(p)
#else
#define VDB_PREFETCH(p) ((void)(p))
#endif

namespace vdb {

class GraphSearch {
 public:
  using Hit = std::pair<float, hnswlib::tableint>;
  using Heap = std::priority_queue<Hit, std::vector<Hit>, Hnsw::CompareByFirst>;

  /**
   * `query`: a QueryRef (a search's, or an insert's float values) or a row id (an insert's row); `locked`:
   * each link list is copied under its lock (an insert: other inserts write them meanwhile).
   */
  GraphSearch(Hnsw& g, const ElementRows& elementRows, const RowStore& rows, const void* query, const void* spaceParam, bool locked = false)
      : g_(g), rowIds_(elementRows.ids()), run_(elementRows.run()), rows_(rows), q_(query), param_(spaceParam), locked_(locked) {
    // A row's first lines, at most 8 (all of 100 dimensions; at 384 the rest follows the hardware's stream:
    // all 25 measured no better).
    lines_ = std::min<size_t>((rows.stride() + 63) / 64 + 1, 8);
    ids_.resize(g.maxM0_);
  }

  /** hnswlib's searchKnn(query, k, filter) with the graph's ef_: nearest last, as hnswlib returns them. */
  std::priority_queue<std::pair<float, hnswlib::labeltype>> knn(size_t k, hnswlib::BaseFilterFunctor* filter) {
    std::priority_queue<std::pair<float, hnswlib::labeltype>> result;
    if (g_.cur_element_count == 0) return result;
    hnswlib::tableint current = descend(g_.enterpoint_node_, g_.maxlevel_, 1);
    size_t ef = std::max(g_.ef_, k);
    Heap top = filter == nullptr && g_.num_deleted_ == 0 ? layer<true>(current, ef, 0, nullptr) : layer<false>(current, ef, 0, filter);
    while (top.size() > k) top.pop();
    while (!top.empty()) {
      result.push(std::pair<float, hnswlib::labeltype>(top.top().first, g_.getExternalLabel(top.top().second)));
      top.pop();
    }
    return result;
  }

  /** The greedy walk from `entry` down the layers `from` to `to` (inclusive): the closest element it reaches. */
  hnswlib::tableint descend(hnswlib::tableint entry, int from, int to) {
    hnswlib::tableint current = entry;
    float currentDist = distance(entry);
    for (int level = from; level >= to; level--) {
      bool changed = true;
      while (changed) {
        changed = false;
        size_t n = neighbours(current, level);
        for (size_t i = 0; i < n; i++) {
          if (ids_[i] > g_.max_elements_) throw std::runtime_error("cand error");
          if (i + 2 < n) prefetchRowId(ids_[i + 2]);
          if (i + 1 < n) prefetchRow(ids_[i + 1]);
          float d = distance(ids_[i]);
          if (d < currentDist) {
            currentDist = d;
            current = ids_[i];
            changed = true;
          }
        }
      }
    }
    return current;
  }

  /**
   * hnswlib's searchBaseLayerST (a search, filter or none) or searchBaseLayer (an insert, no filter) on
   * one layer, without a stop condition; `bare`: no deleted element and no filter (the stop on the heap's
   * size then never decides: while it is short of ef every candidate is in it).
   */
  template <bool bare>
  Heap layer(hnswlib::tableint entry, size_t ef, int level, hnswlib::BaseFilterFunctor* filter) {
    hnswlib::VisitedList* vl = g_.visited_list_pool_->getFreeVisitedList();
    hnswlib::vl_type* visited = vl->mass;
    const hnswlib::vl_type tag = vl->curV;
    Heap top, candidates;
    float lowerBound;
    if (bare || (!g_.isMarkedDeleted(entry) && (filter == nullptr || (*filter)(g_.getExternalLabel(entry))))) {
      float d = distance(entry);
      lowerBound = d;
      top.emplace(d, entry);
      candidates.emplace(-d, entry);
    } else {
      lowerBound = std::numeric_limits<float>::max();
      candidates.emplace(-lowerBound, entry);
    }
    visited[entry] = tag;
    while (!candidates.empty()) {
      Hit next = candidates.top();
      float candidateDist = -next.first;
      if (bare ? candidateDist > lowerBound : candidateDist > lowerBound && top.size() == ef) break;
      candidates.pop();
      size_t n = neighbours(next.second, level);
      for (size_t i = 0; i < std::min<size_t>(n, 2); i++) {
        VDB_PREFETCH(visited + ids_[i]);
        prefetchRowId(ids_[i]);
      }
      if (n > 0) prefetchRow(ids_[0]);
      for (size_t i = 0; i < n; i++) {
        // Two neighbours ahead their marks and row ids, the next one's row unless visited (its mark came two
        // ahead) and its label, which a filter reads if it comes near.
        if (i + 2 < n) {
          VDB_PREFETCH(visited + ids_[i + 2]);
          prefetchRowId(ids_[i + 2]);
        }
        if (i + 1 < n) {
          if (visited[ids_[i + 1]] != tag) prefetchRow(ids_[i + 1]);
          if (!bare) prefetchElement(ids_[i + 1]);
        }
        hnswlib::tableint id = ids_[i];
        if (visited[id] == tag) continue;
        visited[id] = tag;
        float d = distance(id);
        if (top.size() < ef || lowerBound > d) {
          candidates.emplace(-d, id);
          VDB_PREFETCH(g_.get_linklist_at_level(candidates.top().second, level));
          if (bare || (!g_.isMarkedDeleted(id) && (filter == nullptr || (*filter)(g_.getExternalLabel(id))))) top.emplace(d, id);
          while (top.size() > ef) top.pop();
          if (!top.empty()) lowerBound = top.top().first;
        }
      }
    }
    g_.visited_list_pool_->releaseVisitedList(vl);
    return top;
  }

  /** The query's distance to an element (the query first, as hnswlib passes it). */
  inline float distance(hnswlib::tableint id) const {
    const uint32_t row = rowOf(id);
    return RowSpace::distance(q_, &row, param_);
  }

  /** An element's row: from its id in the run of rows in element order, else from the array. */
  inline uint32_t rowOf(hnswlib::tableint id) const { return id < run_.length ? run_.first + id : rowIds_[id]; }

  /** Prefetches the first lines of the rows of elements ids[0..n). */
  void prefetchRows(const hnswlib::tableint* ids, size_t n) const {
    for (size_t i = 0; i < n; i++) prefetchRow(ids[i]);
  }

  inline void prefetchRow(hnswlib::tableint id) const {
    const char* row = rows_.bytes(rowOf(id));
    for (size_t line = 0; line < lines_; line++) VDB_PREFETCH(row + 64 * line);
  }

  /** An element's entry in the row-id array, unless the run gives its row. */
  inline void prefetchRowId(hnswlib::tableint id) const {
    if (id >= run_.length) VDB_PREFETCH(rowIds_ + id);
  }

  inline void prefetchElement(hnswlib::tableint id) const { VDB_PREFETCH(g_.getDataByInternalId(id)); }

 private:
  /** Copies an element's link list on a layer (at most maxM0_ ids: an insert may be writing it) into ids_; how many. */
  size_t neighbours(hnswlib::tableint id, int level) {
    std::unique_lock<std::mutex> lock(g_.link_list_locks_[id], std::defer_lock);
    if (locked_) lock.lock();
    const unsigned* list = g_.get_linklist_at_level(id, level);
    size_t n = std::min<size_t>(g_.getListCount(const_cast<unsigned*>(list)), g_.maxM0_);
    for (size_t i = 0; i < n; i++) ids_[i] = list[i + 1];
    return n;
  }

  Hnsw& g_;
  const uint32_t* const rowIds_;
  /** The run of rows in element order when the walk began (inserts may lengthen it meanwhile: a shorter one holds). */
  const ElementRows::Run run_;
  const RowStore& rows_;
  const void* q_;
  const void* param_;
  const bool locked_;
  size_t lines_;
  std::vector<hnswlib::tableint> ids_;
};

}  // namespace vdb
