#include <mip/mip.h>
#include <stdio.h>

int twice(int x);

int main(int argc, char **argv) {
  (void)argv;
  printf("%d\n", twice(argc));
  /* The runtime's entry point, declared by the installed header. */
  return mip_dump() == 0 ? 0 : 1;
}
