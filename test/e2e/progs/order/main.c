#include "order.h"

#define LOOP 200000

int main(int argc, char **argv) {
  (void)argv;
  config_load(argc);
  tables_init();
  log_open();
  unsigned long long acc = 0;
  for (long i = 0; i < LOOP; i++) {
    acc += work_step((unsigned long long)i);
    acc ^= hash_a(acc + (unsigned long long)i);
    if (i % 50000 == 0)
      progress(i);
  }
  report(acc);
  if (argc > 99) {
    never_a();
    never_b(argc);
  }
  return 0;
}
