// Our insert into an addon graph: hnswlib's addPoint (with its searchBaseLayer, getNeighborsByHeuristic2
// and mutuallyConnectNewElement) step for step, under the same locks (the label's operation lock, the
// label table's, each link list's, and the global one while the new element may become the entry point),
// so it runs beside hnswlib's searches and markDelete and on several threads at once. Single-threaded it
// builds the graph hnswlib builds, link for link. Two differences: the walks (graph_search.h) and the
// heuristic read the row ids from ElementRows (element_rows.h: this insert writes an element's row there
// and in its element data), and the heuristic and the replacement of a full neighbour's links prefetch
// the rows they read; and
// over int8 rows, when the new row's float32 values are given, its candidate searches compare those values
// with the codes (asymmetric, as searches do) where hnswlib compares codes with codes. The selection among
// existing elements (the heuristic) stays on codes. A label already in the graph goes to hnswlib's update.
// An insert is two steps: claim (the element id, its label and row: quick, and what callers on several
// threads serialize, so that ids follow the order they take their items in) and link (its level and links).
#pragma once
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include "graph_search.h"

namespace vdb {

class GraphInsert {
 public:
  using Heap = GraphSearch::Heap;

  GraphInsert(Hnsw& g, ElementRows& elementRows, const RowStore& rows, const void* spaceParam)
      : g_(g), elementRows_(elementRows), rows_(rows), param_(spaceParam) {}

  /**
   * An element id taken for a label by claim, with the locks its link step goes on holding (the label's
   * operation lock and the element's link list lock, as hnswlib's addPoint holds them); `fresh` false: the
   * label was in the graph already, no id taken, no lock held.
   */
  struct Claim {
    std::unique_lock<std::mutex> label, own;
    hnswlib::tableint id = 0;
    bool fresh = false;
  };

  /**
   * Inserts the element of `label` reading row `*row` (hnswlib's addPoint(row, label)). `values`: the row's
   * float32 values, or null; over int8 rows they make the candidate searches asymmetric.
   */
  void add(const uint32_t* row, hnswlib::labeltype label, const float* values) {
    Claim claimed = claim(row, label);
    link(claimed, row, label, values);
  }

  /**
   * The first step of add: the next element id for a label not in the graph, its element data cleared and
   * given the label and row `*row` (ElementRows records the row here, so the order of claims is the order of
   * the run). Quick: inserts on several threads claim under one lock of theirs (Graph.addAsync), so that
   * element ids follow the order the items are taken in. Takes the label's operation lock, then the label
   * table's: nobody holding either waits for the caller's lock.
   */
  Claim claim(const uint32_t* row, hnswlib::labeltype label) {
    Claim c;
    c.label = std::unique_lock<std::mutex>(g_.getLabelOpMutex(label));
    {
      std::lock_guard<std::mutex> table(g_.label_lookup_lock);
      if (g_.label_lookup_.find(label) != g_.label_lookup_.end()) {
        c.label.unlock();  // hnswlib's addPoint (the update, in link) takes it again
        return c;
      }
      if (g_.cur_element_count >= g_.max_elements_) throw std::runtime_error("The number of elements exceeds the specified limit");
      c.id = static_cast<hnswlib::tableint>(g_.cur_element_count);
      g_.cur_element_count++;
      g_.label_lookup_[label] = c.id;
    }
    c.fresh = true;
    c.own = std::unique_lock<std::mutex>(g_.link_list_locks_[c.id]);
    // No walk reaches the element before link connects it: its data may be written before its level is drawn.
    std::memset(g_.data_level0_memory_ + c.id * g_.size_data_per_element_ + g_.offsetLevel0_, 0, g_.size_data_per_element_);
    std::memcpy(g_.getExternalLabeLp(c.id), &label, sizeof(hnswlib::labeltype));
    elementRows_.set(g_, c.id, *row);
    return c;
  }

  /** The second step of add: the claimed element's level and links (or hnswlib's update, for a label in the graph). */
  void link(Claim& c, const uint32_t* row, hnswlib::labeltype label, const float* values) {
    if (!c.fresh) {
      g_.addPoint(row, label);
      elementRows_.adopt(g_, label);
      return;
    }
    const hnswlib::tableint cur = c.id;
    const int level = drawLevel();
    g_.element_levels_[cur] = level;
    std::unique_lock<std::mutex> top(g_.global);
    const int maxLevel = g_.maxlevel_;
    if (level <= maxLevel) top.unlock();
    const hnswlib::tableint entry = g_.enterpoint_node_;

    if (level > 0) {
      g_.linkLists_[cur] = static_cast<char*>(std::malloc(g_.size_links_per_element_ * level + 1));
      if (g_.linkLists_[cur] == nullptr) throw std::runtime_error("Not enough memory: addPoint failed to allocate linklist");
      std::memset(g_.linkLists_[cur], 0, g_.size_links_per_element_ * level + 1);
    }

    if (static_cast<int>(entry) != -1) {
      std::unique_ptr<FloatQuery> asymmetric;
      if (values != nullptr && rows_.int8()) asymmetric = std::make_unique<FloatQuery>(rows_, values);
      GraphSearch walk(g_, elementRows_, rows_, asymmetric ? static_cast<const void*>(&asymmetric->ref()) : row, param_, true);
      hnswlib::tableint current = entry;
      if (level < maxLevel) current = walk.descend(entry, maxLevel, level + 1);
      const bool entryDeleted = g_.isMarkedDeleted(entry);
      const bool bare = g_.num_deleted_ == 0;
      for (int l = std::min(level, maxLevel); l >= 0; l--) {
        Heap candidates = bare ? walk.layer<true>(current, g_.ef_construction_, l, nullptr) : walk.layer<false>(current, g_.ef_construction_, l, nullptr);
        if (entryDeleted) {
          candidates.emplace(walk.distance(entry), entry);
          if (candidates.size() > g_.ef_construction_) candidates.pop();
        }
        current = connect(walk, cur, candidates, l);
      }
    } else {
      g_.enterpoint_node_ = 0;
      g_.maxlevel_ = level;
    }
    if (level > maxLevel) {
      g_.enterpoint_node_ = cur;
      g_.maxlevel_ = level;
    }
  }

 private:
  /** hnswlib's level for the next element, from its generator (under a lock: our inserts share it across threads). */
  int drawLevel() {
    static std::mutex generatorLock;
    std::lock_guard<std::mutex> lock(generatorLock);
    return g_.getRandomLevel(g_.mult_);
  }

  inline float between(hnswlib::tableint a, hnswlib::tableint b) const {
    return RowSpace::distance(elementRows_.ids() + a, elementRows_.ids() + b, param_);
  }

  /**
   * hnswlib's getNeighborsByHeuristic2: keeps at most `m` of the candidates, nearest first, each one nearer
   * the query than to every one kept before it. Candidates are taken in the order hnswlib's queue of them
   * pops (distance, then the larger id first).
   */
  void select(const GraphSearch& walk, Heap& candidates, size_t m) {
    if (candidates.size() < m) return;
    order_.clear();
    while (!candidates.empty()) {
      order_.push_back(candidates.top());
      candidates.pop();
    }
    std::sort(order_.begin(), order_.end(), [](const GraphSearch::Hit& a, const GraphSearch::Hit& b) {
      return a.first < b.first || (a.first == b.first && a.second > b.second);
    });
    kept_.clear();
    // The next candidate's row is fetched while this one is compared (the walk read it, long ago).
    for (size_t i = 0; i < order_.size(); i++) {
      if (kept_.size() >= m) break;
      const GraphSearch::Hit& c = order_[i];
      if (i + 1 < order_.size()) walk.prefetchRow(order_[i + 1].second);
      bool good = true;
      for (const GraphSearch::Hit& k : kept_) {
        if (between(k.second, c.second) < c.first) {
          good = false;
          break;
        }
      }
      if (good) kept_.push_back(c);
    }
    for (const GraphSearch::Hit& k : kept_) candidates.emplace(k.first, k.second);
  }

  /** hnswlib's mutuallyConnectNewElement for a new element: its links on `level`, and theirs back; the nearest linked. */
  hnswlib::tableint connect(GraphSearch& walk, hnswlib::tableint cur, Heap& candidates, int level) {
    const size_t maxLinks = level > 0 ? g_.maxM_ : g_.maxM0_;
    select(walk, candidates, g_.M_);
    if (candidates.size() > g_.M_) throw std::runtime_error("Should be not be more than M_ candidates returned by the heuristic");
    std::vector<hnswlib::tableint> chosen;
    chosen.reserve(g_.M_);
    while (!candidates.empty()) {
      chosen.push_back(candidates.top().second);
      candidates.pop();
    }
    // The caller holds the new element's lock.
    hnswlib::linklistsizeint* own = g_.get_linklist_at_level(cur, level);
    if (*own) throw std::runtime_error("The newly inserted element should have blank link list");
    g_.setListCount(own, static_cast<unsigned short>(chosen.size()));
    hnswlib::tableint* ownLinks = reinterpret_cast<hnswlib::tableint*>(own + 1);
    for (size_t i = 0; i < chosen.size(); i++) {
      if (ownLinks[i]) throw std::runtime_error("Possible memory corruption");
      if (level > g_.element_levels_[chosen[i]]) throw std::runtime_error("Trying to make a link on a non-existent level");
      ownLinks[i] = chosen[i];
    }
    for (hnswlib::tableint other : chosen) {
      std::lock_guard<std::mutex> lock(g_.link_list_locks_[other]);
      hnswlib::linklistsizeint* list = g_.get_linklist_at_level(other, level);
      size_t count = g_.getListCount(list);
      if (count > maxLinks) throw std::runtime_error("Bad value of sz_link_list_other");
      if (other == cur) throw std::runtime_error("Trying to connect an element to itself");
      if (level > g_.element_levels_[other]) throw std::runtime_error("Trying to make a link on a non-existent level");
      hnswlib::tableint* links = reinterpret_cast<hnswlib::tableint*>(list + 1);
      if (count < maxLinks) {
        links[count] = cur;
        g_.setListCount(list, static_cast<unsigned short>(count + 1));
        continue;
      }
      // Full: its links chosen again among them and the new element. Their rows are rarely in cache.
      walk.prefetchRows(links, count);
      Heap pool;
      pool.emplace(between(cur, other), cur);
      for (size_t j = 0; j < count; j++) pool.emplace(between(links[j], other), links[j]);
      select(walk, pool, maxLinks);
      size_t n = 0;
      while (!pool.empty()) {
        links[n++] = pool.top().second;
        pool.pop();
      }
      g_.setListCount(list, static_cast<unsigned short>(n));
    }
    return chosen.back();
  }

  Hnsw& g_;
  ElementRows& elementRows_;
  const RowStore& rows_;
  const void* param_;
  std::vector<GraphSearch::Hit> order_, kept_;
};

}  // namespace vdb
