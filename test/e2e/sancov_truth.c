/*
 * The independent ground truth for coverage tests: a callback runtime for
 * clang's SanitizerCoverage (-fsanitize-coverage=func,inline-bool-flag,
 * pc-table), which instruments every function at the same pipeline point
 * as MIP. At exit it writes, per instrumented function, its link-time
 * entry address and whether it ran:  "<hex address> <0|1>" per line, to
 * $SANCOV_TRUTH_FILE.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const bool *flags_begin, *flags_end;
static const uintptr_t *pcs_begin, *pcs_end;

/* Called by every instrumented unit's constructor with the bounds of the
 * whole image's arrays: keep the first. */
void __sanitizer_cov_bool_flag_init(bool *begin, bool *end) {
  if (!flags_begin) {
    flags_begin = begin;
    flags_end = end;
  }
}

void __sanitizer_cov_pcs_init(const uintptr_t *begin, const uintptr_t *end) {
  if (!pcs_begin) {
    pcs_begin = begin;
    pcs_end = end;
  }
}

/* Where a function's code starts: on Arm, bit 0 of its address says
 * Thumb state (nm and DWARF give the address without it). */
static uintptr_t code_at(uintptr_t pc) {
#ifdef __arm__
  return pc & ~(uintptr_t)1;
#else
  return pc;
#endif
}

static int first_object(struct dl_phdr_info *info, size_t size, void *bias) {
  (void)size;
  *(uintptr_t *)bias = info->dlpi_addr;
  return 1; /* the executable comes first */
}

/* After the program's own destructors and atexit handlers, as MIP's
 * writer runs. */
__attribute__((destructor(101))) static void write_truth(void) {
  const char *path = getenv("SANCOV_TRUTH_FILE");
  if (!path || !flags_begin || !pcs_begin)
    return;
  uintptr_t bias = 0;
  dl_iterate_phdr(first_object, &bias);
  FILE *out = fopen(path, "w");
  if (!out) {
    perror(path);
    return;
  }
  size_t count = (size_t)(flags_end - flags_begin);
  size_t pcs = (size_t)(pcs_end - pcs_begin) / 2; /* (pc, flags) pairs */
  if (pcs != count)
    fprintf(stderr, "sancov_truth: %zu flags but %zu pcs\n", count, pcs);
  for (size_t i = 0; i < count && i < pcs; i++)
    fprintf(out, "%lx %d\n", (unsigned long)(code_at(pcs_begin[2 * i]) - bias),
            flags_begin[i] ? 1 : 0);
  fclose(out);
}
