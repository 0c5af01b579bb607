/* Small string helpers that neither allocate nor call stdio, so they are
 * safe in a destructor or a signal handler, and SIGXFSZ held back while
 * the runtime writes. They keep no state (report.c has the stderr
 * line's). */
#include <signal.h>

#include "sys.h"

size_t mip_rt_strlen(const char *s) {
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

/* Appends s at out[at], truncating at size-1; returns the new length
 * (which is >= size when something did not fit). */
size_t mip_rt_append(char *out, size_t at, size_t size, const char *s) {
  for (; *s; s++, at++)
    if (at + 1 < size)
      out[at] = *s;
  if (size)
    out[at < size ? at : size - 1] = '\0';
  return at;
}

/* v / 10, and its remainder in *rem: on a 32-bit target (MIP_RT_WORD64)
 * a long division by shifts and subtractions. */
static uint64_t div10(uint64_t v, unsigned *rem) {
#if MIP_RT_WORD64
  *rem = (unsigned)(v % 10);
  return v / 10;
#else
  uint64_t q = 0;
  unsigned r = 0;
  for (int i = 0; i < 64; i++) {
    r = r << 1 | (unsigned)(v >> 63);
    v <<= 1;
    q <<= 1;
    if (r >= 10)
      r -= 10, q |= 1;
  }
  *rem = r;
  return q;
#endif
}

size_t mip_rt_append_u64(char *out, size_t at, size_t size, uint64_t v) {
  char digits[21];
  size_t n = sizeof digits - 1;
  digits[n] = '\0';
  do {
    unsigned rem;
    v = div10(v, &rem);
    digits[--n] = (char)('0' + rem);
  } while (v);
  return mip_rt_append(out, at, size, digits + n);
}

/* v % n for a small n (1..9); on a 32-bit target bit by bit, without a
 * division routine (Armv7-A may have no divide instruction). */
unsigned mip_rt_mod_small(uint32_t v, unsigned n) {
#if MIP_RT_WORD64
  return v % n;
#else
  unsigned r = 0;
  for (int i = 31; i >= 0; i--) {
    r = 2 * r + (v >> i & 1);
    if (r >= n)
      r -= n;
  }
  return r;
#endif
}

size_t mip_rt_append_hex(char *out, size_t at, size_t size, uint64_t v,
                         unsigned bytes) {
  static const char digits[] = "0123456789abcdef";
  char hex[17];
  unsigned n = bytes > 8 ? 16 : 2 * bytes;
  hex[n] = '\0';
  /* From the last digit: shifts by a constant (MIP_RT_WORD64). */
  for (unsigned i = n; i-- > 0; v >>= 4)
    hex[i] = digits[v & 15];
  return mip_rt_append(out, at, size, hex);
}

int mip_rt_streq(const char *a, const char *b) {
  while (*a && *a == *b)
    a++, b++;
  return *a == *b;
}

static const uint64_t xfsz = MIP_SYS_SIGMASK(SIGXFSZ);

static int xfsz_pending(void) {
  uint64_t pending;
  return mip_sys_sigpending(&pending) == 0 && (pending & xfsz);
}

void mip_rt_xfsz_block(struct mip_rt_xfsz *guard) {
  guard->blocked = mip_sys_sigmask(SIG_BLOCK, &xfsz, &guard->old) == 0;
  guard->was_pending = guard->blocked && xfsz_pending();
}

void mip_rt_xfsz_unblock(const struct mip_rt_xfsz *guard) {
  if (!guard->blocked)
    return;
  if (!guard->was_pending && xfsz_pending())
    mip_sys_sigtake(&xfsz);
  mip_sys_sigmask(SIG_SETMASK, &guard->old, NULL);
}
