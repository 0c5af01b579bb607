/* The report model's use of the debug-info reader (report_debug.h). */
#include "report_debug.h"

#include "debuginfo.h"
#include "elf_image.h"

static int lookup(void *ctx, uint64_t entry, const char **file,
                  uint32_t *line) {
  return debuginfo_lookup(ctx, entry, file, line);
}

int report_debug_attach(struct report *r, const char *path, int locate,
                        struct mip_error *err) {
  struct debuginfo *di = NULL;
  if (elf_image_check_build(path, &r->profile.build_id, err) ||
      !(di = debuginfo_open(path, err)))
    return -1;
  if (locate) {
    debuginfo_note_program(di, path);
    report_locate(r, &(struct report_locator){lookup, di});
  }
  debuginfo_close(di);
  return 0;
}

int report_open_debug(const char *profile, const char *debug, int locate,
                      struct report *r, struct mip_error *err) {
  if (report_open(profile, r, err))
    return -1;
  if (debug && report_debug_attach(r, debug, locate, err)) {
    report_free(r);
    return -1;
  }
  return 0;
}
