/*
 * MIP_PROFILE_FILE patterns:
 *   %p  the process id
 *   %h  the host name
 *   %m  the image's identity: the first 8 bytes of its build-id in hex, or
 *       without a build-id a 16-digit hash of its path
 *   %Nm (N = 1..9) the identity, "_" and a pool slot, the process id
 *       modulo N: the profile is merged into that pooled file (merge.c)
 *   %c  nothing: asks for continuous mode (continuous.c)
 *   %%  a literal %
 * Any other %x is kept as written.
 *
 * Images must not overwrite each other's profiles, nor a forked child its
 * parent's: a shared library (any image but the main program) whose
 * pattern has no %m gets ".%m" inserted before the final extension of the
 * file name, and a forked child whose pattern has no %p gets ".%p" there
 * (after the ".%m"); a name without an extension gets them appended.
 * A pool pattern (%Nm) gets neither: its file takes every process's run.
 * Nor does a pattern that names something other than a regular file or
 * a directory (/dev/null, another device, a FIFO): it takes every image's
 * profile as it is (write.c writes into it), and no file may be made
 * beside it (a /dev/null.<id> in /dev).
 */
#include "sys.h"

static size_t append_host(char *out, size_t at, size_t size) {
  struct utsname u;
  if (mip_sys_uname(&u) != 0)
    return mip_rt_append(out, at, size, "unknown-host");
  return mip_rt_append(out, at, size, u.nodename);
}

/* Pool patterns. "%Nm" is read apart from the one-letter directives, so
 * that it can never take their place: N when p starts with "%Nm", else 0. */
static unsigned pool_directive(const char *p) {
  return p[0] == '%' && p[1] >= '1' && p[1] <= '9' && p[2] == 'm'
             ? (unsigned)(p[1] - '0')
             : 0;
}

/* The identity and the slot: processes spread over n files by pid. */
static size_t append_pool(char *out, size_t at, size_t size,
                          const struct mip_rt_image *image, unsigned n) {
  at = mip_rt_append(out, at, size, image->id);
  at = mip_rt_append(out, at, size, "_");
  return mip_rt_append_u64(out, at, size,
                           mip_rt_mod_small((uint32_t)mip_sys_getpid(), n));
}

/* What a pattern holds (bits), and what mip_rt_profile_path inserts
 * (ADD_M ".%m", ADD_P ".%p", as they would expand); above POOLED_SHIFT,
 * the N of its first %Nm. */
#define ADD_M 1
#define ADD_P 2
#define POOLED_SHIFT 2

/* Where an inserted piece goes: before the last '.' of the last path
 * component, unless that '.' starts the component (".mipraw" has no
 * extension), else at the end; *has: ADD_M for a %m, ADD_P for a %p,
 * the first %Nm's N. Directives are skipped whole, so "%%m" is no %m,
 * "%%4m" no pool and the '.' of "%." no extension. */
static size_t insertion_point(const char *pattern, unsigned *has) {
  size_t component = 0, dot = 0, i = 0;
  *has = 0;
  while (pattern[i]) {
    char c = pattern[i], next = pattern[i + 1];
    if (pool_directive(pattern + i)) {
      if (!(*has >> POOLED_SHIFT))
        *has |= pool_directive(pattern + i) << POOLED_SHIFT;
      i += 3;
    } else if (c == '%' && next) {
      *has |= next == 'm' ? ADD_M : next == 'p' ? ADD_P : 0;
      i += 2;
    } else {
      if (c == '/')
        component = i + 1, dot = 0;
      else if (c == '.' && i > component)
        dot = i; /* never 0: i > component >= 0 */
      i++;
    }
  }
  return dot ? dot : i;
}

/* One directive at p (after its '%'): appended to out. */
static size_t append_directive(char *out, size_t at, size_t size, char d,
                               const struct mip_rt_image *image) {
  char other[3] = {'%', d, '\0'};
  switch (d) {
  case 'p':
    return mip_rt_append_u64(out, at, size, (uint64_t)mip_sys_getpid());
  case 'h':
    return append_host(out, at, size);
  case 'm':
    return mip_rt_append(out, at, size, image->id);
  case 'c': /* a mode, not a name: mip_rt_pattern_continuous */
    return at;
  case '%':
    return mip_rt_append(out, at, size, "%");
  default:
    return mip_rt_append(out, at, size, other);
  }
}

static int expand(const char *pattern, const struct mip_rt_image *image,
                  size_t insert_at, unsigned add, char *out, size_t size) {
  size_t at = 0;
  out[0] = '\0';
  for (const char *p = pattern;; p++) {
    if ((size_t)(p - pattern) == insert_at) {
      if (add & ADD_M)
        at = append_directive(out, mip_rt_append(out, at, size, "."), size, 'm',
                              image);
      if (add & ADD_P)
        at = append_directive(out, mip_rt_append(out, at, size, "."), size, 'p',
                              image);
    }
    if (!*p)
      break;
    if (pool_directive(p)) {
      at = append_pool(out, at, size, image, pool_directive(p));
      p += 2;
    } else if (*p == '%' && p[1]) {
      at = append_directive(out, at, size, *++p, image);
    } else {
      char piece[2] = {*p, '\0'};
      at = mip_rt_append(out, at, size, piece);
    }
  }
  return at < size ? 0 : -1;
}

/* %c anywhere, as in LLVM_PROFILE_FILE; "%%c" is a '%' and a 'c'. */
int mip_rt_pattern_continuous(const char *pattern) {
  for (const char *p = pattern; *p; p++)
    if (*p == '%' && p[1] && *++p == 'c')
      return 1;
  return 0;
}

/* Whether path is there and is neither a regular file nor a directory. */
static int names_a_device(const char *path) {
  struct stat st;
  return mip_sys_stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
         !S_ISDIR(st.st_mode);
}

/* The name: unpooled asks for a pool pattern's own name for this run,
 * which pool mode writes when it cannot merge (".%p" inserted even where
 * the pattern has a %p, so that it is never the pooled file's name). */
static int name(const char *pattern, const struct mip_rt_image *image,
                int forked, int unpooled, char *out, size_t size) {
  unsigned has;
  size_t insert_at = insertion_point(pattern, &has);
  /* A pooled file holds every image's and every process's run of its
   * own identity: nothing to insert. */
  unsigned add = has >> POOLED_SHIFT ? (unpooled ? ADD_P : 0)
                              : ((image->is_main ? 0 : ADD_M) |
                                 (forked ? ADD_P : 0)) & ~has;
  /* A device is named as it is (a pattern of directives naming one
   * would be a curious one: the pattern's own text is looked at). */
  if (add && names_a_device(pattern))
    add = 0;
  return expand(pattern, image, insert_at, add, out, size);
}

unsigned mip_rt_pool_size(const char *pattern) {
  unsigned has;
  insertion_point(pattern, &has);
  return has >> POOLED_SHIFT;
}

int mip_rt_profile_path(const char *pattern, const struct mip_rt_image *image,
                        int forked, char *out, size_t size) {
  return name(pattern, image, forked, 0, out, size);
}

int mip_rt_pool_fallback_path(const struct mip_rt_image *image, char *out,
                              size_t size) {
  return name(mip_rt_profile_pattern(), image, 1, 1, out, size);
}
