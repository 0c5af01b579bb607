/*
 * The heap filters of the report model (report_filter.h). A context is
 * kept when it passes every filter given:
 *   --alloc     its site calls one of the allocators named (a context
 *               without a site, allocated outside MIP's code, has none)
 *   --min-size, --max-size
 *               all of its blocks lie in the range (MinSize, MaxSize)
 *   --live      some of its blocks were live at exit
 *   --frame     a frame's function (linkage or demangled name) or file
 *               matches the regular expression
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_filter.h"

void report_filter_init(struct report_filter *f) {
  memset(f, 0, sizeof *f);
  f->max_size = UINT64_MAX;
}

int report_filter_active(const struct report_filter *f) {
  return f->alloc || f->min_size || f->max_size != UINT64_MAX || f->live ||
         f->frame;
}

/* The allocators a name stands for: one by its name, or a family. */
static uint64_t allocators_named(const char *name, size_t n) {
  uint64_t bits = 0;
#define MIP_ALLOCATOR(id, NAME, text, frees, c, hook, ptr, size, factor)      \
  if ((strlen(text) == n && strncmp(name, text, n) == 0) ||                    \
      (!(frees) && (c) && n == 1 && strncmp(name, "c", 1) == 0) ||             \
      (!(frees) && !(c) && n == 3 && strncmp(name, "c++", 3) == 0))            \
    bits |= 1ull << (id);
#include "mip/allocators.inc"
#undef MIP_ALLOCATOR
  return bits;
}

int report_filter_compile(struct report_filter *f, char *why, size_t size) {
  for (const char *at = f->alloc; at && *at;) {
    size_t n = strcspn(at, ",");
    uint64_t bits = allocators_named(at, n);
    if (!bits) {
      snprintf(why, size, "--alloc: unknown allocator '%.*s'", (int)n, at);
      return -1;
    }
    f->allocators |= bits;
    at += n + (at[n] == ',');
  }
  if (f->min_size > f->max_size) {
    snprintf(why, size, "--min-size is above --max-size");
    return -1;
  }
  if (f->frame) {
    int rc = regcomp(&f->regex, f->frame, REG_EXTENDED | REG_NOSUB);
    if (rc) {
      char text[128];
      regerror(rc, &f->regex, text, sizeof text);
      snprintf(why, size, "--frame: bad regular expression '%s' (%s)",
               f->frame, text);
      return -1;
    }
    f->compiled = 1;
  }
  return 0;
}

static int matches(const regex_t *re, const char *s) {
  return s && *s && regexec(re, s, 0, NULL, 0) == 0;
}

static int frame_matches(const struct report *r, const struct report_context *c,
                         const regex_t *re) {
  for (uint32_t i = 0; i < c->depth; i++) {
    const struct report_frame *f = &r->frames[c->stack[i]];
    if (matches(re, f->function) || matches(re, f->demangled) ||
        matches(re, f->file))
      return 1;
  }
  return 0;
}

static int kept(const struct report *r, const struct report_filter *f,
                const struct report_context *c) {
  const uint64_t *v = c->mib.v;
  if (f->allocators && (!c->site || c->site->allocator >= 64 ||
                        !(f->allocators >> c->site->allocator & 1)))
    return 0;
  if ((f->min_size && v[MIP_MIBI_MinSize] < f->min_size) ||
      v[MIP_MIBI_MaxSize] > f->max_size)
    return 0;
  if (f->live && !v[MIP_MIBI_LiveAtExitCount])
    return 0;
  return !f->compiled || frame_matches(r, c, &f->regex);
}

void report_filter_apply(struct report *r, const struct report_filter *f) {
  if (!report_filter_active(f))
    return;
  uint8_t *keep = mip_xcalloc(r->context_count + 1, 1);
  for (size_t i = 0; i < r->context_count; i++)
    keep[i] = (uint8_t)kept(r, f, &r->contexts[i]);
  report_keep_contexts(r, keep);
  free(keep);
}

void report_filter_free(struct report_filter *f) {
  if (f->compiled)
    regfree(&f->regex);
  f->compiled = 0;
}
