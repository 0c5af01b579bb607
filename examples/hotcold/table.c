/* The hot path: counters, updated one after another in a shuffled cycle
 * that visits each in turn, as the buckets of a hash table under an even
 * load are. */
#include <string.h>

#include "hotcold.h"

static struct counter **table;
static size_t size, used;

void table_init(size_t n) {
  table = allocate(n * sizeof *table);
  size = n;
  used = 0;
}

void table_add(uint32_t key) {
  struct counter *c = allocate(sizeof *c);
  c->next = NULL;
  c->key = key;
  c->hits = 0;
  snprintf(c->name, sizeof c->name, "counter %u", (unsigned)key);
  if (used < size)
    table[used++] = c;
}

/* xorshift64: the same sequence everywhere */
static uint64_t next_random(uint64_t *state) {
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *state = x;
}

/* Chains the counters into one cycle, in a shuffled order. */
void table_shuffle(uint64_t seed) {
  uint64_t state = seed | 1;
  for (size_t i = used; i > 1; i--) {
    size_t j = next_random(&state) % i;
    struct counter *t = table[i - 1];
    table[i - 1] = table[j];
    table[j] = t;
  }
  for (size_t i = 0; i < used; i++)
    table[i]->next = table[(i + 1) % used];
}

void table_run(uint64_t steps) {
  if (!used)
    return;
  struct counter *c = table[0];
  for (uint64_t s = 0; s < steps; s++) {
    c->hits += 1 + (c->key & 3);
    c = c->next;
  }
}

uint64_t table_checksum(void) {
  uint64_t sum = 0;
  for (size_t i = 0; i < used; i++)
    sum = sum * 31 + table[i]->hits + strlen(table[i]->name);
  return sum;
}

void table_free(void) {
  for (size_t i = 0; i < used; i++)
    free(table[i]);
  free(table);
  table = NULL;
  used = size = 0;
}
