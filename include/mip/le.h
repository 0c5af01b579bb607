/* Little-endian loads and stores that do not care about alignment. On a
 * little-endian host each is one unaligned load or store (__builtin_memcpy
 * of a fixed size); elsewhere, bytes. */
#ifndef MIP_LE_H
#define MIP_LE_H

#include <stddef.h>
#include <stdint.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MIP_LE_HOST 1
#else
#define MIP_LE_HOST 0
#endif

static inline void mip_copy_bytes(uint8_t *dst, const uint8_t *src, size_t n) {
  for (size_t i = 0; i < n; i++)
    dst[i] = src[i];
}

#define MIP_LE_ACCESSORS(bits)                                                 \
  static inline uint##bits##_t mip_get_le##bits(const uint8_t *p) {            \
    uint##bits##_t v = 0;                                                      \
    if (MIP_LE_HOST) {                                                         \
      __builtin_memcpy(&v, p, sizeof v);                                       \
      return v;                                                                \
    }                                                                          \
    for (size_t i = 0; i < sizeof v; i++)                                      \
      v |= (uint##bits##_t)((uint##bits##_t)p[i] << (8 * i));                  \
    return v;                                                                  \
  }                                                                            \
  static inline void mip_put_le##bits(uint8_t *p, uint##bits##_t v) {          \
    if (MIP_LE_HOST) {                                                         \
      __builtin_memcpy(p, &v, sizeof v);                                       \
      return;                                                                  \
    }                                                                          \
    for (size_t i = 0; i < sizeof v; i++)                                      \
      p[i] = (uint8_t)(v >> (8 * i));                                          \
  }

MIP_LE_ACCESSORS(16)
MIP_LE_ACCESSORS(32)
MIP_LE_ACCESSORS(64)

#undef MIP_LE_ACCESSORS

#endif
