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

#include "escape.h"
#include "heap_chart.h"
#include "report_emit.h"
#include "report_metric.h"
#include "report_text.h"
#include "show_heap.h"

#define CHART_WIDTH 64
#define CHART_HEIGHT 8

static uint64_t mib(const struct report_context *c, int field) {
  return c->mib.v[field];
}

/* ---- JSON ------------------------------------------------------------- */

static void show_json(const struct report *r, struct report_context_iter *it) {
  struct emitter e;
  emit_begin(&e, stdout, EMIT_JSON);
  report_emit_profile(&e, r, &report_profile_json);
  report_emit_stats(&e, "heap_stats", r, &report_stats_json);
  report_emit_timeline(&e, r, &report_timeline_json);
  if (!r->has_heap) {
    emit_null(&e, "heap");
  } else {
    emit_array_begin(&e, "heap");
    for (const struct report_context *c; (c = report_contexts_next(it));)
      report_emit_context(&e, NULL, r, c, &report_context_show);
    emit_array_end(&e);
  }
  emit_end(&e);
}

/* ---- YAML, in llvm-profdata's shape ----------------------------------- */

/* The function the allocation is in: the leaf frame's. */
static const char *leaf_function(const struct report *r,
                                 const struct report_context *c) {
  return c->depth ? r->frames[c->stack[0]].function : "";
}

/* One record per leaf function, in the order of its first context; its
 * contexts in order. */
static void yaml_records(struct emitter *e, const struct report *r,
                         const struct report_context_iter *it) {
  size_t n = it->count;
  uint8_t *done = mip_xcalloc(n + 1, 1);
  emit_array_begin(e, "HeapProfileRecords");
  for (size_t i = 0; i < n; i++) {
    if (done[i])
      continue;
    const char *leaf = leaf_function(r, &r->contexts[it->order[i]]);
    emit_object_begin(e, NULL);
    emit_string(e, "Function", leaf);
    emit_array_begin(e, "AllocSites");
    for (size_t j = i; j < n; j++) {
      const struct report_context *c = &r->contexts[it->order[j]];
      if (!done[j] && strcmp(leaf_function(r, c), leaf) == 0) {
        done[j] = 1;
        report_emit_context(e, NULL, r, c, &report_context_memprof);
      }
    }
    emit_array_end(e);
    emit_object_end(e);
  }
  emit_array_end(e);
  free(done);
}

static void show_yaml(const struct report *r,
                      const struct report_context_iter *it) {
  struct emitter e;
  emit_begin(&e, stdout, EMIT_YAML);
  report_emit_profile(&e, r, &report_profile_memprof);
  report_emit_stats(&e, "HeapStats", r, &report_stats_memprof);
  report_emit_timeline(&e, r, &report_timeline_memprof);
  if (r->has_heap)
    yaml_records(&e, r, it);
  else
    emit_null(&e, "HeapProfileRecords");
  emit_end(&e);
}

/* ---- text -------------------------------------------------------------- */

/* What the runtime said on stderr, when it concerns
 * MIP_HEAP_LOSS_PERCENT of the blocks or more. */
static void text_unknown_lifetimes(const struct report *r) {
  const struct mip_heap_stats *s = &r->stats.heap;
  uint64_t blocks = r->stats.blocks, lost = r->stats.unknown_lifetimes;
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
           s->uninterposed, r->runs, report_plural(r->runs));
  else
    printf("a free MIP cannot redirect: through a pointer from "
           "dlsym(RTLD_DEFAULT or RTLD_NEXT) or copied before the library "
           "was loaded, or in statically linked code)\n");
}

static void text_context(const struct report *r,
                         const struct report_context *c, size_t rank) {
  printf("#%zu  %" PRIu64 " bytes in %" PRIu64 " allocation%s (%" PRIu64
         " to %" PRIu64 " bytes)",
         rank, mib(c, MIP_MIBI_TotalSize), mib(c, MIP_MIBI_AllocCount),
         report_plural(mib(c, MIP_MIBI_AllocCount)), mib(c, MIP_MIBI_MinSize),
         mib(c, MIP_MIBI_MaxSize));
  const struct report_site *s = c->site;
  if (s && s->file) /* built without -g: the map knows its function only */
    printf(", %s at %s:%" PRIu32 ":%" PRIu32, text_safe(s->allocator_name),
           text_safe(s->file), s->line, s->column);
  else if (s)
    printf(", %s in %s", text_safe(s->allocator_name),
           text_safe(s->instrumented->demangled));
  if (report_metric_measured(r, REPORT_ACCESSES))
    printf("\n    accesses %" PRIu64 " (%" PRIu64 " to %" PRIu64
           " per block),",
           mib(c, MIP_MIBI_TotalAccessCount), mib(c, MIP_MIBI_MinAccessCount),
           mib(c, MIP_MIBI_MaxAccessCount));
  else
    printf("\n   ");
  printf(" lifetime %" PRIu64 " ms (%" PRIu64 " to %" PRIu64
         " ms per block)\n",
         mib(c, MIP_MIBI_TotalLifetime), mib(c, MIP_MIBI_MinLifetime),
         mib(c, MIP_MIBI_MaxLifetime));
  printf("    live at exit %" PRIu64 " (%" PRIu64 " bytes), peak live %" PRIu64
         " bytes, %" PRIu64 " reallocation%s\n",
         mib(c, MIP_MIBI_LiveAtExitCount), mib(c, MIP_MIBI_LiveAtExitSize),
         mib(c, MIP_MIBI_PeakLiveSize), mib(c, MIP_MIBI_ReallocCount),
         report_plural(mib(c, MIP_MIBI_ReallocCount)));
  if (r->profile.heap_peak_count)
    printf("    at the global peak %" PRIu64 " live (%" PRIu64 " bytes)\n",
           mib(c, MIP_MIBI_AtPeakCount), mib(c, MIP_MIBI_AtPeakSize));
  if (mib(c, MIP_MIBI_GhostFreeCount))
    printf("    %" PRIu64 " free%s of blocks never seen allocated\n",
           mib(c, MIP_MIBI_GhostFreeCount),
           report_plural(mib(c, MIP_MIBI_GhostFreeCount)));
  report_text_frames(stdout, "    ", r, c);
}

static void text_runtime(const struct report *r) {
  const struct mip_heap_stats *s = &r->stats.heap;
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
  text_unknown_lifetimes(r);
}

void heap_notes_text(FILE *out, const struct report *r) {
  uint64_t rate = r->stats.heap.sample_bytes;
  if (r->stats.heap.uncounted)
    fprintf(out,
            "Accesses: not counted (%" PRIu64 " unit%s built with "
            "-fmip-generate=heap-allocs): no access counts or densities\n",
            r->stats.heap.uncounted, report_plural(r->stats.heap.uncounted));
  if (!rate)
    return;
  fprintf(out,
          "Sampled: heap_sample=%" PRIu64 " (a block of n bytes recorded "
          "with chance 1 - exp(-n/%" PRIu64 ")): blocks, bytes and their "
          "sums are estimates from %" PRIu64 " recorded block%s\n",
          rate, rate, r->stats.recorded_blocks,
          report_plural(r->stats.recorded_blocks));
}

static void show_text(const struct report *r, struct report_context_iter *it,
                      enum heap_order by) {
  report_text_header(stdout, r);
  if (!r->has_heap) {
    printf("No heap data: %s.\n", report_no_heap_reason(r));
    return;
  }
  uint64_t bytes = 0, count = 0, live = 0, live_bytes = 0;
  for (size_t i = 0; i < r->context_count; i++) {
    const struct report_context *c = &r->contexts[i];
    bytes += mib(c, MIP_MIBI_TotalSize);
    count += mib(c, MIP_MIBI_AllocCount);
    live += mib(c, MIP_MIBI_LiveAtExitCount);
    live_bytes += mib(c, MIP_MIBI_LiveAtExitSize);
  }
  printf("Heap: %zu context%s, %" PRIu64 " bytes in %" PRIu64
         " allocations, %" PRIu64 " live at exit (%" PRIu64 " bytes)\n",
         r->context_count, report_plural(r->context_count), bytes, count, live,
         live_bytes);
  heap_notes_text(stdout, r);
  heap_peak_text(stdout, &r->profile);
  heap_chart_text(stdout, &r->profile, CHART_WIDTH, CHART_HEIGHT);
  text_runtime(r);
  printf("Contexts by %s:\n", by == HEAP_BY_COUNT ? "allocations" : "bytes");
  size_t rank = 0;
  for (const struct report_context *c; (c = report_contexts_next(it));) {
    putchar('\n');
    text_context(r, c, ++rank);
  }
}

void show_heap(const struct report *r, enum emit_format format,
               enum heap_order by) {
  struct report_context_iter it;
  report_contexts_begin(&it, r, NULL,
                        by == HEAP_BY_COUNT ? REPORT_BY_COUNT
                                            : REPORT_BY_BYTES);
  if (format == EMIT_JSON)
    show_json(r, &it);
  else if (format == EMIT_YAML)
    show_yaml(r, &it);
  else
    show_text(r, &it, by);
  report_contexts_end(&it);
}
