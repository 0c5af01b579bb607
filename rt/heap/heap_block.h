/*
 * A live block as the table keeps it (heap_table.c) and as its record
 * beside it does (heap_tail.c): inline, since both pack and unpack a
 * block on every birth and death, and a call would pass the 12 bytes
 * through memory the caller reads straight back.
 */
#ifndef MIP_RT_HEAP_BLOCK_H
#define MIP_RT_HEAP_BLOCK_H

#include "heap.h"

/* A block in 20 bytes. The key: its address (47 bits: user space, the
 * only addresses the shadow covers; a block above is not tracked), the
 * high bits of its context, its generation and the realloc flag. The
 * value, three u32: size (44 bits, 16 TiB: larger is clamped), CPU (11
 * bits: 2047 is "unknown", CPUs from there up among them) and the low
 * bits of its context; then its allocation time. */
#define ADDR_BITS MIP_RT_HEAP_TABLE_ADDR_BITS
#define ADDR_MASK (((uint64_t)1 << ADDR_BITS) - 1)
#define SIZE_BITS 44
#define SIZE_MASK (((uint64_t)1 << SIZE_BITS) - 1)
#define CPU_BITS 11
#define CONTEXT_LO_BITS 9
#define CONTEXT_LO_MASK ((1u << CONTEXT_LO_BITS) - 1)
#define CONTEXT_NONE ((1u << 18) - 1)
#define GEN_SHIFT 56
#define FLAG_SHIFT 63
#define VALUE_WORDS 3 /* u32 */

_Static_assert(MIP_RT_HEAP_NO_CPU == (1u << CPU_BITS) - 1, "CPU bits");
_Static_assert(MIP_RT_HEAP_CONTEXTS_MAX == CONTEXT_NONE, "context bits");
_Static_assert(MIP_RT_HEAP_SLOT_BYTES == 8 + VALUE_WORDS * 4, "slot bytes");

static inline void mip_rt_heap_block_pack(uint64_t *key, uint32_t *v,
                                          const struct mip_rt_heap_block *b) {
  uint64_t size = b->size > SIZE_MASK ? SIZE_MASK : b->size;
  uint32_t context = b->context > CONTEXT_NONE ? CONTEXT_NONE : b->context;
  uint32_t cpu = b->cpu > MIP_RT_HEAP_NO_CPU ? MIP_RT_HEAP_NO_CPU : b->cpu;
  uint64_t low = size | (uint64_t)cpu << SIZE_BITS |
                 (uint64_t)(context & CONTEXT_LO_MASK)
                     << (SIZE_BITS + CPU_BITS);
  *key = b->addr | (uint64_t)(context >> CONTEXT_LO_BITS) << ADDR_BITS |
         (uint64_t)(b->generation & MIP_RT_HEAP_FOREIGN) << GEN_SHIFT |
         (uint64_t)(b->flags & MIP_RT_HEAP_REALLOC) << FLAG_SHIFT;
  __builtin_memcpy(v, &low, sizeof low);
  v[2] = b->alloc_ms;
}

static inline void mip_rt_heap_block_unpack(struct mip_rt_heap_block *b,
                                            uint64_t key, const uint32_t *v) {
  uint64_t low;
  __builtin_memcpy(&low, v, sizeof low);
  uint32_t context = (uint32_t)((key >> ADDR_BITS) << CONTEXT_LO_BITS |
                                low >> (SIZE_BITS + CPU_BITS)) &
                     CONTEXT_NONE;
  *b = (struct mip_rt_heap_block){
      .addr = key & ADDR_MASK,
      .size = low & SIZE_MASK,
      .alloc_ms = v[2],
      .context = context == CONTEXT_NONE ? MIP_RT_HEAP_NO_CONTEXT : context,
      .cpu = (uint16_t)((low >> SIZE_BITS) & MIP_RT_HEAP_NO_CPU),
      .flags = (uint16_t)(key >> FLAG_SHIFT),
      .generation = (uint32_t)(key >> GEN_SHIFT) & MIP_RT_HEAP_FOREIGN,
  };
}

#endif
