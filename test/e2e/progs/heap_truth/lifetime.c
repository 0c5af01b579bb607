/* A block freed by code MIP did not instrument (lib_release), 300 ms
 * before the program ends: its lifetime must end at that free. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void lib_release(void *p);

int main(void) {
  char *p = malloc(1000);
  p[0] = 1;
  printf("%d\n", p[0]);
  lib_release(p);
  struct timespec wait = {0, 300 * 1000 * 1000};
  nanosleep(&wait, NULL);
  return 0;
}
