// The one float32 copy of each vector, by row id, in blocks that never move (block b holds 1024 << b rows):
// graph threads read rows while the JS thread writes new ones. Each row is followed by its inverse norm
// (the cosine distance reads it with the row: no second cache miss). A row is freed (reused) once nothing refers
// to it: the row store's label map (JS side) and every graph element whose data names it hold one reference.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

namespace vdb {

enum class Metric : int { L2 = 0, IP = 1, Cosine = 2 };

class RowStore {
 public:
  static constexpr unsigned kBaseLog = 10;
  static constexpr unsigned kBlocks = 32;
  /** Row ids go up to here; the id past it marks a query (row_space.h). */
  static constexpr uint32_t kMaxRows = 0xfffffffeu;

  RowStore(uint32_t dim, Metric metric) : dim_(dim), stride_(dim + 1), metric_(metric) {}
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

  inline float* row(uint32_t r) const {
    unsigned b;
    uint64_t off = locate(r, b);
    return blocks_[b] + off * stride_;
  }
  inline float invNorm(uint32_t r) const { return row(r)[dim_]; }

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
    float* dst = row(r);
    std::memcpy(dst, values, sizeof(float) * dim_);
    double sq = 0;
    for (uint32_t i = 0; i < dim_; i++) sq += static_cast<double>(values[i]) * values[i];
    dst[dim_] = sq > 0 ? static_cast<float>(1.0 / std::sqrt(sq)) : 0.0f;
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
      float* data = static_cast<float*>(std::malloc(rows * stride_ * sizeof(float)));
      if (data == nullptr) throw std::bad_alloc();
      blocks_[b] = data;
      allocatedBlocks_++;
      capacity_ += rows;
    }
  }

 private:
  static inline uint64_t locate(uint32_t r, unsigned& b) {
    uint64_t x = static_cast<uint64_t>(r) + (uint64_t(1) << kBaseLog);
    b = static_cast<unsigned>(63 - __builtin_clzll(x)) - kBaseLog;
    return x - (uint64_t(1) << (kBaseLog + b));
  }

  const uint32_t dim_;
  /** Floats a row takes: its values, then its inverse norm. */
  const uint32_t stride_;
  const Metric metric_;
  float* blocks_[kBlocks] = {};
  unsigned allocatedBlocks_ = 0;
  uint64_t capacity_ = 0;
  uint32_t used_ = 0;
  std::vector<uint32_t> refs_;
  std::vector<uint32_t> free_;
};

}  // namespace vdb
