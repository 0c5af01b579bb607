/* The switches, each in a process of its own (the library decides once
 * per process): MIP_ALLOC_HINTS=0 makes every call plain, silently;
 * another value leaves hints on; under a malloc that is not jemalloc's
 * (alloc-other-malloc.so, preload/other_malloc.c, preloaded) every call
 * is plain, after exactly one line on stderr. The test binary runs itself
 * with --child MODE (child_main below) and checks its exit status and
 * stderr. */
#include <jemalloc/jemalloc.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mip/alloc.h"
#include "suites.h"

/* ---- in the child ----------------------------------------------------- */
/* (Outside the test runner: no Check assertions here.) */

static void *hinted(int entry, size_t size, uint8_t hint) {
  void *p = NULL;
  switch (entry) {
  case 0:
    return __mip_malloc_hint(size, hint);
  case 1:
    return __mip_calloc_hint(2, size / 2, hint);
  case 2:
    return __mip_realloc_hint(NULL, size, hint);
  case 3:
    return __mip_aligned_alloc_hint(64, size, hint);
  case 4:
    return __mip_posix_memalign_hint(&p, 64, size, hint) ? NULL : p;
  case 5:
    return __mip_memalign_hint(64, size, hint);
  case 6:
    return __mip_valloc_hint(size, hint);
  default:
    return __mip_strndup_hint("0123456789abcdef", size, hint);
  }
}
#define ENTRIES 8

static const uint8_t both[] = {MIP_HINT_COLD, MIP_HINT_HOT};

/* Hints off: every block where a plain call puts it. */
static int all_plain(void) {
  int wrong = 0;
  for (int h = 0; h < 2; h++) {
    uint8_t hint = both[h];
    for (int e = 0; e < ENTRIES; e++) {
      void *p = hinted(e, 1000, hint);
      wrong += !p || lookup_arena(p) != thread_arena();
      free(p);
    }
    for (int form = 0; form < CXX_FORMS; form++) {
      void *p = cxx_new(form, 1000, 64, hint);
      wrong += !p || lookup_arena(p) != thread_arena();
      cxx_delete(form, p, 0, 64);
    }
  }
  if (wrong)
    printf("%d hinted blocks not where plain ones are\n", wrong);
  return wrong != 0;
}

static int some_hinted(void) {
  void *p = __mip_malloc_hint(1000, MIP_HINT_COLD);
  int on = lookup_arena(p) != thread_arena();
  free(p);
  if (!on)
    printf("a cold block where plain ones are\n");
  return !on;
}

static uint64_t allocated_by_jemalloc(void) {
  uint64_t bytes;
  size_t size = sizeof bytes;
  if (mallctl("thread.allocated", &bytes, &size, NULL, 0))
    abort();
  return bytes;
}

/* Under another malloc: no hinted call reaches jemalloc, and free (the
 * other malloc's) takes every block. */
static int none_from_jemalloc(void) {
  free(__mip_malloc_hint(10, MIP_HINT_COLD)); /* the decision, first */
  uint64_t before = allocated_by_jemalloc();
  for (int round = 0; round < 50; round++) {
    for (int h = 0; h < 2; h++) {
      uint8_t hint = both[h];
      for (int e = 0; e < ENTRIES; e++) {
        void *p = hinted(e, 1000, hint);
        if (!p)
          return 1;
        fill(p, e == ENTRIES - 1 ? 16 : 1000, (unsigned)e);
        p = __mip_realloc_hint(p, 3000, hint);
        free(p);
      }
      char *s = __mip_strdup_hint("abc", hint);
      free(s);
    }
  }
  uint64_t after = allocated_by_jemalloc();
  if (after != before)
    printf("jemalloc allocated %llu bytes\n",
           (unsigned long long)(after - before));
  /* Not the C++ forms: this binary's operator new and delete are
   * jemalloc's, whose delete calls free through the PLT, the preloaded
   * one, so even a plain new and delete do not pair under this preload. */
  return after != before;
}

/* A few hinted calls, for the counts MIP_ALLOC_STATS=1 prints at exit:
 * 3 cold of 100 bytes, 2 hot of 50, one notcold of 7; with hints off
 * (off != 0) the cold and hot ones are plain. */
static int some_counted(int off) {
  if (off)
    setenv("MIP_ALLOC_HINTS", "0", 1);
  for (int i = 0; i < 3; i++)
    free(__mip_malloc_hint(100, MIP_HINT_COLD));
  for (int i = 0; i < 2; i++)
    free(__mip_malloc_hint(50, MIP_HINT_HOT));
  free(__mip_calloc_hint(1, 7, MIP_HINT_NOTCOLD));
  return 0;
}

int child_main(const char *mode) {
  if (!strcmp(mode, "counted"))
    return some_counted(0);
  if (!strcmp(mode, "counted-off"))
    return some_counted(1);
  if (!strcmp(mode, "off"))
    return all_plain();
  if (!strcmp(mode, "on"))
    return some_hinted();
  if (!strcmp(mode, "foreign"))
    return none_from_jemalloc();
  return 2;
}

/* ---- in the test ------------------------------------------------------ */

/* Runs the test binary with --child mode, with name=value (or without
 * name if value is NULL) and without the other of MIP_ALLOC_HINTS and
 * LD_PRELOAD. Returns its exit status; what it wrote (stdout and stderr)
 * in out. */
static int run_child(const char *mode, const char *name, const char *value,
                     char *out, size_t out_size) {
  int pipe_fds[2];
  ck_assert_int_eq(pipe(pipe_fds), 0);
  fflush(stdout);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    unsetenv("MIP_ALLOC_HINTS");
    unsetenv("LD_PRELOAD");
    unsetenv("MIP_ALLOC_STATS");
    if (value)
      setenv(name, value, 1);
    execl(self_path(), self_path(), "--child", mode, (char *)NULL);
    _exit(127);
  }
  close(pipe_fds[1]);
  size_t used = 0;
  ssize_t n;
  while ((n = read(pipe_fds[0], out + used, out_size - 1 - used)) > 0)
    used += (size_t)n;
  out[used] = '\0';
  close(pipe_fds[0]);
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#define EXPECT_CHILD(mode, name, value, status, output)                        \
  do {                                                                         \
    char out_[4096];                                                           \
    int status_ = run_child(mode, name, value, out_, sizeof out_);             \
    ck_assert_msg(status_ == (status), "child %s with %s=%s: status %d: %s",   \
                  mode, name, value ? value : "(unset)", status_, out_);       \
    if (output)                                                                \
      ck_assert_str_eq(out_, (const char *)(output));                          \
  } while (0)

START_TEST(hints_off_by_environment) {
  /* off as asked: nothing to say */
  EXPECT_CHILD("off", "MIP_ALLOC_HINTS", "0", 0, "");
}
END_TEST

START_TEST(hints_on_otherwise) {
  EXPECT_CHILD("on", "MIP_ALLOC_HINTS", "1", 0, "");
  EXPECT_CHILD("on", "MIP_ALLOC_HINTS", NULL, 0, "");
  /* and the check can fail: hints on is not hints off */
  EXPECT_CHILD("off", "MIP_ALLOC_HINTS", NULL, 1, NULL);
}
END_TEST

/* The other malloc, built next to the test binary. (glibc's own
 * libc_malloc_debug.so would not do: it defines malloc under a symbol
 * version that unversioned references bind to, aligned_alloc under one
 * they skip, so a program linked with jemalloc mixes both under it.) */
static int other_malloc(char *path, size_t size) {
  char self[4096];
  snprintf(self, sizeof self, "%s", self_path());
  snprintf(path, size, "%s/alloc-other-malloc.so", dirname(self));
  return access(path, R_OK) == 0;
}

START_TEST(hints_off_when_malloc_is_not_jemalloc) {
  char preload[4096];
  if (!other_malloc(preload, sizeof preload)) {
    fprintf(stderr, "skipped: no %s (make test-alloc builds it), no other "
                    "malloc to run under\n", preload);
    return;
  }
  EXPECT_CHILD("foreign", "LD_PRELOAD", preload, 0,
               "mip: allocation hints off: malloc is not jemalloc's\n");
}
END_TEST

START_TEST(stats_at_exit_when_asked) {
  EXPECT_CHILD("counted", "MIP_ALLOC_STATS", "1", 0,
               "mip: allocation hints: cold 3 calls 300 bytes, hot 2 calls "
               "100 bytes, notcold 1 calls 7 bytes, plain 0 calls 0 bytes\n");
  EXPECT_CHILD("counted-off", "MIP_ALLOC_STATS", "1", 0,
               "mip: allocation hints: cold 0 calls 0 bytes, hot 0 calls "
               "0 bytes, notcold 1 calls 7 bytes, plain 5 calls 400 bytes\n");
  /* silent otherwise */
  EXPECT_CHILD("counted", "MIP_ALLOC_STATS", "0", 0, "");
  EXPECT_CHILD("counted", "MIP_ALLOC_STATS", NULL, 0, "");
}
END_TEST

Suite *switch_suite(void) {
  Suite *s = suite_create("switch");
  TCase *tc = tcase_create("switch");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, hints_off_by_environment);
  tcase_add_test(tc, hints_on_otherwise);
  tcase_add_test(tc, hints_off_when_malloc_is_not_jemalloc);
  tcase_add_test(tc, stats_at_exit_when_asked);
  suite_add_tcase(s, tc);
  return s;
}
