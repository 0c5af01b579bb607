/*
 * bench/diff/gen OUT.mip CONTEXTS base|new: a synthetic heap profile for
 * bench/diff.sh, made as merge makes one (a map, a raw profile with heap
 * payloads, a symbolizer, the library's profile writer), through the unit
 * tests' builder (test/unit/builder.c), so nothing binary is committed.
 *
 * CONTEXTS contexts over CONTEXTS / 10 allocation sites (columns of one
 * line) in 2,000 functions of 100 files; each context a site and a stack of four
 * callers. The new profile is the base one after a change: the contexts
 * of one site in ten allocate twice as much, one in a hundred is gone,
 * as many are new, and the files of even number have every line two
 * further down (their contexts match by coarse key only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../test/unit/builder.h"
#include "mip/layouts.h"

#define FUNCTIONS 2000u
#define FILES 100u
#define DEPTH 5u
#define COV 0x100000u
#define SITE 0x200000u
#define CODE 0x400000u
#define BIAS 0x555555554000ULL

struct gen {
  uint32_t contexts, sites;
  int changed; /* the new profile */
};

static uint32_t shift(const struct gen *g, uint32_t file) {
  return g->changed && file % 2 == 0 ? 2 : 0;
}

static const char *file_name(uint32_t file) {
  static char name[32];
  snprintf(name, sizeof name, "src/file%u.c", file);
  return name;
}

/* Function f's frame at any of its addresses. */
static size_t frames(void *ctx, uint64_t addr,
                     const struct mip_frame_info **out) {
  const struct gen *g = ctx;
  static struct mip_frame_info f;
  static char name[32], file[32];
  if (addr < CODE || addr >= CODE + 16ull * FUNCTIONS)
    return 0;
  uint32_t fn = (uint32_t)((addr - CODE) / 16);
  snprintf(name, sizeof name, "fn%u", fn);
  snprintf(file, sizeof file, "%s", file_name(fn % FILES));
  f = (struct mip_frame_info){name, file, 10 + fn / FILES * 20 +
                                              shift(g, fn % FILES) + 3,
                              5};
  *out = &f;
  return 1;
}

static void build_map(struct mip_buf *m, const struct gen *g) {
  const struct slot_spec sections[] = {
      {MIP_RAW_COV, 0, COV, COV + FUNCTIONS},
      {MIP_RAW_SITE, 0, SITE, SITE + g->sites}};
  build_unit_sections(m, "gen.c", sections, 2);
  char name[32];
  for (uint32_t f = 0; f < FUNCTIONS; f++) {
    snprintf(name, sizeof name, "fn%u", f);
    build_function(m, name, "", 0, f + 1, CODE + 16ull * f, COV + f);
  }
  for (uint32_t s = 0; s < g->sites; s++) {
    uint32_t fn = s % FUNCTIONS, file = fn % FILES;
    snprintf(name, sizeof name, "fn%u", fn);
    /* The sites of one function on lines of their own. */
    build_heap_site(m, SITE + s, COV + fn,
                    10 + fn / FILES * 20 + shift(g, file) + 3, 5 + s / FUNCTIONS,
                    MIP_ALLOC_MALLOC, file_name(file), name);
  }
}

/* Context i's callers: distinct for the contexts of one site. */
static uint64_t caller(uint32_t i, uint32_t level, const struct gen *g) {
  /* Level 1 tells the contexts of a site apart; the others are spread
   * (a multiplicative hash), so that the contexts of two sites of one
   * function have other callers. */
  uint32_t f = level == 1 ? (i / g->sites) % FUNCTIONS
                          : ((i * 2654435761u + level * 40503u) >> 7) %
                                FUNCTIONS;
  return BIAS + 1 + CODE + 16ull * f + 4;
}

static struct mip_mib mib(uint32_t i, const struct gen *g) {
  uint32_t site = i % g->sites;
  uint64_t count = 1 + i % 50, size = 16 + (i % 200) * 8;
  if (g->changed && site % 10 == 0)
    count *= 2;
  struct mip_mib m;
  memset(&m, 0, sizeof m);
  m.v[MIP_MIBI_AllocCount] = count;
  m.v[MIP_MIBI_TotalSize] = count * size;
  m.v[MIP_MIBI_MinSize] = m.v[MIP_MIBI_MaxSize] = size;
  m.v[MIP_MIBI_PeakLiveSize] = size;
  m.v[MIP_MIBI_TotalAccessCount] = count * 4;
  m.v[MIP_MIBI_TotalLifetime] = count * (i % 7);
  m.v[MIP_MIBI_LiveAtExitCount] = i % 97 == 0;
  m.v[MIP_MIBI_LiveAtExitSize] = i % 97 == 0 ? size : 0;
  return m;
}

/* The raw profile of one run: base's contexts but one in a hundred, and
 * (new) as many others. */
static void build_run(struct mip_buf *raw, const struct gen *g,
                      const struct mip_build_id *id) {
  struct heap_context_spec *c = mip_xcalloc(g->contexts, sizeof *c);
  struct heap_stack_spec *s = mip_xcalloc(g->contexts, sizeof *s);
  uint64_t *frames_of = mip_xcalloc((size_t)g->contexts * DEPTH, 8);
  size_t n = 0;
  for (uint32_t i = 0; i < g->contexts; i++) {
    /* new: context i is gone when i % 100 == 1, and in its place one
     * with other callers (i + contexts stands for it). */
    uint32_t k = g->changed && i % 100 == 1 ? i + g->contexts : i;
    uint64_t *f = &frames_of[n * DEPTH];
    f[0] = BIAS + 1 + CODE + 16ull * ((i % g->sites) % FUNCTIONS) + 2;
    for (uint32_t l = 1; l < DEPTH; l++)
      f[l] = caller(k, l, g);
    s[n] = (struct heap_stack_spec){n + 1, 0, DEPTH, f};
    c[n] = (struct heap_context_spec){n + 1, BIAS + SITE + i % g->sites,
                                      mib(i, g)};
    n++;
  }
  /* The image: its sites and its code. */
  const struct heap_segment_spec segment = {
      BIAS + 0x1000, BIAS + CODE + 16ull * FUNCTIONS + 0x1000, BIAS, id, ""};
  uint32_t schema[MIP_MIB_COUNT];
  struct mip_buf mibs = {0}, stk = {0}, seg = {0};
  build_heap_mibs(&mibs, schema, full_schema(schema), c, n);
  build_heap_stacks(&stk, s, n);
  build_heap_segments(&seg, &segment, 1);
  uint8_t *cov = mip_xcalloc(FUNCTIONS, 1), *sites = mip_xcalloc(g->sites, 1);
  memset(cov, 1, FUNCTIONS);
  memset(sites, 1, g->sites);
  const struct payload_spec payloads[] = {
      {MIP_RAW_COV, 1, COV, cov, FUNCTIONS},
      {MIP_RAW_SITE, 1, SITE, sites, g->sites},
      {MIP_RAW_HEAP_MIBS, 1, 0, mibs.data, mibs.size},
      {MIP_RAW_HEAP_STACKS, 1, 0, stk.data, stk.size},
      {MIP_RAW_HEAP_SEGMENTS, 1, 0, seg.data, seg.size}};
  build_raw_payloads(raw, id, payloads, 5);
  free(c);
  free(s);
  free(frames_of);
  free(cov);
  free(sites);
  mip_buf_free(&mibs);
  mip_buf_free(&stk);
  mip_buf_free(&seg);
}

static int fail(const struct mip_error *err) {
  fprintf(stderr, "gen: %s\n", err->msg);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[3], "base") && strcmp(argv[3], "new"))) {
    fprintf(stderr, "usage: gen OUT.mip CONTEXTS base|new\n");
    return 2;
  }
  struct gen g = {(uint32_t)strtoul(argv[2], NULL, 10), 0,
                  !strcmp(argv[3], "new")};
  g.sites = g.contexts / 10 ? g.contexts / 10 : 1;
  struct mip_build_id id = {4, {1, 2, 3, (uint8_t)(1 + g.changed)}};
  struct mip_buf m = {0}, raw = {0};
  struct mip_map map;
  struct mip_profile p;
  struct mip_raw r;
  struct mip_error err;
  build_map(&m, &g);
  if (mip_map_parse(m.data, m.size, "gen", &map, &err))
    return fail(&err);
  map.build_id = id;
  mip_profile_from_map(&map, &p);
  build_run(&raw, &g, &id);
  char raw_path[4096];
  snprintf(raw_path, sizeof raw_path, "%s.mipraw", argv[1]);
  /* Not the builder's write_file, whose checks need a Check runner. */
  FILE *f = fopen(raw_path, "wb");
  if (!f || fwrite(raw.data, 1, raw.size, f) != raw.size || fclose(f)) {
    fprintf(stderr, "gen: %s: cannot write\n", raw_path);
    return 1;
  }
  const struct mip_symbolizer sym = {frames, &g, NULL, NULL};
  if (mip_raw_read(raw_path, &r, &err) ||
      mip_profile_add_run(&p, argv[1], &r, raw_path, &sym, &err) ||
      mip_profile_write(argv[1], &p, &err))
    return fail(&err);
  remove(raw_path);
  mip_raw_free(&r);
  mip_profile_free(&p);
  mip_map_free(&map);
  mip_buf_free(&m);
  mip_buf_free(&raw);
  return 0;
}
