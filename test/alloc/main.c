/* Tests of libmip_alloc.a, the allocator side of allocation hints, in a
 * binary of its own linked with jemalloc as the process's malloc.
 *   alloc-tests                 every suite
 *   alloc-tests --child MODE    one of test_switch.c's child processes */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suites.h"

static char self[4096];

const char *self_path(void) { return self; }

int main(int argc, char **argv) {
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return EXIT_FAILURE;
  self[n] = '\0';
  if (argc == 3 && !strcmp(argv[1], "--child"))
    return child_main(argv[2]);
  SRunner *runner = srunner_create(entry_suite());
  srunner_add_suite(runner, release_suite());
  srunner_add_suite(runner, cxx_suite());
  srunner_add_suite(runner, threads_suite());
  srunner_add_suite(runner, switch_suite());
  srunner_add_suite(runner, stats_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
