/*
 * The command that replaces mipcc:
 *
 *   COMPILER [plugin args] [-Wl,--build-id] USER ARGS...
 *            [frame-pointer flags] [-x none] [-Wl,-u,__mip_rt_anchor RUNTIME]
 *            [-- INPUTS...]
 *
 * The user's arguments keep their order; only mipcc's own flags are taken
 * out (a response file holding some is replaced by its arguments, as clang
 * would have read them, minus those flags). The plugin and -Wl,--build-id come first, so that a user's own
 * -Wl,--build-id=STYLE (or =none) later on the line still wins. Heap
 * mode's frame-pointer flags come after the user's, so that a build's own
 * -fomit-frame-pointer cannot cut the heap profile's call stacks. The
 * runtime comes after the user's inputs, where clang itself puts its
 * runtimes, and before any "--" (after which it would be an input name).
 */
#include <stdio.h>
#include <string.h>

#include "mipcc.h"

static void add_plugin(struct strvec *cmd, const struct request *rq,
                       const char *plugin) {
  strvec_push(cmd, xconcat("-fplugin=", plugin, NULL));
  if (rq->generate)
    strvec_push(cmd, rq->modes ? xconcat("-fplugin-arg-mip-generate=",
                                         rq->modes, NULL)
                               : "-fplugin-arg-mip-generate");
  if (rq->use)
    strvec_push(cmd, xconcat("-fplugin-arg-mip-use=", rq->use, NULL));
}

static void add_runtime(struct strvec *cmd, const struct request *rq,
                        const char *runtime) {
  /* A "-x c" still in force would make clang compile the archive as C. */
  if (rq->lang_at_tail) {
    strvec_push(cmd, "-x");
    strvec_push(cmd, "none");
  }
  /* -u makes the linker take the archive member with the exit-time
   * writer even though nothing in the program refers to it. */
  strvec_push(cmd, "-Wl,-u,__mip_rt_anchor");
  strvec_push(cmd, runtime);
}

/* The arguments response file argv[top] expanded to, minus mipcc's own. */
static void add_expanded(struct strvec *cmd, int top,
                         const struct request *rq) {
  for (size_t k = 0; k < rq->args.n; k++)
    if (rq->args.v[k].top == top && !rq->own[k])
      strvec_push(cmd, rq->args.v[k].text);
}

static void add_user_args(struct strvec *cmd, int from, int to, char **argv,
                          const struct request *rq) {
  for (int i = from; i < to; i++) {
    if (rq->action[i] == KEEP)
      strvec_push(cmd, argv[i]);
    else if (rq->action[i] == INLINE)
      add_expanded(cmd, i, rq);
  }
}

const char **build_command(const char *compiler, int argc, char **argv,
                           const struct request *rq,
                           const struct additions *add) {
  struct strvec cmd = {0};
  strvec_push(&cmd, compiler);
  if (add->plugin)
    add_plugin(&cmd, rq, add->plugin);
  if (add->runtime)
    strvec_push(&cmd, "-Wl,--build-id");
  add_user_args(&cmd, 1, rq->tail, argv, rq);
  if (add->frame_pointers) {
    strvec_push(&cmd, "-fno-omit-frame-pointer");
    strvec_push(&cmd, "-mno-omit-leaf-frame-pointer");
  }
  if (add->runtime)
    add_runtime(&cmd, rq, add->runtime);
  add_user_args(&cmd, rq->tail, argc, argv, rq);
  return cmd.v;
}

/* Characters that need no quoting in a POSIX shell word. */
static bool plain(const char *s) {
  if (!*s)
    return false;
  for (; *s; s++)
    if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                "0123456789@%+=:,./_-",
                *s))
      return false;
  return true;
}

static void print_word(const char *s) {
  if (plain(s)) {
    fputs(s, stderr);
    return;
  }
  fputc('\'', stderr);
  for (; *s; s++) {
    if (*s == '\'')
      fputs("'\\''", stderr);
    else
      fputc(*s, stderr);
  }
  fputc('\'', stderr);
}

void print_command(const char *const *cmd) {
  fprintf(stderr, "%s:", mipcc_name);
  for (; *cmd; cmd++) {
    fputc(' ', stderr);
    print_word(*cmd);
  }
  fputc('\n', stderr);
  fflush(stderr);
}
