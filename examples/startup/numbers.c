/* Primes, a sine table, base-2 logarithms, bit counts. */
#include <stdlib.h>

#include "startup.h"

#define PRIME_LIMIT 65536
static unsigned char composite[PRIME_LIMIT];
static unsigned prime_count;

/* sin(i degrees) * 65536, for i in 0..90 */
static int32_t sine_table[91];
static unsigned char log2_table[256];
static unsigned char popcount_table[256];

uint32_t primes_init(void) {
  composite[0] = composite[1] = 1;
  for (unsigned i = 2; i * i < PRIME_LIMIT; i++)
    if (!composite[i])
      for (unsigned k = i * i; k < PRIME_LIMIT; k += i)
        composite[k] = 1;
  prime_count = 0;
  for (unsigned i = 0; i < PRIME_LIMIT; i++)
    prime_count += !composite[i];
  return prime_count;
}

int is_prime(unsigned long n) {
  if (n < PRIME_LIMIT)
    return !composite[n];
  if (n % 2 == 0)
    return 0;
  for (unsigned long d = 3; d * d <= n; d += 2)
    if (n % d == 0)
      return 0;
  return 1;
}

static int parse_number(const char *s, unsigned long *out) {
  char *end;
  *out = strtoul(s, &end, 10);
  if (end == s || *end) {
    fprintf(stderr, "startup: not a number: %s\n", s);
    return 0;
  }
  return 1;
}

int cmd_primes(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    unsigned long n;
    if (!parse_number(argv[i], &n))
      return 1;
    unsigned long count = 0, largest = 0;
    for (unsigned long k = 2; k <= n; k++)
      if (is_prime(k)) {
        count++;
        largest = k;
      }
    printf("%lu primes up to %lu, the largest %lu\n", count, n, largest);
  }
  return 0;
}

int cmd_factor(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    unsigned long n;
    if (!parse_number(argv[i], &n))
      return 1;
    printf("%lu:", n);
    for (unsigned long p = 2; p < PRIME_LIMIT && p * p <= n; p++)
      if (!composite[p])
        while (n % p == 0) {
          printf(" %lu", p);
          n /= p;
        }
    if (n > 1)
      printf(" %lu", n);
    putchar('\n');
  }
  return 0;
}

/* Rotating a unit vector one degree at a time; no libm needed. */
uint32_t sine_init(void) {
  const double c = 0.99984769515639123916, s = 0.01745240643728351282;
  double x = 1, y = 0;
  uint32_t digest = 0;
  for (int i = 0; i <= 90; i++) {
    sine_table[i] = (int32_t)(y * 65536 + 0.5);
    digest = digest * 7 + (uint32_t)sine_table[i];
    double nx = x * c - y * s;
    y = x * s + y * c;
    x = nx;
  }
  return digest;
}

int cmd_sin(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    unsigned long d;
    if (!parse_number(argv[i], &d))
      return 1;
    d %= 360;
    int32_t v = sine_table[d <= 90 ? d : d <= 180 ? 180 - d : d <= 270 ? d - 180 : 360 - d];
    if (d > 180)
      v = -v;
    printf("sin(%lu) = %.4f\n", d, v / 65536.0);
  }
  return 0;
}

uint32_t log2_init(void) {
  uint32_t digest = 0;
  log2_table[0] = 0;
  for (int i = 1; i < 256; i++) {
    log2_table[i] = (unsigned char)(log2_table[i / 2] + (i > 1));
    digest += log2_table[i];
  }
  return digest;
}

uint32_t popcount_init(void) {
  uint32_t digest = 0;
  for (int i = 0; i < 256; i++) {
    popcount_table[i] = (unsigned char)((i & 1) + popcount_table[i / 2]);
    digest += popcount_table[i];
  }
  return digest;
}

int cmd_bits(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    unsigned long n;
    if (!parse_number(argv[i], &n))
      return 1;
    unsigned ones = 0, log = 0;
    for (unsigned long v = n; v; v >>= 8) {
      ones += popcount_table[v & 0xff];
      log = (v >> 8) ? log + 8 : log + log2_table[v];
    }
    printf("%lu: %u bits set, floor(log2) %u\n", n, ones, n ? log : 0);
  }
  return 0;
}
