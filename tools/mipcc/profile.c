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

/* count's number for the profile of -fmip-use, with the command line's
 * thresholds; -1 when the profile cannot be read. */
static int count_in_profile(const struct request *rq,
                            int64_t (*count)(const struct mip_view *,
                                             const struct mip_decide_options *,
                                             struct mip_error *)) {
  struct mip_decide_options o;
  decide_options(rq, &o);
  struct mip_view v;
  struct mip_error err;
  if (mip_view_open(rq->use, &v, &err))
    return -1;
  int64_t n = count(&v, &o, &err);
  mip_view_close(&v);
  return n < 0 ? -1 : n > 1000000 ? 1000000 : (int)n;
}

int profile_hinted_sites(const struct request *rq) {
  return count_in_profile(rq, mip_view_hinted_sites);
}

int profile_wrapper_sites(const struct request *rq) {
  return count_in_profile(rq, mip_view_wrapper_sites);
}
