/* hotcold: a table of counters that is updated all the time (hot), and a
 * journal of notes that are written once and read again only at the end
 * (cold). Each counter is created together with its notes, by the same
 * helper, and both are 64 bytes: with a plain allocator they come from
 * the same pages, one counter between every three notes.
 *
 * 64 bytes is also what the heap profile counts accesses by: jemalloc
 * puts blocks of 64 bytes on 64-byte boundaries, so a profile of the
 * program linked with jemalloc (-ljemalloc, as examples/demo-use.sh
 * does) counts each block's accesses apart from its neighbours'. */
#ifndef HOTCOLD_H
#define HOTCOLD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct counter {
  struct counter *next; /* the next counter to update */
  uint32_t key;
  uint32_t hits;
  char name[48];
};

struct note {
  uint64_t stamp;
  char text[56];
};

void out_of_memory(size_t size);

#ifdef HOTCOLD_WRAPPER
/* Built with -DHOTCOLD_WRAPPER, the helper is a function of its own
 * (main.c), as most programs have it: its one allocation call has a hot
 * and a cold context, and only a -flto rebuild, which clones it per
 * context, hints it (docs/use.md, "Wrappers and LTO"). */
void *allocate(size_t size);
#else
/* The one allocation helper of the program. Inlined, so that each caller
 * has an allocation call of its own: one call cannot tell a hot caller
 * from a cold one, and would get no hint. */
static inline __attribute__((always_inline)) void *allocate(size_t size) {
  void *p = malloc(size);
  if (!p)
    out_of_memory(size);
  return p;
}
#endif

/* table.c: the hot path */
void table_init(size_t n);
void table_add(uint32_t key);
void table_shuffle(uint64_t seed);
void table_run(uint64_t steps);
uint64_t table_checksum(void);
void table_free(void);

/* journal.c: the cold path */
void journal_init(size_t n);
void journal_add(uint32_t key, unsigned notes);
uint64_t journal_checksum(void);
void journal_print(FILE *out);
void journal_free(void);

#endif
