/*
 * mipdata show --data: every global variable of the profile that
 * instrumented code accesses, in the order `mipdata order --data` gives
 * the linker (hot, warm, cold), with its accesses over the merged runs,
 * its size and section, and the temperature a rebuild gives it. Text for
 * people; JSON and YAML as docs/formats.md describes.
 */
#include <inttypes.h>
#include <stdio.h>

#include "data_order.h"
#include "escape.h"
#include "report_emit.h"
#include "show_data.h"

static uint64_t total_accesses(const struct mip_profile *p) {
  uint64_t n = 0;
  for (size_t i = 0; i < p->data_count; i++)
    n += p->data[i].accesses;
  return n;
}

static void show_structured(const struct report *r, enum emit_format format,
                            const struct data_order *o) {
  const struct mip_profile *p = &r->profile;
  struct emitter e;
  emit_begin(&e, stdout, format);
  report_emit_profile(&e, r, &report_profile_json);
  emit_u64(&e, "accesses", total_accesses(p));
  emit_array_begin(&e, "data");
  for (size_t i = 0; i < o->count; i++) {
    const struct mip_data_object *d = &p->data[o->entries[i].data];
    emit_object_begin(&e, NULL);
    emit_string(&e, "name", mip_profile_string(p, d->name));
    emit_string_or_null(&e, "unit",
                        d->flags & MIP_DATA_LOCAL
                            ? mip_profile_string(p, d->unit)
                            : NULL);
    emit_u64(&e, "accesses", d->accesses);
    emit_u64(&e, "size", d->size);
    emit_u64(&e, "address", d->addr);
    emit_string(&e, "section", data_section(d));
    emit_bool(&e, "escapes", (d->flags & MIP_DATA_ESCAPES) != 0);
    emit_string(&e, "temperature",
                mip_temperature_name(o->entries[i].temperature));
    emit_object_end(&e);
  }
  emit_array_end(&e);
  emit_end(&e);
}

/* Columns: ACCESSES SHARE SIZE SECTION TEMP VARIABLE ("(static, unit)"
 * for a local one; "escapes" when accesses through pointers are not
 * counted). */
static void show_text(const struct report *r, const struct data_order *o) {
  static const char *const heading[] = {"ACCESSES", "SHARE", "SIZE",
                                        "SECTION",  "TEMP",  "VARIABLE"};
  const struct mip_profile *p = &r->profile;
  if (!mip_profile_has(p, MIP_RAW_DATA)) {
    printf("no global variables: the profile has no data accesses (build "
           "with -fmip-generate=data)\n");
    return;
  }
  uint64_t total = total_accesses(p);
  printf("%zu global variables: %zu hot, %zu warm, %zu cold; %" PRIu64
         " accesses in %" PRIu64 " run%s\n\n",
         o->count, o->by_temperature[MIP_TEMP_HOT],
         o->by_temperature[MIP_TEMP_WARM], o->by_temperature[MIP_TEMP_COLD],
         total, p->runs, p->runs == 1 ? "" : "s");
  struct table t;
  table_init(&t, 6, heading);
  t.right_align[0] = t.right_align[1] = t.right_align[2] = 1;
  t.names[5] = 1;
  for (size_t i = 0; i < o->count; i++) {
    const struct mip_data_object *d = &p->data[o->entries[i].data];
    char accesses[32], share[32], size[32], name[4096];
    snprintf(accesses, sizeof accesses, "%" PRIu64, d->accesses);
    snprintf(share, sizeof share, "%.1f%%",
             total ? 100.0 * (double)d->accesses / (double)total : 0.0);
    snprintf(size, sizeof size, "%" PRIu64, d->size);
    int n = snprintf(name, sizeof name, "%s",
                     text_safe(mip_profile_string(p, d->name)));
    if ((d->flags & MIP_DATA_LOCAL) && n >= 0 && (size_t)n < sizeof name)
      n += snprintf(name + n, sizeof name - (size_t)n, " (static, %s)",
                    text_safe(mip_profile_string(p, d->unit)));
    if ((d->flags & MIP_DATA_ESCAPES) && n >= 0 && (size_t)n < sizeof name)
      snprintf(name + n, sizeof name - (size_t)n, " escapes");
    const char *cells[] = {accesses, share, size, data_section(d),
                           mip_temperature_name(o->entries[i].temperature),
                           name};
    table_add(&t, cells);
  }
  table_print(&t, stdout);
  table_free(&t);
}

void show_data(const struct report *r, enum emit_format format,
               double hot_share) {
  struct data_order o;
  data_order(&r->profile, hot_share, &o);
  if (format == EMIT_TEXT)
    show_text(r, &o);
  else
    show_structured(r, format, &o);
  data_order_free(&o);
}
