// Each graph element's row id by internal id, in one compact array (4 bytes an element: 4 MB at 1M, which the
// caches keep) beside hnswlib's element data, which holds the same id for hnswlib's own code (searchKnn,
// addPoint's update path, the graph file). Our walks (graph_search.h) read the id here: at 1M the element
// data of a neighbour is a cache miss of its own before the row's. Every write of an element's row goes
// through set (ours) or adopt (after hnswlib wrote it); the array grows ahead of the graph (reserve).
#pragma once
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
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
    ids_[id] = row;
  }

  /** After hnswlib's own addPoint (or its update path) wrote the data of `label`'s element: its row here too. */
  void adopt(Hnsw& g, hnswlib::labeltype label) {
    std::lock_guard<std::mutex> lock(g.label_lookup_lock);
    auto found = g.label_lookup_.find(label);
    if (found != g.label_lookup_.end()) ids_[found->second] = elementRow(g, found->second);
  }

  /** The row of element `id` (as its element data says). */
  inline uint32_t operator[](hnswlib::tableint id) const { return ids_[id]; }
  /** The array itself: a distance takes a pointer to an element's id, as it takes one to element data. */
  inline const uint32_t* ids() const { return ids_.get(); }

  /** Elements whose id here is not their element data's (tests: 0 after every path that writes rows). */
  size_t mismatches(const Hnsw& g) const {
    size_t n = 0;
    for (size_t i = 0; i < g.cur_element_count; i++) n += ids_[i] != elementRow(g, static_cast<hnswlib::tableint>(i));
    return n;
  }

 private:
  struct Free {
    void operator()(uint32_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint32_t[], Free> ids_;
  size_t capacity_ = 0;
};

}  // namespace vdb
