/*
 * Writes the raw profile: header, section table, then each counter section
 * verbatim (layouts in mip/layout/raw_*.inc). The bytes go to a temporary
 * file next to the target, which is renamed over it at the end, so a reader
 * sees either the old file or the whole new one, never a torn one. A
 * symbolic link is followed (the file it names is replaced, the link
 * stays); a target that exists and is not a regular file (a device such as
 * /dev/null, a FIFO) is written in place, never replaced.
 *
 * The write must not end the program: a profile larger than the file size
 * limit (RLIMIT_FSIZE) is refused before anything is written, and SIGXFSZ
 * is blocked on the writing thread meanwhile, so that a limit lowered or
 * reached some other way fails the write (EFBIG) instead of killing the
 * process.
 *
 * Pool mode (merge.c) renders the run with the same writer into memory
 * (write_fd.c), and writes the merged file through the same temporary
 * file and rename.
 * Continuous mode (rt/continuous/) creates its file through the same
 * temporary file, with the same header and payloads at offsets of its own.
 */
#include <errno.h>
#include <string.h>

#include "mip/layouts.h"
#include "sys.h"

_Static_assert(MIP_RT_HEADER_MAX == mip_rec_raw_header_size +
                                        MIP_RT_MAX_PAYLOADS *
                                            mip_rec_raw_section_size,
               "MIP_RT_HEADER_MAX");

static uint64_t align8(uint64_t v) { return (v + 7) & ~(uint64_t)7; }

uint64_t mip_rt_modes_of(const struct mip_rt_payload *sections,
                         size_t count) {
  uint64_t modes = 0;
  for (size_t i = 0; i < count; i++)
    if (sections[i].kind < 64)
      modes |= MIP_MODE_BIT(sections[i].kind);
  return modes;
}

size_t mip_rt_raw_header(uint8_t *buf, const struct mip_rt_raw *raw,
                         const uint64_t *offsets) {
  const struct mip_rt_image *image = raw->image;
  struct mip_rec_raw_header h;
  memset(&h, 0, sizeof h);
  h.magic = MIP_RAW_MAGIC;
  h.version = MIP_RAW_VERSION;
  h.header_size = mip_rec_raw_header_size;
  h.section_count = (uint32_t)raw->count;
  h.build_id_size = image->build_id_size;
  mip_copy_bytes(h.build_id, image->build_id, image->build_id_size);
  h.pid = (uint32_t)mip_sys_getpid();
  h.modes = raw->modes;
  h.flags = raw->flags;
  h.runs = raw->runs;
  mip_rec_raw_header_encode(&h, buf);
  size_t at = mip_rec_raw_header_size;
  uint64_t next =
      align8(mip_rec_raw_header_size + raw->count * mip_rec_raw_section_size);
  for (size_t i = 0; i < raw->count; i++) {
    struct mip_rec_raw_section s = {
        .kind = raw->sections[i].kind,
        .elem_size = raw->sections[i].elem_size,
        .link_addr = raw->sections[i].link_addr,
        .size = raw->sections[i].size,
        .offset = offsets ? offsets[i] : next,
    };
    mip_rec_raw_section_encode(&s, buf + at);
    at += mip_rec_raw_section_size;
    next = align8(next + s.size);
  }
  while (at % 8)
    buf[at++] = 0;
  return at;
}

static int write_header(int fd, const struct mip_rt_raw *raw) {
  uint8_t buf[MIP_RT_HEADER_MAX];
  return mip_rt_write_all(fd, buf, mip_rt_raw_header(buf, raw, NULL));
}

int mip_rt_write_payloads(int fd, const struct mip_rt_payload *sections,
                          size_t count) {
  static const uint8_t zeros[8];
  for (size_t i = 0; i < count; i++) {
    const struct mip_rt_payload *p = &sections[i];
    if (p->write ? p->write(fd, p) != 0
                 : mip_rt_write_all(fd, p->data, p->size) != 0)
      return -1;
    uint64_t pad = align8(sections[i].size) - sections[i].size;
    if (pad && mip_rt_write_all(fd, zeros, pad) != 0)
      return -1;
  }
  return 0;
}

/* Creates the directories leading to path, like mkdir -p. */
void mip_rt_make_parents(const char *path) {
  char dir[MIP_RT_PATH_MAX];
  size_t n = mip_rt_append(dir, 0, sizeof dir, path);
  if (n >= sizeof dir)
    return;
  for (size_t i = 1; i < n; i++) {
    if (dir[i] != '/')
      continue;
    dir[i] = '\0';
    mip_sys_mkdir(dir, 0777);
    dir[i] = '/';
  }
}

/* The temporary file: "<path>.tmp.<tid>", which is "<path>.tmp.<pid>" in
 * the main thread and unique among all threads of all processes, so
 * concurrent writers never share one. A write that starts while another is
 * under way in this image (a signal handler interrupting one in the same
 * thread) adds ".<n>". */
static uint32_t writers, nested_writes; /* under way; nested, so far */

static int open_temp(const char *path, char *temp, size_t size) {
  size_t n = mip_rt_append(temp, 0, size, path);
  n = mip_rt_append(temp, n, size, ".tmp.");
  n = mip_rt_append_u64(temp, n, size, (uint64_t)mip_sys_gettid());
  if (__atomic_load_n(&writers, __ATOMIC_RELAXED) > 1) {
    n = mip_rt_append(temp, n, size, ".");
    n = mip_rt_append_u64(
        temp, n, size,
        __atomic_add_fetch(&nested_writes, 1, __ATOMIC_RELAXED));
  }
  if (n >= size) {
    errno = ENAMETOOLONG;
    return -1;
  }
  /* Read and write: continuous mode maps it. */
  int fd = mip_sys_open(temp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 && errno == ENOENT) {
    mip_rt_make_parents(temp);
    fd = mip_sys_open(temp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  }
  return fd;
}

uint64_t mip_rt_raw_size(const struct mip_rt_raw *raw) {
  uint64_t size =
      align8(mip_rec_raw_header_size + raw->count * mip_rec_raw_section_size);
  for (size_t i = 0; i < raw->count; i++)
    size += align8(raw->sections[i].size);
  return size;
}

int mip_rt_raw_fill(int fd, const void *arg) {
  const struct mip_rt_raw *raw = arg;
  return write_header(fd, raw) != 0 ||
                 mip_rt_write_payloads(fd, raw->sections, raw->count) != 0
             ? -1
             : 0;
}

/* Through a temporary file renamed over path at the end. */
int mip_rt_replace_file(const char *path, mip_rt_fill_fn fill,
                        const void *arg, const char **why) {
  __atomic_add_fetch(&writers, 1, __ATOMIC_RELAXED);
  char temp[MIP_RT_PATH_MAX + 48];
  int rc = -1, fd = open_temp(path, temp, sizeof temp);
  if (fd < 0) {
    *why = strerrordesc_np(errno);
  } else if (fill(fd, arg) != 0) {
    *why = strerrordesc_np(errno ? errno : EIO);
    mip_sys_close(fd);
    mip_sys_unlink(temp);
  } else if (mip_sys_close(fd) != 0 || mip_sys_rename(temp, path) != 0) {
    *why = strerrordesc_np(errno);
    mip_sys_unlink(temp);
  } else {
    rc = 0;
  }
  __atomic_sub_fetch(&writers, 1, __ATOMIC_RELAXED);
  return rc;
}

/* Into what is already there: a device or a FIFO. O_NONBLOCK on open, so
 * that a FIFO nobody reads fails (ENXIO) rather than hangs the exit; the
 * writes themselves block. */
static int write_in_place(const char *path, mip_rt_fill_fn fill,
                          const void *arg, const char **why) {
  int fd = mip_sys_open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK, 0);
  if (fd < 0) {
    *why = errno == ENXIO ? "it is a FIFO that nobody reads"
                          : strerrordesc_np(errno);
    return -1;
  }
  int flags = mip_sys_fcntl(fd, F_GETFL, 0);
  if (flags >= 0)
    mip_sys_fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  int rc = fill(fd, arg);
  if (rc != 0)
    *why = strerrordesc_np(errno ? errno : EIO);
  if (mip_sys_close(fd) != 0 && rc == 0) {
    *why = strerrordesc_np(errno);
    rc = -1;
  }
  return rc;
}

/* The file a chain of symbolic links starting at path ends at (which may
 * not exist yet), in out; path itself when it is no link. A relative link
 * is taken from the directory of the link. -1 with errno set on a loop or
 * a name that does not fit. */
int mip_rt_follow_links(const char *path, char *out, size_t size) {
  if (mip_rt_append(out, 0, size, path) >= size) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (int hops = 0; hops < 40; hops++) {
    char link[MIP_RT_PATH_MAX];
    ssize_t n = mip_sys_readlink(out, link, sizeof link - 1);
    if (n < 0)
      return 0; /* not a link (or nothing there): this is the file */
    link[n] = '\0';
    size_t keep = 0;
    if (link[0] != '/')
      for (size_t i = 0; out[i]; i++)
        if (out[i] == '/')
          keep = i + 1;
    out[keep] = '\0';
    if (mip_rt_append(out, keep, size, link) >= size) {
      errno = ENAMETOOLONG;
      return -1;
    }
  }
  errno = ELOOP;
  return -1;
}

/* Whether size bytes fit under RLIMIT_FSIZE. */
int mip_rt_fits_size_limit(uint64_t size) {
  struct rlimit limit;
  return mip_sys_getrlimit(RLIMIT_FSIZE, &limit) != 0 ||
         limit.rlim_cur == RLIM_INFINITY || size <= limit.rlim_cur;
}

int mip_rt_write_file(const char *path, uint64_t size, mip_rt_fill_fn fill,
                      const void *arg, const char **why) {
  if (!mip_rt_fits_size_limit(size)) {
    *why = "it is larger than the file size limit (ulimit -f)";
    return -1;
  }
  char target[MIP_RT_PATH_MAX];
  if (mip_rt_follow_links(path, target, sizeof target) != 0) {
    *why = strerrordesc_np(errno);
    return -1;
  }
  struct stat st;
  if (mip_sys_stat(target, &st) == 0 && !S_ISREG(st.st_mode))
    return write_in_place(target, fill, arg, why);
  return mip_rt_replace_file(target, fill, arg, why);
}

const struct mip_rt_payload_source *mip_rt_heap_payloads;

/* A stand-in for edges.c, which replaces it when linked. */
__attribute__((weak)) size_t mip_rt_edge_payloads(struct mip_rt_payload *out,
                                                  size_t max) {
  (void)out;
  (void)max;
  return 0;
}

size_t mip_rt_gather_run(const struct mip_rt_image *image,
                         struct mip_rt_payload *sections,
                         const struct mip_rt_payload_source **heap) {
  size_t count = mip_rt_counter_payloads(image, sections, MIP_RT_MAX_PAYLOADS);
  count += mip_rt_edge_payloads(sections + count, MIP_RT_MAX_PAYLOADS - count);
  *heap = mip_rt_heap_payloads;
  if (*heap)
    count = (*heap)->add(sections, count, MIP_RT_MAX_PAYLOADS);
  return count;
}

/* A file of one run (MIP_RAW_POOLED not set). */
struct mip_rt_raw mip_rt_one_run(const struct mip_rt_image *image,
                                 const struct mip_rt_payload *sections,
                                 size_t count) {
  return (struct mip_rt_raw){image, sections, count,
                             mip_rt_modes_of(sections, count), 1,
                             MIP_RT_COV_ENTERED ? 0 : MIP_RAW_COV_ZERO};
}

static int write_raw(const char *path, const struct mip_rt_image *image,
                     uint64_t *size, const char **why) {
  struct mip_rt_payload sections[MIP_RT_MAX_PAYLOADS];
  const struct mip_rt_payload_source *heap;
  size_t count = mip_rt_gather_run(image, sections, &heap);
  struct mip_rt_raw raw = mip_rt_one_run(image, sections, count);
  *size = mip_rt_raw_size(&raw);
  struct mip_rt_xfsz guard;
  mip_rt_xfsz_block(&guard);
  int rc = mip_rt_write_file(path, *size, mip_rt_raw_fill, &raw, why);
  mip_rt_xfsz_unblock(&guard);
  if (heap)
    heap->release(sections, count);
  return rc;
}

int mip_rt_write_raw_size(const char *path, const struct mip_rt_image *image,
                          uint64_t *size, const char **why) {
  return write_raw(path, image, size, why);
}

int mip_rt_write_raw(const char *path, const struct mip_rt_image *image,
                     const char **why) {
  uint64_t size;
  return mip_rt_write_raw_size(path, image, &size, why);
}
