/*
 * Continuous mode (%c in MIP_PROFILE_FILE). When an image starts (the
 * program, or a library as dlopen loads it), its raw profile is created
 * whole and the image's counters are mapped onto it, MAP_SHARED: every
 * counter store lands in the file's pages in the page cache, so whatever
 * ends the process (kill -9, abort, a crash) leaves a raw profile with the
 * counts of that instant. Only the machine going down loses what the
 * kernel had not written back yet.
 *
 * The file (docs/formats.md): the header and its section table in the
 * first page, with room for every payload the image can have; each mapped
 * payload at a page-aligned offset, in whole pages; after them, from the
 * first dump on, what only a dump can write (the heap's payloads, which
 * live in the runtime's tables). A dump writes those and then the header
 * that lists them, each step leaving a file a reader takes whole.
 *
 * What is mapped must own its pages. The counter sections do: this file
 * gives each of them an empty piece aligned to a page, which every linker
 * places last (it is tied, SHF_LINK_ORDER, to a byte of .bss, which comes
 * after all the code the counters are tied to; gold keeps input order, and
 * the runtime comes after the program's objects), so each section starts
 * on a page and ends on one. The default mode pays no instruction for it,
 * only the pages. The edge table is whole pages of its own (edges.c).
 * Anything else (a linker that placed the piece elsewhere, larger pages)
 * fails the check below, with one line, and the profile is written at
 * exit as in the default mode.
 *
 * This file is mip_continuous.o, which mipcc links only with
 * -fmip-continuous, so that no other image pays for the pages; without it
 * the runtime's stand-ins (continuous_stub.c) say what to do.
 *
 * A forked child must not count into its parent's file: its handler maps
 * fresh private pages over the counters before anything else (fork.c),
 * then makes and maps a file of its own (".%p" in its name).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys.h"

/* The pieces that pad every counter section to whole pages, of the
 * section's own type: the counters that start as zeros are in sections
 * without file bytes (%nobits; the plugin's Counters.cpp), and GNU ld
 * makes two output sections of one name when the types differ. */
#define PAD_ALIGN 4096
#define TEXT(x) #x
#define NUMBER(x) TEXT(x)
#define PAD_TYPE_COV MIP_RT_ASM_COV_SECTION_TYPE
#define PAD_TYPE_CNT "%nobits"
#define PAD_TYPE_ORD "%nobits"
#define PAD_TYPE_BLK "%nobits"
#define PAD_TYPE_SITE "%nobits"
#define PAD_TYPE_DATA "%nobits"
#define PAD_TYPE_BCNT "%nobits"
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  ".section " #section ",\"awoR\"," PAD_TYPE_##NAME                            \
  ",__mip_rt_page_anchor\n"                                                   \
  ".balign " NUMBER(PAD_ALIGN) "\n"
__asm__(".pushsection .bss.__mip_rt_page_anchor,\"awR\",%nobits\n"
        "__mip_rt_page_anchor: .zero 1\n"
#include "mip/layout/raw_kinds.inc"
        ".popsection\n");
#undef MIP_RAW_KIND

enum { IDLE, MAPPING, ACTIVE };

static struct {
  uint32_t state; /* MAPPING: some pages may be the file's */
  uint32_t busy;  /* a dump is finishing the file */
  int restart;    /* a forked child whose parent counted into a file */
  int tail_listed; /* the header lists payloads after the mapped ones */
  size_t count;
  struct mip_rt_payload mapped[MIP_RT_MAX_PAYLOADS];
  uint64_t offsets[MIP_RT_MAX_PAYLOADS];
  uint64_t tail; /* where the mapped payloads end */
  dev_t dev;
  ino_t ino;
  char path[MIP_RT_PATH_MAX]; /* the profile's name */
  char name[MIP_RT_PATH_MAX]; /* the same, from where the image started */
  /* Why start could not map path, so that the exit does not say it
   * again when it cannot write it either. */
  const char *failed_why;
} live;

/* A stand-in for edges.c, which replaces it when linked. */
__attribute__((weak)) size_t
mip_rt_edge_mapped_payloads(struct mip_rt_payload *out, size_t max) {
  (void)out;
  (void)max;
  return 0;
}

/* The bytes at p->data that belong to p alone, whole pages that may be
 * mapped onto the file: a counter section is padded to whole pages (and
 * checked to be, in plan); the edge statistics own the rest of their page
 * (edges.c), the only mapped payload that does not fill it. */
static uint64_t span_of(const struct mip_rt_payload *p) {
  return p->kind == MIP_RAW_STATS ? (p->size + PAD_ALIGN - 1) & ~(uint64_t)(PAD_ALIGN - 1)
                                  : p->size;
}

static uint64_t align8(uint64_t v) { return (v + 7) & ~(uint64_t)7; }

/* The payloads to map, with their offsets; NULL, or why not. */
static const char *plan(void) {
  size_t n = mip_rt_counter_payloads(mip_rt_self(), live.mapped,
                                     MIP_RT_MAX_PAYLOADS);
  n += mip_rt_edge_mapped_payloads(live.mapped + n, MIP_RT_MAX_PAYLOADS - n);
  uint64_t page = (uint64_t)getpagesize();
  if (page < MIP_RT_HEADER_MAX || page % PAD_ALIGN)
    return "the page size is not a multiple of 4096";
  uint64_t offset = page; /* the header's page */
  for (size_t i = 0; i < n; i++) {
    const struct mip_rt_payload *p = &live.mapped[i];
    uint64_t span = span_of(p);
    if ((uintptr_t)p->data % page || span % page)
      return "its counters do not fill whole pages of their own (linked "
             "without the runtime's page padding last)";
    live.offsets[i] = offset;
    offset += span;
  }
  live.count = n;
  live.tail = offset;
  return NULL;
}

static int write_header(int fd, const struct mip_rt_payload *all,
                        const uint64_t *offsets, size_t count) {
  uint8_t buf[MIP_RT_HEADER_MAX];
  struct mip_rt_raw raw = mip_rt_one_run(mip_rt_self(), all, count);
  size_t n = mip_rt_raw_header(buf, &raw, offsets);
  return pwrite(fd, buf, n, 0) == (ssize_t)n ? 0 : -1;
}

/* The runtime's write of all of buf (sys.h: -errno), as libc's calls
 * here fail: -1 with errno set. */
static int write_all(int fd, const void *buf, uint64_t size) {
  int rc = mip_rt_write_all(fd, buf, size);
  if (rc)
    errno = -rc;
  return rc ? -1 : 0;
}

/* A mip_rt_fill_fn's failure: -errno. */
static int fill_failed(void) { return errno ? -errno : -EIO; }

/* The whole file as it is now: written, not a hole, so that no store to a
 * mapped page needs room the file system may not have. */
static int fill(int fd) {
  if (write_header(fd, live.mapped, live.offsets, live.count) != 0)
    return -1;
  for (size_t i = 0; i < live.count; i++) {
    const struct mip_rt_payload *p = &live.mapped[i];
    if (lseek(fd, (off_t)live.offsets[i], SEEK_SET) < 0 ||
        write_all(fd, p->data, span_of(p)) != 0)
      return -1;
  }
  return 0;
}

/* The first n payloads' pages made private again, their counts kept. */
static void unmap(int fd, size_t n) {
  for (size_t i = 0; i < n; i++)
    mmap((void *)live.mapped[i].data, span_of(&live.mapped[i]),
         PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd,
         (off_t)live.offsets[i]);
}

static int map(int fd) {
  __atomic_store_n(&live.state, MAPPING, __ATOMIC_RELEASE);
  for (size_t i = 0; i < live.count; i++) {
    const struct mip_rt_payload *p = &live.mapped[i];
    if (mmap((void *)p->data, span_of(p), PROT_READ | PROT_WRITE,
             MAP_SHARED | MAP_FIXED, fd,
             (off_t)live.offsets[i]) == MAP_FAILED) {
      int saved = errno;
      unmap(fd, i);
      errno = saved;
      return -1;
    }
  }
  return 0;
}

/* What *kept holds when the file is no regular one (a device, a FIFO),
 * which cannot be mapped. */
#define NOT_REGULAR (-2)

/* The file filled and mapped: the temporary file that mip_rt_write_file
 * renames into place, or what is at the name (a device, a FIFO: refused;
 * what a link there leads to); a copy of its descriptor kept in *arg, to
 * make the pages private again should the write fail after this. */
static int fill_and_map(int fd, const void *arg) {
  int *kept = (int *)arg;
  struct stat st;
  if (fstat(fd, &st) != 0)
    return fill_failed();
  if (!S_ISREG(st.st_mode)) {
    *kept = NOT_REGULAR;
    return -EINVAL; /* its own why (make) */
  }
  errno = 0;
  if (fill(fd) != 0 || (*kept = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
    return fill_failed();
  if (map(fd) != 0) {
    int failed = fill_failed();
    close(*kept);
    *kept = -1;
    return failed;
  }
  live.dev = st.st_dev;
  live.ino = st.st_ino;
  return 0;
}

/* Creates the file at live.name, its counters mapped onto it, as the
 * default mode writes its file (write.c: the same rules for links,
 * another user's names and the size limit): NULL, or why not (nothing
 * changed). */
static const char *create(void) {
  const char *why = NULL;
  int kept = -1;
  if (mip_rt_write_file(live.name, live.tail, O_RDWR, fill_and_map, &kept,
                        &why) != 0 &&
      kept >= 0)
    unmap(kept, live.count);
  if (kept >= 0)
    close(kept);
  return kept == NOT_REGULAR ? "it is not a regular file" : why;
}

/* The file's name from the directory the image starts in, which later
 * dumps must find whatever directory the program is in by then. */
static int absolute(char *out, size_t size) {
  size_t n = 0;
  if (live.path[0] != '/') {
    if (!getcwd(out, size))
      return -1;
    n = mip_rt_strlen(out);
    n = mip_rt_append(out, n, size, n && out[n - 1] == '/' ? "" : "/");
  }
  if (mip_rt_append(out, n, size, live.path) >= size) {
    errno = ENAMETOOLONG;
    return -1;
  }
  return 0;
}

static const char *start(void) {
  const char *why = plan();
  if (why)
    return why;
  if (absolute(live.name, sizeof live.name) != 0)
    return strerrordesc_np(errno);
  struct mip_rt_xfsz guard;
  mip_rt_xfsz_block(&guard);
  why = create();
  mip_rt_xfsz_unblock(&guard);
  return why;
}

/* Not when the pattern also pools (%Nm): continuous mode replaces the
 * file as the image starts, which would throw away the runs pooled in it. */
void mip_rt_continuous_start(const char *pattern) {
  int saved = errno;
  if (mip_rt_pool_size(pattern)) {
    mip_rt_report("MIP_PROFILE_FILE '", pattern,
                  "' pools (%Nm) and asks for continuous mode (%c), which "
                  "would replace the pooled file: pooled only");
    return;
  }
  if (mip_rt_profile_path(pattern, mip_rt_self(), mip_rt_forked(), live.path,
                          sizeof live.path) != 0) {
    mip_rt_report("profile file name too long: ", pattern);
    errno = saved;
    return;
  }
  const char *why = start();
  if (why) {
    __atomic_store_n(&live.state, IDLE, __ATOMIC_RELEASE);
    live.failed_why = why;
    mip_rt_report("cannot count into profile '", live.path, "': ", why,
                  " (it is written at exit instead)");
  } else {
    __atomic_store_n(&live.state, ACTIVE, __ATOMIC_RELEASE);
    live.failed_why = NULL;
    if (mip_rt_options.verbose) {
      char bytes[24];
      mip_rt_append_u64(bytes, 0, sizeof bytes, live.tail);
      mip_rt_report("counting into profile '", live.path, "' (", bytes,
                    " bytes)");
    }
  }
  errno = saved;
}

int mip_rt_continuous_failed(const char *path, const char *why) {
  return live.failed_why && live.failed_why == why &&
         mip_rt_streq(path, live.path);
}

/* ---- Dumps ------------------------------------------------------------ */

/* Whether live.name still leads to the file the counters are mapped onto
 * (as it did at start, through a link the kernel followed then). */
static int ours(int fd) {
  struct stat st;
  int rc = fd >= 0 ? fstat(fd, &st) : stat(live.name, &st);
  return rc == 0 && st.st_dev == live.dev && st.st_ino == live.ino;
}

/* Writes the payloads at and after live.tail, and the header that lists
 * them: first the header without them (if an earlier dump listed some),
 * then the old ones cut off, the new ones written, and the new header,
 * one write within the first page. A process that dies at any point
 * leaves a file that reads whole, with or without them. */
static int append(int fd, const struct mip_rt_payload *all,
                  const uint64_t *offsets, size_t count, const size_t *tail,
                  size_t tails) {
  struct mip_rt_payload after[MIP_RT_MAX_PAYLOADS];
  for (size_t i = 0; i < tails; i++)
    after[i] = all[tail[i]];
  if (live.tail_listed &&
      write_header(fd, live.mapped, live.offsets, live.count) != 0)
    return -1;
  live.tail_listed = 0;
  if (ftruncate(fd, (off_t)live.tail) != 0 ||
      lseek(fd, (off_t)live.tail, SEEK_SET) < 0 ||
      mip_rt_write_payloads(fd, after, tails) != 0 ||
      write_header(fd, all, offsets, count) != 0)
    return -1;
  live.tail_listed = tails > 0;
  return 0;
}

/* The payloads of a dump: the mapped ones at their offsets, and what the
 * heap adds (or puts in place of one, the statistics) after them; 1 when
 * the file has been removed or replaced (written whole, then). */
static int finish(uint64_t *size, const char **why) {
  struct mip_rt_payload all[MIP_RT_MAX_PAYLOADS];
  uint64_t offsets[MIP_RT_MAX_PAYLOADS];
  size_t tail[MIP_RT_MAX_PAYLOADS], tails = 0;
  size_t count = live.count;
  for (size_t i = 0; i < count; i++)
    all[i] = live.mapped[i];
  const struct mip_rt_payload_source *heap = mip_rt_heap_payloads;
  if (heap)
    count = heap->add(all, count, MIP_RT_MAX_PAYLOADS);
  uint64_t end = live.tail;
  for (size_t i = 0; i < count; i++) {
    if (i < live.count && all[i].data == live.mapped[i].data &&
        !all[i].write) {
      offsets[i] = live.offsets[i];
      continue;
    }
    offsets[i] = end;
    end = align8(end + all[i].size);
    tail[tails++] = i;
  }
  *size = end;
  int rc = 0;
  if (!tails && !live.tail_listed) {
    rc = ours(-1) ? 0 : 1;
  } else if (!mip_rt_fits_size_limit(end)) {
    *why = "it is larger than the file size limit (ulimit -f)";
    rc = -1;
  } else {
    /* Opened as it was made, without O_CREAT or O_TRUNC: nothing changes
     * until ours() has said it is still the file. */
    int fd = open(live.name, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if ((fd < 0 && errno == ENOENT) || (fd >= 0 && !ours(fd))) {
      rc = 1;
    } else if (fd < 0 || append(fd, all, offsets, count, tail, tails) != 0) {
      *why = strerrordesc_np(errno ? errno : EIO);
      rc = -1;
    }
    if (fd >= 0)
      close(fd);
  }
  if (heap)
    heap->release(all, count);
  return rc;
}

/* The program's errno is kept: the core's callers leave it to the modes
 * that use libc's calls to keep it. */
int mip_rt_continuous_dump(const char *path, uint64_t *size,
                           const char **why) {
  if (__atomic_load_n(&live.state, __ATOMIC_ACQUIRE) != ACTIVE ||
      !mip_rt_streq(path, live.path))
    return 1;
  int saved = errno;
  /* Another dump is finishing it (another thread, or the code this
   * signal handler interrupted): it writes what there is. */
  if (__atomic_exchange_n(&live.busy, 1, __ATOMIC_ACQUIRE)) {
    *size = live.tail;
    return 0;
  }
  struct mip_rt_xfsz guard;
  mip_rt_xfsz_block(&guard);
  int rc = finish(size, why);
  mip_rt_xfsz_unblock(&guard);
  __atomic_store_n(&live.busy, 0, __ATOMIC_RELEASE);
  errno = saved;
  return rc;
}

/* ---- fork ------------------------------------------------------------- */

int mip_rt_continuous_forked(void) {
  uint32_t state = __atomic_load_n(&live.state, __ATOMIC_ACQUIRE);
  if (state == IDLE)
    return 0;
  int saved = errno;
  for (size_t i = 0; i < live.count; i++) {
    const struct mip_rt_payload *p = &live.mapped[i];
    if (mmap((void *)p->data, span_of(p), PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
      mip_rt_report("forked child cannot let go of its parent's profile '",
                    live.path, "': ", strerrordesc_np(errno),
                    " (its counts go there)");
      errno = saved;
      return -1; /* zeroing them would clear the parent's counts */
    }
  }
  live.state = IDLE;
  live.busy = 0;
  live.tail_listed = 0;
  live.restart = 1;
  errno = saved;
  return 0;
}

void mip_rt_continuous_restarted(void) {
  if (!live.restart)
    return;
  live.restart = 0;
  mip_rt_continuous_start(mip_rt_profile_pattern());
}
