/*
 * Does the profile of -fmip-use hint any allocation? A link that also
 * compiles its sources (mipcc -fmip-use=P a.c b.c -o app) cannot look
 * into the objects clang makes on the way, so it asks the profile
 * instead: the plugin rewrites allocation calls only at sites the profile
 * makes cold or hot, with the thresholds given on the command line, and
 * mip_view_hinted_sites counts them by the same rules.
 */
#include <stdlib.h>
#include <string.h>

#include "mipcc.h"
#include "mipfmt.h"

/* The number of use_args[key] ("cold-max-density=0.5"), if given. */
static void take_number(const struct request *rq, enum use_key key,
                        double *value) {
  const char *arg = rq->use_args[key];
  const char *eq = arg ? strchr(arg, '=') : NULL;
  if (eq)
    *value = strtod(eq + 1, NULL);
}

static void decide_options(const struct request *rq,
                           struct mip_decide_options *o) {
  mip_decide_defaults(o);
#define MIP_DECIDE_SETTING(NAME, field, key, unit, def, min, max, help)       \
  take_number(rq, USE_##NAME, &o->field);
#include "mip/decide.inc"
#undef MIP_DECIDE_SETTING
}

static int capped(int64_t n) {
  return n < 0 ? -1 : n > 1000000 ? 1000000 : (int)n;
}

int profile_hinted_sites(const struct request *rq) {
  struct mip_decide_options o;
  decide_options(rq, &o);
  struct mip_view v;
  struct mip_error err;
  if (mip_view_open(rq->use, &v, &err))
    return -1;
  int64_t n = mip_view_hinted_sites(&v, &o, &err);
  mip_view_close(&v);
  return capped(n);
}

/* Mixed allocation sites with a cold context, or -1. */
static int64_t wrapper_sites(const struct mip_view *v,
                             const struct mip_decide_options *o,
                             struct mip_error *err) {
  int64_t n = 0;
  uint64_t count = mip_view_count(v, MIP_PROF_HEAP_SITES);
  for (uint64_t i = 0; i < count; i++) {
    struct mip_heap_site s;
    struct mip_site_decision d;
    if (mip_view_heap_site(v, i, &s, err) ||
        mip_view_site_decision(v, (uint32_t)i, o, &d, err))
      return -1;
    n += mip_allocator_allocates(s.allocator) && d.mixed &&
         d.contexts[MIP_CLASS_COLD] > 0;
  }
  return n;
}

int profile_wrapper_sites(const struct request *rq) {
  struct mip_decide_options o;
  decide_options(rq, &o);
  struct mip_view v;
  struct mip_error err;
  if (mip_view_open(rq->use, &v, &err))
    return -1;
  int64_t n = wrapper_sites(&v, &o, &err);
  mip_view_close(&v);
  return capped(n);
}
