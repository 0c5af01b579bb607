/*
 * mipdata merge -p PROFILE.mip [-p PROFILE.mip...] [--skip-other-builds]
 *               [--mix-sampled] [--debug BINARY...] INPUT...
 * Adds runs to indexed profiles: raw profiles written by instrumented
 * programs, or other indexed profiles of the same build. All inputs are
 * checked before anything is written; on any error every profile is left
 * as it was. Merging only adds, so the order of inputs does not matter.
 *
 * With several -p (an executable and its shared libraries, say), each
 * input goes to the profile of its build: the one with the same build-id.
 * A profile without a build-id (made from a bare map section) takes only
 * inputs that no profile claims by build-id and whose counter layout
 * matches it; an input without a build-id goes to the one profile whose
 * layout it matches. An input that no profile takes is an error, or with
 * --skip-other-builds a warning, and is left out.
 *
 * With one -p every input goes to that profile, as it always did, and an
 * input from another build is refused by the library's own checks.
 *
 * A pooled raw profile (the runtime's %Nm) adds all the runs it holds.
 *
 * Heap runs sampled (MIP_OPTIONS heap_sample) and exact ones are refused
 * together, their figures being estimates and counts, unless
 * --mix-sampled: then each block of an exact run weighs one.
 *
 * Raw profiles with heap data need the profiled binary (--debug BINARY,
 * the unstripped binary or its debug file) to symbolize their call
 * stacks: the one whose build-id is the profile's. Frames in other images
 * (the program under a library's code, a library under the program's)
 * are symbolized too when a --debug binary has their image's build-id,
 * and name their object otherwise; nothing is opened that the command
 * line does not name, so the result depends on the inputs alone. Each
 * binary is indexed once, when the first input that needs it comes; one
 * built without -g (whose only DWARF is the MIP runtime's) gets one note
 * then, and its frames come from its symbol table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "elf_image.h"
#include "profile_lock.h"
#include "debuginfo.h"

/* --mix-sampled: sampled and exact heap runs may be merged. */
static int mix_sampled;

/* A binary given with --debug. */
struct debug_binary {
  const char *path;
  struct mip_build_id build_id;
  struct debuginfo *info;         /* once needed */
  struct mip_symbolizer callback; /* of info, for the library */
};

struct debug_binaries {
  struct debug_binary *list;
  size_t count;
};

struct target {
  const char *path;
  struct mip_profile profile;
  int changed;
};

/* One input, read. */
struct input {
  const char *path;
  int is_profile;
  struct mip_raw raw;
  struct mip_profile other;
  const struct mip_build_id *build_id;
};

static int read_input(const char *path, struct input *in,
                      struct mip_error *err) {
  memset(in, 0, sizeof *in);
  in->path = path;
  struct mip_file probe;
  if (mip_file_read(path, &probe, err))
    return -1;
  uint64_t magic = mip_file_magic(&probe);
  mip_file_free(&probe);
  if (magic == MIP_PROFILE_MAGIC) {
    in->is_profile = 1;
    if (mip_profile_read(path, &in->other, err))
      return -1;
    in->build_id = &in->other.build_id;
    return 0;
  }
  /* Anything else must be a raw profile; its reader says what is wrong. */
  if (mip_raw_read(path, &in->raw, err))
    return -1;
  in->build_id = &in->raw.build_id;
  return 0;
}

static void free_input(struct input *in) {
  if (in->is_profile)
    mip_profile_free(&in->other);
  else
    mip_raw_free(&in->raw);
}

static const struct mip_extent *input_extent(const struct input *in,
                                             uint32_t kind) {
  if (in->is_profile)
    return mip_extent_find(in->other.extents, in->other.extent_count, kind);
  return mip_raw_extent(&in->raw, kind); /* a pooled file's too */
}

/* Whether the input has every counter array of the profile, where the
 * profile has it: what the library checks before it adds a run. */
static int layout_matches(const struct mip_profile *p, const struct input *in) {
  for (size_t i = 0; i < p->extent_count; i++) {
    const struct mip_extent *want = &p->extents[i];
    const struct mip_extent *have = input_extent(in, want->kind);
    if (!have || have->link_addr != want->link_addr ||
        have->size != want->size || have->elem_size != want->elem_size)
      return 0;
  }
  return 1;
}

static int read_debug_binary(const char *path, struct debug_binary *d,
                             struct mip_error *err) {
  struct elf_image img;
  memset(d, 0, sizeof *d);
  d->path = path;
  if (elf_image_open(path, &img, err))
    return -1;
  elf_image_build_id(&img, &d->build_id);
  elf_image_close(&img);
  return 0;
}

/* Indexes a --debug binary, once; says once when the program's own code
 * has no DWARF (built without -g). */
static struct debuginfo *open_binary(struct debug_binary *d,
                                      struct mip_error *err) {
  if (d->info)
    return d->info;
  d->info = debuginfo_open(d->path, err);
  if (d->info && !debuginfo_covers_program(d->info))
    note(d->path, "no debug information for the program's code (built "
                  "without -g): its frames get function names from the "
                  "symbol table, without file, line or inlined calls");
  d->callback = (struct mip_symbolizer){debuginfo_frames, d->info,
                                        NULL, NULL};
  return d->info;
}

/* The --debug binary for a profile: the one with its build-id (or the
 * only one, for a profile without a build-id), indexed on first use. */
static struct debuginfo *symbolizer_for(struct debug_binaries *debug,
                                         const struct target *t,
                                         const struct input *in,
                                         struct mip_error *err) {
  const struct mip_build_id *want = &t->profile.build_id;
  struct debug_binary *found = NULL;
  char a[2 * MIP_BUILD_ID_MAX + 1], b[2 * MIP_BUILD_ID_MAX + 1];
  if (!debug->count) {
    mip_fail(err, in->path,
             "has heap data: give the profiled binary with --debug BINARY "
             "to symbolize its call stacks");
    return NULL;
  }
  for (size_t i = 0; i < debug->count && !found; i++)
    if (want->size ? mip_build_id_equal(&debug->list[i].build_id, want)
                   : debug->count == 1)
      found = &debug->list[i];
  if (!found) {
    if (debug->count == 1 && !debug->list[0].build_id.size)
      mip_fail(err, debug->list[0].path,
               "has no build-id, but %s is for build-id %s", t->path,
               mip_build_id_hex(want, b, sizeof b));
    else if (debug->count == 1)
      mip_fail(err, debug->list[0].path,
               "build-id %s does not match %s (build-id %s)",
               mip_build_id_hex(&debug->list[0].build_id, a, sizeof a),
               t->path, mip_build_id_hex(want, b, sizeof b));
    else if (want->size)
      mip_fail(err, in->path,
               "has heap data for %s (build-id %s), but no --debug binary "
               "has that build-id",
               t->path, mip_build_id_hex(want, b, sizeof b));
    else
      mip_fail(err, in->path,
               "has heap data for %s, which has no build-id: give only its "
               "binary with --debug",
               t->path);
    return NULL;
  }
  return open_binary(found, err);
}

/* The symbolizer of another image, by build-id: a --debug binary that was
 * opened for this input (open_others). */
static const struct mip_symbolizer *other_image(void *images,
                                                const struct mip_build_id *id) {
  struct debug_binaries *debug = images;
  for (size_t i = 0; i < debug->count; i++)
    if (debug->list[i].info &&
        mip_build_id_equal(&debug->list[i].build_id, id))
      return &debug->list[i].callback;
  return NULL;
}

/* Opens the --debug binaries of the other images the input's segments
 * name, so that their errors are reported before anything is merged. */
static int open_others(struct debug_binaries *debug, const struct input *in,
                       struct mip_error *err) {
  const struct mip_raw_heap *h = &in->raw.heap;
  for (size_t i = 0; i < h->segment_count; i++)
    for (size_t k = 0; k < debug->count; k++)
      if (h->segments[i].build_id.size &&
          mip_build_id_equal(&debug->list[k].build_id,
                             &h->segments[i].build_id) &&
          !open_binary(&debug->list[k], err))
        return -1;
  return 0;
}

static int add_to(struct target *t, const struct input *in,
                  struct debug_binaries *debug, struct mip_error *err) {
  int rc;
  if (in->is_profile) {
    rc = mip_profile_add_profile(&t->profile, t->path, &in->other, in->path,
                                 err);
  } else if (in->raw.heap.present &&
             (!in->build_id->size || !t->profile.build_id.size ||
              mip_build_id_equal(in->build_id, &t->profile.build_id))) {
    /* (a raw profile of another build is refused below, as any is) */
    struct debuginfo *sym = symbolizer_for(debug, t, in, err);
    struct mip_symbolizer callback = {debuginfo_frames, sym, other_image,
                                      debug};
    rc = sym && open_others(debug, in, err) == 0
             ? mip_profile_add_run(&t->profile, t->path, &in->raw, in->path,
                                   &callback, err)
             : -1;
  } else {
    rc = mip_profile_add_raw(&t->profile, t->path, &in->raw, in->path, err);
  }
  if (rc == 0)
    t->changed = 1;
  return rc;
}

/* The profiles that take the input (see the top of this file); returns how
 * many, the first in *first, the second in *second. */
static size_t route(struct target *targets, size_t count,
                    const struct input *in, size_t *first, size_t *second) {
  size_t n = 0;
  if (in->build_id->size)
    for (size_t i = 0; i < count; i++)
      if (targets[i].profile.build_id.size &&
          mip_build_id_equal(&targets[i].profile.build_id, in->build_id)) {
        if (n == 0)
          *first = i;
        else if (n == 1)
          *second = i;
        n++;
      }
  if (n)
    return n;
  for (size_t i = 0; i < count; i++)
    if ((!in->build_id->size || !targets[i].profile.build_id.size) &&
        layout_matches(&targets[i].profile, in)) {
      if (n == 0)
        *first = i;
      else if (n == 1)
        *second = i;
      n++;
    }
  return n;
}

static int no_profile_error(const struct target *targets, size_t count,
                            const struct input *in, struct mip_error *err) {
  char names[512] = "";
  size_t at = 0;
  for (size_t i = 0; i < count && at < sizeof names; i++)
    at += (size_t)snprintf(names + at, sizeof names - at, "%s%s",
                           i ? ", " : "", targets[i].path);
  char hex[2 * MIP_BUILD_ID_MAX + 1];
  if (in->build_id->size)
    return mip_fail(err, in->path, "build-id %s matches no profile given (%s)",
                    mip_build_id_hex(in->build_id, hex, sizeof hex), names);
  return mip_fail(err, in->path,
                  "has no build-id and its counters match no profile given "
                  "(%s)",
                  names);
}

/* Adds one input where it belongs. Returns 0 when added, 1 when skipped,
 * -1 on error. */
static int merge_input(struct target *targets, size_t count,
                       const struct input *in, int skip_other_builds,
                       struct debug_binaries *debug, struct mip_error *err) {
  size_t first = 0, second = 0;
  size_t n = route(targets, count, in, &first, &second);
  if (n == 0) {
    if (skip_other_builds) {
      struct mip_error why;
      no_profile_error(targets, count, in, &why);
      warning("%s; skipped", why.msg);
      return 1;
    }
    /* One profile: its own checks say why, as they always did. */
    if (count == 1)
      return add_to(&targets[0], in, debug, err) ? -1 : 0;
    return no_profile_error(targets, count, in, err);
  }
  if (n > 1)
    return mip_fail(err, in->path, "matches several profiles: %s and %s",
                    targets[first].path, targets[second].path);
  return add_to(&targets[first], in, debug, err) ? -1 : 0;
}

static void free_debug(struct debug_binaries *debug) {
  for (size_t i = 0; i < debug->count; i++)
    debuginfo_close(debug->list[i].info);
  free(debug->list);
}

/* The -p paths, each once; else a usage error's status. */
static int check_profiles(const struct cli *cli, const struct opt_list *p) {
  for (size_t i = 0; i < p->n; i++)
    for (size_t j = 0; j < i; j++)
      if (strcmp(p->v[i], p->v[j]) == 0)
        return cli_error(cli, "-p %s is given twice", p->v[i]);
  return CLI_GO_ON;
}

static int read_debug_binaries(const struct opt_list *paths,
                               struct debug_binaries *debug,
                               struct mip_error *err) {
  debug->list = mip_xcalloc(paths->n ? paths->n : 1, sizeof *debug->list);
  debug->count = 0;
  for (size_t i = 0; i < paths->n; i++) {
    if (read_debug_binary(paths->v[i], &debug->list[i], err))
      return -1;
    debug->count++;
  }
  return 0;
}

/* Reads the inputs and adds each where it belongs, in memory. */
static int merge_inputs(struct target *targets, size_t count,
                        char *const *inputs, int input_count,
                        int skip_other_builds, struct debug_binaries *debug,
                        struct mip_error *err) {
  int merged = 0;
  for (int i = 0; i < input_count; i++) {
    struct input in;
    int rc = read_input(inputs[i], &in, err);
    if (rc == 0) {
      int added =
          merge_input(targets, count, &in, skip_other_builds, debug, err);
      rc = added < 0 ? -1 : 0;
      merged += added == 0;
    }
    free_input(&in);
    if (rc)
      return -1;
  }
  if (!merged) {
    snprintf(err->msg, sizeof err->msg,
             "nothing merged: every input was skipped");
    return -1;
  }
  return 0;
}

/* Whether paths a and b name one file (a link, another path to it). */
static int same_file(const char *a, const char *b) {
  struct stat x, y;
  return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev &&
         x.st_ino == y.st_ino;
}

/* A profile is merged into once, and is no input of its own merge: its
 * runs would count twice. */
static int check_distinct(const struct target *targets, size_t count,
                          char *const *inputs, int input_count,
                          struct mip_error *err) {
  for (size_t i = 0; i < count; i++) {
    for (size_t j = 0; j < i; j++)
      if (same_file(targets[i].path, targets[j].path))
        return mip_fail(err, targets[i].path,
                        "is the same file as the profile %s (-p twice)",
                        targets[j].path);
    for (int k = 0; k < input_count; k++)
      if (same_file(inputs[k], targets[i].path))
        return mip_fail(err, inputs[k],
                        "is the profile merged into (-p %s): not an input too",
                        targets[i].path);
  }
  return 0;
}

/* Reads the profiles, merges, and writes what changed: every profile is
 * staged before any is replaced (output.h), all under the locks. */
static int merge(struct target *targets, size_t count, char *const *inputs,
                 int input_count, int skip_other_builds,
                 struct debug_binaries *debug, struct mip_error *err) {
  /* From the read to the rename, no other merge may update them. */
  struct profile_locks locks = {0};
  const char **paths = mip_xcalloc(count, sizeof *paths);
  for (size_t i = 0; i < count; i++)
    paths[i] = targets[i].path;
  int rc = profile_locks_take(&locks, paths, count, err);
  free(paths);
  for (size_t i = 0; rc == 0 && i < count; i++) {
    rc = mip_profile_read(targets[i].path, &targets[i].profile, err);
    targets[i].profile.heap_mix_sampled = mix_sampled;
  }
  if (rc == 0)
    rc = check_distinct(targets, count, inputs, input_count, err);
  if (rc == 0)
    rc = merge_inputs(targets, count, inputs, input_count, skip_other_builds,
                      debug, err);
  for (size_t i = 0; rc == 0 && i < count; i++)
    if (targets[i].changed) {
      struct mip_buf bytes = {0};
      mip_profile_encode(&targets[i].profile, &bytes);
      output_update(targets[i].path, &bytes);
    }
  if (rc == 0)
    rc = output_commit(err);
  profile_locks_release(&locks);
  return rc;
}

int cmd_merge(int argc, char **argv) {
  struct opt_list profiles = {0}, debug_paths = {0};
  int skip_other_builds = 0;
  struct opt options[] = {
      OPT_PROFILES(&profiles, "a profile to add runs to; one per image"),
      OPT_FLAG("skip-other-builds", &skip_other_builds,
               "leave out, with a warning, an input no profile takes"),
      OPT_FLAG("mix-sampled", &mix_sampled,
               "merge sampled heap runs (heap_sample) with exact ones, each "
               "block of an exact run weighing one"),
      OPT_DEBUGS(&debug_paths, "a profiled binary (unstripped) or its debug "
                               "file, to symbolize heap call stacks; one per "
                               "image"),
      OPT_END,
  };
  struct cli cli = {.command = "merge", .operands = "INPUT...",
                    .noun = "input", .min = 1, .max = -1, .options = options};
  int rc = cli_parse(&cli, argc, argv);
  if (rc == CLI_GO_ON)
    rc = check_profiles(&cli, &profiles);
  if (rc != CLI_GO_ON) {
    cli_free(&cli);
    return rc;
  }
  struct mip_error err;
  struct target *targets = mip_xcalloc(profiles.n, sizeof *targets);
  for (size_t i = 0; i < profiles.n; i++)
    targets[i].path = profiles.v[i];
  struct debug_binaries debug;
  rc = read_debug_binaries(&debug_paths, &debug, &err);
  if (rc == 0)
    rc = merge(targets, profiles.n, cli.operand, cli.operand_count,
               skip_other_builds, &debug, &err);
  for (size_t i = 0; i < profiles.n; i++)
    mip_profile_free(&targets[i].profile); /* also after a failed read */
  free(targets);
  free_debug(&debug);
  cli_free(&cli);
  return rc ? report(&err) : 0;
}
