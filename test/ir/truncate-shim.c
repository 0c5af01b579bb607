/*
 * LD_PRELOAD shim for use-truncated-profile.ll: the file named by
 * MIP_TEST_TRUNCATE is emptied (truncated to 0) the moment the program that
 * opened it first reads it or maps it, as another process truncating the
 * profile in place during a compile would. Deterministic, unlike a race.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int watched = -1, done;

static void note_open(const char *path, int fd) {
  const char *target = getenv("MIP_TEST_TRUNCATE");
  if (fd >= 0 && !done && target && strcmp(path, target) == 0)
    watched = fd;
}

static void truncate_now(int fd) {
  struct stat st;
  if (fd != watched || done || fstat(fd, &st) != 0)
    return;
  done = 1;
  if (ftruncate(fd, 0) != 0) {
    int rw = open(getenv("MIP_TEST_TRUNCATE"), O_WRONLY);
    if (rw >= 0) {
      if (ftruncate(rw, 0) != 0)
        abort();
      close(rw);
    }
  }
}

int open(const char *path, int flags, ...) {
  static int (*real)(const char *, int, ...);
  if (!real)
    real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
  va_list ap;
  va_start(ap, flags);
  mode_t mode = (mode_t)va_arg(ap, int);
  va_end(ap);
  int fd = real(path, flags, mode);
  note_open(path, fd);
  return fd;
}

ssize_t read(int fd, void *buf, size_t n) {
  static ssize_t (*real)(int, void *, size_t);
  if (!real)
    real = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
  ssize_t got = real(fd, buf, n < 4096 ? n : 4096);
  truncate_now(fd);
  return got;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  static void *(*real)(void *, size_t, int, int, int, off_t);
  if (!real)
    real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT,
                                                                  "mmap");
  void *p = real(addr, len, prot, flags, fd, off);
  truncate_now(fd);
  return p;
}
