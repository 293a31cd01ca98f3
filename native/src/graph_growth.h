// Growing a graph's capacity without a long pause on the JS thread (issue 31). hnswlib's resizeIndex
// reallocs its level-0 block (each element's links and row: 144 bytes an element at M 16, so a copy or
// remap of 150 MB at 1M cost 100-400 ms) and builds a new lock per element (40 bytes each), all on the
// calling thread. Here the level-0 block lies in an address range reserved once, and growing it makes more
// of that range usable in place (nothing moves: no copy, and no reader ever sees it change); the tables
// hnswlib keeps per element (locks, levels, upper-layer link pointers, the visited list) are made for the
// next capacity off the JS thread beforehand (GrowthTables, by Graph.prepareResize), so a resize leaves the
// JS thread a copy of 12 bytes an element and pointer swaps. What a resize swaps out is freed off it too
// (graph_binding.h), and tables made for a growth that did not come are dropped once the graph caught up.
// A block that outgrows its range moves (copied once into a range twice its size): no reader can be walking
// it then, as a resize runs on the JS thread only while no async work uses the graph, and a search whose JS
// filter runs marks the graph busy (graph_search_binding.h). VECTORDB_GRAPH_RESERVE_BYTES (read once, for
// tests) caps the range, so that a small graph outgrows it and its block moves; 0 reserves none (realloc).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#define VDB_RESERVE 1
#endif
#include "graph_file.h"
#include "huge_pages.h"

namespace vdb {

/**
 * hnswlib's level-0 block of one graph, in an address range reserved for far more than it holds (see
 * reservationBytes; less where the system refuses: mapped PROT_NONE, it costs no memory); where no range is
 * reserved, a malloc'ed block grown by realloc (hnswlib's own way). Freed with the block (not by hnswlib: see
 * releaseFrom).
 */
class Level0Block {
 public:
  /**
   * The address space a graph reserves to grow in place: 4 GiB, about 30M elements at M 16 (past it the block
   * is copied once into a larger range), so a 47-bit address space holds 32,000 graphs. None when the
   * process's address space is limited (RLIMIT_AS, `ulimit -v`): a reserved range counts against the limit in
   * full, and a few graphs' ranges left V8 no room (five graphs under `ulimit -v` 8 GiB: "JavaScript heap out
   * of memory" with 400 MB in use), so there the block grows by realloc.
   */
  static size_t reservationBytes() {
#if VDB_RESERVE
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) return 0;
    return reservationCap();
#else
    return 0;
#endif
  }

  static constexpr size_t kReservation = size_t(4) << 30;

  /**
   * kReservation, or less from VECTORDB_GRAPH_RESERVE_BYTES (bytes, rounded up to a page; read once): tests
   * make a small graph outgrow its range with it, and 0 (no range) takes the realloc path.
   */
  static size_t reservationCap() {
    static const size_t cap = [] {
      const char* set = std::getenv("VECTORDB_GRAPH_RESERVE_BYTES");
      if (set == nullptr || *set < '0' || *set > '9') return kReservation;
      char* end = nullptr;
      const unsigned long long v = std::strtoull(set, &end, 10);
      if (*end != '\0' || v >= kReservation) return kReservation;
#if VDB_RESERVE
      return roundUp(static_cast<size_t>(v), static_cast<size_t>(sysconf(_SC_PAGESIZE)));
#else
      return static_cast<size_t>(v);
#endif
    }();
    return cap;
  }

  Level0Block() = default;
  Level0Block(const Level0Block&) = delete;
  Level0Block& operator=(const Level0Block&) = delete;
  Level0Block(Level0Block&& o) noexcept { swap(o); }
  Level0Block& operator=(Level0Block&& o) noexcept {
    swap(o);  // what this held goes with `o`, freed with it
    return *this;
  }
  ~Level0Block() { release(); }

  char* data() const { return data_; }
  /** Whether growing happens in place (a reserved range). */
  bool reserved() const { return base_ != nullptr; }

  /** A fresh block of `bytes` (zeroed) in place of this one's; null when there is no memory. */
  char* allocate(size_t bytes) {
    release();
#if VDB_RESERVE
    const size_t reserve = reservationBytes();
    // Ranges come in huge pages, or in pages of a range capped below one (tests: VECTORDB_GRAPH_RESERVE_BYTES).
    const size_t unit = reserve > 0 ? std::min(kHugePage, reserve) : kHugePage;
    for (size_t want = std::max(roundUp(bytes, unit), reserve); reserve > 0 && want >= bytes && want >= unit; want /= 2) {
      void* at = mmap(nullptr, want + kHugePage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (at == MAP_FAILED) continue;
      base_ = static_cast<char*>(at);
      mapped_ = want + kHugePage;
      // Huge-page aligned, so the kernel can back it with 2 MiB pages (huge_pages.h).
      data_ = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(at) + kHugePage - 1) & ~(uintptr_t(kHugePage) - 1));
      reserved_ = want;
      // Advised once for the whole range: commits in small steps would leave the 2 MiB pages across their ends out.
      adviseHugePages(data_, reserved_);
      if (commit(bytes)) return data_;
      release();
      return nullptr;
    }
#endif
    data_ = static_cast<char*>(std::calloc(std::max<size_t>(bytes, 1), 1));
    return data_;
  }

  /** Room for `bytes`, the contents kept: in place within the range, else moved (copied); null (block kept) without memory. */
  char* grow(size_t bytes) {
    if (base_ != nullptr && bytes <= reserved_) return commit(bytes) ? data_ : nullptr;
    if (base_ == nullptr && data_ != nullptr) {
      char* moved = static_cast<char*>(std::realloc(data_, std::max<size_t>(bytes, 1)));
      if (moved == nullptr) return nullptr;
      if (moved != data_) movesCount()++;
      data_ = moved;
      return moved;
    }
    // Past the range (or nothing yet): a larger one, and the contents copied over once.
    Level0Block larger;
    if (larger.allocate(std::max(bytes, committed_ * 2)) == nullptr) return nullptr;
    if (committed_ > 0) std::memcpy(larger.data_, data_, committed_);
    if (data_ != nullptr) movesCount()++;
    swap(larger);
    return data_;
  }

  /** Times a block of this process moved as it grew (copied past its range, or moved by realloc): tests. */
  static size_t moves() { return movesCount().load(); }

  /**
   * Takes over `h`'s level-0 block (hnswlib's malloc'ed one, holding `count` elements): copied into a block
   * of this kind with room for max_elements_, hnswlib's freed.
   */
  void adopt(Hnsw& h) {
    const size_t bytes = h.max_elements_ * h.size_data_per_element_;
    if (allocate(bytes) == nullptr) throw std::bad_alloc();
    std::memcpy(data_, h.data_level0_memory_, h.cur_element_count * h.size_data_per_element_);
    std::free(h.data_level0_memory_);
    h.data_level0_memory_ = data_;
  }

  /** Frees this block if `h` holds it, and clears it from `h` (whose destructor frees its pointer with free()). */
  void releaseFrom(Hnsw& h) {
    if (h.data_level0_memory_ == data_) {
      h.data_level0_memory_ = nullptr;
      release();
    }
  }

 private:
  static size_t roundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

  bool commit(size_t bytes) {
#if VDB_RESERVE
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t want = roundUp(std::max<size_t>(bytes, 1), page);
    if (want <= committed_) return true;
    if (mprotect(data_ + committed_, want - committed_, PROT_READ | PROT_WRITE) != 0) return false;
    adviseHugePages(data_ + committed_, want - committed_);
    committed_ = want;
    return true;
#else
    (void)bytes;
    return false;
#endif
  }

  void release() {
#if VDB_RESERVE
    if (base_ != nullptr) munmap(base_, mapped_);
    else std::free(data_);
#else
    std::free(data_);
#endif
    base_ = data_ = nullptr;
    mapped_ = reserved_ = committed_ = 0;
  }

  void swap(Level0Block& o) noexcept {
    std::swap(base_, o.base_);
    std::swap(mapped_, o.mapped_);
    std::swap(data_, o.data_);
    std::swap(reserved_, o.reserved_);
    std::swap(committed_, o.committed_);
  }

  char* base_ = nullptr;
  size_t mapped_ = 0;
  char* data_ = nullptr;
  size_t reserved_ = 0;
  /** Bytes usable from data_ (mapped read-write; for a malloc'ed block, unknown: 0). */
  size_t committed_ = 0;

  static std::atomic<size_t>& movesCount() {
    static std::atomic<size_t> count{0};
    return count;
  }
};

/**
 * hnswlib's per-element tables for one capacity, made (and zeroed) wherever they are built; a resize
 * swaps them with the graph's, and then holds the old ones until they are freed.
 */
struct GrowthTables {
  size_t capacity = 0;
  std::vector<std::mutex> locks;
  std::vector<int> levels;
  char** links = nullptr;
  std::unique_ptr<hnswlib::VisitedListPool> visited;

  GrowthTables() = default;
  GrowthTables(const GrowthTables&) = delete;
  GrowthTables& operator=(const GrowthTables&) = delete;
  ~GrowthTables() { std::free(links); }

  static std::unique_ptr<GrowthTables> make(size_t capacity) {
    auto t = std::make_unique<GrowthTables>();
    t->capacity = capacity;
    std::vector<std::mutex>(capacity).swap(t->locks);
    t->levels.assign(capacity, 0);
    t->links = static_cast<char**>(std::calloc(std::max<size_t>(capacity, 1), sizeof(char*)));
    if (t->links == nullptr) throw std::bad_alloc();
    t->visited.reset(new hnswlib::VisitedListPool(1, static_cast<int>(capacity)));
    // Its list's first use zeroes it (2 bytes an element): done here, not at the first search after the swap.
    t->visited->releaseVisitedList(t->visited->getFreeVisitedList());
    return t;
  }
};

/**
 * Grows `h` (idle: no insert or save running) to `capacity` elements: its level-0 block in place (`level0`
 * holds it), its per-element tables from `prepared` when made for this capacity (else made here: slow);
 * the old tables end in `retired`. Throws std::bad_alloc, the graph unchanged, when memory runs out.
 */
inline void growGraph(Hnsw& h, Level0Block& level0, std::unique_ptr<GrowthTables>& prepared, std::unique_ptr<GrowthTables>& retired, size_t capacity) {
  if (capacity < h.cur_element_count) throw std::runtime_error("cannot shrink below the element count");
  if (capacity <= h.max_elements_) return;
  std::unique_ptr<GrowthTables> tables = prepared && prepared->capacity == capacity ? std::move(prepared) : GrowthTables::make(capacity);
  if (level0.data() != h.data_level0_memory_) level0.adopt(h);
  char* l0 = level0.grow(capacity * h.size_data_per_element_);
  if (l0 == nullptr) {
    prepared = std::move(tables);
    throw std::bad_alloc();
  }
  h.data_level0_memory_ = l0;
  const size_t count = h.cur_element_count;
  std::memcpy(tables->levels.data(), h.element_levels_.data(), count * sizeof(int));
  std::memcpy(tables->links, h.linkLists_, count * sizeof(char*));
  h.link_list_locks_.swap(tables->locks);
  h.element_levels_.swap(tables->levels);
  std::swap(h.linkLists_, tables->links);
  h.visited_list_pool_.swap(tables->visited);
  h.max_elements_ = capacity;
  tables->capacity = 0;
  retired = std::move(tables);
}

}  // namespace vdb
