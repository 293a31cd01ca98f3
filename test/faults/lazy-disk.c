/*
 * An LD_PRELOAD shim that lets a test see what survives a power loss, in the manner of Jepsen's LazyFS: for the
 * files under $LAZY_DISK_DIR it journals (to $LAZY_DISK_JOURNAL) each open for writing, each successful fsync or
 * fdatasync with the file's length at that moment, and each rename. After the process is SIGKILLed, the test
 * truncates every file to its last synced length (lazy-disk.ts), which is what a disk keeps when the page cache
 * is lost. With $LAZY_DISK_FAIL_WRITE=N (or _READ=N) the N-th write (read) of such a file fails with EIO, as
 * SQLite's I/O-error tests do. Built by the tests with the machine's C compiler; test code only.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FDS 65536

static char *watched[MAX_FDS];
static const char *watch_dir;
static size_t watch_len;
static int journal_fd = -1;
static long fail_write, fail_read;
static long writes, reads;

static void init(void) __attribute__((constructor));
static void init(void) {
  watch_dir = getenv("LAZY_DISK_DIR");
  watch_len = watch_dir ? strlen(watch_dir) : 0;
  const char *journal = getenv("LAZY_DISK_JOURNAL");
  if (journal) journal_fd = (int)syscall(SYS_openat, AT_FDCWD, journal, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const char *w = getenv("LAZY_DISK_FAIL_WRITE"), *r = getenv("LAZY_DISK_FAIL_READ");
  fail_write = w ? atol(w) : 0;
  fail_read = r ? atol(r) : 0;
}

static void note(const char *kind, long long size, const char *a, const char *b) {
  if (journal_fd < 0) return;
  char line[8192];
  int n = b ? snprintf(line, sizeof line, "%s\t%lld\t%s\t%s\n", kind, size, a, b) : snprintf(line, sizeof line, "%s\t%lld\t%s\n", kind, size, a);
  if (n > 0 && n < (int)sizeof line) syscall(SYS_write, journal_fd, line, (size_t)n);
}

/* The absolute path of `path` (relative to `dirfd`) when it lies under the watched directory, else NULL. */
static char *watched_path(int dirfd, const char *path) {
  if (!watch_dir || !path) return NULL;
  char full[4096];
  if (path[0] == '/') snprintf(full, sizeof full, "%s", path);
  else {
    char base[4096];
    if (dirfd == AT_FDCWD) { if (!getcwd(base, sizeof base)) return NULL; }
    else if (dirfd >= 0 && dirfd < MAX_FDS && watched[dirfd]) snprintf(base, sizeof base, "%s", watched[dirfd]);
    else return NULL;
    if (snprintf(full, sizeof full, "%s/%s", base, path) >= (int)sizeof full) return NULL;
  }
  if (strncmp(full, watch_dir, watch_len) != 0 || (full[watch_len] != '/' && full[watch_len] != 0)) return NULL;
  return strdup(full);
}

static int track(int fd, int dirfd, const char *path, int flags) {
  if (fd < 0 || fd >= MAX_FDS) return fd;
  free(watched[fd]);
  watched[fd] = watched_path(dirfd, path);
  if (watched[fd] && (flags & (O_WRONLY | O_RDWR | O_CREAT))) note("W", 0, watched[fd], NULL);
  return fd;
}

#define REAL(name) static __typeof__(&name) real_##name; if (!real_##name) real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

int open(const char *path, int flags, ...) {
  REAL(open);
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
  return track(real_open(path, flags, mode), AT_FDCWD, path, flags);
}
int open64(const char *path, int flags, ...) {
  REAL(open64);
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
  return track(real_open64(path, flags, mode), AT_FDCWD, path, flags);
}
int openat(int dirfd, const char *path, int flags, ...) {
  REAL(openat);
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
  return track(real_openat(dirfd, path, flags, mode), dirfd, path, flags);
}
int openat64(int dirfd, const char *path, int flags, ...) {
  REAL(openat64);
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
  return track(real_openat64(dirfd, path, flags, mode), dirfd, path, flags);
}
int creat(const char *path, mode_t mode) { return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode); }
int creat64(const char *path, mode_t mode) { return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode); }

int close(int fd) {
  REAL(close);
  if (fd >= 0 && fd < MAX_FDS && watched[fd]) { free(watched[fd]); watched[fd] = NULL; }
  return real_close(fd);
}

static void synced(int fd) {
  struct stat st;
  if (fd >= 0 && fd < MAX_FDS && watched[fd] && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) note("S", (long long)st.st_size, watched[fd], NULL);
}
int fsync(int fd) { REAL(fsync); int r = real_fsync(fd); if (r == 0) synced(fd); return r; }
int fdatasync(int fd) { REAL(fdatasync); int r = real_fdatasync(fd); if (r == 0) synced(fd); return r; }

static void renamed(int olddir, const char *old, int newdir, const char *new_) {
  char *a = watched_path(olddir, old), *b = watched_path(newdir, new_);
  if (a || b) note("R", 0, a ? a : old, b ? b : new_);
  free(a);
  free(b);
}
int rename(const char *old, const char *new_) { REAL(rename); int r = real_rename(old, new_); if (r == 0) renamed(AT_FDCWD, old, AT_FDCWD, new_); return r; }
int renameat(int od, const char *old, int nd, const char *new_) { REAL(renameat); int r = real_renameat(od, old, nd, new_); if (r == 0) renamed(od, old, nd, new_); return r; }
int renameat2(int od, const char *old, int nd, const char *new_, unsigned flags) { REAL(renameat2); int r = real_renameat2(od, old, nd, new_, flags); if (r == 0) renamed(od, old, nd, new_); return r; }

/* The N-th write (read) of a watched file fails with EIO, once. */
static int faulty(int fd, long *count, long at) {
  if (at <= 0 || fd < 0 || fd >= MAX_FDS || !watched[fd]) return 0;
  if (__atomic_add_fetch(count, 1, __ATOMIC_SEQ_CST) != at) return 0;
  note("F", at, watched[fd], NULL);
  errno = EIO;
  return 1;
}
ssize_t write(int fd, const void *buf, size_t n) { REAL(write); if (faulty(fd, &writes, fail_write)) return -1; return real_write(fd, buf, n); }
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) { REAL(pwrite); if (faulty(fd, &writes, fail_write)) return -1; return real_pwrite(fd, buf, n, off); }
ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) { REAL(pwrite64); if (faulty(fd, &writes, fail_write)) return -1; return real_pwrite64(fd, buf, n, off); }
ssize_t writev(int fd, const struct iovec *iov, int n) { REAL(writev); if (faulty(fd, &writes, fail_write)) return -1; return real_writev(fd, iov, n); }
ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off) { REAL(pwritev); if (faulty(fd, &writes, fail_write)) return -1; return real_pwritev(fd, iov, n, off); }
ssize_t read(int fd, void *buf, size_t n) { REAL(read); if (faulty(fd, &reads, fail_read)) return -1; return real_read(fd, buf, n); }
ssize_t pread(int fd, void *buf, size_t n, off_t off) { REAL(pread); if (faulty(fd, &reads, fail_read)) return -1; return real_pread(fd, buf, n, off); }
ssize_t pread64(int fd, void *buf, size_t n, off_t off) { REAL(pread64); if (faulty(fd, &reads, fail_read)) return -1; return real_pread64(fd, buf, n, off); }

#undef fwrite_unlocked
#undef fread_unlocked

/* LevelDB as classic-level builds it writes its log, manifest and tables through stdio (fopen, fwrite_unlocked). */
static int stdio_flags(const char *mode) { return strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+') ? O_WRONLY : O_RDONLY; }
FILE *fopen(const char *path, const char *mode) {
  REAL(fopen);
  FILE *f = real_fopen(path, mode);
  if (f) track(fileno(f), AT_FDCWD, path, stdio_flags(mode));
  return f;
}
FILE *fopen64(const char *path, const char *mode) {
  REAL(fopen64);
  FILE *f = real_fopen64(path, mode);
  if (f) track(fileno(f), AT_FDCWD, path, stdio_flags(mode));
  return f;
}
int fclose(FILE *f) {
  REAL(fclose);
  int fd = fileno(f);
  if (fd >= 0 && fd < MAX_FDS && watched[fd]) { free(watched[fd]); watched[fd] = NULL; }
  return real_fclose(f);
}
size_t fwrite(const void *buf, size_t size, size_t n, FILE *f) { REAL(fwrite); if (faulty(fileno(f), &writes, fail_write)) return 0; return real_fwrite(buf, size, n, f); }
size_t fwrite_unlocked(const void *buf, size_t size, size_t n, FILE *f) { REAL(fwrite_unlocked); if (faulty(fileno(f), &writes, fail_write)) return 0; return real_fwrite_unlocked(buf, size, n, f); }
size_t fread(void *buf, size_t size, size_t n, FILE *f) { REAL(fread); if (faulty(fileno(f), &reads, fail_read)) return 0; return real_fread(buf, size, n, f); }
size_t fread_unlocked(void *buf, size_t size, size_t n, FILE *f) { REAL(fread_unlocked); if (faulty(fileno(f), &reads, fail_read)) return 0; return real_fread_unlocked(buf, size, n, f); }
