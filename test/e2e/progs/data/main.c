/* Global variables of every kind, for data mode's ground truth
 * (test/e2e/data.sh): each is read or written a number of times that
 * valgrind's lackey counts too. The program touches them only directly
 * (no library function reads them), except buffer, whose address it gives
 * to a function of another unit: accesses through it there are not
 * counted, so its record says it escapes. */
#include <stdio.h>

int hits;                      /* .bss, written in the loop */
int limit = 1000;              /* .data, read by the loop */
static const unsigned char sbox[256] = {
    99, 124, 119, 123, 242, 107, 111, 197, 48, 1, 103, 43, 254, 215, 171,
    118, 202, 130, 201, 125, 250, 89, 71, 240, 173, 212, 162, 175, 156, 164,
    114, 192, 183, 253, 147, 38, 54, 63, 247, 204, 52, 165, 229, 241, 113,
    216, 49, 21, 4, 199, 35, 195, 24, 150, 5, 154, 7, 18, 128, 226, 235, 39,
    178, 117}; /* .rodata, read at changing indices */
const int never_read[4096] = {1};     /* .rodata, never touched */
int never_written[2048] = {1};        /* .data, never touched */
static int buffer[64];                /* .bss, filled through a pointer */
struct tuning {
  int rounds;
  long scale;
  double weight;
} tuning = {3, 5, 0.5};                /* .data, a struct read field by field */
static long grid[8][8];               /* .bss, updated in a nested loop */
const char *const labels[] = {"zero", "one", "two"}; /* addresses */
unsigned long events;                 /* .bss, updated atomically */
extern unsigned shared_count;         /* other.c's, counted here too */
void bump(unsigned by);               /* other.c */
void fill(int *p, int n);             /* other.c */

int main(int argc, char **argv) {
  (void)argv;
  unsigned h = 7;
  for (int i = 0; i < limit; i++) {
    h = h * 31 + sbox[(h + (unsigned)i) & 255];
    hits += (int)(h & 1);
  }
  if (argc > 99) {
    h += (unsigned)never_read[argc];
    never_written[argc] = (int)h;
  }
  for (int r = 0; r < tuning.rounds; r++)
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++)
        grid[i][j] += (long)(i ^ j) * tuning.scale + r;
  double w = 0;
  for (int i = 0; i < 30; i++) {
    w += tuning.weight * grid[i & 7][(i * 3) & 7];
    __atomic_fetch_add(&events, 1, __ATOMIC_RELAXED);
  }
  fill(buffer, 64);
  for (int i = 0; i < 10; i++)
    bump((unsigned)i);
  shared_count += 5;
  printf("%u %d %d %u %g %s %lu\n", h, hits, buffer[10], shared_count, w,
         labels[argc % 3], events);
  return 0;
}
