// The graph's insert threads run below the JS thread's priority (issue 31). Linux schedules a process's threads
// as one group (its autogroup or cgroup) against other groups, and splits the group's share of each core by its
// threads' weighted load there: the JS thread, runnable a tenth of the time during a bulk load, got a small part
// of it while an always-runnable insert thread at the same weight held most, and on a busy machine the event
// loop waited 50-650 ms at a time for a core. At nice +10 an insert thread weighs a tenth as much, and the JS
// thread goes first where both wait on one core; while a core is free nothing changes (the build takes whatever
// the JS thread leaves). Measured in bench/README.md (issue 31 on a busy machine). Linux only (nice is per thread
// there); elsewhere, unchanged. VECTORDB_INSERT_NICE sets the step (0: the JS thread's own priority).
#pragma once
#include <cstdlib>
#if defined(__linux__)
#include <cerrno>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace vdb {

/** How far below the starting thread's priority an insert thread runs: nice +10, a tenth of its weight. */
constexpr int kInsertNice = 10;

/** The nice step for insert threads: VECTORDB_INSERT_NICE when it is a number 0-19, else kInsertNice. */
inline int insertNiceStep() {
  static const int step = [] {
    const char* set = std::getenv("VECTORDB_INSERT_NICE");
    if (set == nullptr || *set == '\0') return kInsertNice;
    char* end = nullptr;
    const long v = std::strtol(set, &end, 10);
    return *end == '\0' && v >= 0 && v <= 19 ? static_cast<int>(v) : kInsertNice;
  }();
  return step;
}

/**
 * Names the calling thread "vdb-insert" (seen in top -H and /proc) and lowers its priority by
 * insertNiceStep() (raising a nice value needs no privilege; it is never raised back: the thread ends).
 */
inline void becomeInsertThread() {
#if defined(__linux__)
  pthread_setname_np(pthread_self(), "vdb-insert");
  const int step = insertNiceStep();
  if (step == 0) return;
  const id_t tid = static_cast<id_t>(syscall(SYS_gettid));
  errno = 0;
  const int now = getpriority(PRIO_PROCESS, tid);
  if (errno == 0) setpriority(PRIO_PROCESS, tid, now + step > 19 ? 19 : now + step);
#endif
}

}  // namespace vdb
