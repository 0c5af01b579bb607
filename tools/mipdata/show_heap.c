/*
 * mipdata show --heap: every allocation context with its frames (leaf
 * first) and its MemInfoBlock, the largest first (TotalSize, or
 * AllocCount with --sort count). Text for people; JSON as documented in
 * docs/formats.md; YAML shaped like `llvm-profdata show --memory`
 * (HeapProfileRecords, AllocSites, Callstack, MemInfoBlock).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "frame_text.h"
#include "show_heap.h"

static const char *allocator_text(uint32_t allocator, char *buf, size_t size) {
  const char *name = mip_allocator_name(allocator);
  if (name)
    return name;
  snprintf(buf, size, "allocator %" PRIu32, allocator);
  return buf;
}

static uint64_t mib(const struct mip_heap_context *c, int field) {
  return c->mib.v[field];
}

/* ---- order ---------------------------------------------------------- */

struct sort_ctx {
  const struct mip_profile *p;
  int field;
};

static int larger_first(const void *a, const void *b, void *arg) {
  const struct sort_ctx *s = arg;
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  uint64_t vx = mib(&s->p->heap_contexts[x], s->field);
  uint64_t vy = mib(&s->p->heap_contexts[y], s->field);
  if (vx != vy)
    return vx > vy ? -1 : 1;
  return (x > y) - (x < y);
}

static size_t *ordered(const struct mip_profile *p, enum heap_order order) {
  size_t n = p->heap_context_count;
  size_t *index = mip_xcalloc(n, sizeof *index);
  for (size_t i = 0; i < n; i++)
    index[i] = i;
  struct sort_ctx s = {p, order == HEAP_BY_COUNT ? MIP_MIBI_AllocCount
                                                 : MIP_MIBI_TotalSize};
  if (n)
    qsort_r(index, n, sizeof *index, larger_first, &s);
  return index;
}

static const struct mip_heap_frame *frame(const struct mip_profile *p,
                                          const struct mip_heap_context *c,
                                          uint32_t k) {
  return &p->heap_frames[p->heap_stack[c->first_frame + k]];
}

static const char *str(const struct mip_profile *p, uint32_t offset) {
  return mip_profile_string(p, offset);
}

/* The object a frame's code is in, NULL for the profile's image. */
static const char *frame_object(const struct mip_profile *p,
                                const struct mip_heap_frame *f) {
  if (f->flags & MIP_FRAME_OUTSIDE)
    return str(p, f->function);
  return f->object ? str(p, f->object) : NULL;
}

/* Blocks whose death MIP could not see (docs/heap.md, "Lifetimes"):
 * closed as freed unseen, or live at the end of a run whose frees by
 * uninstrumented code went unseen; *blocks: all blocks. */
static uint64_t unknown_lifetimes(const struct mip_profile *p,
                                  uint64_t *blocks) {
  *blocks = 0;
  for (size_t i = 0; i < p->heap_context_count; i++)
    *blocks += mib(&p->heap_contexts[i], MIP_MIBI_AllocCount);
  const struct mip_heap_stats *s = &p->heap_stats;
  uint64_t lost = s->freed_unseen + s->live_uninterposed;
  if (lost > *blocks)
    *blocks = lost;
  return lost;
}

/* ---- JSON ------------------------------------------------------------- */

static void json_frames(struct emitter *e, const struct mip_profile *p,
                        const struct mip_heap_context *c) {
  emit_array_begin(e, "frames");
  for (uint32_t k = 0; k < c->frame_count; k++) {
    const struct mip_heap_frame *f = frame(p, c, k);
    char *demangled = demangle(str(p, f->function));
    emit_object_begin(e, NULL);
    emit_string(e, "function", str(p, f->function));
    emit_string(e, "demangled", demangled);
    emit_string_or_null(e, "file", f->file ? str(p, f->file) : NULL);
    emit_u64(e, "line", f->line);
    emit_u64(e, "column", f->column);
    emit_bool(e, "inlined", (f->flags & MIP_FRAME_INLINED) != 0);
    emit_bool(e, "outside", (f->flags & MIP_FRAME_OUTSIDE) != 0);
    emit_string_or_null(e, "object", frame_object(p, f));
    emit_object_end(e);
    free(demangled);
  }
  emit_array_end(e);
}

static void json_site(struct emitter *e, const struct mip_profile *p,
                      uint32_t site) {
  if (site == MIP_NO_SITE) {
    emit_null(e, "site");
    return;
  }
  const struct mip_heap_site *s = &p->heap_sites[site];
  char buf[32];
  char *demangled = demangle(str(p, s->name));
  emit_object_begin(e, "site");
  emit_string(e, "function", str(p, s->name));
  emit_string(e, "demangled", demangled);
  emit_string_or_null(e, "file", s->file ? str(p, s->file) : NULL);
  emit_u64(e, "line", s->line);
  emit_u64(e, "column", s->column);
  emit_string(e, "allocator", allocator_text(s->allocator, buf, sizeof buf));
  emit_string(e, "instrumented_function",
              str(p, p->functions[s->function].name));
  emit_object_end(e);
  free(demangled);
}

static void emit_mib(struct emitter *e, const struct mip_heap_context *c) {
  for (int i = 0; i < MIP_MIB_COUNT; i++)
    emit_u64(e, mip_mib_defs[i].name, mib(c, i));
}

static void json_stats(struct emitter *e, const struct mip_profile *p) {
  if (!p->has_heap) {
    emit_null(e, "heap_stats");
    return;
  }
  const struct mip_heap_stats *s = &p->heap_stats;
  emit_object_begin(e, "heap_stats");
  emit_u64(e, "unseen_frees", s->unseen_frees);
  emit_u64(e, "freed_unseen", s->freed_unseen);
  emit_u64(e, "truncated_stacks", s->truncated_stacks);
  emit_u64(e, "dropped", s->dropped);
  emit_u64(e, "stack_depth", s->stack_depth);
  emit_u64(e, "uninterposed_runs", s->uninterposed);
  emit_u64(e, "live_uninterposed", s->live_uninterposed);
  uint64_t blocks, lost = unknown_lifetimes(p, &blocks);
  emit_u64(e, "unknown_lifetimes", lost);
  emit_u64(e, "blocks", blocks);
  emit_object_end(e);
}

static void show_json(const char *path, const struct mip_profile *p,
                      const size_t *order) {
  char id[2 * MIP_BUILD_ID_MAX + 1];
  struct emitter e;
  emit_begin(&e, stdout, EMIT_JSON);
  emit_string(&e, "profile", path);
  emit_string(&e, "build_id", mip_build_id_hex(&p->build_id, id, sizeof id));
  emit_u64(&e, "runs", p->runs);
  json_stats(&e, p);
  if (!p->has_heap) {
    emit_null(&e, "heap");
  } else {
    emit_array_begin(&e, "heap");
    for (size_t i = 0; i < p->heap_context_count; i++) {
      const struct mip_heap_context *c = &p->heap_contexts[order[i]];
      emit_object_begin(&e, NULL);
      json_frames(&e, p, c);
      emit_bool(&e, "truncated", (c->flags & MIP_CONTEXT_TRUNCATED) != 0);
      json_site(&e, p, c->site);
      emit_mib(&e, c);
      emit_object_end(&e);
    }
    emit_array_end(&e);
  }
  emit_end(&e);
}

/* ---- YAML, in llvm-profdata's shape ----------------------------------- */

static uint32_t leaf_function(const struct mip_profile *p,
                              const struct mip_heap_context *c) {
  return c->frame_count ? frame(p, c, 0)->function : 0;
}

static void yaml_site(struct emitter *e, const struct mip_profile *p,
                      uint32_t site) {
  if (site == MIP_NO_SITE) {
    emit_null(e, "Site");
    return;
  }
  const struct mip_heap_site *s = &p->heap_sites[site];
  char buf[32];
  emit_object_begin(e, "Site");
  emit_string(e, "Function", str(p, s->name));
  emit_string(e, "File", str(p, s->file));
  emit_u64(e, "Line", s->line);
  emit_u64(e, "Column", s->column);
  emit_string(e, "Allocator", allocator_text(s->allocator, buf, sizeof buf));
  emit_object_end(e);
}

static void yaml_alloc_site(struct emitter *e, const struct mip_profile *p,
                            const struct mip_heap_context *c) {
  emit_object_begin(e, NULL);
  emit_array_begin(e, "Callstack");
  for (uint32_t k = 0; k < c->frame_count; k++) {
    const struct mip_heap_frame *f = frame(p, c, k);
    emit_object_begin(e, NULL);
    emit_string(e, "Function", str(p, f->function));
    emit_string(e, "File", str(p, f->file));
    emit_u64(e, "Line", f->line);
    emit_u64(e, "Column", f->column);
    emit_bool(e, "IsInlineFrame", (f->flags & MIP_FRAME_INLINED) != 0);
    emit_bool(e, "IsOutside", (f->flags & MIP_FRAME_OUTSIDE) != 0);
    emit_string_or_null(e, "Object", frame_object(p, f));
    emit_object_end(e);
  }
  emit_array_end(e);
  emit_bool(e, "Truncated", (c->flags & MIP_CONTEXT_TRUNCATED) != 0);
  yaml_site(e, p, c->site);
  emit_object_begin(e, "MemInfoBlock");
  emit_mib(e, c);
  emit_object_end(e);
  emit_object_end(e);
}

/* One record per leaf function (the function the allocation is in), in
 * the order of its first context; its contexts in order. */
static void show_yaml(const char *path, const struct mip_profile *p,
                      const size_t *order) {
  char id[2 * MIP_BUILD_ID_MAX + 1];
  struct emitter e;
  emit_begin(&e, stdout, EMIT_YAML);
  emit_string(&e, "Profile", path);
  emit_string(&e, "BuildId", mip_build_id_hex(&p->build_id, id, sizeof id));
  emit_u64(&e, "Runs", p->runs);
  if (!p->has_heap) {
    emit_null(&e, "HeapStats");
    emit_null(&e, "HeapProfileRecords");
    emit_end(&e);
    return;
  }
  const struct mip_heap_stats *s = &p->heap_stats;
  emit_object_begin(&e, "HeapStats");
  emit_u64(&e, "UnseenFrees", s->unseen_frees);
  emit_u64(&e, "FreedUnseen", s->freed_unseen);
  emit_u64(&e, "TruncatedStacks", s->truncated_stacks);
  emit_u64(&e, "Dropped", s->dropped);
  emit_u64(&e, "StackDepth", s->stack_depth);
  emit_u64(&e, "UninterposedRuns", s->uninterposed);
  emit_u64(&e, "LiveUninterposed", s->live_uninterposed);
  uint64_t blocks, lost = unknown_lifetimes(p, &blocks);
  emit_u64(&e, "UnknownLifetimes", lost);
  emit_u64(&e, "Blocks", blocks);
  emit_object_end(&e);
  size_t n = p->heap_context_count;
  uint8_t *done = mip_xcalloc(n, 1);
  emit_array_begin(&e, "HeapProfileRecords");
  for (size_t i = 0; i < n; i++) {
    if (done[i])
      continue;
    uint32_t leaf = leaf_function(p, &p->heap_contexts[order[i]]);
    emit_object_begin(&e, NULL);
    emit_string(&e, "Function", str(p, leaf));
    emit_array_begin(&e, "AllocSites");
    for (size_t j = i; j < n; j++)
      if (!done[j] && leaf_function(p, &p->heap_contexts[order[j]]) == leaf) {
        done[j] = 1;
        yaml_alloc_site(&e, p, &p->heap_contexts[order[j]]);
      }
    emit_array_end(&e);
    emit_object_end(&e);
  }
  emit_array_end(&e);
  free(done);
  emit_end(&e);
}

/* ---- text -------------------------------------------------------------- */

/* What the runtime said on stderr, when it concerns
 * MIP_HEAP_LOSS_PERCENT of the blocks or more. */
static void text_unknown_lifetimes(const struct mip_profile *p) {
  const struct mip_heap_stats *s = &p->heap_stats;
  uint64_t blocks, lost = unknown_lifetimes(p, &blocks);
  if (!lost || lost * 100 < blocks * MIP_HEAP_LOSS_PERCENT)
    return;
  printf("Lifetimes: %" PRIu64 " of %" PRIu64 " blocks (%" PRIu64
         "%%) were freed where MIP could not see it%s: their lifetimes are "
         "unknown (",
         lost, blocks, (lost * 100 + blocks / 2) / blocks,
         s->uninterposed ? " or are still live" : "");
  if (s->uninterposed)
    printf("frees by code MIP did not instrument went unseen in %" PRIu64
           " of %" PRIu64 " run%s)\n",
           s->uninterposed, p->runs, p->runs == 1 ? "" : "s");
  else
    printf("a free MIP cannot redirect: through a pointer from "
           "dlsym(RTLD_DEFAULT or RTLD_NEXT) or copied before the library "
           "was loaded, or in statically linked code)\n");
}

static void text_frames(const struct mip_profile *p,
                        const struct mip_heap_context *c) {
  struct frame_text *frames =
      mip_xcalloc(c->frame_count ? c->frame_count : 1, sizeof *frames);
  for (uint32_t k = 0; k < c->frame_count; k++) {
    const struct mip_heap_frame *f = frame(p, c, k);
    frames[k] = (struct frame_text){str(p, f->function), str(p, f->file),
                                    f->line,             f->column,
                                    f->flags,            str(p, f->object)};
  }
  frame_text_print(stdout, "    ", frames, c->frame_count);
  if (c->flags & MIP_CONTEXT_TRUNCATED)
    puts("    ... (stack truncated)");
  free(frames);
}

static void text_context(const struct mip_profile *p,
                         const struct mip_heap_context *c, size_t rank) {
  printf("#%zu  %" PRIu64 " bytes in %" PRIu64 " allocation%s (%" PRIu64
         " to %" PRIu64 " bytes)",
         rank, mib(c, MIP_MIBI_TotalSize), mib(c, MIP_MIBI_AllocCount),
         mib(c, MIP_MIBI_AllocCount) == 1 ? "" : "s", mib(c, MIP_MIBI_MinSize),
         mib(c, MIP_MIBI_MaxSize));
  if (c->site != MIP_NO_SITE) {
    const struct mip_heap_site *s = &p->heap_sites[c->site];
    char buf[32];
    printf(", %s ", allocator_text(s->allocator, buf, sizeof buf));
    if (s->file) {
      printf("at %s:%" PRIu32 ":%" PRIu32, str(p, s->file), s->line,
             s->column);
    } else { /* built without -g: the map knows its function only */
      char *name = demangle(str(p, p->functions[s->function].name));
      printf("in %s", name);
      free(name);
    }
  }
  printf("\n    accesses %" PRIu64 " (%" PRIu64 " to %" PRIu64
         " per block), lifetime %" PRIu64 " ms (%" PRIu64 " to %" PRIu64
         " ms per block)\n",
         mib(c, MIP_MIBI_TotalAccessCount), mib(c, MIP_MIBI_MinAccessCount),
         mib(c, MIP_MIBI_MaxAccessCount), mib(c, MIP_MIBI_TotalLifetime),
         mib(c, MIP_MIBI_MinLifetime), mib(c, MIP_MIBI_MaxLifetime));
  printf("    live at exit %" PRIu64 " (%" PRIu64 " bytes), peak live %" PRIu64
         " bytes, %" PRIu64 " reallocation%s\n",
         mib(c, MIP_MIBI_LiveAtExitCount), mib(c, MIP_MIBI_LiveAtExitSize),
         mib(c, MIP_MIBI_PeakLiveSize), mib(c, MIP_MIBI_ReallocCount),
         mib(c, MIP_MIBI_ReallocCount) == 1 ? "" : "s");
  text_frames(p, c);
}

static void show_text(const char *path, const struct mip_profile *p,
                      const size_t *order, enum heap_order by) {
  char id[2 * MIP_BUILD_ID_MAX + 1];
  printf("Profile %s: build-id %s, %" PRIu64 " run%s\n", path,
         mip_build_id_hex(&p->build_id, id, sizeof id), p->runs,
         p->runs == 1 ? "" : "s");
  if (!p->has_heap) {
    printf("No heap data: build with -fmip-generate=heap and merge its runs "
           "with --debug BINARY.\n");
    return;
  }
  uint64_t bytes = 0, count = 0, live = 0, live_bytes = 0;
  for (size_t i = 0; i < p->heap_context_count; i++) {
    const struct mip_heap_context *c = &p->heap_contexts[i];
    bytes += mib(c, MIP_MIBI_TotalSize);
    count += mib(c, MIP_MIBI_AllocCount);
    live += mib(c, MIP_MIBI_LiveAtExitCount);
    live_bytes += mib(c, MIP_MIBI_LiveAtExitSize);
  }
  const struct mip_heap_stats *s = &p->heap_stats;
  printf("Heap: %zu context%s, %" PRIu64 " bytes in %" PRIu64
         " allocations, %" PRIu64 " live at exit (%" PRIu64 " bytes)\n",
         p->heap_context_count, p->heap_context_count == 1 ? "" : "s", bytes,
         count, live, live_bytes);
  if (s->stack_depth)
    printf("Runtime: %" PRIu64 " unseen frees, %" PRIu64
           " freed unseen, %" PRIu64 " truncated stacks, %" PRIu64
           " dropped; stack depth limit %" PRIu64 "\n",
           s->unseen_frees, s->freed_unseen, s->truncated_stacks, s->dropped,
           s->stack_depth);
  else /* an image that did not own the process's heap state */
    printf("Runtime: %" PRIu64 " unseen frees in this image's code; the "
           "process's other statistics are in the profile of the image "
           "that owned its heap state\n",
           s->unseen_frees);
  text_unknown_lifetimes(p);
  printf("Contexts by %s:\n", by == HEAP_BY_COUNT ? "allocations" : "bytes");
  for (size_t i = 0; i < p->heap_context_count; i++) {
    putchar('\n');
    text_context(p, &p->heap_contexts[order[i]], i + 1);
  }
}

void show_heap(const char *path, const struct mip_profile *p,
               enum emit_format format, enum heap_order by) {
  size_t *order = ordered(p, by);
  if (format == EMIT_JSON)
    show_json(path, p, order);
  else if (format == EMIT_YAML)
    show_yaml(path, p, order);
  else
    show_text(path, p, order, by);
  free(order);
}
