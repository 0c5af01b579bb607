/*
 * The command that replaces mipcc:
 *
 *   COMPILER [plugin args] [-Wl,--build-id] [-momit-leaf-frame-pointer]
 *            USER ARGS... [-fno-omit-frame-pointer]
 *            [-ffunction-sections -fdata-sections]
 *            [-fuse-ld=lld] [ordering file] [LTO plugin] [-x none]
 *            [INTERPOSER] [CONTINUOUS] [-Wl,-u,__mip_link_pool
 *            [-Wl,-u,__mip_link_pool_heap]]
 *            [-Wl,-u,__mip_link_with_mipcc_or_libmip_rt RUNTIME]
 *            [LIBMIP_ALLOC -Wl,--push-state,--as-needed -ljemalloc
 *             -Wl,--pop-state]
 *            [-- INPUTS...]
 *
 * The user's arguments keep their order; only mipcc's own flags are taken
 * out (a response file holding some is replaced by its arguments, as clang
 * would have read them, minus those flags). The plugin and -Wl,--build-id
 * come first, so that a user's own -Wl,--build-id=STYLE (or =none) later
 * on the line still wins. Heap mode's -fno-omit-frame-pointer and
 * -fmip-order's -ffunction-sections -fdata-sections come after the user's,
 * so that a build's own -fomit-frame-pointer or -fno-function-sections
 * cannot undo
 * what the profile needs. The libraries come after the user's inputs,
 * where clang itself puts its runtimes, and before any "--" (after which
 * they would be input names).
 */
#include <stdio.h>
#include <string.h>

#include "mip/link.h"
#include "mipcc.h"

static void add_plugin(struct strvec *cmd, const struct request *rq,
                       const char *plugin) {
  strvec_push(cmd, xconcat("-fplugin=", plugin, NULL));
  if (rq->generate)
    strvec_push(cmd, rq->modes ? xconcat("-fplugin-arg-mip-generate=",
                                         rq->modes, NULL)
                               : "-fplugin-arg-mip-generate");
  if (!rq->use)
    return;
  strvec_push(cmd, xconcat("-fplugin-arg-mip-use=", rq->use, NULL));
  for (int k = 0; k < USE_KEYS; k++)
    if (rq->use_args[k])
      strvec_push(cmd, xconcat("-fplugin-arg-mip-", rq->use_args[k], NULL));
}

/* A linker option with a file name in it: -Wl,OPTION=FILE, or, when the
 * name holds a comma (which -Wl, would split at), -Xlinker OPTION=FILE. */
static void add_linker_file(struct strvec *cmd, const char *option,
                            const char *file) {
  if (strchr(file, ',')) {
    strvec_push(cmd, "-Xlinker");
    strvec_push(cmd, xconcat(option, "=", file, NULL));
  } else {
    strvec_push(cmd, xconcat("-Wl,", option, "=", file, NULL));
  }
}

static void add_order(struct strvec *cmd, const struct additions *add) {
  if (add->linker == LINKER_GOLD) {
    add_linker_file(cmd, "--section-ordering-file", add->order_file);
  } else {
    add_linker_file(cmd, "--symbol-ordering-file", add->order_file);
    /* Names of functions this build inlined or dropped, and names a shared
     * library defines as well, are harmless: do not warn about them. */
    strvec_push(cmd, "-Wl,--no-warn-symbol-ordering");
  }
}

/* lld loads the plugin into the link's LTO pipelines; LLVM's context
 * disambiguation, which clones wrappers per context, is off unless
 * asked, and needs the hinted allocation functions (libmip_alloc.a has
 * them) said to be there. */
static void add_lto_plugin(struct strvec *cmd, const char *plugin) {
  add_linker_file(cmd, "--load-pass-plugin", plugin);
  strvec_push(cmd, "-Wl,-mllvm,-enable-memprof-context-disambiguation");
  strvec_push(cmd, "-Wl,-mllvm,-supports-hot-cold-new");
}

static void add_libraries(struct strvec *cmd, const struct request *rq,
                          const struct additions *add) {
  /* A "-x c" still in force would make clang compile the archives as C. */
  if (rq->lang_at_tail) {
    strvec_push(cmd, "-x");
    strvec_push(cmd, "none");
  }
  /* Before the archive: it refers to the heap runtime. */
  if (add->interpose)
    strvec_push(cmd, add->interpose);
  /* Before the archive too, whose members it refers to; after the
   * command's own objects, so that gold (which keeps input order) places
   * its page padding after their counters. */
  if (add->continuous)
    strvec_push(cmd, add->continuous);
  /* Pool mode's merge, which nothing refers to: pulled out of the archive
   * by name, and for a heap image its heap part too (mip/link.h). */
  /* A configure-time test program's check, pulled out by name too. */
  if (add->probe)
    strvec_push(cmd, "-Wl,-u," MIP_RT_PROBE_SYMBOL);
  if (add->pool) {
    strvec_push(cmd, "-Wl,-u," MIP_RT_POOL_SYMBOL);
    if (add->interpose)
      strvec_push(cmd, "-Wl,-u," MIP_RT_POOL_HEAP_SYMBOL);
  }
  if (add->image_object) {
    /* The shared runtime: the image's object, and libmip_rt.so, found
     * where mipcc has it when the program runs. */
    strvec_push(cmd, add->image_object);
    strvec_push(cmd, add->runtime);
    char *dir = xstrdup(add->runtime);
    *strrchr(dir, '/') = '\0';
    strvec_push(cmd, xconcat("-Wl,-rpath,", dir, NULL));
  } else if (add->runtime) {
    /* Instrumented objects refer to the symbol that makes the linker take
     * the archive member with the exit-time writer; -u does it for those
     * of older plugins, which do not. */
    strvec_push(cmd, "-Wl,-u," MIP_RT_LINK_SYMBOL);
    strvec_push(cmd, add->runtime);
  }
  if (add->alloc) {
    /* The archive's members join only for hinted calls; they need
     * jemalloc, which a program that refers to none of its symbols does
     * not get (--as-needed). */
    strvec_push(cmd, add->alloc);
    strvec_push(cmd, "-Wl,--push-state,--as-needed");
    strvec_push(cmd, "-ljemalloc");
    strvec_push(cmd, "-Wl,--pop-state");
  }
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
  if (add->thumb)
    strvec_push(&cmd, "-mthumb"); /* a later -marm of the command wins */
  /* A leaf function is never on the stack when a heap hook walks it (a
   * function that allocates calls the hook): its frame pointer would cost
   * every leaf a push and a pop for nothing. A default only: the command's
   * own -mno-omit-leaf-frame-pointer wins. */
  if (add->frame_pointers)
    strvec_push(&cmd, "-momit-leaf-frame-pointer");
  add_user_args(&cmd, 1, rq->tail, argv, rq);
  if (add->frame_pointers)
    strvec_push(&cmd, "-fno-omit-frame-pointer");
  if (add->frame_chain)
    strvec_push(&cmd, "-mframe-chain=aapcs");
  if (add->function_sections) {
    strvec_push(&cmd, "-ffunction-sections");
    strvec_push(&cmd, "-fdata-sections");
  }
  if (add->add_fuse_ld)
    strvec_push(&cmd, "-fuse-ld=lld");
  if (add->order)
    add_order(&cmd, add);
  if (add->lto_plugin)
    add_lto_plugin(&cmd, add->lto_plugin);
  if (add->runtime || add->alloc)
    add_libraries(&cmd, rq, add);
  add_user_args(&cmd, rq->tail, argc, argv, rq);
  return cmd.v;
}

const char **order_command(const char *mipdata, const struct request *rq,
                           const struct additions *add) {
  struct strvec cmd = {0};
  strvec_push(&cmd, mipdata);
  strvec_push(&cmd, "order");
  strvec_push(&cmd, "-p");
  strvec_push(&cmd, rq->use);
  strvec_push(&cmd, "-o");
  strvec_push(&cmd, add->order_file);
  strvec_push(&cmd, "--format");
  strvec_push(&cmd, add->linker == LINKER_GOLD ? "gold" : "lld");
  /* The hot functions the compiler marks are the ones the layout
   * clusters, and their sections are the ones the gold form names. */
  if (rq->hot_share) {
    strvec_push(&cmd, "--hot-share");
    strvec_push(&cmd, rq->hot_share);
  }
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
