/*
 * No-op SanitizerCoverage runtime for the `sancov` configuration of the
 * benchmark: -fsanitize-coverage=func,inline-bool-flag makes every module
 * constructor call this with the bounds of its flag array. A fuzzer would
 * record them; the benchmark only needs the program to link and run.
 */
#include <stdbool.h>

void __sanitizer_cov_bool_flag_init(bool *start, bool *end);

void __sanitizer_cov_bool_flag_init(bool *start, bool *end) {
  (void)start;
  (void)end;
}
