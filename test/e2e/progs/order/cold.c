#include <stdio.h>

#include "order.h"

/* Same name as the start-up helper in init.c, never called. */
static void NOINLINE helper(const char *what) { printf("never: %s\n", what); }

void NOINLINE never_a(void) { helper("a"); }

void NOINLINE never_b(int n) {
  for (int i = 0; i < n; i++)
    helper("b");
}
