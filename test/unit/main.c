/* Unit tests of the format library, the output writer, the report model
 * and the runtime. */

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

#include "builder.h"
#include "suites.h"

static int remove_entry(const char *path, const struct stat *st, int type,
                        struct FTW *ftw) {
  (void)st, (void)type, (void)ftw;
  return remove(path);
}

int main(void) {
  test_dir(); /* created once, shared by the forked tests */
  SRunner *runner = srunner_create(layout_suite());
  srunner_add_suite(runner, map_suite());
  srunner_add_suite(runner, raw_suite());
  srunner_add_suite(runner, profile_suite());
  srunner_add_suite(runner, emit_suite());
  srunner_add_suite(runner, runtime_suite());
  srunner_add_suite(runner, modes_suite());
  srunner_add_suite(runner, heap_suite());
  srunner_add_suite(runner, heap_runtime_suite());
  srunner_add_suite(runner, heap_got_suite());
  srunner_add_suite(runner, decide_suite());
  srunner_add_suite(runner, pool_suite());
  srunner_add_suite(runner, report_suite());
  srunner_add_suite(runner, parse_suite());
  srunner_add_suite(runner, flame_suite());
  srunner_add_suite(runner, export_suite());
  srunner_add_suite(runner, diff_suite());
  srunner_add_suite(runner, edge_counts_suite());
  srunner_add_suite(runner, path_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  nftw(test_dir(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
