/* Errors, whole files read and written, checks of their framing, growable buffers, build-ids and counter arrays.
 * Part of libmipfmt's interface: include "mipfmt.h", which includes every
 * part in order. */
#ifndef MIPFMT_FILE_H
#define MIPFMT_FILE_H

struct mip_error {
  char msg[1024];
};

/* Formats err->msg as "PATH: <message>", one line (control characters
 * become '?'), and returns -1. */
int mip_fail(struct mip_error *err, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- whole files ---------------------------------------------------- */

struct mip_file {
  uint8_t *data;
  size_t size;
};

/* Opens path for reading, which must be a regular file (anything else,
 * a FIFO, a directory, a device, is refused without blocking); its size
 * in *size. Returns the descriptor, or -1 with err set. Every reader opens
 * its file here. */
int mip_file_open(const char *path, size_t *size, struct mip_error *err);
/* The path by which the file st describes (its device and inode) was
 * opened by mip_file_open since the last mip_file_forget_inputs, or NULL:
 * what a command read, which it must not write over. */
struct stat;
const char *mip_file_input(const struct stat *st);
void mip_file_forget_inputs(void);
int mip_file_read(const char *path, struct mip_file *file,
                  struct mip_error *err);
void mip_file_free(struct mip_file *file);

/* Each reader is mip_file_read and then a parse of the bytes: the parse
 * is also its own entry point (mip_raw_parse, mip_mapfile_parse,
 * mip_view_parse, mip_profile_parse), for bytes that are already in
 * memory. A parse takes file (a whole file's bytes in a malloc'd block):
 * the block is freed with what it fills, or by the parse when it fails;
 * *file is emptied either way. path names the bytes in messages. */

/* Writes data to path through a temporary file in the same directory and
 * a rename, so path never holds a partial file. */
int mip_file_write_atomic(const char *path, const void *data, size_t size,
                          struct mip_error *err);

/* The same in two steps, for a command that writes several files and
 * wants none replaced unless all could be written: stage each (its bytes
 * go to a temporary file beside it, synced), then commit each (a rename),
 * or discard them (the temporaries are removed). A path that names
 * something other than a regular file (a directory, a device) is refused
 * when staged. */
struct mip_staged_file {
  const char *path; /* borrowed */
  char *temp;       /* NULL once committed or discarded */
};
int mip_file_stage(const char *path, const void *data, size_t size,
                   struct mip_staged_file *staged, struct mip_error *err);
int mip_file_commit(struct mip_staged_file *staged, struct mip_error *err);
void mip_file_discard(struct mip_staged_file *staged);

/* "0.1.0, built for LLVM 19.1.7": MIP's version and the LLVM version of
 * the build, for --version. */
const char *mip_version(void);

/* ---- growable byte buffers (abort on out-of-memory) ------------------ */

struct mip_buf {
  uint8_t *data;
  size_t size;
  size_t cap;
};

void *mip_buf_extend(struct mip_buf *buf, size_t n); /* n zeroed bytes */
void mip_buf_append(struct mip_buf *buf, const void *data, size_t n);
void mip_buf_align(struct mip_buf *buf, size_t alignment);
void mip_buf_free(struct mip_buf *buf);

void *mip_xmalloc(size_t n);
void *mip_xcalloc(size_t count, size_t n);
void *mip_xrealloc(void *p, size_t count, size_t n);
char *mip_xstrdup(const char *s);


/* What kind of MIP file data starts with (by magic); 0 if none. */
uint64_t mip_file_magic(const struct mip_file *file);

/* What every reader checks first: the file is not empty, starts with the
 * expected magic (else says what it is instead) and holds a whole header
 * of header_size bytes. what names the kind ("raw profile"). */
int mip_check_start(const struct mip_file *file, const char *path,
                    uint64_t magic, const char *what, size_t header_size,
                    struct mip_error *err);
/* The header fields every format shares: a version this build reads, a
 * header size within the file, a build-id that fits. */
int mip_check_header(const struct mip_file *file, const char *path,
                     const char *what, uint32_t version, uint32_t newest,
                     uint32_t header_size, size_t min_header_size,
                     uint32_t build_id_size, struct mip_error *err);

/* That section index, of size bytes from offset, lies within a file of
 * file_size bytes; else "truncated WHAT (section N needs bytes up to
 * END...)", or, when offset is past the end or offset + size does not fit
 * in 64 bits, "corrupt WHAT: section N lies outside the file (...)". */
int mip_check_section(size_t file_size, const char *path, const char *what,
                      uint32_t index, uint64_t offset, uint64_t size,
                      struct mip_error *err);


/* ---- shared pieces -------------------------------------------------- */

struct mip_build_id {
  uint32_t size;
  uint8_t bytes[MIP_BUILD_ID_MAX];
};

/* Hex form of a build-id ("(none)" when empty). */
const char *mip_build_id_hex(const struct mip_build_id *id, char *out,
                             size_t size);
int mip_build_id_equal(const struct mip_build_id *a,
                       const struct mip_build_id *b);

/* One counter array of an image. */
struct mip_extent {
  uint32_t kind;
  uint32_t elem_size;
  uint64_t link_addr;
  uint64_t size;
};

#define MIP_MAX_EXTENTS 16

/* Section name and short name of a counter kind ("__mip_cov", "cov");
 * NULL for a kind this build does not know. */
const char *mip_raw_kind_section(uint32_t kind);
const char *mip_raw_kind_name(uint32_t kind);
/* The size of one counter of a kind (raw_kinds.inc); 0 for a kind this
 * build does not know. Merging reads counters at that width, so every
 * reader refuses a known kind whose elements have another size. */
uint32_t mip_raw_kind_elem_size(uint32_t kind);

const struct mip_extent *mip_extent_find(const struct mip_extent *extents,
                                         size_t count, uint32_t kind);

#endif
