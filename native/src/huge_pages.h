// Large blocks in 2 MiB pages where the kernel grants them on request (Linux transparent huge pages in
// "madvise" mode, a common default; "always" gives them anyway, "never" not at all). A search or an insert reads
// rows and links anywhere in hundreds of MB: with 4 KiB pages nearly every such read also misses the TLB.
// VECTORDB_HUGE_PAGES=0 (read once) asks for none: in a VM that hands freed memory back to its host (free page
// reporting, e.g. Firecracker), faulting a 2 MiB page in again costs far more than 512 small ones (1.6 GB:
// 3.6 s of system time against 0.6 s here), and a reopen faults in every page of its graph.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace vdb {

constexpr size_t kHugePage = size_t(2) << 20;

/** Whether large blocks ask for huge pages (VECTORDB_HUGE_PAGES, read once: "0" turns them off). */
inline bool hugePagesWanted() {
  static const bool wanted = [] {
    const char* value = std::getenv("VECTORDB_HUGE_PAGES");
    return value == nullptr || std::strcmp(value, "0") != 0;
  }();
  return wanted;
}

/** Asks for huge pages over the whole 2 MiB pages inside [p, p + bytes); pages touched before keep theirs. */
inline void adviseHugePages(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (!hugePagesWanted()) return;
  const uintptr_t start = (reinterpret_cast<uintptr_t>(p) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHugePage - 1);
  if (end > start) madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

/** malloc for a block that may be large: past a huge page, aligned to one and advised. Freed with std::free. */
inline void* allocLarge(size_t bytes) {
  if (bytes < kHugePage) return std::malloc(bytes);
  void* p = nullptr;
  if (posix_memalign(&p, kHugePage, bytes) != 0) return nullptr;
  adviseHugePages(p, bytes);
  return p;
}

}  // namespace vdb
