/*
 * mipdata dump FILE [--format text|yaml|json] [-o FILE]
 * Every field of any MIP file, as the layouts name it, with where it is:
 * a raw profile, an indexed profile, a map file, a map section dumped on
 * its own, or a binary or object file holding a map section. The file is
 * read and checked by the library's reader for its kind, as every other
 * command reads it, before anything is printed.
 */
#include <stdio.h>

#include "cmd.h"
#include "dump.h"
#include "options.h"
#include "mip/le.h"

/* Fills *path and *format from the command line; CLI_GO_ON, or the status
 * to exit with. */
static int parse_options(int argc, char **argv, const char **path,
                         enum emit_format *format) {
  int chosen = EMIT_TEXT;
  const char *report_path = NULL;
  struct opt options[] = {
      OPT_FORMAT(&chosen),
      OPT_REPORT(&report_path),
      OPT_END,
  };
  struct cli cli = {.command = "dump", .operands = "FILE", .noun = "file",
                    .min = 1, .max = 1, .options = options};
  int rc = cli_parse(&cli, argc, argv);
  if (rc != CLI_GO_ON)
    return rc;
  *path = cli.operand[0];
  *format = (enum emit_format)chosen;
  return CLI_GO_ON;
}

void dump_elements(struct dump_out *d, const char *key, const uint8_t *p,
                   uint64_t count, uint32_t elem_size, uint64_t offset) {
  dump_array_begin(d, key);
  for (uint64_t i = 0; i < count; i++) {
    const uint8_t *e = p + i * elem_size;
    uint64_t at = offset + i * elem_size;
    if (elem_size == 1)
      dump_u64(d, NULL, e[0], at);
    else if (elem_size == 2)
      dump_u64(d, NULL, mip_get_le16(e), at);
    else if (elem_size == 4)
      dump_u64(d, NULL, mip_get_le32(e), at);
    else if (elem_size == 8)
      dump_u64(d, NULL, mip_get_le64(e), at);
    else
      dump_hex(d, NULL, e, elem_size, at);
  }
  dump_array_end(d);
}

/* What the file is, by its first bytes; the reader of that kind says what
 * is wrong with it. */
int dump_bytes(const char *path, struct mip_file *f, struct dump_out *d,
               struct mip_error *err) {
  uint64_t magic = mip_file_magic(f);
  if (magic == MIP_RAW_MAGIC)
    return dump_raw(path, f, d, err);
  if (magic == MIP_PROFILE_MAGIC)
    return dump_profile(path, f, d, err);
  return dump_map(path, f, d, err);
}

static int dump_file(const char *path, struct dump_out *d,
                     struct mip_error *err) {
  struct mip_file f;
  if (mip_file_read(path, &f, err))
    return -1;
  return dump_bytes(path, &f, d, err);
}

int cmd_dump(int argc, char **argv) {
  const char *path;
  enum emit_format format;
  int rc = parse_options(argc, argv, &path, &format);
  if (rc != CLI_GO_ON)
    return rc;
  struct mip_error err;
  struct dump_out d;
  dump_begin(&d, stdout, format);
  return dump_file(path, &d, &err) ? report(&err) : 0;
}
