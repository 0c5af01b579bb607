/* The report model's entities in YAML and JSON (report_emit.h). */
#include "report_emit.h"

/* ---- layouts ---------------------------------------------------------- */

#define LAYOUT(name, ...)                                                     \
  static const struct report_member name##_members[] = {__VA_ARGS__,         \
                                                        {0, NULL}}

LAYOUT(profile_json, {PROFILE_PATH, "profile"}, {PROFILE_BUILD_ID, "build_id"},
       {PROFILE_RUNS, "runs"});
LAYOUT(profile_memprof, {PROFILE_PATH, "Profile"},
       {PROFILE_BUILD_ID, "BuildId"}, {PROFILE_RUNS, "Runs"});
LAYOUT(function_show, {FN_NAME, "name"}, {FN_DEMANGLED, "demangled"},
       {FN_LOCAL, "local"}, {FN_UNIT, "unit"}, {FN_COVERED, "covered"},
       {FN_COVERED_RUNS, "covered_runs"}, {FN_FILE, "file"},
       {FN_LINE, "line"}, {FN_CALLS, "calls"}, {FN_ORDER, "order"},
       {FN_ORDER_RUNS, "order_runs"}, {FN_BLOCKS, "blocks"});
LAYOUT(function_annotate, {FN_NAME, "name"}, {FN_DEMANGLED, "demangled"},
       {FN_DECISION, "decision"}, {FN_LOCAL, "local"}, {FN_UNIT, "unit"},
       {FN_CALLS, "calls"}, {FN_COVERED_RUNS, "covered_runs"},
       {FN_FILE, "file"}, {FN_LINE, "line"});
LAYOUT(frame_json, {FRAME_FUNCTION, "function"},
       {FRAME_DEMANGLED, "demangled"}, {FRAME_FILE, "file"},
       {FRAME_LINE, "line"}, {FRAME_COLUMN, "column"},
       {FRAME_INLINED, "inlined"}, {FRAME_OUTSIDE, "outside"},
       {FRAME_OBJECT, "object"});
LAYOUT(frame_memprof, {FRAME_FUNCTION, "Function"}, {FRAME_FILE_TEXT, "File"},
       {FRAME_LINE, "Line"}, {FRAME_COLUMN, "Column"},
       {FRAME_INLINED, "IsInlineFrame"}, {FRAME_OUTSIDE, "IsOutside"},
       {FRAME_OBJECT, "Object"});
LAYOUT(site_show, {SITE_FUNCTION, "function"}, {SITE_DEMANGLED, "demangled"},
       {SITE_FILE, "file"}, {SITE_LINE, "line"}, {SITE_COLUMN, "column"},
       {SITE_ALLOCATOR, "allocator"},
       {SITE_INSTRUMENTED, "instrumented_function"});
LAYOUT(site_memprof, {SITE_FUNCTION, "Function"}, {SITE_FILE_TEXT, "File"},
       {SITE_LINE, "Line"}, {SITE_COLUMN, "Column"},
       {SITE_ALLOCATOR, "Allocator"});
LAYOUT(site_annotate, {SITE_INDEX, "site"}, {SITE_ALLOCATOR, "allocator"},
       {SITE_FILE, "file"}, {SITE_LINE, "line"}, {SITE_COLUMN, "column"},
       {SITE_FUNCTION, "function"}, {SITE_DEMANGLED, "demangled"},
       {SITE_INSTRUMENTED, "instrumented_function"}, {SITE_CLASS, "class"},
       {SITE_MIXED, "mixed"}, {SITE_CONTEXT_CLASSES, "context_classes"},
       {SITE_ALLOCS, "allocations"}, {SITE_BYTES, "bytes"},
       {SITE_LIFETIME, "lifetime"}, {SITE_DENSITY, "density"},
       {SITE_CONTEXTS, "contexts"});
LAYOUT(context_show, {CTX_FRAMES, "frames"}, {CTX_TRUNCATED, "truncated"},
       {CTX_SITE, "site"}, {CTX_MIB, ""});
LAYOUT(context_memprof, {CTX_FRAMES, "Callstack"},
       {CTX_TRUNCATED, "Truncated"}, {CTX_SITE, "Site"},
       {CTX_MIB_OBJECT, "MemInfoBlock"});
LAYOUT(context_annotate, {CTX_CLASS, "class"}, {CTX_ALLOCS, "allocations"},
       {CTX_BYTES, "bytes"}, {CTX_LIFETIME, "lifetime"},
       {CTX_DENSITY, "density"}, {CTX_TRUNCATED, "truncated"},
       {CTX_FRAMES, "frames"});
LAYOUT(stats_json, {STAT_UNSEEN_FREES, "unseen_frees"},
       {STAT_FREED_UNSEEN, "freed_unseen"},
       {STAT_TRUNCATED_STACKS, "truncated_stacks"}, {STAT_DROPPED, "dropped"},
       {STAT_STACK_DEPTH, "stack_depth"},
       {STAT_UNINTERPOSED_RUNS, "uninterposed_runs"},
       {STAT_LIVE_UNINTERPOSED, "live_uninterposed"},
       {STAT_UNKNOWN_LIFETIMES, "unknown_lifetimes"}, {STAT_BLOCKS, "blocks"},
       {STAT_SAMPLE_BYTES, "sample_bytes"},
       {STAT_RECORDED_BLOCKS, "recorded_blocks"},
       {STAT_UNCOUNTED, "uncounted_units"});
LAYOUT(stats_memprof, {STAT_UNSEEN_FREES, "UnseenFrees"},
       {STAT_FREED_UNSEEN, "FreedUnseen"},
       {STAT_TRUNCATED_STACKS, "TruncatedStacks"}, {STAT_DROPPED, "Dropped"},
       {STAT_STACK_DEPTH, "StackDepth"},
       {STAT_UNINTERPOSED_RUNS, "UninterposedRuns"},
       {STAT_LIVE_UNINTERPOSED, "LiveUninterposed"},
       {STAT_UNKNOWN_LIFETIMES, "UnknownLifetimes"}, {STAT_BLOCKS, "Blocks"},
       {STAT_SAMPLE_BYTES, "SampleBytes"},
       {STAT_RECORDED_BLOCKS, "RecordedBlocks"},
       {STAT_UNCOUNTED, "UncountedUnits"});

const struct report_layout report_profile_json = {
    .members = profile_json_members};
const struct report_layout report_profile_memprof = {
    .members = profile_memprof_members};
const struct report_layout report_function_show = {
    .members = function_show_members};
const struct report_layout report_function_annotate = {
    .members = function_annotate_members};
const struct report_layout report_frame_json = {.members = frame_json_members};
const struct report_layout report_frame_memprof = {
    .members = frame_memprof_members};
const struct report_layout report_site_show = {.members = site_show_members};
const struct report_layout report_site_memprof = {
    .members = site_memprof_members};
const struct report_layout report_context_show = {
    .members = context_show_members,
    .frame = &report_frame_json,
    .site = &report_site_show};
const struct report_layout report_context_memprof = {
    .members = context_memprof_members,
    .frame = &report_frame_memprof,
    .site = &report_site_memprof};
const struct report_layout report_context_annotate = {
    .members = context_annotate_members, .frame = &report_frame_json};
const struct report_layout report_site_annotate = {
    .members = site_annotate_members, .context = &report_context_annotate};
const struct report_layout report_stats_json = {.members = stats_json_members};
const struct report_layout report_stats_memprof = {
    .members = stats_memprof_members};

/* ---- values ------------------------------------------------------------- */

static void u64_or_null(struct emitter *e, const char *key, int known,
                        uint64_t value) {
  if (known)
    emit_u64(e, key, value);
  else
    emit_null(e, key);
}

static void blocks(struct emitter *e, const char *key,
                   const struct report_function *f) {
  if (!f->block_count) {
    emit_null(e, key);
    return;
  }
  emit_array_begin(e, key);
  for (uint32_t i = 0; i < f->block_count; i++) {
    const struct mip_block *b = &f->blocks[i];
    emit_object_begin(e, NULL);
    emit_u64(e, "index", i);
    u64_or_null(e, "line", b->line != 0, b->line);
    emit_bool(e, "covered", b->covered_runs > 0);
    emit_u64(e, "covered_runs", b->covered_runs);
    emit_bool(e, "probed", b->probe != MIP_PROBE_NONE);
    emit_object_end(e);
  }
  emit_array_end(e);
}

static void function_member(struct emitter *e, const char *key,
                            const struct report_function *f,
                            enum report_field field) {
  switch (field) {
  case FN_NAME:
    emit_string(e, key, f->name);
    break;
  case FN_DEMANGLED:
    emit_string(e, key, f->demangled);
    break;
  case FN_DECISION:
    emit_string(e, key, mip_temperature_name(f->temperature));
    break;
  case FN_LOCAL:
    emit_bool(e, key, f->unit != NULL);
    break;
  case FN_UNIT:
    emit_string_or_null(e, key, f->unit);
    break;
  case FN_COVERED:
    emit_bool(e, key, f->runs > 0);
    break;
  case FN_COVERED_RUNS:
    emit_u64(e, key, f->runs);
    break;
  case FN_FILE:
    emit_string_or_null(e, key, f->file);
    break;
  case FN_LINE:
    u64_or_null(e, key, f->file != NULL, f->line);
    break;
  case FN_CALLS:
    u64_or_null(e, key, f->counted, f->calls);
    break;
  case FN_ORDER:
    if (f->ranked)
      emit_double(e, key, f->order);
    else
      emit_null(e, key);
    break;
  case FN_ORDER_RUNS:
    emit_u64(e, key, f->order_runs);
    break;
  case FN_BLOCKS:
    blocks(e, key, f);
    break;
  default:
    break;
  }
}

static void frame_member(struct emitter *e, const char *key,
                         const struct report_frame *f,
                         enum report_field field) {
  switch (field) {
  case FRAME_FUNCTION:
    emit_string(e, key, f->function);
    break;
  case FRAME_DEMANGLED:
    emit_string(e, key, f->demangled);
    break;
  case FRAME_FILE:
    emit_string_or_null(e, key, f->file);
    break;
  case FRAME_FILE_TEXT:
    emit_string(e, key, f->file ? f->file : "");
    break;
  case FRAME_LINE:
    emit_u64(e, key, f->line);
    break;
  case FRAME_COLUMN:
    emit_u64(e, key, f->column);
    break;
  case FRAME_INLINED:
    emit_bool(e, key, f->inlined);
    break;
  case FRAME_OUTSIDE:
    emit_bool(e, key, f->outside);
    break;
  case FRAME_OBJECT:
    emit_string_or_null(e, key, report_frame_object(f));
    break;
  default:
    break;
  }
}

static void stats(struct emitter *e, const struct mip_alloc_stats *s,
                  const char *key, enum report_field field) {
  if (field == SITE_ALLOCS || field == CTX_ALLOCS)
    emit_u64(e, key, s->allocs);
  else if (field == SITE_BYTES || field == CTX_BYTES)
    emit_u64(e, key, s->bytes);
  else if (field == SITE_LIFETIME || field == CTX_LIFETIME)
    emit_double(e, key, s->lifetime);
  else
    emit_double(e, key, s->density);
}

static void context_classes(struct emitter *e, const char *key,
                            const struct report_site *s) {
  emit_object_begin(e, key);
  for (int k = 0; k < MIP_CLASS_COUNT; k++)
    emit_u64(e, mip_alloc_class_name((enum mip_alloc_class)k),
             s->decision.contexts[k]);
  emit_object_end(e);
}

static void site_contexts(struct emitter *e, const char *key,
                          const struct report *r, const struct report_site *s,
                          const struct report_layout *l) {
  struct report_context_iter it;
  report_contexts_begin(&it, r, s, REPORT_BY_BYTES);
  emit_array_begin(e, key);
  for (const struct report_context *c; (c = report_contexts_next(&it));)
    if (c->stats.allocs)
      report_emit_context(e, NULL, r, c, l);
  emit_array_end(e);
  report_contexts_end(&it);
}

static void site_member(struct emitter *e, const char *key,
                        const struct report *r, const struct report_site *s,
                        enum report_field field,
                        const struct report_layout *l) {
  switch (field) {
  case SITE_INDEX:
    emit_u64(e, key, s->index);
    break;
  case SITE_FUNCTION:
    emit_string(e, key, s->function);
    break;
  case SITE_DEMANGLED:
    emit_string(e, key, s->demangled);
    break;
  case SITE_FILE:
    emit_string_or_null(e, key, s->file);
    break;
  case SITE_FILE_TEXT:
    emit_string(e, key, s->file ? s->file : "");
    break;
  case SITE_LINE:
    emit_u64(e, key, s->line);
    break;
  case SITE_COLUMN:
    emit_u64(e, key, s->column);
    break;
  case SITE_ALLOCATOR:
    emit_string(e, key, s->allocator_name);
    break;
  case SITE_INSTRUMENTED:
    emit_string(e, key, s->instrumented->name);
    break;
  case SITE_CLASS:
    emit_string(e, key, mip_alloc_class_name(s->decision.alloc_class));
    break;
  case SITE_MIXED:
    emit_bool(e, key, s->decision.mixed);
    break;
  case SITE_CONTEXT_CLASSES:
    context_classes(e, key, s);
    break;
  case SITE_ALLOCS:
  case SITE_BYTES:
  case SITE_LIFETIME:
  case SITE_DENSITY:
    stats(e, &s->decision.total, key, field);
    break;
  case SITE_CONTEXTS:
    site_contexts(e, key, r, s, l->context);
    break;
  default:
    break;
  }
}

static void mib(struct emitter *e, const struct mip_mib *m) {
  for (int i = 0; i < MIP_MIB_COUNT; i++)
    emit_u64(e, mip_mib_defs[i].name, m->v[i]);
}

static void frames(struct emitter *e, const char *key, const struct report *r,
                   const struct report_context *c,
                   const struct report_layout *l) {
  struct report_frame_iter it;
  report_frames_begin(&it, r, c, REPORT_LEAF_FIRST);
  emit_array_begin(e, key);
  for (const struct report_frame *f; (f = report_frames_next(&it));)
    report_emit_frame(e, NULL, r, f, l);
  emit_array_end(e);
}

static void context_member(struct emitter *e, const char *key,
                           const struct report *r,
                           const struct report_context *c,
                           enum report_field field,
                           const struct report_layout *l) {
  switch (field) {
  case CTX_FRAMES:
    frames(e, key, r, c, l->frame);
    break;
  case CTX_TRUNCATED:
    emit_bool(e, key, c->truncated);
    break;
  case CTX_SITE:
    report_emit_site(e, key, r, c->site, l->site);
    break;
  case CTX_MIB:
    mib(e, &c->mib);
    break;
  case CTX_MIB_OBJECT:
    emit_object_begin(e, key);
    mib(e, &c->mib);
    emit_object_end(e);
    break;
  case CTX_CLASS:
    emit_string(e, key, mip_alloc_class_name(c->alloc_class));
    break;
  case CTX_ALLOCS:
  case CTX_BYTES:
  case CTX_LIFETIME:
  case CTX_DENSITY:
    stats(e, &c->stats, key, field);
    break;
  default:
    break;
  }
}

static uint64_t stat(const struct report_stats *s, enum report_field field) {
  switch (field) {
  case STAT_UNSEEN_FREES:
    return s->heap.unseen_frees;
  case STAT_FREED_UNSEEN:
    return s->heap.freed_unseen;
  case STAT_TRUNCATED_STACKS:
    return s->heap.truncated_stacks;
  case STAT_DROPPED:
    return s->heap.dropped;
  case STAT_STACK_DEPTH:
    return s->heap.stack_depth;
  case STAT_UNINTERPOSED_RUNS:
    return s->heap.uninterposed;
  case STAT_LIVE_UNINTERPOSED:
    return s->heap.live_uninterposed;
  case STAT_UNKNOWN_LIFETIMES:
    return s->unknown_lifetimes;
  case STAT_SAMPLE_BYTES:
    return s->heap.sample_bytes;
  case STAT_RECORDED_BLOCKS:
    return s->heap.sample_bytes ? s->recorded_blocks : s->blocks;
  case STAT_UNCOUNTED:
    return s->heap.uncounted;
  default:
    return s->blocks;
  }
}

/* ---- entities ------------------------------------------------------------ */

void report_emit_profile(struct emitter *e, const struct report *r,
                         const struct report_layout *l) {
  for (const struct report_member *m = l->members; m->key; m++)
    if (m->field == PROFILE_RUNS)
      emit_u64(e, m->key, r->runs);
    else
      emit_string(e, m->key,
                  m->field == PROFILE_PATH ? r->path : r->build_id);
}

void report_emit_function(struct emitter *e, const char *key,
                          const struct report *r,
                          const struct report_function *f,
                          const struct report_layout *l) {
  (void)r;
  emit_object_begin(e, key);
  for (const struct report_member *m = l->members; m->key; m++)
    function_member(e, m->key, f, m->field);
  emit_object_end(e);
}

void report_emit_frame(struct emitter *e, const char *key,
                       const struct report *r, const struct report_frame *f,
                       const struct report_layout *l) {
  (void)r;
  emit_object_begin(e, key);
  for (const struct report_member *m = l->members; m->key; m++)
    frame_member(e, m->key, f, m->field);
  emit_object_end(e);
}

void report_emit_site(struct emitter *e, const char *key,
                      const struct report *r, const struct report_site *s,
                      const struct report_layout *l) {
  if (!s) {
    emit_null(e, key);
    return;
  }
  emit_object_begin(e, key);
  for (const struct report_member *m = l->members; m->key; m++)
    site_member(e, m->key, r, s, m->field, l);
  emit_object_end(e);
}

void report_emit_context(struct emitter *e, const char *key,
                         const struct report *r,
                         const struct report_context *c,
                         const struct report_layout *l) {
  emit_object_begin(e, key);
  for (const struct report_member *m = l->members; m->key; m++)
    context_member(e, m->key, r, c, m->field, l);
  emit_object_end(e);
}

const struct report_timeline_keys report_timeline_json = {
    "heap_peak", "heap_peaks", "heap_timeline", "bytes", "blocks",
    "event", "events", "interval", "ms"};
const struct report_timeline_keys report_timeline_memprof = {
    "HeapPeak", "HeapPeaks", "HeapTimeline", "Bytes", "Blocks",
    "Event", "Events", "Interval", "Ms"};

static void emit_peak(struct emitter *e, const char *key,
                      const struct mip_heap_peak *p,
                      const struct report_timeline_keys *k) {
  emit_object_begin(e, key);
  emit_u64(e, k->bytes, p->bytes);
  emit_u64(e, k->blocks, p->blocks);
  emit_u64(e, k->ms, p->ms);
  emit_u64(e, k->event, p->event);
  emit_u64(e, k->events, p->events);
  emit_u64(e, k->interval, p->interval);
  emit_object_end(e);
}

void report_emit_timeline(struct emitter *e, const struct report *r,
                          const struct report_timeline_keys *k) {
  const struct mip_profile *p = &r->profile;
  if (!p->heap_peak_count) {
    emit_null(e, k->peak);
    emit_null(e, k->peaks);
    emit_null(e, k->timeline);
    return;
  }
  emit_peak(e, k->peak, &p->heap_peaks[0], k);
  emit_array_begin(e, k->peaks);
  for (size_t i = 0; i < p->heap_peak_count; i++)
    emit_peak(e, NULL, &p->heap_peaks[i], k);
  emit_array_end(e);
  emit_array_begin(e, k->timeline);
  for (size_t i = 0; i < p->heap_point_count; i++) {
    const struct mip_heap_point *q = &p->heap_points[i];
    emit_object_begin(e, NULL);
    emit_u64(e, k->event, q->event);
    emit_u64(e, k->ms, q->ms);
    emit_u64(e, k->bytes, q->bytes);
    emit_u64(e, k->blocks, q->blocks);
    emit_object_end(e);
  }
  emit_array_end(e);
}

void report_emit_stats(struct emitter *e, const char *key,
                       const struct report *r, const struct report_layout *l) {
  if (!r->has_heap) {
    emit_null(e, key);
    return;
  }
  emit_object_begin(e, key);
  for (const struct report_member *m = l->members; m->key; m++)
    emit_u64(e, m->key, stat(&r->stats, m->field));
  emit_object_end(e);
}
