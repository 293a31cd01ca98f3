// Each graph element's row id by internal id, in one compact array (4 bytes an element: 4 MB at 1M, which the
// caches keep) beside hnswlib's element data, which holds the same id for hnswlib's own code (searchKnn,
// addPoint's update path, the graph file). Our walks (graph_search.h) read the id here: at 1M the element
// data of a neighbour is a cache miss of its own before the row's. Every write of an element's row goes
// through set (ours) or adopt (after hnswlib wrote it); the array grows ahead of the graph (reserve).
// It also keeps the run of elements 0, 1, .. whose rows are first, first + 1, ..: a loaded graph file (its
// rows renumbered in element order) or inserts in row order, on one thread or several (Graph.addAsync claims
// element ids in the order it hands out items, and the claim records the row: GraphInsert::claim). A walk
// reads such an element's row from its id alone, with no load of the array before it can prefetch the row.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <utility>
#include "hnswlib.h"
#include "huge_pages.h"

namespace vdb {

using Hnsw = hnswlib::HierarchicalNSW<float>;

/** The row id in an element's data (hnswlib's copy; our walks read ElementRows). */
inline uint32_t elementRow(const Hnsw& h, hnswlib::tableint i) {
  return *reinterpret_cast<const uint32_t*>(h.getDataByInternalId(i));
}

class ElementRows {
 public:
  ElementRows() = default;
  /** Moved in once a graph file's load is done (on the JS thread: no walk reads either meanwhile). */
  ElementRows(ElementRows&& other) noexcept { *this = std::move(other); }
  ElementRows& operator=(ElementRows&& other) noexcept {
    ids_ = std::move(other.ids_);
    capacity_ = std::exchange(other.capacity_, 0);
    run_.store(other.run_.exchange(0));
    return *this;
  }

  /** Room for `capacity` elements (a graph's max_elements_, before it grows to it), the ids kept; never shrinks. */
  void reserve(size_t capacity) {
    if (capacity <= capacity_) return;
    uint32_t* ids = static_cast<uint32_t*>(allocLarge(capacity * sizeof(uint32_t)));
    if (ids == nullptr) throw std::bad_alloc();
    if (ids_) std::memcpy(ids, ids_.get(), capacity_ * sizeof(uint32_t));
    ids_.reset(ids);
    capacity_ = capacity;
  }

  /** Element `id` reads `row`: in hnswlib's element data and here. */
  inline void set(Hnsw& g, hnswlib::tableint id, uint32_t row) {
    std::memcpy(g.getDataByInternalId(id), &row, sizeof row);
    record(id, row);
  }

  /** After hnswlib's own addPoint (or its update path) wrote the data of `label`'s element: its row here too. */
  void adopt(Hnsw& g, hnswlib::labeltype label) {
    std::lock_guard<std::mutex> lock(g.label_lookup_lock);
    auto found = g.label_lookup_.find(label);
    if (found != g.label_lookup_.end()) record(found->second, elementRow(g, found->second));
  }

  /** The row of element `id` (as its element data says). */
  inline uint32_t operator[](hnswlib::tableint id) const { return ids_[id]; }

  /** Elements 0 .. length - 1 read rows first .. first + length - 1 (read together: inserts change them meanwhile). */
  struct Run {
    uint32_t first;
    uint32_t length;
  };
  Run run() const {
    const uint64_t packed = run_.load(std::memory_order_acquire);
    return Run{static_cast<uint32_t>(packed >> 32), static_cast<uint32_t>(packed)};
  }
  /** The array itself: a distance takes a pointer to an element's id, as it takes one to element data. */
  inline const uint32_t* ids() const { return ids_.get(); }

  /**
   * Elements whose id here is not their element data's, or in the run whose row is not the run's (tests: 0
   * after every path that writes rows).
   */
  size_t mismatches(const Hnsw& g) const {
    const Run r = run();
    size_t n = 0;
    for (size_t i = 0; i < g.cur_element_count; i++) {
      const uint32_t row = elementRow(g, static_cast<hnswlib::tableint>(i));
      n += ids_[i] != row || (i < r.length && static_cast<uint64_t>(r.first) + i != row);
    }
    return n;
  }

 private:
  static inline uint64_t pack(uint64_t first, uint64_t length) { return first << 32 | length; }

  /**
   * The array's entry, and the run: element `id` next after it in row order extends it (the first element
   * starts it), a row out of order at or before its end cuts it there. Inserts on several threads claim ids
   * and record them in turn, but hnswlib's update (adopt) records beside them, so the run changes by
   * compare-and-swap; an element recorded out of turn (past the end) ends its growth (the walks then read
   * the array past it).
   */
  void record(hnswlib::tableint id, uint32_t row) {
    ids_[id] = row;
    uint64_t packed = run_.load(std::memory_order_relaxed);
    for (;;) {
      const uint64_t first = packed >> 32, length = static_cast<uint32_t>(packed);
      uint64_t next;
      if (id == length && (length == 0 || first + id == row) && length < UINT32_MAX) next = pack(length == 0 ? row : first, length + 1);
      else if (id < length && first + id != row) next = pack(first, id);
      else return;
      if (run_.compare_exchange_weak(packed, next, std::memory_order_release, std::memory_order_relaxed)) return;
    }
  }

  struct Free {
    void operator()(uint32_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint32_t[], Free> ids_;
  size_t capacity_ = 0;
  /** The run (first row << 32 | length). */
  std::atomic<uint64_t> run_{0};
};

}  // namespace vdb
