/*
 * Pool mode (a MIP_PROFILE_FILE pattern with %Nm): each process adds its
 * run of the image to one pooled raw profile, with the totals of all the
 * runs merged into it (docs/runtime.md, "Pooled profiles").
 *
 *   1. This run is rendered as the raw profile the image would write,
 *      into memory (a memfd), before any lock is taken.
 *   2. The pooled file is locked (merge_lock.c), read whole and checked:
 *      it must hold runs of this very image, or nothing (a new file).
 *   3. The merged file is written to a temporary file beside it
 *      ("<name>.tmp.<random>", write.c) and renamed over the name, still
 *      under the lock, which is then released. A process
 *      killed at any point leaves the old file or the new one, never a
 *      file with half a run in it (and at worst its temporary file).
 *
 * When the file holds something else (another build, another format
 * version, a file that is not a valid raw profile), or the name is not
 * one pool mode may use (a symbolic link, another user's file in a sticky
 * world-writable directory: merge_lock.c), or the lock is not
 * had in time, or anything fails, the file is left as it was and the run
 * is written, as a raw profile of one run, to the pool's name with
 * ".<pid>" before the extension, which `mipdata merge` takes like any
 * other; one line on stderr says so.
 *
 * Each process adds one run per image: the first of mip_dump() and the
 * exit-time write merges it, later ones leave it (counters are never
 * reset, so a second merge would count the run twice).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "merge.h"
#include "mip/io.h"
#include "mip/link.h"
#include "sys.h"

/* What mipcc -fmip-pool names with -u, which no instrumented object refers
 * to: it pulls this file out of libmip_rt.a, and with it the definitions
 * that replace dump.c's and fork.c's weak stand-ins (include/mip/link.h). */
MIP_RT_HIDDEN const char mip_rt_pool_anchor __asm__(MIP_RT_POOL_SYMBOL) = 1;

uint8_t *mip_rt_merge_payload(struct mip_rt_merge *m, uint32_t kind,
                              uint32_t elem_size, uint64_t link_addr,
                              uint64_t size) {
  uint8_t *data = mip_rt_arena_alloc(&m->arena, size);
  if (!data || m->out_count == MIP_RT_MAX_PAYLOADS) {
    mip_rt_why_set(&m->why, "no memory for the merge", NULL);
    return NULL;
  }
  m->out[m->out_count++] = (struct mip_rt_payload){
      .kind = kind, .elem_size = elem_size, .link_addr = link_addr,
      .size = size, .data = data};
  return data;
}

/* ---- this run, in memory ------------------------------------------------ */

struct rendered {
  const uint8_t *data;
  uint64_t size;
};

static int render(const struct mip_rt_image *image, struct rendered *r,
                  struct mip_rt_why *why) {
  int fd = memfd_create("mip-run", MFD_CLOEXEC);
  if (fd < 0)
    return mip_rt_why_set(why, "cannot render the run: ",
                          strerrordesc_np(errno), NULL);
  void *p = MAP_FAILED;
  int rc = mip_rt_write_raw_fd(fd, image, &r->size); /* 0, or -errno */
  if (rc == 0 && r->size)
    p = mmap(NULL, r->size, PROT_READ, MAP_PRIVATE, fd, 0);
  int e = rc ? -rc : errno;
  close(fd);
  if (p == MAP_FAILED)
    return mip_rt_why_set(why, "cannot render the run: ",
                          strerrordesc_np(e ? e : EIO), NULL);
  r->data = p;
  return 0;
}

/* ---- the merge --------------------------------------------------------- */

/* What fd holds, read whole into the arena (empty: no runs yet). */
static int read_old(struct mip_rt_merge *m, int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0)
    return mip_rt_why_set(&m->why, strerrordesc_np(errno), NULL);
  if (st.st_size == 0)
    return 0;
  uint64_t size = (uint64_t)st.st_size;
  uint8_t *data = mip_rt_arena_alloc(&m->arena, size);
  if (!data)
    return mip_rt_why_set(&m->why, "no memory to read it", NULL);
  for (uint64_t at = 0; at < size;) {
    ssize_t n = pread(fd, data + at, size - at, (off_t)at);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return mip_rt_why_set(&m->why, n ? strerrordesc_np(errno)
                                       : "it shrank while it was read", NULL);
    at += (uint64_t)n;
  }
  return mip_rt_view_read(data, size, &m->old, &m->why);
}

/* The merged file's header: mode bits of the kinds the runs had. */
static struct mip_rt_raw merged_raw(const struct mip_rt_merge *m) {
  uint64_t modes = 0;
  for (size_t i = 0; i < m->out_count; i++) {
    uint32_t kind = m->out[i].kind;
    if (kind > MIP_RAW_POOL_BASE && kind <= MIP_RAW_POOL_LAST)
      kind -= MIP_RAW_POOL_BASE;
    modes |= MIP_MODE_BIT(kind);
  }
  uint64_t runs = m->old.present ? m->old.runs : 0;
  return (struct mip_rt_raw){m->image, m->out, m->out_count, modes,
                             runs == UINT64_MAX ? runs : runs + 1,
                             MIP_RAW_POOLED};
}

static int merge_heap(struct mip_rt_merge *m) {
  const struct mip_rt_payload_source *heap = mip_rt_heap_payloads;
  if (heap && heap->merge)
    return heap->merge(m);
  /* A heap image linked with the merge but not its heap part. */
  if (heap)
    return mip_rt_why_set(&m->why, "the merge of heap data is not linked "
                                   "(" MIP_RT_POOL_HEAP_SYMBOL ")", NULL);
  for (uint32_t kind = MIP_RAW_HEAP_MIBS; kind <= MIP_RAW_HEAP_SEGMENTS; kind++)
    if (mip_rt_view_find(&m->old, kind) || mip_rt_view_find(&m->run, kind))
      return mip_rt_why_set(&m->why, "it holds the profile of another build "
                                     "(heap data)", NULL);
  return 0;
}

int mip_rt_merge_all(struct mip_rt_merge *m, struct mip_rt_raw *raw) {
  if (mip_rt_view_same_image(&m->old, &m->run, &m->why) ||
      mip_rt_merge_counters(m) || mip_rt_merge_edges(m) ||
      mip_rt_merge_stats(m) || merge_heap(m))
    return -1;
  *raw = merged_raw(m);
  return 0;
}

static int merge_into(struct mip_rt_merge *m, const char *path, int fd,
                      uint64_t *runs) {
  struct mip_rt_raw raw;
  if (read_old(m, fd) || mip_rt_merge_all(m, &raw))
    return -1;
  *runs = raw.runs;
  const char *why;
  if (!mip_rt_fits_size_limit(mip_rt_raw_size(&raw)))
    return mip_rt_why_set(&m->why, "it would be larger than the file size "
                                   "limit (ulimit -f)", NULL);
  if (mip_rt_replace_file(path, mip_rt_raw_fill, &raw, &why) != 0)
    return mip_rt_why_set(&m->why, why, NULL);
  return 0;
}

/* The descriptor holding the lock while this image merges, or -1. A
 * child forked meanwhile (by another thread) shares the lock through its
 * copy, and would wait for it at its own merge: it closes that copy. */
static int locked_fd = -1;

void mip_rt_pool_after_fork(void) {
  int fd = __atomic_exchange_n(&locked_fd, -1, __ATOMIC_RELAXED);
  if (fd >= 0)
    close(fd); /* the parent's lock stays: its descriptor is open */
}

/* Locks the file at path (never through a link: merge_lock.c) and merges
 * the run into it. */
static int merge_run(struct mip_rt_merge *m, const char *path, uint64_t *runs) {
  int fd = mip_rt_pool_lock(path, mip_rt_pool_wait, &m->why);
  if (fd < 0)
    return -1;
  __atomic_store_n(&locked_fd, fd, __ATOMIC_RELAXED);
  int rc = merge_into(m, path, fd, runs);
  struct stat st;
  /* An empty file is one this lock's holder made: gone with the merge. */
  if (rc != 0 && fstat(fd, &st) == 0 && st.st_size == 0)
    unlink(path);
  __atomic_store_n(&locked_fd, -1, __ATOMIC_RELAXED);
  close(fd); /* releases the lock */
  return rc;
}

/* ---- when it cannot merge ------------------------------------------------ */

static int fill_bytes(int fd, const void *arg) {
  const struct rendered *r = arg;
  return mip_rt_write_all(fd, r->data, r->size); /* 0, or -errno */
}

/* Writes the run under a name of its own; one line says why. */
static int fall_back(const char *path, const struct mip_rt_image *image,
                     const struct rendered *r, const struct mip_rt_why *why) {
  char other[MIP_RT_PATH_MAX];
  const char *problem = "its name is too long";
  uint64_t size = 0;
  int rc = -1;
  if (mip_rt_pool_fallback_path(image, other, sizeof other) == 0)
    rc = r->data ? mip_rt_write_file(other, r->size, O_WRONLY, fill_bytes, r,
                                      &problem)
                 : mip_rt_write_raw_size(other, image, &size, &problem);
  if (rc != 0)
    mip_rt_report("cannot merge profile into '", path, "': ", why->text,
                  "; cannot write '", other, "' either: ", problem);
  else
    mip_rt_report("cannot merge profile into '", path, "': ", why->text,
                  "; wrote '", other, "' instead");
  return -1;
}

/* ---- once per process ----------------------------------------------------- */

static int32_t merged_by; /* pid of the process that added its run */

/* Whether this process may add its run now: the first to ask in it. A
 * forked child is another process, with a run of its own. */
static int claim(void) {
  int32_t me = (int32_t)getpid();
  int32_t seen = __atomic_load_n(&merged_by, __ATOMIC_RELAXED);
  return seen != me && __atomic_compare_exchange_n(&merged_by, &seen, me, 0,
                                                   __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED);
}

static void say_merged(const char *path, uint64_t runs) {
  if (!mip_rt_options.verbose)
    return;
  char digits[24];
  mip_rt_append_u64(digits, 0, sizeof digits, runs);
  mip_rt_report("merged profile into '", path, "' (", digits, " runs)");
}

static int pool_dump(const char *path, const struct mip_rt_image *image);

/* The program's errno is kept: the core's callers leave it to the modes
 * that use libc's calls to keep it. */
int mip_rt_pool_dump(const char *path, const struct mip_rt_image *image) {
  int saved = errno;
  int rc = pool_dump(path, image);
  errno = saved;
  return rc;
}

static int pool_dump(const char *path, const struct mip_rt_image *image) {
  if (!claim()) {
    if (mip_rt_options.verbose)
      mip_rt_report("profile already merged into '", path,
                    "' by this process (one run per process)");
    return 0;
  }
  struct mip_rt_xfsz guard;
  mip_rt_xfsz_block(&guard);
  struct mip_rt_merge m;
  m.arena.chunks = NULL;
  m.image = image;
  m.old.present = m.run.present = 0; /* no file (yet): nothing in it */
  m.old.pooled = m.run.pooled = 0;
  m.old.count = m.run.count = 0;
  m.old.runs = m.run.runs = 0;
  m.out_count = 0;
  m.why.text[0] = '\0';
  struct rendered r = {NULL, 0};
  uint64_t runs = 0;
  int rc = render(image, &r, &m.why);
  if (rc == 0)
    rc = mip_rt_view_read(r.data, r.size, &m.run, &m.why);
  if (rc == 0)
    rc = merge_run(&m, path, &runs);
  if (rc == 0)
    say_merged(path, runs);
  else
    fall_back(path, image, &r, &m.why);
  if (r.data)
    munmap((void *)r.data, r.size);
  mip_rt_arena_free(&m.arena);
  mip_rt_xfsz_unblock(&guard);
  return rc;
}
