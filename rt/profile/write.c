/*
 * Writes the raw profile: header, section table, then each counter section
 * verbatim (layouts in mip/layout/raw_*.inc). The bytes go to a temporary
 * file beside the target, under a name nobody can foresee, which is
 * renamed over the name at the end, so a reader sees either the old file
 * or the whole new one, never a torn one.
 *
 * The runtime often runs as root, in directories others can write to: it
 * writes only what the program's own open() of the name could write, and
 * never follows a symbolic link by hand. A link at the name is followed
 * by the kernel (the file it names is written in place); a device or a
 * FIFO is written in place, never replaced; and in a sticky
 * world-writable directory, what belongs to another user is left alone
 * (mip_rt_foreign_in_sticky). docs/runtime.md, "Where", has the rules.
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
 * Continuous mode (rt/continuous/) creates its file the same way, with the
 * same header and payloads at offsets of its own.
 *
 * Failures come back as -errno, as the system calls return them
 * (sys.h): the program's errno is never touched.
 *
 * No state here (path.c neither): pool and continuous mode, which call
 * the writer from outside the core, link a copy of their own
 * (mip_rt_api.o, rt/build.mk), so that the core's may be inlined and
 * specialized for its own calls.
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
#if MIP_RT_WORD64
  uint64_t modes = 0;
  for (size_t i = 0; i < count; i++)
    if (sections[i].kind < 64)
      modes |= MIP_MODE_BIT(sections[i].kind);
  return modes;
#else
  /* In halves: no variable 64-bit shift. */
  uint32_t half[2] = {0, 0};
  for (size_t i = 0; i < count; i++)
    if (sections[i].kind < 64)
      half[sections[i].kind >> 5] |= 1u << (sections[i].kind & 31);
  return (uint64_t)half[1] << 32 | half[0];
#endif
}

size_t mip_rt_raw_header(uint8_t *buf, const struct mip_rt_raw *raw,
                         const uint64_t *offsets) {
  const struct mip_rt_image *image = raw->image;
  struct mip_rec_raw_header h;
  /* Not memset: no other part of the runtime imports it. */
  mip_rt_fill((uint8_t *)&h, (uint8_t *)(&h + 1), 0);
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
    int rc = p->write ? p->write(fd, p) : mip_rt_write_all(fd, p->data, p->size);
    uint64_t pad = align8(sections[i].size) - sections[i].size;
    if (!rc && pad)
      rc = mip_rt_write_all(fd, zeros, pad);
    if (rc)
      return rc;
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

/* A name for a temporary file that nobody can foresee: 64 bits from the
 * kernel; without them (getrandom missing, or its pool not ready at
 * boot), a mix of the thread, a count and the stack's address, which
 * address space layout randomization makes hard to guess. Either way
 * open_temp never takes a name that is there already (O_EXCL). */
static uint64_t temp_suffix(void) {
  static uint64_t made;
  uint64_t r;
  if (mip_sys_getrandom(&r, sizeof r) == sizeof r)
    return r;
  r = __atomic_add_fetch(&made, 0x9e3779b97f4a7c15ULL, __ATOMIC_RELAXED);
  return (r ^ (uint64_t)(uintptr_t)&r) * 0xbf58476d1ce4e5b9ULL ^
         (uint64_t)mip_sys_gettid();
}

/* The temporary file, "<path>.tmp.<16 hex digits>", beside path, created
 * by this call and by nothing else: O_EXCL | O_NOFOLLOW, so that a file
 * or a link someone put at the name is never opened (another name is
 * drawn instead). Read and write: continuous mode maps it. Its
 * descriptor, or -errno. */
static int open_temp(const char *path, char *temp, size_t size) {
  int made_parents = 0;
  for (int tries = 0; tries < 64; tries++) {
    size_t n = mip_rt_append(temp, 0, size, path);
    n = mip_rt_append(temp, n, size, ".tmp.");
    if (mip_rt_append_hex(temp, n, size, temp_suffix(), 8) >= size)
      return -ENAMETOOLONG;
    int fd = mip_sys_open(
        temp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0 || (fd == -ENOENT && made_parents++) ||
        (fd != -ENOENT && fd != -EEXIST))
      return fd;
    if (fd == -ENOENT)
      mip_rt_make_parents(temp);
  }
  return -EEXIST; /* every name drawn was taken */
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
  int rc = write_header(fd, raw);
  return rc ? rc : mip_rt_write_payloads(fd, raw->sections, raw->count);
}

/* What a failure's -errno says (anything else: an I/O error). */
static const char *why_of(int rc) { return strerrordesc_np(rc < 0 ? -rc : EIO); }

/* Through a temporary file renamed over path at the end: rename replaces
 * the name itself, whatever is there (a link is not followed). */
int mip_rt_replace_file(const char *path, mip_rt_fill_fn fill, const void *arg,
                        const char **why) {
  char temp[MIP_RT_PATH_MAX + 24];
  int fd = open_temp(path, temp, sizeof temp);
  if (fd < 0) {
    *why = why_of(fd);
    return -1;
  }
  int rc = fill(fd, arg);
  int closed = mip_sys_close(fd);
  if (!rc)
    rc = closed;
  if (!rc)
    rc = mip_sys_rename(temp, path);
  if (!rc)
    return 0;
  *why = why_of(rc);
  mip_sys_unlink(temp);
  return -1;
}

/* Into what path leads to, opened as the program's own open() would open
 * it: a device or a FIFO at the name (O_NOFOLLOW in flags), or the file a
 * symbolic link there names (without: the kernel follows it, and its own
 * rules apply), created when missing. A regular file found so is cut to
 * nothing first, so that a write that fails midway leaves a file too
 * short to read rather than new bytes before old ones. O_NONBLOCK on
 * open, so that a FIFO nobody reads fails (ENXIO) rather than hangs the
 * exit; the writes themselves block. flags: also the access mode. */
static int write_into(const char *path, int flags, mip_rt_fill_fn fill,
                      const void *arg, const char **why) {
  int fd = mip_sys_open(
      path, flags | O_CREAT | O_NOCTTY | O_CLOEXEC | O_NONBLOCK, 0644);
  if (fd < 0) {
    *why = fd == -ENXIO ? "it is a FIFO that nobody reads" : why_of(fd);
    return -1;
  }
  struct stat st;
  int rc = mip_sys_fstat(fd, &st);
  if (rc == 0 && S_ISREG(st.st_mode))
    rc = mip_sys_truncate_to_zero(fd);
  flags = mip_sys_fcntl(fd, F_GETFL, 0);
  if (flags >= 0)
    mip_sys_fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  if (!rc)
    rc = fill(fd, arg);
  int closed = mip_sys_close(fd);
  if (!rc)
    rc = closed;
  if (!rc)
    return 0;
  *why = why_of(rc);
  return -1;
}

/* The rule of fs.protected_symlinks (and of protected_regular and
 * protected_fifos) for a sticky world-writable directory such as /tmp,
 * where anyone may put a name that the others cannot remove: what is
 * there and belongs to neither this process's user nor the directory's
 * owner is not followed, nor opened to be written. The kernel applies it
 * only when those are set; the runtime, often run as root in such a
 * directory, applies it always. A directory that cannot be looked at
 * counts as sticky. st: what is at path (lstat). */
int mip_rt_foreign_in_sticky(const char *path, const struct stat *st) {
  if (st->st_uid == mip_sys_geteuid())
    return 0;
  char dir[MIP_RT_PATH_MAX];
  size_t n = mip_rt_append(dir, 0, sizeof dir, path);
  if (n >= sizeof dir)
    return 1;
  while (n && dir[n - 1] != '/')
    n--;
  if (n == 0)
    dir[n++] = '.'; /* a name in the current directory */
  dir[n > 1 ? n - 1 : n] = '\0'; /* "/" stays itself */
  struct stat d;
  return mip_sys_stat(dir, &d) != 0 ||
         ((d.st_mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH) &&
          st->st_uid != d.st_uid);
}

/* Whether size bytes fit under RLIMIT_FSIZE. */
int mip_rt_fits_size_limit(uint64_t size) {
  struct rlimit limit;
  return mip_sys_getrlimit(RLIMIT_FSIZE, &limit) != 0 ||
         limit.rlim_cur == RLIM_INFINITY || size <= limit.rlim_cur;
}

/* Only what open() of path could write, under the rule above: what is at
 * the name decides how (docs/runtime.md, "Where"). */
int mip_rt_write_file(const char *path, uint64_t size, int access,
                      mip_rt_fill_fn fill, const void *arg, const char **why) {
  if (!mip_rt_fits_size_limit(size)) {
    *why = "it is larger than the file size limit (ulimit -f)";
    return -1;
  }
  struct stat st;
  if (mip_sys_lstat(path, &st) != 0) /* nothing there yet */
    return mip_rt_replace_file(path, fill, arg, why);
  if (mip_rt_foreign_in_sticky(path, &st)) {
    *why = MIP_RT_FOREIGN_WHY;
    return -1;
  }
  if (S_ISREG(st.st_mode))
    return mip_rt_replace_file(path, fill, arg, why);
  return write_into(path, access | (S_ISLNK(st.st_mode) ? 0 : O_NOFOLLOW),
                    fill, arg, why);
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
  int rc = mip_rt_write_file(path, *size, O_WRONLY, mip_rt_raw_fill, &raw,
                             why);
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
