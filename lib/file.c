/* Whole-file reads, and writes that never leave a partial file behind. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mip/io.h"
#include "mipfmt.h"

/* What an input that is not a regular file is, for the refusal. */
static const char *file_kind(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISSOCK(mode))
    return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode))
    return "a device";
  return "something else";
}

/* The files opened for reading (device and inode, and the path they were
 * opened by), so that a command can refuse to write over one of its
 * inputs (mip_file_input). */
static struct {
  struct input {
    dev_t dev;
    ino_t ino;
    char *path;
  } * list;
  size_t count, cap;
} inputs;

static void remember_input(const char *path, const struct stat *st) {
  if (mip_file_input(st))
    return;
  if (inputs.count == inputs.cap)
    inputs.list = mip_xrealloc(inputs.list, inputs.cap = inputs.cap * 2 + 8,
                               sizeof *inputs.list);
  inputs.list[inputs.count++] =
      (struct input){st->st_dev, st->st_ino, mip_xstrdup(path)};
}

const char *mip_file_input(const struct stat *st) {
  for (size_t i = 0; i < inputs.count; i++)
    if (inputs.list[i].dev == st->st_dev && inputs.list[i].ino == st->st_ino)
      return inputs.list[i].path;
  return NULL;
}

void mip_file_forget_inputs(void) {
  for (size_t i = 0; i < inputs.count; i++)
    free(inputs.list[i].path);
  free(inputs.list);
  inputs.list = NULL;
  inputs.count = inputs.cap = 0;
}

/* Opened without blocking: opening a FIFO for reading waits for a writer,
 * which may never come. What is not a regular file is refused before
 * anything is read; the descriptor blocks again after. */
int mip_file_open(const char *path, size_t *size, struct mip_error *err) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return mip_fail(err, path, "cannot open: %s", strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return mip_fail(err, path, "cannot open: %s", strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return mip_fail(err, path, "not a regular file (%s)",
                    file_kind(st.st_mode));
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    int e = errno;
    close(fd);
    return mip_fail(err, path, "cannot open: %s", strerror(e));
  }
  remember_input(path, &st);
  *size = (size_t)st.st_size;
  return fd;
}

/* Whether the file behind fd is no longer what it was when first looked
 * at (before): another size or another modification time. */
static int changed_since(int fd, const struct stat *before, size_t read) {
  struct stat now;
  return fstat(fd, &now) != 0 || now.st_size != before->st_size ||
         (size_t)now.st_size != read ||
         now.st_mtim.tv_sec != before->st_mtim.tv_sec ||
         now.st_mtim.tv_nsec != before->st_mtim.tv_nsec;
}

int mip_file_read(const char *path, struct mip_file *file,
                  struct mip_error *err) {
  file->data = NULL;
  file->size = 0;
  size_t known;
  int fd = mip_file_open(path, &known, err);
  if (fd < 0)
    return -1;
  struct stat before;
  if (fstat(fd, &before) != 0) {
    int e = errno;
    close(fd);
    return mip_fail(err, path, "cannot read: %s", strerror(e));
  }
  size_t cap = known + 1;
  uint8_t *data = mip_xmalloc(cap);
  size_t size = 0;
  for (;;) {
    if (size == cap)
      data = mip_xrealloc(data, cap *= 2, 1);
    ssize_t n = read(fd, data + size, cap - size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int e = errno;
      free(data);
      close(fd);
      return mip_fail(err, path, "cannot read: %s", strerror(e));
    }
    if (n == 0)
      break;
    size += (size_t)n;
  }
  /* A file written in place while it is read (truncated, appended to,
   * rewritten) could mix old and new bytes: refuse it, rather than read
   * a profile that never existed. (MIP's own writers replace files by
   * rename, which a reader never notices.) */
  int changed = changed_since(fd, &before, size);
  close(fd);
  if (changed) {
    free(data);
    return mip_fail(err, path, "changed while it was being read");
  }
  file->data = data;
  file->size = size;
  return 0;
}

void mip_file_free(struct mip_file *file) {
  free(file->data);
  file->data = NULL;
  file->size = 0;
}

static mode_t creation_mode(void) {
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

/* Whether path may be replaced by a rename: it does not exist yet, or is
 * a regular file. Anything else would be replaced by a file (a device,
 * as root) or cannot be (a directory). */
static int replaceable(const char *path, struct mip_error *err) {
  struct stat st;
  if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
    return 0;
  return mip_fail(err, path, "cannot write: not a regular file");
}

int mip_file_stage(const char *path, const void *data, size_t size,
                   struct mip_staged_file *staged, struct mip_error *err) {
  staged->path = path;
  staged->temp = NULL;
  if (replaceable(path, err))
    return -1;
  size_t n = strlen(path);
  char *temp = mip_xmalloc(n + 16);
  memcpy(temp, path, n);
  memcpy(temp + n, ".tmp.XXXXXX", 12);
  int fd = mkstemp(temp);
  if (fd < 0) {
    int e = errno;
    free(temp);
    return mip_fail(err, path, "cannot create: %s", strerror(e));
  }
  int failed = fchmod(fd, creation_mode()) != 0 ||
               mip_write_all(fd, data, size) != 0 || fsync(fd) != 0;
  int e = errno;
  if (close(fd) != 0 && !failed) {
    failed = 1;
    e = errno;
  }
  if (failed) {
    unlink(temp);
    free(temp);
    return mip_fail(err, path, "cannot write: %s", strerror(e));
  }
  staged->temp = temp;
  return 0;
}

int mip_file_commit(struct mip_staged_file *staged, struct mip_error *err) {
  if (rename(staged->temp, staged->path) != 0) {
    int e = errno;
    mip_file_discard(staged);
    return mip_fail(err, staged->path, "cannot write: %s", strerror(e));
  }
  free(staged->temp);
  staged->temp = NULL;
  return 0;
}

void mip_file_discard(struct mip_staged_file *staged) {
  if (staged->temp)
    unlink(staged->temp);
  free(staged->temp);
  staged->temp = NULL;
}

int mip_file_write_atomic(const char *path, const void *data, size_t size,
                          struct mip_error *err) {
  struct mip_staged_file staged;
  if (mip_file_stage(path, data, size, &staged, err))
    return -1;
  return mip_file_commit(&staged, err);
}

uint64_t mip_file_magic(const struct mip_file *file) {
  if (file->size < 8)
    return 0;
  uint64_t magic = 0;
  for (int i = 7; i >= 0; i--)
    magic = magic << 8 | file->data[i];
  if (magic == MIP_RAW_MAGIC || magic == MIP_MAPFILE_MAGIC ||
      magic == MIP_PROFILE_MAGIC)
    return magic;
  return 0;
}
