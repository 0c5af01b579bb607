/*
 * mipdata export --format pprof: a profile.proto (github.com/google/pprof,
 * proto/profile.proto), gzip-compressed, as `go tool pprof`, Pyroscope
 * and the other pprof readers take it.
 *
 * Heap data gives one sample per context, its stack leaf first, with the
 * sample types Go and tcmalloc name: alloc_objects and alloc_space (every
 * allocation), inuse_objects and inuse_space (live at exit), and MIP's
 * accesses. A run of frames inlined into one another is one Location
 * whose Lines go innermost first, the function they were inlined into
 * last, as pprof wants. Labels give each context's mean block size
 * ("bytes", as Go's heap profiles) and, when the profile has runs, the
 * class a rebuild gives it ("class": hot, cold, notcold). Call counts
 * give one sample per called function, of the sample type "calls". The
 * first Mapping is the program's, with its build-id; the code of other
 * objects (libc, ...) has a Mapping per object.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "export.h"
#include "protobuf.h"
#include "report_metric.h"

/* profile.proto's field numbers. */
enum {
  PROFILE_SAMPLE_TYPE = 1,
  PROFILE_SAMPLE = 2,
  PROFILE_MAPPING = 3,
  PROFILE_LOCATION = 4,
  PROFILE_FUNCTION = 5,
  PROFILE_STRING_TABLE = 6,
  PROFILE_PERIOD_TYPE = 11,
  PROFILE_PERIOD = 12,
  PROFILE_COMMENT = 13,
  PROFILE_DEFAULT_SAMPLE_TYPE = 14,
  VALUE_TYPE_TYPE = 1,
  VALUE_TYPE_UNIT = 2,
  SAMPLE_LOCATION_ID = 1,
  SAMPLE_VALUE = 2,
  SAMPLE_LABEL = 3,
  LABEL_KEY = 1,
  LABEL_STR = 2,
  LABEL_NUM = 3,
  LABEL_NUM_UNIT = 4,
  MAPPING_ID = 1,
  MAPPING_FILENAME = 5,
  MAPPING_BUILD_ID = 6,
  MAPPING_HAS_FUNCTIONS = 7,
  MAPPING_HAS_FILENAMES = 8,
  MAPPING_HAS_LINE_NUMBERS = 9,
  MAPPING_HAS_INLINE_FRAMES = 10,
  LOCATION_ID = 1,
  LOCATION_MAPPING_ID = 2,
  LOCATION_LINE = 4,
  LINE_FUNCTION_ID = 1,
  LINE_LINE = 2,
  LINE_COLUMN = 3,
  FUNCTION_ID = 1,
  FUNCTION_NAME = 2,
  FUNCTION_SYSTEM_NAME = 3,
  FUNCTION_FILENAME = 4,
  FUNCTION_START_LINE = 5,
};

/* The heap sample types, as Go names them, and the metric each is. */
static const struct {
  const char *type, *unit;
  enum report_metric metric;
} heap_types[] = {
    {"alloc_objects", "count", REPORT_ALLOCS},
    {"alloc_space", "bytes", REPORT_BYTES},
    {"inuse_objects", "count", REPORT_LIVE_COUNT},
    {"inuse_space", "bytes", REPORT_LIVE_BYTES},
    {"accesses", "count", REPORT_ACCESSES}, /* last: not always measured */
};
#define HEAP_TYPES (sizeof heap_types / sizeof heap_types[0])

/* The heap sample types r has: all but accesses when its build counted
 * none (heap-allocs). */
static size_t heap_type_count(const struct report *r) {
  return report_metric_measured(r, REPORT_ACCESSES) ? HEAP_TYPES
                                                     : HEAP_TYPES - 1;
}

struct pprof {
  const struct report *r;
  struct mip_buf profile;   /* the Profile message, but its tables */
  struct mip_buf locations; /* Location fields, as they are met */
  struct mip_buf functions; /* Function fields, as they are met */
  /* Scratch, one per message kind, as they nest: a sample's locations
   * are written (with their lines and functions) while it is built. */
  struct mip_buf sample, label, location, line, function, other, packed;
  struct mip_buf key;          /* of a Function or a Location */
  struct export_names strings; /* the string table */
  struct export_names function_ids, location_ids; /* by key */
  /* The objects of other images' frames by path, each a Mapping after
   * the program's (1): the Mapping's id is the object's id here (from 1)
   * plus 1. */
  struct export_names objects;
  size_t value_count;       /* values per sample */
  size_t heap_at, calls_at; /* where each kind's values start */
};

static uint64_t str(struct pprof *p, const char *s) {
  return export_name_id(&p->strings, s ? s : "", NULL);
}

/* A Function's id, written when first met. */
static uint64_t function_id(struct pprof *p, const char *name,
                            const char *system_name, const char *file,
                            uint32_t start_line) {
  const char *key = export_format(&p->key, "%s\n%s\n%s\n%" PRIu32, name,
                                  system_name, file ? file : "", start_line);
  int added;
  uint64_t id = export_name_id(&p->function_ids, key, &added);
  if (!added)
    return id;
  pb_uint(&p->function, FUNCTION_ID, id);
  pb_uint(&p->function, FUNCTION_NAME, str(p, name));
  pb_uint(&p->function, FUNCTION_SYSTEM_NAME, str(p, system_name));
  pb_uint(&p->function, FUNCTION_FILENAME, str(p, file));
  pb_uint(&p->function, FUNCTION_START_LINE, start_line);
  pb_message(&p->functions, PROFILE_FUNCTION, &p->function);
  return id;
}

/* A Mapping, with the build-id for the program's own. */
static void add_mapping(struct pprof *p, uint64_t id, const char *file,
                        const char *build_id) {
  pb_uint(&p->other, MAPPING_ID, id);
  pb_uint(&p->other, MAPPING_FILENAME, str(p, file));
  pb_uint(&p->other, MAPPING_BUILD_ID, str(p, build_id));
  pb_uint(&p->other, MAPPING_HAS_FUNCTIONS, 1);
  pb_uint(&p->other, MAPPING_HAS_FILENAMES, 1);
  pb_uint(&p->other, MAPPING_HAS_LINE_NUMBERS, 1);
  pb_uint(&p->other, MAPPING_HAS_INLINE_FRAMES, 1);
  pb_message(&p->profile, PROFILE_MAPPING, &p->other);
}

/* The Mapping of a frame's code: 1 for the program's, another per object
 * (written when first met). */
static uint64_t mapping_id(struct pprof *p, const struct report_frame *f) {
  const char *object = report_frame_object(f);
  if (!object)
    return 1;
  int added;
  uint64_t id = export_name_id(&p->objects, object, &added) + 1;
  if (added)
    add_mapping(p, id, object, NULL);
  return id;
}

/* Opens Location id: its Lines follow (add_line), then add_location. */
static void begin_location(struct pprof *p, uint64_t id, uint64_t mapping) {
  pb_uint(&p->location, LOCATION_ID, id);
  pb_uint(&p->location, LOCATION_MAPPING_ID, mapping);
}

static void add_line(struct pprof *p, uint64_t function, uint32_t line,
                     uint32_t column) {
  pb_uint(&p->line, LINE_FUNCTION_ID, function);
  pb_uint(&p->line, LINE_LINE, line);
  pb_uint(&p->line, LINE_COLUMN, column);
  pb_message(&p->location, LOCATION_LINE, &p->line);
}

static void add_location(struct pprof *p) {
  pb_message(&p->locations, PROFILE_LOCATION, &p->location);
}

/* The Location of frames [k, end) of c: a frame and those inlined into
 * it, innermost first. */
static uint64_t frames_location(struct pprof *p, const struct report_context *c,
                                uint32_t k, uint32_t end) {
  p->key.size = 0;
  for (uint32_t i = k; i < end; i++) {
    char frame[16];
    int n = snprintf(frame, sizeof frame, "%" PRIu32 ",", c->stack[i]);
    mip_buf_append(&p->key, frame, (size_t)n);
  }
  mip_buf_append(&p->key, "", 1);
  int added;
  uint64_t id =
      export_name_id(&p->location_ids, (const char *)p->key.data, &added);
  if (!added)
    return id;
  begin_location(p, id, mapping_id(p, &p->r->frames[c->stack[k]]));
  for (uint32_t i = k; i < end; i++) {
    const struct report_frame *f = &p->r->frames[c->stack[i]];
    uint64_t fn = function_id(p, export_frame_function(f), f->function,
                              f->file ? f->file : report_frame_object(f), 0);
    add_line(p, fn, f->line, f->column);
  }
  add_location(p);
  return id;
}

static void add_label(struct pprof *p, const char *key, const char *s,
                      uint64_t num, const char *unit) {
  pb_uint(&p->label, LABEL_KEY, str(p, key));
  if (s)
    pb_uint(&p->label, LABEL_STR, str(p, s));
  else
    pb_uint(&p->label, LABEL_NUM, num);
  if (unit)
    pb_uint(&p->label, LABEL_NUM_UNIT, str(p, unit));
  pb_message(&p->sample, SAMPLE_LABEL, &p->label);
}

static void add_values(struct pprof *p, const uint64_t *values) {
  for (size_t i = 0; i < p->value_count; i++)
    pb_varint(&p->packed, values[i]);
  pb_packed(&p->sample, SAMPLE_VALUE, &p->packed);
}

static void add_context(struct pprof *p, const struct report_context *c) {
  for (uint32_t k = 0; k < c->depth;) {
    uint32_t end = k + 1;
    while (end < c->depth && p->r->frames[c->stack[end - 1]].inlined)
      end++;
    pb_varint(&p->packed, frames_location(p, c, k, end));
    k = end;
  }
  pb_packed(&p->sample, SAMPLE_LOCATION_ID, &p->packed);
  uint64_t values[HEAP_TYPES + 1] = {0};
  for (size_t i = 0; i < heap_type_count(p->r); i++) {
    struct report_amount a = {0, 0};
    report_amount_add(&a, heap_types[i].metric, &c->mib);
    values[p->heap_at + i] = a.sum;
  }
  add_values(p, values);
  uint64_t allocs = c->mib.v[MIP_MIBI_AllocCount];
  if (allocs)
    add_label(p, "bytes", NULL, c->mib.v[MIP_MIBI_TotalSize] / allocs, "bytes");
  if (c->site)
    add_label(p, "allocator", c->site->allocator_name, 0, NULL);
  if (p->r->decided)
    add_label(p, "class", mip_alloc_class_name(c->alloc_class), 0, NULL);
  pb_message(&p->profile, PROFILE_SAMPLE, &p->sample);
}

static void add_calls(struct pprof *p, const struct report_function *f) {
  char key[32];
  snprintf(key, sizeof key, "function %" PRIu32, f->index);
  int added;
  uint64_t id = export_name_id(&p->location_ids, key, &added);
  if (added) {
    begin_location(p, id, 1);
    uint64_t fn =
        function_id(p, f->demangled, f->name, export_function_file(f), f->line);
    add_line(p, fn, f->line, 0);
    add_location(p);
  }
  pb_varint(&p->packed, id);
  pb_packed(&p->sample, SAMPLE_LOCATION_ID, &p->packed);
  uint64_t values[HEAP_TYPES + 1] = {0};
  values[p->calls_at] = f->calls;
  add_values(p, values);
  pb_message(&p->profile, PROFILE_SAMPLE, &p->sample);
}

static void value_type(struct pprof *p, uint32_t field, const char *type,
                       const char *unit) {
  pb_uint(&p->other, VALUE_TYPE_TYPE, str(p, type));
  pb_uint(&p->other, VALUE_TYPE_UNIT, str(p, unit));
  pb_message(&p->profile, field, &p->other);
}

/* Sample types, period, mapping and comment. */
static void add_heading(struct pprof *p, const struct export_input *in,
                        int heap, int calls) {
  const struct report *r = p->r;
  if (heap)
    for (size_t i = 0; i < heap_type_count(r); i++)
      value_type(p, PROFILE_SAMPLE_TYPE, heap_types[i].type,
                 heap_types[i].unit);
  if (calls)
    value_type(p, PROFILE_SAMPLE_TYPE, "calls", "count");
  value_type(p, PROFILE_PERIOD_TYPE, heap ? "space" : "calls",
             heap ? "bytes" : "count");
  pb_uint(&p->profile, PROFILE_PERIOD, 1);
  pb_uint(&p->profile, PROFILE_DEFAULT_SAMPLE_TYPE,
          str(p, heap ? "alloc_space" : "calls"));
  add_mapping(p, 1, in->debug ? in->debug : r->path, r->build_id);
  char note[REPORT_HEAP_NOTE_SIZE];
  report_heap_note(r, note, sizeof note);
  pb_uint(&p->profile, PROFILE_COMMENT,
          str(p, export_format(&p->key,
                               "mipdata export of %s: %" PRIu64 " run%s%s%s",
                               r->path, r->runs, r->runs == 1 ? "" : "s",
                               heap && *note ? ", heap " : "",
                               heap ? note : "")));
}

static void add_tables(struct pprof *p) {
  mip_buf_append(&p->profile, p->locations.data, p->locations.size);
  mip_buf_append(&p->profile, p->functions.data, p->functions.size);
  for (size_t i = 0; i < p->strings.count; i++)
    pb_string(&p->profile, PROFILE_STRING_TABLE,
              export_name(&p->strings, (uint32_t)i));
}

static int write_gzip(const struct mip_buf *b, FILE *out, const char *path,
                      struct mip_error *err) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK)
    return mip_fail(err, path, "cannot start gzip compression");
  uLong bound = deflateBound(&z, (uLong)b->size);
  uint8_t *gz = mip_xmalloc(bound);
  z.next_in = b->data;
  z.avail_in = (uInt)b->size;
  z.next_out = gz;
  z.avail_out = (uInt)bound;
  int rc = deflate(&z, Z_FINISH);
  size_t n = bound - z.avail_out;
  deflateEnd(&z);
  if (rc == Z_STREAM_END)
    fwrite(gz, 1, n, out);
  free(gz);
  return rc == Z_STREAM_END ? 0
                            : mip_fail(err, path, "gzip compression failed");
}

static void pprof_free(struct pprof *p) {
  mip_buf_free(&p->profile);
  mip_buf_free(&p->locations);
  mip_buf_free(&p->functions);
  struct mip_buf *scratch[] = {&p->sample,   &p->label, &p->location, &p->line,
                               &p->function, &p->other, &p->packed,   &p->key};
  for (size_t i = 0; i < sizeof scratch / sizeof *scratch; i++)
    mip_buf_free(scratch[i]);
  export_names_free(&p->strings);
  export_names_free(&p->function_ids);
  export_names_free(&p->location_ids);
  export_names_free(&p->objects);
}

int export_pprof(const struct export_input *in, FILE *out,
                 struct mip_error *err) {
  const struct report *r = in->r;
  if (export_need_heap_or_calls(r, "pprof", err))
    return -1;
  int heap = export_has_heap(r), calls = r->counted;
  struct pprof *p = mip_xcalloc(1, sizeof *p);
  p->r = r;
  export_names_init(&p->strings);
  export_names_init(&p->function_ids);
  export_names_init(&p->location_ids);
  export_names_init(&p->objects);
  p->heap_at = 0;
  p->calls_at = heap ? heap_type_count(r) : 0;
  p->value_count = (heap ? heap_type_count(r) : 0) + (calls ? 1 : 0);
  add_heading(p, in, heap, calls);
  for (size_t i = 0; heap && i < r->context_count; i++)
    add_context(p, &r->contexts[i]);
  for (size_t i = 0; calls && i < r->function_count; i++)
    if (r->functions[i].calls)
      add_calls(p, &r->functions[i]);
  add_tables(p);
  int rc = write_gzip(&p->profile, out, r->path, err);
  pprof_free(p);
  free(p);
  return rc;
}
