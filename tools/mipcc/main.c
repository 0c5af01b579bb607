/*
 * mipcc [clang arguments] [-fmip-generate[=MODES]] [-fmip-use=FILE
 *       [-fmip-order] [-fmip-hot-share=F] ...]
 *
 * Decides what to add to the command, then execs the real compiler, so
 * its exit status, signals and output are the compiler's own. A link with
 * -fmip-order first has mipdata write the ordering file, then runs the
 * compiler and waits for it, to remove the file (run.c).
 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "mip/link.h"
#include "mipcc.h"
#include "mipfmt.h"

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

/* The linker a -fuse-ld= or --ld-path= value names, if it can order. */
static bool names_linker(const char *value, enum linker *linker) {
  if (strcmp(value, "lld") == 0 || has_suffix(value, "ld.lld")) {
    *linker = LINKER_LLD;
    return true;
  }
  if (strcmp(value, "gold") == 0 || has_suffix(value, "ld.gold")) {
    *linker = LINKER_GOLD;
    return true;
  }
  return false;
}

/* lld or gold, as the command asks (clang takes --ld-path= over
 * -fuse-ld=); lld, added, when it names none. GNU ld has no option that
 * orders functions. */
static void choose_linker(const struct request *rq, struct additions *add) {
  const char *option = rq->ld_path ? "--ld-path" : "-fuse-ld";
  const char *value = rq->ld_path ? rq->ld_path : rq->fuse_ld;
  add->linker = LINKER_LLD;
  if (!value) {
    add->add_fuse_ld = true;
    return;
  }
  if (!names_linker(value, &add->linker))
    die("-fmip-order needs lld or gold to link (-fuse-ld=lld or "
        "-fuse-ld=gold): %s=%s cannot order functions",
        option, value);
}

/* "FILE" or "ARCHIVE(MEMBER)": where a need was found. */
static const char *where(const struct need_at *at) {
  return at->member ? xconcat(at->file, "(", at->member, ")", NULL) : at->file;
}

/* A -flto link writes its hinted calls itself, from bitcode that has
 * none yet: the profile says whether it will, at a site whose contexts
 * agree or in a wrapper's clone. */
static bool lto_needs_alloc(const struct request *rq, const char **why) {
  int hinted = profile_hinted_sites(rq);
  /* No compiler reads the profile at this link to say what is wrong. */
  if (hinted < 0)
    die("%s: cannot read the profile (mipdata check says why)", rq->use);
  if (hinted > 0 || profile_wrapper_sites(rq) > 0) {
    *why = xconcat("added: the -flto link hints allocations by ", rq->use,
                   NULL);
    return true;
  }
  *why = xconcat("not added: ", rq->use,
                 " makes no allocation site or context cold or hot", NULL);
  return false;
}

/* Whether a link with -fmip-use needs libmip_alloc.a, which defines the
 * hinted allocation calls the plugin writes, on top of jemalloc. Adding it
 * to every such link would make jemalloc the allocator of any program that
 * calls malloc, hinted or not; so it comes only when an input calls a
 * hinted function, or when sources are compiled in this very command and
 * the profile hints some allocation (the objects are clang's temporaries,
 * out of sight), or on request. Without a flag and without sources, the
 * scan decides (scan_alloc). *why says which, for the verbose line. */
static bool needs_alloc(const struct request *rq, const struct link_scan *scan,
                        const char **why) {
  const char *hints = rq->use_args[USE_ALLOC_HINTS];
  if (hints && strcmp(hints, "no-alloc-hints") == 0) {
    *why = "not added: -fno-mip-alloc-hints";
    return false;
  }
  if (hints) {
    *why = "added: -fmip-alloc-hints";
    return true;
  }
  if (rq->lto)
    return lto_needs_alloc(rq, why);
  if (rq->sources && !rq->no_codegen) {
    /* The objects are clang's temporaries: the profile says whether they
     * can hold hinted calls. */
    int sites = profile_hinted_sites(rq);
    if (sites == 0) {
      *why = xconcat("not added: ", rq->use,
                     " makes no allocation site cold or hot", NULL);
      return false;
    }
    *why = xconcat("added: ", rq->first_source,
                   " is compiled with -fmip-use in this command", NULL);
    return true;
  }
  if (scan->found & NEED_HINT) {
    const struct need_at *at = need_at(scan, NEED_HINT);
    *why = xconcat("added: ", where(at), " calls ", at->symbol, NULL);
    return true;
  }
  *why = "not added: no input calls a hinted allocation function";
  return false;
}

/* Whether the scan has to say if libmip_alloc.a is needed. */
static bool scan_alloc(const struct request *rq) {
  return rq->use && !rq->use_args[USE_ALLOC_HINTS] && !rq->lto &&
         !(rq->sources && !rq->no_codegen);
}

/* Sources compiled with heap mode in this command: their objects, out of
 * sight, are heap objects. */
static bool heap_here(const struct request *rq) {
  return rq->generate && rq->heap && rq->sources && !rq->no_codegen;
}

/* A -flto link with heap mode: the link itself instruments (the objects
 * are bitcode, which the scan cannot read). */
static bool heap_at_lto_link(const struct request *rq) {
  return rq->generate && rq->heap && rq->lto;
}

/* Looks into the link's inputs for what only they can tell: whether an
 * object is instrumented when the command does not say -fmip-generate
 * (the build compiled with the flag and links without it), whether one
 * has heap code, whether one calls a hinted allocation function. */
static void scan_inputs(const struct request *rq, struct link_scan *scan) {
  unsigned wanted = (rq->generate ? 0 : NEED_RUNTIME) |
                    (heap_here(rq) ? 0 : NEED_HEAP) |
                    (scan_alloc(rq) ? NEED_HINT : 0) |
                    (rq->shared_runtime ? NEED_OWN_STATE : 0);
  struct strvec files = {0};
  for (size_t i = 0; i < rq->files.n; i++)
    strvec_push(&files, rq->files.v[i]);
  linkargs_files(rq->link, &files);
  scan_link(&files, wanted, scan);
}

/* The runtime: for -fmip-generate, or for an instrumented input. */
static void decide_runtime(const struct request *rq,
                           const struct link_scan *scan,
                           struct additions *add) {
  if (rq->generate) {
    add->runtime_why = "added: -fmip-generate";
  } else if (scan->found & NEED_RUNTIME) {
    add->runtime_why = xconcat("added: ", where(need_at(scan, NEED_RUNTIME)),
                               " is instrumented", NULL);
  } else {
    add->runtime_why = "not added: no input is instrumented";
    return;
  }
  if (!rq->shared_runtime) {
    add->runtime = mip_target_file(rq->target, "libmip_rt.a");
    return;
  }
  /* The image keeps its counters, note and registration; libmip_rt.so
   * does the rest, once for the process. */
  add->runtime = mip_target_file(rq->target, "libmip_rt.so");
  add->image_object = mip_target_file(rq->target, MIP_RT_IMAGE_OBJECT);
  add->runtime_why = xconcat("libmip_rt.so and " MIP_RT_IMAGE_OBJECT " ",
                             add->runtime_why, ", -fmip-shared-runtime",
                             NULL);
}

/* The heap interposer, for heap code: the executable's or the shared
 * library's (include/mip/link.h). */
static void decide_interpose(const struct request *rq,
                             const struct link_scan *scan,
                             struct additions *add) {
  if (heap_here(rq))
    add->interpose_why =
        xconcat("added: ", rq->first_source,
                " is compiled with heap mode in this command", NULL);
  else if (heap_at_lto_link(rq))
    add->interpose_why = "added: the -flto link instruments with heap mode";
  else if (scan->found & NEED_HEAP)
    add->interpose_why = xconcat("added: ", where(need_at(scan, NEED_HEAP)),
                                 " has heap code (",
                                 need_at(scan, NEED_HEAP)->symbol, ")", NULL);
  else
    return;
  add->interpose = mip_target_file(
      rq->target,
      linkargs_shared(rq->link) ? MIP_INTERPOSE_SHARED : MIP_INTERPOSE_EXE);
}

/* The link of a -flto build with -fmip-use or -fmip-generate: lld loads
 * the plugin into its LTO pipelines, which instrument the code they
 * generate or use the profile, and LLVM's context disambiguation clones
 * wrappers (plugin/LtoHints.h). No other linker loads pass plugins. */
static void decide_lto_link(const struct request *rq, struct additions *add) {
  const char *option = rq->ld_path ? "--ld-path" : "-fuse-ld";
  const char *value = rq->ld_path ? rq->ld_path : rq->fuse_ld;
  enum linker linker = LINKER_LLD;
  if (value && (!names_linker(value, &linker) || linker != LINKER_LLD))
    die("%s with -flto needs lld to link (it loads MIP's plugin into "
        "the link's code generation): %s=%s cannot",
        rq->use ? "-fmip-use" : "-fmip-generate", option, value);
  add->add_fuse_ld = !value;
  add->lto_plugin = mip_file("libmip.so");
}

/* Whether output is what build systems name the test programs they run
 * while configuring: autoconf's AC_RUN_IFELSE and libtool's checks
 * "conftest", CMake's try_run and check_*_source_runs "cmTC_" and a
 * number. Executables only: a.out by default. */
static bool names_a_probe(const char *output) {
  if (!output)
    return false;
  const char *slash = strrchr(output, '/');
  const char *name = slash ? slash + 1 : output;
  return strcmp(name, "conftest") == 0 || has_prefix(name, "cmTC_");
}

static struct additions decide(const struct request *rq) {
  struct additions add = {0};
  /* Armv7 code is Thumb-2 unless the command says -marm, as Debian's
   * armhf compilers make it: a coverage probe takes 12 bytes there, 20
   * in Arm state (docs/instrumentation.md). */
  add.thumb = mip_target_is_arm32(rq->target);
  /* -fmip-order, -fmip-hot-share=... say how to use a profile; without
   * one they would silently do nothing. (After -fno-mip-use, which
   * cancels the profile, they are dropped with it.) */
  if (rq->needs_use && !rq->use_given)
    die("%s needs -fmip-use=FILE", rq->needs_use);
  /* No inputs: --version, -dumpmachine, -print-*...; nothing to add. */
  if (!rq->inputs)
    return add;
  /* Only a command that generates code from a C-family source has use for
   * the plugin; elsewhere clang could call its flags unused, which breaks
   * -Werror builds. */
  if ((rq->generate || rq->use) && rq->sources && !rq->no_codegen)
    add.plugin = llvm_plugin();
  /* The heap runtime takes its call stacks by walking frame pointers, so
   * the code it walks through must keep them. */
  add.frame_pointers = add.plugin && rq->generate && rq->heap;
  /* On Armv7 one chain of frame records for Thumb and Arm code alike, as
   * the runtime follows it: Thumb code would keep its own in r7, which
   * Arm code, and its records, leave alone. */
  add.frame_chain = add.frame_pointers && mip_target_is_arm32(rq->target);
  /* The linker orders sections: each function and each variable needs
   * its own. */
  add.function_sections = add.plugin && rq->use && rq->order;
  /* A partial link (-r) is not an image yet: the libraries join at the
   * final link, once. */
  if (rq->no_link || rq->relocatable)
    return add;
  struct link_scan scan;
  scan_inputs(rq, &scan);
  decide_runtime(rq, &scan, &add);
  if (add.runtime)
    decide_interpose(rq, &scan, &add);
  /* Heap mode's and continuous mode's state is the image's own. */
  if (add.image_object && add.interpose)
    die("-fmip-shared-runtime: heap mode needs the runtime linked into "
        "the image (%s)", add.interpose_why);
  if (add.image_object && rq->generate && rq->own_state && rq->sources &&
      !rq->no_codegen)
    die("-fmip-shared-runtime: order and edges modes need the runtime "
        "linked into the image");
  if (add.image_object && (scan.found & NEED_OWN_STATE))
    die("-fmip-shared-runtime: %s is built with order or edges mode (%s), "
        "which needs the runtime linked into the image",
        where(need_at(&scan, NEED_OWN_STATE)),
        need_at(&scan, NEED_OWN_STATE)->symbol);
  if (add.image_object && rq->continuous)
    die("-fmip-shared-runtime and -fmip-continuous: continuous mode needs "
        "the runtime linked into the image");
  /* Continuous mode's object pads every counter section to whole pages:
   * only the images linked for it pay for them. */
  if (add.runtime && rq->continuous)
    add.continuous = mip_target_file(rq->target, MIP_CONTINUOUS_OBJECT);
  /* Pool mode's merge is most of the runtime's size: only the images
   * linked for it carry it. */
  add.pool = add.runtime && rq->pool && !add.image_object;
  /* Nor do any but build systems' test programs carry the check that
   * keeps those from leaving profiles behind (mip/link.h). */
  add.probe = add.runtime && !add.image_object &&
              !linkargs_shared(rq->link) && names_a_probe(rq->output);
  if ((rq->use || rq->generate) && rq->lto)
    decide_lto_link(rq, &add);
  if (rq->use && needs_alloc(rq, &scan, &add.alloc_why))
    add.alloc = mip_target_file(rq->target, "libmip_alloc.a");
  if (rq->use && rq->order) {
    add.order = true;
    choose_linker(rq, &add);
  }
  return add;
}

/* Without -flto, once per link: the sites only a -flto link can hint. */
static void note_wrappers(const struct request *rq) {
  const char *hints = rq->use_args[USE_ALLOC_HINTS];
  if (!rq->use || rq->lto || !rq->inputs || rq->no_link || rq->relocatable ||
      (hints && strcmp(hints, "no-alloc-hints") == 0))
    return;
  int n = profile_wrapper_sites(rq);
  if (n > 0)
    note("%s: %d allocation site%s reached through wrappers from contexts "
         "that disagree get%s no hint without -flto: hinting %s clones "
         "each wrapper per context, which needs every caller's unit at "
         "once, at the link (docs/use.md, \"Wrappers and LTO\")",
         rq->use, n, n == 1 ? "" : "s", n == 1 ? "s" : "",
         n == 1 ? "it" : "them");
}

/* Has mipdata write the ordering file for the link; on failure its own
 * message has been printed, the file is removed and mipcc exits 1. */
static void write_order_file(const struct request *rq, struct additions *add,
                             bool verbose_on) {
  const char *mipdata = mipdata_path();
  add->order_file = temp_file("mipcc-order");
  const char **cmd = order_command(mipdata, rq, add);
  if (verbose_on)
    print_command(cmd);
  int status = run_wait(cmd, true);
  if (WIFSIGNALED(status))
    exit_like(status);
  if (status != 0)
    exit(1); /* mipdata said why; exit() removes the file */
}

/* A target without libmip_alloc.a (AArch64: Debian has no jemalloc for
 * it) gets no allocation hints, unless the command asks: its calls stay
 * the plain ones (docs/mipcc.md, "Other targets"). */
static void default_settings(struct request *rq) {
  if (rq->use && !rq->use_args[USE_ALLOC_HINTS] &&
      !mip_target_has(rq->target, "libmip_alloc.a"))
    rq->use_args[USE_ALLOC_HINTS] = "no-alloc-hints";
}

int main(int argc, char **argv) {
  if (argc < 1)
    die("started without a program name");
  bool cxx = invoked_as_cxx(argv[0]);
  mipcc_name = cxx ? "mipc++" : "mipcc";

  struct request rq;
  parse_request(argc, argv, &rq);
  choose_llvm(rq.llvm);
  default_settings(&rq);
  struct additions add = decide(&rq);
  note_wrappers(&rq);
  /* clang prints its version on stdout, which build systems read to tell
   * the compiler: MIP's goes before it, on stderr. */
  if (rq.version) {
    fprintf(stderr, "%s (MIP) %s\n", mipcc_name, mip_version());
    print_llvm_version();
  }

  const char *compiler = compiler_path(cxx);
  check_not_self(compiler);
  bool verbose_on = verbose();
  if (verbose_on && add.runtime_why)
    note("%s", add.image_object ? add.runtime_why
                                : xconcat("libmip_rt.a ", add.runtime_why, NULL));
  if (verbose_on && add.interpose_why)
    note("%s %s", strrchr(add.interpose, '/') + 1, add.interpose_why);
  if (verbose_on && add.continuous)
    note("%s added: -fmip-continuous", MIP_CONTINUOUS_OBJECT);
  if (verbose_on && add.pool)
    note("pool mode's merge added: -fmip-pool");
  if (verbose_on && add.probe)
    note("configure-time test program's check added: %s", rq.output);
  if (verbose_on && add.alloc_why)
    note("libmip_alloc.a %s", add.alloc_why);
  if (add.order)
    write_order_file(&rq, &add, verbose_on);
  const char **cmd = build_command(compiler, argc, argv, &rq, &add);
  if (verbose_on)
    print_command(cmd);
  if (!add.order_file)
    run_exec(cmd);
  exit_like(run_wait(cmd, false));
}
