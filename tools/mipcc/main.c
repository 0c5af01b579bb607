/*
 * mipcc [clang arguments] [-fmip-generate[=MODES]] [-fmip-use=FILE]
 *
 * Decides what to add to the command, then execs the real compiler, so
 * its exit status, signals and output are the compiler's own.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mipcc.h"

/* mipc++, or any name ending in "++" (a cross prefix, a version suffix
 * before it), drives clang++. */
static bool invoked_as_cxx(const char *argv0) {
  const char *slash = strrchr(argv0, '/');
  return has_suffix(slash ? slash + 1 : argv0, "++");
}

static bool verbose(void) {
  const char *v = getenv("MIP_DRIVER_VERBOSE");
  return v && *v && strcmp(v, "0") != 0;
}

static struct additions decide(const struct request *rq) {
  struct additions add = {NULL, NULL, false};
  /* No inputs: --version, -dumpmachine, -print-*...; nothing to add. */
  if (!rq->inputs)
    return add;
  /* With LTO the objects are bitcode and code generation happens in the
   * linker, out of the plugin's reach: the profile would come out empty. */
  if (rq->generate && rq->lto)
    die("-fmip-generate does not support -flto yet");
  /* Only a command that generates code from a C-family source has use for
   * the plugin; elsewhere clang could call its flags unused, which breaks
   * -Werror builds. */
  if ((rq->generate || rq->use) && rq->sources && !rq->no_codegen)
    add.plugin = mip_file("libmip.so");
  /* The heap runtime takes its call stacks by walking frame pointers, so
   * the code it walks through must keep them. */
  add.frame_pointers = add.plugin && rq->generate && rq->heap;
  /* A partial link (-r) is not an image yet: the runtime joins at the
   * final link, once. */
  if (rq->generate && !rq->no_link && !rq->relocatable)
    add.runtime = mip_file("libmip_rt.a");
  return add;
}

static _Noreturn void run(const char *const *cmd) {
  /* execv's prototype predates const; the strings are not modified. */
  char *const *argv = (char *const *)cmd;
  if (strchr(cmd[0], '/'))
    execv(cmd[0], argv);
  else
    execvp(cmd[0], argv);
  die("cannot run %s: %s", cmd[0], strerror(errno));
}

int main(int argc, char **argv) {
  if (argc < 1)
    die("started without a program name");
  bool cxx = invoked_as_cxx(argv[0]);
  mipcc_name = cxx ? "mipc++" : "mipcc";

  struct request rq;
  parse_request(argc, argv, &rq);
  struct additions add = decide(&rq);

  const char *compiler = compiler_path(cxx);
  check_not_self(compiler);
  const char **cmd = build_command(compiler, argc, argv, &rq, &add);
  if (verbose())
    print_command(cmd);
  run(cmd);
}
