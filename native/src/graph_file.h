// The graph file: our 32-byte head, hnswlib's index in its own layout (as saveIndex writes it; element data
// = row ids), then each element's row (by internal id): the one file reopens graph and vectors together.
// Version 1: float32 rows (dim floats each). Version 2: int8 rows, the scale (lo then step, dim floats
// each) right after the head, and each row as the store holds it (codes padded to 4 bytes, its cross term
// and inverse norm). Written and read from a stream at an offset, mirroring hnswlib's saveIndex/loadIndex,
// whose members are public; the rows come back into fresh rows of the store and each element's data is
// renumbered to them.
#pragma once
#include <algorithm>
#include <fstream>
#include <string>
#include "element_rows.h"
#include "row_space.h"

namespace vdb {

static const char kMagic[8] = {'V', 'D', 'B', 'R', 'O', 'W', 'S', '1'};
constexpr uint32_t kFloatVersion = 1;
constexpr uint32_t kInt8Version = 2;

/** Bytes of a row in a file of this version. */
inline uint64_t fileRowBytes(uint32_t version, uint32_t dim) {
  return version == kInt8Version ? ((dim + 3) & ~3u) + 2 * sizeof(float) : sizeof(float) * dim;
}
/** Bytes between the head and hnswlib's index: the scale of int8 rows. */
inline uint64_t scaleBytes(uint32_t version, uint32_t dim) { return version == kInt8Version ? 2 * sizeof(float) * dim : 0; }

struct FileHead {
  char magic[8];
  uint32_t version;
  uint32_t dim;
  uint64_t count;
  uint64_t graphBytes;
};
static_assert(sizeof(FileHead) == 32, "head is 32 bytes");

template <typename T>
static void put(std::ostream& out, const T& v) { out.write(reinterpret_cast<const char*>(&v), sizeof(T)); }
template <typename T>
static void get(std::istream& in, T& v) { in.read(reinterpret_cast<char*>(&v), sizeof(T)); }

/** Writes the graph and its rows to `path`; the file's length. */
inline uint64_t saveGraphFile(const Hnsw& h, const RowStore& rows, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out.is_open()) throw std::runtime_error("cannot write " + path);
  const size_t count = h.cur_element_count;
  FileHead head{};
  std::memcpy(head.magic, kMagic, 8);
  head.version = rows.int8() ? kInt8Version : kFloatVersion;
  head.dim = rows.dim();
  head.count = count;
  out.write(reinterpret_cast<const char*>(&head), sizeof head);
  if (rows.int8()) {
    out.write(reinterpret_cast<const char*>(rows.lo().data()), sizeof(float) * rows.dim());
    out.write(reinterpret_cast<const char*>(rows.step().data()), sizeof(float) * rows.dim());
  }
  std::streampos graphStart = out.tellp();
  put(out, h.offsetLevel0_);
  put(out, h.max_elements_);
  put(out, h.cur_element_count);
  put(out, h.size_data_per_element_);
  put(out, h.label_offset_);
  put(out, h.offsetData_);
  put(out, h.maxlevel_);
  put(out, h.enterpoint_node_);
  put(out, h.maxM_);
  put(out, h.maxM0_);
  put(out, h.M_);
  put(out, h.mult_);
  put(out, h.ef_construction_);
  out.write(h.data_level0_memory_, count * h.size_data_per_element_);
  for (size_t i = 0; i < count; i++) {
    unsigned int size = h.element_levels_[i] > 0 ? h.size_links_per_element_ * h.element_levels_[i] : 0;
    put(out, size);
    if (size) out.write(h.linkLists_[i], size);
  }
  uint64_t graphBytes = static_cast<uint64_t>(out.tellp() - graphStart);
  const uint64_t rowBytes = fileRowBytes(head.version, rows.dim());
  for (size_t i = 0; i < count; i++) out.write(rows.bytes(elementRow(h, i)), rowBytes);
  uint64_t total = static_cast<uint64_t>(out.tellp());
  out.seekp(24);
  put(out, graphBytes);
  out.close();
  if (out.fail()) throw std::runtime_error("writing " + path + " failed");
  return total;
}

/** Reads the head of a graph file: false when it is not one of ours for `dim`. */
inline bool readGraphHead(const std::string& path, uint32_t dim, FileHead& head, uint64_t& fileBytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in.is_open()) return false;
  fileBytes = static_cast<uint64_t>(in.tellg());
  in.seekg(0);
  get(in, head);
  if (!in || std::memcmp(head.magic, kMagic, 8) != 0 || (head.version != kFloatVersion && head.version != kInt8Version) || head.dim != dim) return false;
  return fileBytes == sizeof(FileHead) + scaleBytes(head.version, dim) + head.graphBytes + head.count * fileRowBytes(head.version, dim);
}

/** The scale of an int8 graph file (readGraphHead said it is one): lo then step. */
inline std::vector<float> readGraphScale(const std::string& path, uint32_t dim) {
  std::vector<float> scale(2 * dim);
  std::ifstream in(path, std::ios::binary);
  in.seekg(sizeof(FileHead));
  in.read(reinterpret_cast<char*>(scale.data()), sizeof(float) * 2 * dim);
  if (!in) throw std::runtime_error("the graph file is truncated");
  return scale;
}

/**
 * Loads a graph file into `h` (empty, made over `space`), with room for `maxElements`, and its elements'
 * row ids into `elementRows` (fresh); its rows go into rows firstRow.. (taken by the caller: only they are
 * written here, so the JS thread may use the store). `allocLevel0(bytes)` gives its level-0 block
 * (graph_growth.h's Level0Block, which then frees it).
 */
template <typename AllocLevel0>
inline void loadGraphFile(Hnsw& h, ElementRows& elementRows, RowSpace& space, RowStore& rows, const std::string& path, const FileHead& head, uint32_t firstRow,
                          size_t maxElements, AllocLevel0&& allocLevel0) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) throw std::runtime_error("cannot open " + path);
  in.seekg(sizeof(FileHead) + scaleBytes(head.version, head.dim));
  get(in, h.offsetLevel0_);
  get(in, h.max_elements_);
  get(in, h.cur_element_count);
  if (h.cur_element_count != head.count) throw std::runtime_error("the graph file is damaged");
  // Room for the capacity the graph had when saved too (within reason: a damaged count must not ask for
  // terabytes): its tables are then made here, off the JS thread, not by a resize on it (issue 31).
  const size_t count0 = h.cur_element_count;
  size_t maxE = std::max({maxElements, count0, std::min(h.max_elements_, count0 * 2 + 4096)});
  h.max_elements_ = maxE;
  get(in, h.size_data_per_element_);
  get(in, h.label_offset_);
  get(in, h.offsetData_);
  get(in, h.maxlevel_);
  get(in, h.enterpoint_node_);
  get(in, h.maxM_);
  get(in, h.maxM0_);
  get(in, h.M_);
  get(in, h.mult_);
  get(in, h.ef_construction_);
  if (!in || h.size_data_per_element_ != h.maxM0_ * sizeof(hnswlib::tableint) + sizeof(hnswlib::linklistsizeint) + sizeof(uint32_t) + sizeof(hnswlib::labeltype)) {
    throw std::runtime_error("the graph file is damaged");
  }
  h.data_size_ = space.get_data_size();
  h.fstdistfunc_ = space.get_dist_func();
  h.dist_func_param_ = space.get_dist_func_param();
  const size_t count = h.cur_element_count;
  h.data_level0_memory_ = allocLevel0(maxE * h.size_data_per_element_);
  if (h.data_level0_memory_ == nullptr) throw std::bad_alloc();
  in.read(h.data_level0_memory_, count * h.size_data_per_element_);
  h.size_links_per_element_ = h.maxM_ * sizeof(hnswlib::tableint) + sizeof(hnswlib::linklistsizeint);
  h.size_links_level0_ = h.maxM0_ * sizeof(hnswlib::tableint) + sizeof(hnswlib::linklistsizeint);
  std::vector<std::mutex>(maxE).swap(h.link_list_locks_);
  std::vector<std::mutex>(Hnsw::MAX_LABEL_OPERATION_LOCKS).swap(h.label_op_locks_);
  h.visited_list_pool_.reset(new hnswlib::VisitedListPool(1, maxE));
  h.linkLists_ = static_cast<char**>(std::calloc(maxE, sizeof(void*)));
  if (h.linkLists_ == nullptr) throw std::bad_alloc();
  h.element_levels_ = std::vector<int>(maxE);
  h.revSize_ = 1.0 / h.mult_;
  h.ef_ = 10;
  elementRows.reserve(maxE);
  for (size_t i = 0; i < count; i++) {
    h.label_lookup_[h.getExternalLabel(i)] = static_cast<hnswlib::tableint>(i);
    unsigned int size = 0;
    get(in, size);
    if (!in) throw std::runtime_error("the graph file is damaged");
    if (size == 0) {
      h.element_levels_[i] = 0;
      h.linkLists_[i] = nullptr;
    } else {
      h.element_levels_[i] = size / h.size_links_per_element_;
      h.linkLists_[i] = static_cast<char*>(std::malloc(size));
      if (h.linkLists_[i] == nullptr) throw std::bad_alloc();
      in.read(h.linkLists_[i], size);
    }
    // The element's row is renumbered to the fresh row its values go to.
    elementRows.set(h, static_cast<hnswlib::tableint>(i), firstRow + static_cast<uint32_t>(i));
    if (h.isMarkedDeleted(i)) h.num_deleted_ += 1;
  }
  // The rows in pieces of 4096 (one read each, not one a row): float32 ones are written (coded, into an
  // int8 store), int8 ones copied as they are.
  const size_t piece = 4096;
  const uint64_t rowBytes = fileRowBytes(head.version, head.dim);
  std::vector<char> buf(piece * rowBytes);
  for (size_t at = 0; at < count; at += piece) {
    size_t n = std::min(piece, count - at);
    in.read(buf.data(), rowBytes * n);
    if (!in) throw std::runtime_error("the graph file is truncated");
    for (size_t i = 0; i < n; i++) {
      const uint32_t r = firstRow + static_cast<uint32_t>(at + i);
      if (head.version == kInt8Version) rows.writeBytes(r, buf.data() + i * rowBytes);
      else rows.write(r, reinterpret_cast<const float*>(buf.data() + i * rowBytes));
    }
  }
}

}  // namespace vdb
