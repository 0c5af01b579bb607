/*
 * Internal interface of the MIP runtime (libmip_rt.a). Everything here is
 * hidden: each instrumented image (executable or shared library) links its
 * own copy and writes its own profile. The copies find each other through
 * an ELF note (note.c), never through symbol lookup.
 *
 * The runtime runs inside someone else's program, so it allocates nothing,
 * takes no locks, never exits, and sticks to async-signal-safe calls once
 * mip_rt_init() has run. The heap runtime (heap.h, images built with heap
 * mode) is the exception: it keeps its tables behind spin locks of its
 * own (mmap'd, still no malloc), and stops the process when the address
 * range of its shadow is taken.
 */
#ifndef MIP_RT_H
#define MIP_RT_H

#include <link.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "mip/format.h"
#include "mip/le.h"

#define MIP_RT_HIDDEN __attribute__((visibility("hidden")))

/* Whether the target divides and shifts 64-bit numbers by a variable
 * itself. A 32-bit one calls its compiler's library for that, which every
 * image would then carry (Armv7: 420 bytes, and an import of raise for a
 * division by zero): the runtime does without there (util.c, write.c). */
#define MIP_RT_WORD64 (UINTPTR_MAX > 0xffffffffu)

/* One payload of the raw profile: a counter section of this image as it
 * is in memory now, or something the runtime gathered (call edges). */
struct mip_rt_payload {
  uint32_t kind;
  uint32_t elem_size;
  uint64_t link_addr; /* where the linker put it (counters), else 0 */
  uint64_t size;
  const uint8_t *data; /* written as it is, unless write is set */
  /* 0, or -errno (mip_rt_fill_fn) */
  int (*write)(int fd, const struct mip_rt_payload *payload);
};

#define MIP_RT_ID_DIGITS 16

/* What this image is: filled once by mip_rt_image_init(). */
struct mip_rt_image {
  uintptr_t load_bias;
  uintptr_t code_start, code_end; /* its executable segments */
  uint32_t build_id_size;
  /* In the image's own note, mapped as long as the image is: no copy
   * (MIP_BUILD_ID_MAX bytes of every image's .bss). */
  const uint8_t *build_id;
  int is_main; /* the first object dl_iterate_phdr reports */
  /* What %m becomes: the first 8 bytes of the build-id in hex or, without
   * one, a hash of the image's path. "" until mip_rt_image_init. */
  char id[MIP_RT_ID_DIGITS + 1];
  /* The shared runtime's (libmip_rt.so, -fmip-shared-runtime): the
   * image's counter sections, start and stop of each kind in the order of
   * raw_kinds.inc (its registration's). NULL in a runtime linked into the
   * image, which finds its own through the linker's symbols. */
  const uint8_t *const *sections;
};

#define MIP_RT_MAX_PAYLOADS 16
/* A raw profile's header and a section table of MIP_RT_MAX_PAYLOADS
 * entries (raw_header.inc, raw_section.inc; checked in write.c). */
#define MIP_RT_HEADER_MAX (112 + MIP_RT_MAX_PAYLOADS * 32)
#define MIP_RT_PATH_MAX 4096
#define MIP_RT_DEFAULT_PROFILE "default.mipraw"

/* image.c */
MIP_RT_HIDDEN void mip_rt_image_init(struct mip_rt_image *image);
/* The same for the image that holds the address inside (the shared
 * runtime's registrations). */
MIP_RT_HIDDEN void mip_rt_image_init_at(struct mip_rt_image *image,
                                        const void *inside);
/* This image, as found at start-up. */
MIP_RT_HIDDEN const struct mip_rt_image *mip_rt_self(void);
MIP_RT_HIDDEN void mip_rt_self_init(void);
MIP_RT_HIDDEN size_t mip_rt_counter_payloads(const struct mip_rt_image *image,
                                             struct mip_rt_payload *out,
                                             size_t max);
/* Appends to list->out[n] the payload of a counter section [start,
 * stop) of kind (kind_size & 0xffff) and element size (kind_size >> 16),
 * when it is there and there is room: the new count. */
struct mip_rt_counter_list {
  struct mip_rt_payload *out;
  size_t max;
  const struct mip_rt_image *image;
};
MIP_RT_HIDDEN size_t mip_rt_add_counters(const struct mip_rt_counter_list *list,
                                         size_t n, uint32_t kind_size,
                                         const uint8_t *start,
                                         const uint8_t *stop);
/* Every counter of the image as before the first call (fork.c; all the
 * kinds with kinds.c, the coverage bytes without). */
MIP_RT_HIDDEN void mip_rt_counters_reset(void);
/* [start, stop) set to value; nothing when start is NULL. */
MIP_RT_HIDDEN void mip_rt_fill(uint8_t *start, uint8_t *stop, uint8_t value);
/* Whether [addr, addr + size) lies in one of the object's PT_LOAD
 * segments, i.e. is mapped and may be read. */
MIP_RT_HIDDEN int mip_rt_object_has(const struct dl_phdr_info *info,
                                    uintptr_t addr, size_t size);

/* order.c, edges.c: linked only into images whose code uses them (the
 * instrumentation refers to __mip_first_call or __mip_edge_sample).
 * Elsewhere weak definitions that do nothing stand in for these (fork.c,
 * dump.c). Not weak references: for an undefined hidden weak function
 * gold emits a dynamic relocation that ld.so resolves to the image's load
 * address, not to 0, and the call crashes. */
MIP_RT_HIDDEN void mip_rt_order_reset(void);
MIP_RT_HIDDEN void mip_rt_edges_reset(void);
MIP_RT_HIDDEN size_t mip_rt_edge_payloads(struct mip_rt_payload *out,
                                          size_t max);
/* Continuous mode's: the whole edge table and the edge statistics, as
 * they are in memory, each in whole pages of its own (the statistics in
 * one page, with nothing else after them). */
MIP_RT_HIDDEN size_t mip_rt_edge_mapped_payloads(struct mip_rt_payload *out,
                                                 size_t max);

/* Payloads of the heap runtime (heap_*.c, images built with heap), which
 * sets mip_rt_heap_payloads (dump.c, NULL until then) when its image
 * starts: add appends them to all[0..count) (room for max) and returns the
 * new count; release frees what they hold once they are written (or not).
 * Set at start-up rather than linked, so that only an image built with
 * heap writes them (the unit tests link every runtime object). */
struct mip_rt_merge;
struct mip_rt_payload_source {
  size_t (*add)(struct mip_rt_payload *all, size_t count, size_t max);
  void (*release)(struct mip_rt_payload *all, size_t count);
  /* Pool mode: merges the heap payloads of a pooled file and this run
   * (mip_rt_merge_heap): reached through here, so that only images built
   * with heap link that code. */
  int (*merge)(struct mip_rt_merge *m);
};
MIP_RT_HIDDEN extern const struct mip_rt_payload_source *mip_rt_heap_payloads;

/* note.c: the rendezvous of the runtimes in one process. Each image has a
 * note (owner "MIP", type MIP_RT_NOTE_TYPE) whose descriptor is two
 * signed 32-bit offsets, each from its own address: to the image's dump
 * function and to its state word. Offsets, resolved when the image is
 * linked: no pointers, so no dynamic relocations, and no structure in
 * memory. (Type 0x4d495001, an offset to a structure of pointers, was
 * the note of earlier runtimes, which a runtime of this version and they
 * do not read of each other.) */
#define MIP_RT_NOTE_TYPE 0x4d495003 /* no suffix: also used in assembly */
#define MIP_RT_STR2(x) #x
#define MIP_RT_STR(x) MIP_RT_STR2(x)
/* The note, in assembly, of the image whose dump function and state are
 * the symbols dump and state (note.c; the shared runtime's image
 * object). An offset to a Thumb function carries its Thumb bit. */
#define MIP_RT_NOTE_ASM(dump, state)                                           \
  ".pushsection .note.mip,\"a\",%note\n"                                     \
  ".p2align 2\n"                                                              \
  ".long 4\n" /* name size: "MIP" and its NUL */                              \
  ".long 8\n" /* descriptor size */                                           \
  ".long " MIP_RT_STR(MIP_RT_NOTE_TYPE) "\n"                                   \
  ".asciz \"MIP\"\n"                                                          \
  ".long " dump " - .\n"                                                      \
  ".long " state " - .\n"                                                     \
  ".popsection\n"
#define MIP_RT_STATE_READY 1u /* the image's constructor has run */
/* the process is a configure-time test program that writes no profile at
 * exit (probe.c marks it in every image) */
#define MIP_RT_STATE_PROBE 2u
#ifndef MIP_RT_SHARED
/* The image's own state word, MIP_RT_STATE_* bits (note.c). */
MIP_RT_HIDDEN extern uint32_t mip_rt_state;
#endif

/* What an image's note leads to. */
struct mip_rt_descriptor {
  int (*dump)(void); /* writes the image's profile; 0 on success */
  const uint32_t *state; /* MIP_RT_STATE_* bits, read atomically */
};

/* Calls fn on each note of the object's PT_NOTE segments until it returns
 * nonzero; returns that value, or 0. */
typedef int (*mip_rt_note_fn)(const struct dl_phdr_info *info, uint32_t type,
                              const char *name, uint32_t name_size,
                              const uint8_t *desc, uint32_t desc_size,
                              void *arg);
MIP_RT_HIDDEN int mip_rt_each_note(const struct dl_phdr_info *info,
                                   mip_rt_note_fn fn, void *arg);
/* The runtime of the object, from its note, into *out: 1, or 0 (none, or
 * unusable). */
MIP_RT_HIDDEN int mip_rt_find_descriptor(const struct dl_phdr_info *info,
                                         struct mip_rt_descriptor *out);
/* Whether the runtime of another image in the process is ready. */
MIP_RT_HIDDEN int mip_rt_other_ready(void);

/* dump_all.c (linked with mip_dump or the heap runtime only): the loaded
 * objects as dl_iterate_phdr reports them, or, in a forked child (whose
 * loader lock may be held forever by a thread it does not have), as the
 * loader lists them for debuggers, read without its lock. */
typedef int (*mip_rt_object_fn)(struct dl_phdr_info *info, size_t size,
                                void *arg);
MIP_RT_HIDDEN int mip_rt_each_object(mip_rt_object_fn fn, void *arg);

/* exit.c: what the runtime reads of the process at start-up (stderr,
 * MIP_PROFILE_FILE, MIP_OPTIONS, whether it is a configure-time test
 * program) and the fork handlers it registers; and what an image writes
 * at its exit or dlclose. */
MIP_RT_HIDDEN void mip_rt_process_init(void);
MIP_RT_HIDDEN void mip_rt_write_at_exit(const struct mip_rt_image *image);

/* options.c: MIP_OPTIONS, "key=value:key=value". */
struct mip_rt_options {
  int dump_at_exit; /* 1 */
  int verbose;      /* 0 */
};
MIP_RT_HIDDEN extern struct mip_rt_options mip_rt_options;
/* Parses text (NULL: nothing set) into mip_rt_options; reports unknown
 * keys and bad values unless quiet. */
MIP_RT_HIDDEN void mip_rt_options_parse(const char *text, int quiet);
/* A pool_* setting, value NULL without '=' (rt/pool/merge_options.c;
 * nothing without pool mode). */
MIP_RT_HIDDEN void mip_rt_pool_option(const char *key, const char *value,
                                      int quiet);

/* probe.c: whether this process is a configure-time test program
 * (conftest, cmTC_*) that writes no profile at exit, since
 * MIP_PROFILE_FILE does not ask for one; decided by mip_rt_probe_init()
 * at start-up. mip_rt_probe_exit(image): 1 when image writes no profile
 * at exit for that reason (said with MIP_OPTIONS=verbose=1). Without
 * probe.c (any image but such a program's executable: mip/link.h) the
 * stand-ins of exit.c read the image's state word, which that
 * executable marks. */
MIP_RT_HIDDEN void mip_rt_probe_init(void);
MIP_RT_HIDDEN int mip_rt_probe_exit(const struct mip_rt_image *image);

/* rt/shared/runtime.c: calls fn on each image registered with the shared
 * runtime (libmip_rt.so). */
MIP_RT_HIDDEN void
mip_rt_shared_each_image(void (*fn)(const struct mip_rt_image *image));

/* fork.c */
MIP_RT_HIDDEN void mip_rt_fork_init(void);
/* Whether this process is a child forked after the runtime started. */
MIP_RT_HIDDEN int mip_rt_forked(void);

/* dump.c */
/* MIP_PROFILE_FILE, or when the environment has none any more, as it
 * was at start-up (mip_rt_profile_pattern_init()), or the default name. */
MIP_RT_HIDDEN void mip_rt_profile_pattern_init(void);
/* Gives back the copy made at start-up (a shared library's destructor). */
MIP_RT_HIDDEN void mip_rt_profile_pattern_release(void);
MIP_RT_HIDDEN const char *mip_rt_profile_pattern(void);
/* Writes this image's profile where MIP_PROFILE_FILE says; 0 on success,
 * else -1 after one line on stderr. errno is kept. */
MIP_RT_HIDDEN int mip_rt_dump_self(void);
/* The same for image. */
MIP_RT_HIDDEN int mip_rt_dump_image(const struct mip_rt_image *image);
MIP_RT_HIDDEN void mip_rt_set_ready(void);

/* path.c: the N of a pool pattern's first %Nm (1..9), or 0 when the
 * pattern asks for no pool. */
MIP_RT_HIDDEN unsigned mip_rt_pool_size(const char *pattern);
/* path.c: where image's run goes that pool mode cannot merge into the
 * pooled file: the MIP_PROFILE_FILE pattern's name with ".<pid>"
 * inserted before its extension, as a forked child's name gets it; -1
 * when it does not fit. */
MIP_RT_HIDDEN int mip_rt_pool_fallback_path(const struct mip_rt_image *image,
                                            char *out, size_t size);
/* The name of image's profile: the MIP_PROFILE_FILE pattern expanded
 * (path.c says how), with ".%m" inserted before the final extension when
 * the image is not the main program and the pattern has no %m, and ".%p"
 * when forked is set and it has no %p; 0, or -1 when the name does not
 * fit. */
MIP_RT_HIDDEN int mip_rt_profile_path(const char *pattern,
                                      const struct mip_rt_image *image,
                                      int forked, char *out, size_t size);
/* Whether the pattern asks for continuous mode (%c). */
MIP_RT_HIDDEN int mip_rt_pattern_continuous(const char *pattern);

/* continuous_stub.c: init, at start-up: continuous mode when the pattern
 * has %c and no pool (%Nm), else nothing (one line when it has both).
 * rt/continuous/continuous.c (mip_continuous.o, linked with mipcc
 * -fmip-continuous; weak stand-ins in continuous_stub.c otherwise):
 * continuous mode, the counters mapped onto the profile.
 * start: maps them (one line on stderr when it cannot: the profile is
 * then written at exit).
 * dump: finishes the mapped file at path: 0, or -1 with *why set, or 1
 * when path is not this image's mapped file (write it as usual).
 * failed: whether a failure (path, why) is the one start reported.
 * forked, restarted: in a forked child, before and after its counters
 * are zeroed: the parent's file let go of (-1 when it could not be: the
 * counters must not be zeroed then), the child's own made. */
MIP_RT_HIDDEN void mip_rt_continuous_init(void);
/* The shared runtime's, for each image at its registration: says that
 * it does not count into the file when the pattern asks for it. */
MIP_RT_HIDDEN void mip_rt_continuous_refused(const struct mip_rt_image *image);
MIP_RT_HIDDEN void mip_rt_continuous_start(const char *pattern);
MIP_RT_HIDDEN int mip_rt_continuous_dump(const char *path, uint64_t *size,
                                         const char **why);
MIP_RT_HIDDEN int mip_rt_continuous_failed(const char *path, const char *why);
MIP_RT_HIDDEN int mip_rt_continuous_forked(void);
MIP_RT_HIDDEN void mip_rt_continuous_restarted(void);

/* write.c: writes the raw profile to path through a temporary file.
 * Returns 0, or -1 with *why set to a short reason. */
MIP_RT_HIDDEN int mip_rt_write_raw(const char *path,
                                   const struct mip_rt_image *image,
                                   const char **why);
/* The same, and *size is the number of bytes written. */
MIP_RT_HIDDEN int mip_rt_write_raw_size(const char *path,
                                        const struct mip_rt_image *image,
                                        uint64_t *size, const char **why);
/* write_fd.c: this run's raw profile written into fd, as the file would
 * hold it (pool mode renders it before it merges); *size is its size. */
MIP_RT_HIDDEN int mip_rt_write_raw_fd(int fd, const struct mip_rt_image *image,
                                      uint64_t *size);

/* A raw profile to write: the header's fields and the payloads. */
struct mip_rt_raw {
  const struct mip_rt_image *image;
  const struct mip_rt_payload *sections;
  size_t count;
  uint64_t modes; /* mode bits of the header */
  uint64_t runs;  /* 1, or the runs a pooled file holds */
  uint32_t flags; /* MIP_RAW_POOLED, MIP_RAW_COV_ZERO */
};
/* The mode bits of the kinds of sections[0..count). */
MIP_RT_HIDDEN uint64_t mip_rt_modes_of(const struct mip_rt_payload *sections,
                                       size_t count);
MIP_RT_HIDDEN uint64_t mip_rt_raw_size(const struct mip_rt_raw *raw);
/* Writes what fills a file into fd; 0, or -errno (as the runtime's
 * system calls return failures, sys.h: the core never reads errno). */
typedef int (*mip_rt_fill_fn)(int fd, const void *arg);
/* A mip_rt_fill_fn for a struct mip_rt_raw. */
MIP_RT_HIDDEN int mip_rt_raw_fill(int fd, const void *raw);
/* This run's payloads into sections (room for MIP_RT_MAX_PAYLOADS): the
 * counters, the call edges, and the heap payloads of a snapshot, which
 * (*heap)->release() gives back once written (*heap NULL: none). */
MIP_RT_HIDDEN size_t
mip_rt_gather_run(const struct mip_rt_image *image,
                  struct mip_rt_payload *sections,
                  const struct mip_rt_payload_source **heap);
/* The raw profile of one run of image: sections[0..count). */
MIP_RT_HIDDEN struct mip_rt_raw mip_rt_one_run(
    const struct mip_rt_image *image, const struct mip_rt_payload *sections,
    size_t count);
/* The pieces, for continuous mode, which puts payloads where it maps
 * them: the header and section table of raw with payload i at
 * offsets[i] (NULL: the payloads one after the other, each at a multiple
 * of 8 bytes, after the table), into buf (MIP_RT_HEADER_MAX bytes),
 * returning its size; the payloads one after the other, each padded to 8
 * bytes. */
MIP_RT_HIDDEN size_t mip_rt_raw_header(uint8_t *buf,
                                       const struct mip_rt_raw *raw,
                                       const uint64_t *offsets);
MIP_RT_HIDDEN int mip_rt_write_payloads(int fd,
                                        const struct mip_rt_payload *sections,
                                        size_t count);
/* Writes size bytes of fill to path as the raw profile is written
 * (write.c; docs/runtime.md, "Where"): through a temporary file renamed
 * over the name, or into what a symbolic link there names or a device or
 * FIFO, as open() would; never what mip_rt_foreign_in_sticky refuses; and
 * within the file size limit. access: O_WRONLY, or O_RDWR for continuous
 * mode, which maps the file (its fill checks that it is a regular one). */
MIP_RT_HIDDEN int mip_rt_write_file(const char *path, uint64_t size,
                                    int access, mip_rt_fill_fn fill,
                                    const void *arg, const char **why);
/* Replaces the name path (a link there is replaced, not followed) through
 * a temporary file "<path>.tmp.<16 random hex digits>" beside it (open
 * for reading and writing: continuous mode maps it) and a rename. */
MIP_RT_HIDDEN int mip_rt_replace_file(const char *path, mip_rt_fill_fn fill,
                                      const void *arg, const char **why);
/* Whether st, what is at path (not followed), is another user's in a
 * sticky world-writable directory: owned by neither this process's
 * effective user nor the directory's owner. Such a link is not followed
 * and such a file not written (fs.protected_symlinks' rule, and
 * protected_regular's and protected_fifos', applied whatever they say). */
struct stat;
MIP_RT_HIDDEN int mip_rt_foreign_in_sticky(const char *path,
                                           const struct stat *st);
#define MIP_RT_FOREIGN_WHY                                                     \
  "it is another user's link or file in a sticky world-writable directory "   \
  "(fs.protected_symlinks)"
/* Creates the directories leading to path, like mkdir -p. */
MIP_RT_HIDDEN void mip_rt_make_parents(const char *path);
/* Whether size bytes fit under RLIMIT_FSIZE. */
MIP_RT_HIDDEN int mip_rt_fits_size_limit(uint64_t size);

/* merge.c: pool mode (a pattern with %Nm): adds this run to the pooled
 * raw profile at path, under a lock (docs/runtime.md, "Pooled
 * profiles"), or writes it under a name of its own when it cannot; once
 * per process and image. 0 when the run is merged, else -1 after one line
 * on stderr. Linked only with mipcc -fmip-pool (include/mip/link.h):
 * dump.c's weak stand-in otherwise returns 1, and mip_rt_dump_image
 * writes the run under a name of its own (mip_rt_pool_fallback_path),
 * says so once per process and returns -1. */
MIP_RT_HIDDEN int mip_rt_pool_dump(const char *path,
                                   const struct mip_rt_image *image);
/* In a forked child: closes the child's copy of a pooled file's lock
 * that the parent held at the fork (fork.c; a weak no-op there without
 * merge.c). */
MIP_RT_HIDDEN void mip_rt_pool_after_fork(void);
/* merge_heap.c: the merge member of the heap payloads' source (linked
 * with pool mode only: heap_owner.c refers to it weakly). */
MIP_RT_HIDDEN int mip_rt_merge_heap(struct mip_rt_merge *m);

/* util.c */
MIP_RT_HIDDEN size_t mip_rt_strlen(const char *s);
MIP_RT_HIDDEN size_t mip_rt_append(char *out, size_t at, size_t size,
                                   const char *s);
MIP_RT_HIDDEN size_t mip_rt_append_u64(char *out, size_t at, size_t size,
                                       uint64_t v);
/* v % n, for n of 1..9 (a pool's slot), without a division. */
MIP_RT_HIDDEN unsigned mip_rt_mod_small(uint32_t v, unsigned n);
/* Appends v as 2 * bytes lower-case hex digits, most significant first. */
MIP_RT_HIDDEN size_t mip_rt_append_hex(char *out, size_t at, size_t size,
                                       uint64_t v, unsigned bytes);
MIP_RT_HIDDEN int mip_rt_streq(const char *a, const char *b);
/* SIGXFSZ blocked on this thread while the runtime writes a file, so that
 * a file size limit fails the write (EFBIG) instead of killing the
 * program; one the writes raised is taken back before the old mask
 * returns (one pending before is left for the program). */
struct mip_rt_xfsz {
  uint64_t old; /* the kernel's mask (sys.h) */
  int blocked, was_pending;
};
MIP_RT_HIDDEN void mip_rt_xfsz_block(struct mip_rt_xfsz *guard);
MIP_RT_HIDDEN void mip_rt_xfsz_unblock(const struct mip_rt_xfsz *guard);

/* report.c */
/* Notes which file fd 2 is (or that it is closed), once: called as early
 * as the runtime starts, so that reports go only to the stderr the
 * program started with. */
MIP_RT_HIDDEN void mip_rt_stderr_init(void);
/* One line on stderr: "mip: " and the strings given, one after the
 * other; nothing when fd 2 is no longer the file it was at start-up.
 * mip_rt_report_parts takes them up to a NULL. The strings go as
 * an array, not as variadic arguments, whose handling (the registers
 * saved for va_arg, the checks of where the next one is) every image
 * would carry in its runtime. */
MIP_RT_HIDDEN void mip_rt_report_parts(const char *const *parts);
#define mip_rt_report(...)                                                     \
  mip_rt_report_parts((const char *const[]){__VA_ARGS__, NULL})

#endif
