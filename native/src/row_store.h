// The one copy of each vector, by row id, in blocks that never move (block b holds 1024 << b rows): graph
// threads read rows while the JS thread writes new ones. A row is float32 values then the inverse norm (the
// cosine distance reads it with the row: no second cache miss), or, once the store is quantized, int8 codes
// (uint8, coded with a per-dimension scale exactly as src/vector-index/int8-rows.ts codes them) then two
// floats: the row's cross term with the scale (for symmetric dot products) and its inverse norm. A row is
// freed (reused) once nothing refers to it: the row store's label map (JS side) and every graph element
// whose data names it hold one reference.
#pragma once
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>
#include "huge_pages.h"

namespace vdb {

enum class Metric : int { L2 = 0, IP = 1, Cosine = 2 };

class RowStore {
 public:
  static constexpr unsigned kBaseLog = 10;
  static constexpr unsigned kBlocks = 32;
  /** Row ids go up to here; the id past it marks a query (row_space.h). */
  static constexpr uint32_t kMaxRows = 0xfffffffeu;

  RowStore(uint32_t dim, Metric metric) : dim_(dim), stride_(sizeof(float) * (dim + 1)), metric_(metric) {}
  ~RowStore() {
    for (unsigned b = 0; b < kBlocks; b++) std::free(blocks_[b]);
  }
  RowStore(const RowStore&) = delete;
  RowStore& operator=(const RowStore&) = delete;

  uint32_t dim() const { return dim_; }
  Metric metric() const { return metric_; }
  /** Rows ever handed out (live, referenced or free). */
  uint32_t used() const { return used_; }
  uint32_t freeCount() const { return static_cast<uint32_t>(free_.size()); }

  /** Whether rows are int8 codes (quantize). */
  bool int8() const { return int8_; }
  /** Bytes a row takes. */
  size_t stride() const { return stride_; }

  inline char* bytes(uint32_t r) const {
    unsigned b;
    uint64_t off = locate(r, b);
    return blocks_[b] + off * stride_;
  }
  /** A float32 row's values (float rows only). */
  inline float* row(uint32_t r) const { return reinterpret_cast<float*>(bytes(r)); }
  /** An int8 row's codes (int8 rows only). */
  inline const uint8_t* codes(uint32_t r) const { return reinterpret_cast<const uint8_t*>(bytes(r)); }
  /** An int8 row's sum over d of lo[d] step[d] code[d]. */
  inline float cross(uint32_t r) const { return tail(r)[0]; }
  inline float invNorm(uint32_t r) const { return int8_ ? tail(r)[1] : row(r)[dim_]; }

  // The scale of int8 rows: value = lo + step x code; w = step^2, loStep = lo x step, loLo = sum lo^2.
  const std::vector<float>& lo() const { return lo_; }
  const std::vector<float>& step() const { return step_; }
  const std::vector<float>& w() const { return w_; }
  const std::vector<float>& loStep() const { return loStep_; }
  float loLo() const { return loLo_; }

  /** Values coded into int8 rows since this store was made (stats): at quantize (live rows), then every write. */
  uint64_t codedValues() const { return coded_.load(std::memory_order_relaxed); }
  /** Of those, the values outside the scale's range, clamped to its ends (stats: drift from the trained range). */
  uint64_t clampedValues() const { return clamped_.load(std::memory_order_relaxed); }

  /** Async graph work reading the rows (insert, save, load): quantize waits until there is none. */
  std::atomic<int> readers{0};

  /** A row with one reference: a freed one, else the next never used. */
  uint32_t take() {
    if (!free_.empty()) {
      uint32_t r = free_.back();
      free_.pop_back();
      refs_[r] = 1;
      return r;
    }
    return takeFresh(1);
  }

  /** `n` consecutive never-used rows, each with one reference; the first. */
  uint32_t takeFresh(uint32_t n) {
    if (static_cast<uint64_t>(used_) + n > kMaxRows) throw std::runtime_error("row store full");
    reserve(used_ + n);
    uint32_t first = used_;
    used_ += n;
    refs_.resize(used_, 1);
    return first;
  }

  void write(uint32_t r, const float* values) {
    double sq = 0;
    for (uint32_t i = 0; i < dim_; i++) sq += static_cast<double>(values[i]) * values[i];
    float inv = sq > 0 ? static_cast<float>(1.0 / std::sqrt(sq)) : 0.0f;
    if (int8_) return encode(bytes(r), values, inv);
    float* dst = row(r);
    std::memcpy(dst, values, sizeof(float) * dim_);
    dst[dim_] = inv;
  }

  /** A row as stored (stride() bytes: a graph file's rows of this format). */
  void writeBytes(uint32_t r, const char* src) { std::memcpy(bytes(r), src, stride_); }

  /**
   * int8-rows.ts Int8Rows.encode's code of a value, computed the same way (float64, Math.round: halves up,
   * then clamped to 0..255): the same codes bit for bit.
   */
  static inline uint8_t codeOf(float v, float lo, float step) { return clampCode(roundedCode(v, lo, step)); }
  /** A value's code before clamping (Math.round of float64: halves up); outside 0..255, the value is clamped. */
  static inline double roundedCode(float v, float lo, float step) {
    double x = (static_cast<double>(v) - static_cast<double>(lo)) / static_cast<double>(step);
    double q = std::floor(x);
    return x - q >= 0.5 ? q + 1 : q;
  }
  static inline uint8_t clampCode(double q) { return static_cast<uint8_t>(q < 0 ? 0 : q > 255 ? 255 : q); }

  /**
   * Makes the rows int8 codes of this scale: every row written so far is coded from its float32 values
   * (each float block freed once its codes are made). False, and nothing changed, while async
   * graph work reads the rows or when already int8 (a scale is set once).
   */
  bool quantize(const float* lo, const float* step) {
    if (int8_ || readers.load() > 0) return false;
    const size_t codeStride = ((dim_ + 3) & ~3u) + 2 * sizeof(float);
    // Every code block first: should one fail, the float rows are left as they were.
    char* coded[kBlocks] = {};
    for (unsigned b = 0; b < allocatedBlocks_; b++) {
      coded[b] = static_cast<char*>(allocLarge((uint64_t(1) << (kBaseLog + b)) * codeStride));
      if (coded[b] == nullptr) {
        for (unsigned c = 0; c < b; c++) std::free(coded[c]);
        throw std::bad_alloc();
      }
    }
    lo_.assign(lo, lo + dim_);
    step_.assign(step, step + dim_);
    w_.resize(dim_);
    loStep_.resize(dim_);
    double ll = 0;
    for (uint32_t d = 0; d < dim_; d++) {
      w_[d] = step_[d] * step_[d];
      loStep_[d] = lo_[d] * step_[d];
      ll += static_cast<double>(lo_[d]) * lo_[d];
    }
    loLo_ = static_cast<float>(ll);
    uint64_t first = 0;
    for (unsigned b = 0; b < allocatedBlocks_; b++) {
      uint64_t rows = uint64_t(1) << (kBaseLog + b);
      char* data = coded[b];
      for (uint64_t i = 0; i < rows && first + i < used_; i++) {
        const float* values = reinterpret_cast<const float*>(blocks_[b] + i * stride_);
        // Freed rows are coded too (they may be reused) but not counted: the stats count live vectors' values.
        encode(data + i * codeStride, values, values[dim_], refs_[first + i] > 0);
      }
      std::free(blocks_[b]);
      blocks_[b] = data;
      first += rows;
    }
    stride_ = codeStride;
    int8_ = true;
    return true;
  }

  void ref(uint32_t r) {
    check(r);
    refs_[r]++;
  }
  /** Drops a reference; the row is free once none is left. */
  void unref(uint32_t r) {
    check(r);
    if (refs_[r] == 0) return;
    if (--refs_[r] == 0) free_.push_back(r);
  }
  uint32_t refs(uint32_t r) const { return r < used_ ? refs_[r] : 0; }

  void check(uint32_t r) const {
    if (r >= used_) throw std::range_error("row id out of range");
  }

  /** Makes the rows below `n` addressable (allocates whole blocks). */
  void reserve(uint64_t n) {
    while (capacity_ < n) {
      unsigned b = allocatedBlocks_;
      if (b >= kBlocks) throw std::runtime_error("row store full");
      uint64_t rows = uint64_t(1) << (kBaseLog + b);
      char* data = static_cast<char*>(allocLarge(rows * stride_));
      if (data == nullptr) throw std::bad_alloc();
      blocks_[b] = data;
      allocatedBlocks_++;
      capacity_ += rows;
    }
  }

 private:
  inline float* tail(uint32_t r) const { return reinterpret_cast<float*>(bytes(r) + ((dim_ + 3) & ~3u)); }

  /** Codes a row; `counted`: into the stats' coded and clamped values (a graph file's load may run it off the JS thread). */
  void encode(char* dst, const float* values, float inv, bool counted = true) {
    uint8_t* c = reinterpret_cast<uint8_t*>(dst);
    double cross = 0;
    uint64_t clamped = 0;
    for (uint32_t d = 0; d < dim_; d++) {
      const double q = roundedCode(values[d], lo_[d], step_[d]);
      if (q < 0 || q > 255) clamped++;
      c[d] = clampCode(q);
      cross += static_cast<double>(loStep_[d]) * c[d];
    }
    if (counted) {
      coded_.fetch_add(dim_, std::memory_order_relaxed);
      if (clamped > 0) clamped_.fetch_add(clamped, std::memory_order_relaxed);
    }
    for (uint32_t d = dim_; d < ((dim_ + 3) & ~3u); d++) c[d] = 0;
    float* t = reinterpret_cast<float*>(dst + ((dim_ + 3) & ~3u));
    t[0] = static_cast<float>(cross);
    t[1] = inv;
  }

  static inline uint64_t locate(uint32_t r, unsigned& b) {
    uint64_t x = static_cast<uint64_t>(r) + (uint64_t(1) << kBaseLog);
    b = static_cast<unsigned>(63 - __builtin_clzll(x)) - kBaseLog;
    return x - (uint64_t(1) << (kBaseLog + b));
  }

  const uint32_t dim_;
  /** Bytes a row takes: float32 values then the inverse norm; or, int8, codes (padded to 4) then two floats. */
  size_t stride_;
  const Metric metric_;
  bool int8_ = false;
  std::vector<float> lo_, step_, w_, loStep_;
  float loLo_ = 0;
  std::atomic<uint64_t> coded_{0}, clamped_{0};
  char* blocks_[kBlocks] = {};
  unsigned allocatedBlocks_ = 0;
  uint64_t capacity_ = 0;
  uint32_t used_ = 0;
  std::vector<uint32_t> refs_;
  std::vector<uint32_t> free_;
};

}  // namespace vdb
