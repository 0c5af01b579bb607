/*
 * Memory for one merge: chunks mapped from the kernel, handed out in
 * order and unmapped together when the merge is done. No malloc: the
 * merge runs at exit, or in a signal handler (mip_dump), inside a program
 * whose allocator may be in any state.
 */
#include <sys/mman.h>

#include "merge.h"

#define CHUNK_MIN (1u << 20)

struct mip_rt_chunk {
  struct mip_rt_chunk *next;
  uint64_t size, used; /* of the mapping, this header included */
};

static uint64_t align(uint64_t v, uint64_t to) { return (v + to - 1) & ~(to - 1); }

void *mip_rt_arena_alloc(struct mip_rt_arena *a, uint64_t size) {
  size = align(size, 8);
  struct mip_rt_chunk *c = a->chunks;
  if (!c || c->size - c->used < size) {
    uint64_t bytes = sizeof *c + size;
    if (bytes < size) /* no such size */
      return NULL;
    bytes = align(bytes < CHUNK_MIN ? CHUNK_MIN : bytes, 4096);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      return NULL;
    c = p;
    c->size = bytes;
    c->used = align(sizeof *c, 8);
    c->next = a->chunks;
    a->chunks = c;
  }
  void *out = (uint8_t *)c + c->used; /* fresh mappings are zeroed */
  c->used += size;
  return out;
}

void mip_rt_arena_free(struct mip_rt_arena *a) {
  while (a->chunks) {
    struct mip_rt_chunk *next = a->chunks->next;
    munmap(a->chunks, a->chunks->size);
    a->chunks = next;
  }
}
