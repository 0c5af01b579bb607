/*
 * The report model's entities in YAML and JSON: one emitter per entity (a
 * function, a frame, a site, a context, the statistics), used by every
 * command that prints it. Documents print an entity with other keys or in
 * another order (show's, annotate's, and the YAML in the shape of
 * llvm-profdata's): a layout says which members, in which order, under
 * which keys; the emitter writes each member's value one way for all.
 */
#ifndef MIPDATA_REPORT_EMIT_H
#define MIPDATA_REPORT_EMIT_H

#include "emit.h"
#include "report.h"

enum report_field {
  /* the profile */
  PROFILE_PATH,     /* as given */
  PROFILE_BUILD_ID, /* hex, "(none)" */
  PROFILE_RUNS,     /* merged runs */
  /* functions */
  FN_NAME,         /* linkage name */
  FN_DEMANGLED,    /* demangled name */
  FN_DECISION,     /* temperature: hot, cold, warm (decided) */
  FN_LOCAL,        /* local linkage */
  FN_UNIT,         /* a local function's unit, else null */
  FN_COVERED,      /* ran in some merged run */
  FN_COVERED_RUNS, /* runs that entered it */
  FN_FILE,         /* declaration, null when unknown */
  FN_LINE,         /* null when the file is unknown */
  FN_CALLS,        /* null when not counted */
  FN_ORDER,        /* mean first-call rank, null when not ranked */
  FN_ORDER_RUNS,   /* runs that ranked it */
  FN_BLOCKS,       /* its blocks, null without */
  /* frames */
  FRAME_FUNCTION,  /* linkage name; an outside frame's object */
  FRAME_DEMANGLED,
  FRAME_FILE,      /* null when unknown */
  FRAME_FILE_TEXT, /* "" when unknown */
  FRAME_LINE,
  FRAME_COLUMN,
  FRAME_INLINED,
  FRAME_OUTSIDE,
  FRAME_OBJECT,    /* report_frame_object, null for the profile's code */
  /* sites (SITE_CLASS to SITE_CONTEXTS: decided) */
  SITE_INDEX,      /* in the profile's heap sites */
  SITE_FUNCTION,   /* innermost function, "" unknown */
  SITE_DEMANGLED,
  SITE_FILE,       /* null when unknown */
  SITE_FILE_TEXT,  /* "" when unknown */
  SITE_LINE,
  SITE_COLUMN,
  SITE_ALLOCATOR,
  SITE_INSTRUMENTED, /* the function the call was compiled into */
  SITE_CLASS,
  SITE_MIXED,
  SITE_CONTEXT_CLASSES, /* contexts per class: an object */
  SITE_ALLOCS,          /* over all its contexts */
  SITE_BYTES,
  SITE_LIFETIME,
  SITE_DENSITY,
  SITE_CONTEXTS, /* its contexts with allocations, the most bytes first */
  /* contexts */
  CTX_FRAMES,     /* leaf first */
  CTX_TRUNCATED,
  CTX_SITE,       /* null without one */
  CTX_MIB,        /* every MemInfoBlock field, as members (no key) */
  CTX_MIB_OBJECT, /* the same in an object */
  CTX_CLASS,      /* decided */
  CTX_ALLOCS,
  CTX_BYTES,
  CTX_LIFETIME,
  CTX_DENSITY,
  /* statistics */
  STAT_UNSEEN_FREES,
  STAT_FREED_UNSEEN,
  STAT_TRUNCATED_STACKS,
  STAT_DROPPED,
  STAT_STACK_DEPTH,
  STAT_UNINTERPOSED_RUNS,
  STAT_LIVE_UNINTERPOSED,
  STAT_UNKNOWN_LIFETIMES,
  STAT_BLOCKS,
  STAT_SAMPLE_BYTES,
  STAT_RECORDED_BLOCKS,
  STAT_UNCOUNTED,
};

struct report_member {
  enum report_field field;
  const char *key;
};

/* members ends with a NULL key; frame, site and context lay out the
 * entities inside (a context's frames and site, a site's contexts). */
struct report_layout {
  const struct report_member *members;
  const struct report_layout *frame, *site, *context;
};

/* What every document says first of its profile: show's and annotate's,
 * and show --heap --format yaml's. */
extern const struct report_layout report_profile_json;
extern const struct report_layout report_profile_memprof;
/* mipdata show (docs/formats.md), and annotate (docs/mipdata.md). */
extern const struct report_layout report_function_show;
extern const struct report_layout report_function_annotate;
/* show --heap --format json, and annotate. */
extern const struct report_layout report_frame_json;
extern const struct report_layout report_site_show;
extern const struct report_layout report_context_show;
extern const struct report_layout report_stats_json;
/* show --heap --format yaml: llvm-profdata show --memory's shape. */
extern const struct report_layout report_frame_memprof;
extern const struct report_layout report_site_memprof;
extern const struct report_layout report_context_memprof;
extern const struct report_layout report_stats_memprof;
/* annotate's allocations. */
extern const struct report_layout report_site_annotate;
extern const struct report_layout report_context_annotate;

/* The profile's members, in the object open (the document). */
void report_emit_profile(struct emitter *e, const struct report *r,
                         const struct report_layout *l);
/* Each writes the entity as an object under key (NULL in an array). */
void report_emit_function(struct emitter *e, const char *key,
                          const struct report *r,
                          const struct report_function *f,
                          const struct report_layout *l);
void report_emit_frame(struct emitter *e, const char *key,
                       const struct report *r, const struct report_frame *f,
                       const struct report_layout *l);
/* null for no site */
void report_emit_site(struct emitter *e, const char *key,
                      const struct report *r, const struct report_site *s,
                      const struct report_layout *l);
void report_emit_context(struct emitter *e, const char *key,
                         const struct report *r,
                         const struct report_context *c,
                         const struct report_layout *l);
/* The heap's global peak over time (docs/formats.md, show --heap): under
 * peak_key the kept run's peak, under peaks_key every run's, highest
 * first, under timeline_key its timeline; null without. */
struct report_timeline_keys {
  const char *peak, *peaks, *timeline;
  const char *bytes, *blocks, *event, *events, *interval, *ms;
};
extern const struct report_timeline_keys report_timeline_json;
extern const struct report_timeline_keys report_timeline_memprof;
void report_emit_timeline(struct emitter *e, const struct report *r,
                          const struct report_timeline_keys *k);
/* null without heap data */
void report_emit_stats(struct emitter *e, const char *key,
                       const struct report *r, const struct report_layout *l);

#endif
