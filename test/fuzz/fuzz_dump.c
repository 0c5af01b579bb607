/* `mipdata dump` on any MIP file (tools/mipdata/commands/cmd_dump.c): the input's
 * bytes dumped as what their magic says they are, a raw profile (pooled
 * too), an indexed profile, a map file or a bare map section, each from
 * memory (dump_bytes, what the command does once it has read the file),
 * or an ELF file, which libelf reads from the input as a file; in text,
 * YAML or JSON, by the input's length (writing is most of an input's
 * cost, and the reader does not depend on the format: one format per
 * input makes three times the inputs, and the fuzzer still reaches all
 * three writers). dump prints every entry at the offsets the reader
 * found, so whatever the reader let through is read here.
 *
 * dump checks an indexed profile with the view (mip_view_parse), show and
 * merge with the whole-profile reader (mip_profile_parse): the two must
 * take and refuse the same files, with the same message. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dump.h"
#include "fuzz.h"

/* The input dumped in format; 0 if dump took it. */
static int dumped(const uint8_t *data, size_t size, const char *path,
                  enum emit_format format, struct mip_error *err) {
  struct mip_file bytes = fuzz_bytes(data, size);
  struct dump_out d;
  dump_begin(&d, stdout, format);
  int rc = dump_bytes(path, &bytes, &d, err);
  fflush(stdout);
  return rc;
}

/* What show and merge say of an indexed profile dump took (rc 0) or
 * refused with err. */
static void same_as_the_profile_reader(const uint8_t *data, size_t size,
                                       const char *path, int rc,
                                       const struct mip_error *err) {
  struct mip_file bytes = fuzz_bytes(data, size);
  struct mip_profile p;
  struct mip_error perr;
  int prc = mip_profile_parse(&bytes, path, &p, &perr);
  if (prc == 0)
    mip_profile_free(&p);
  if (rc == 0 && prc != 0)
    fuzz_fail("dump took a profile show refuses: %s", perr.msg);
  if (rc != 0 && prc == 0)
    fuzz_fail("dump refused a profile show takes: %s", err->msg);
  if (rc != 0 && strcmp(err->msg, perr.msg) != 0)
    fuzz_fail("dump and show refuse a profile with other messages: \"%s\", "
              "\"%s\"",
              err->msg, perr.msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int elf = size >= 4 && memcmp(data, "\177ELF", 4) == 0;
  const char *path = elf ? fuzz_input_file(data, size) : "input";
  static const enum emit_format formats[] = {EMIT_TEXT, EMIT_YAML, EMIT_JSON};
  enum emit_format format = formats[size % (sizeof formats / sizeof *formats)];
  struct mip_error err;
  int rc = dumped(data, size, path, format, &err);
  if (rc)
    fuzz_refused(&err, path, NULL);
  struct mip_file magic = {(uint8_t *)data, size};
  if (mip_file_magic(&magic) == MIP_PROFILE_MAGIC)
    same_as_the_profile_reader(data, size, path, rc, &err);
  return 0;
}
