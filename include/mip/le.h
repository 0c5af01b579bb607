/* Little-endian loads and stores that do not care about alignment. */
#ifndef MIP_LE_H
#define MIP_LE_H

#include <stddef.h>
#include <stdint.h>

static inline void mip_copy_bytes(uint8_t *dst, const uint8_t *src, size_t n) {
  for (size_t i = 0; i < n; i++)
    dst[i] = src[i];
}

static inline uint16_t mip_get_le16(const uint8_t *p) {
  return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t mip_get_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

static inline uint64_t mip_get_le64(const uint8_t *p) {
  return (uint64_t)mip_get_le32(p) | (uint64_t)mip_get_le32(p + 4) << 32;
}

static inline void mip_put_le16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

static inline void mip_put_le32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static inline void mip_put_le64(uint8_t *p, uint64_t v) {
  mip_put_le32(p, (uint32_t)v);
  mip_put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
