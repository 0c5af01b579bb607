/*
 * Generates, from one mip/layout/\*.inc field list, a C struct, its encoded
 * size and little-endian encode/decode functions. Include it once per
 * layout, with MIP_LAYOUT_NAME and MIP_LAYOUT_FILE defined:
 *
 *   #define MIP_LAYOUT_NAME raw_header
 *   #define MIP_LAYOUT_FILE "mip/layout/raw_header.inc"
 *   #include "mip/layout.h"
 *
 * gives struct mip_rec_raw_header, the constant mip_rec_raw_header_size (its
 * encoded size), mip_rec_raw_header_encode() and mip_rec_raw_header_decode().
 * Freestanding apart from <stdint.h>, so the runtime can use it too.
 */
#include <stddef.h>
#include <stdint.h>

#include "mip/format.h"
#include "mip/le.h"

#define MIP_LAYOUT_CAT2(a, b) a##b
#define MIP_LAYOUT_CAT(a, b) MIP_LAYOUT_CAT2(a, b)
#define MIP_LAYOUT_ID(suffix)                                                  \
  MIP_LAYOUT_CAT(MIP_LAYOUT_CAT(mip_rec_, MIP_LAYOUT_NAME), suffix)

struct MIP_LAYOUT_CAT(mip_rec_, MIP_LAYOUT_NAME) {
#define MIP_U16(n) uint16_t n;
#define MIP_U32(n) uint32_t n;
#define MIP_U64(n) uint64_t n;
#define MIP_BYTES(n, count) uint8_t n[count];
#include MIP_LAYOUT_FILE
#undef MIP_U16
#undef MIP_U32
#undef MIP_U64
#undef MIP_BYTES
};

enum {
  MIP_LAYOUT_ID(_size) = 0
#define MIP_U16(n) +2
#define MIP_U32(n) +4
#define MIP_U64(n) +8
#define MIP_BYTES(n, count) +(count)
#include MIP_LAYOUT_FILE
#undef MIP_U16
#undef MIP_U32
#undef MIP_U64
#undef MIP_BYTES
};

/* Whether the struct in memory is its encoding already: a little-endian
 * host, and no padding (the fields are in file order, so without padding
 * each lies at its encoded offset, and the struct is the encoded size
 * exactly). Then encoding and decoding are a copy. */
enum {
  MIP_LAYOUT_ID(_native) =
      MIP_LE_HOST && sizeof(struct MIP_LAYOUT_CAT(mip_rec_, MIP_LAYOUT_NAME)) ==
                         (size_t)MIP_LAYOUT_ID(_size)
};

static inline void MIP_LAYOUT_ID(_encode)(
    const struct MIP_LAYOUT_CAT(mip_rec_, MIP_LAYOUT_NAME) *in, uint8_t *out) {
  if (MIP_LAYOUT_ID(_native)) {
    mip_copy_bytes(out, (const uint8_t *)in, MIP_LAYOUT_ID(_size));
    return;
  }
  size_t at = 0;
#define MIP_U16(n) mip_put_le16(out + at, in->n), at += 2;
#define MIP_U32(n) mip_put_le32(out + at, in->n), at += 4;
#define MIP_U64(n) mip_put_le64(out + at, in->n), at += 8;
#define MIP_BYTES(n, count) mip_copy_bytes(out + at, in->n, count), at += count;
#include MIP_LAYOUT_FILE
#undef MIP_U16
#undef MIP_U32
#undef MIP_U64
#undef MIP_BYTES
  (void)at;
}

static inline void MIP_LAYOUT_ID(_decode)(
    struct MIP_LAYOUT_CAT(mip_rec_, MIP_LAYOUT_NAME) *out, const uint8_t *in) {
  size_t at = 0;
#define MIP_U16(n) out->n = mip_get_le16(in + at), at += 2;
#define MIP_U32(n) out->n = mip_get_le32(in + at), at += 4;
#define MIP_U64(n) out->n = mip_get_le64(in + at), at += 8;
#define MIP_BYTES(n, count) mip_copy_bytes(out->n, in + at, count), at += count;
#include MIP_LAYOUT_FILE
#undef MIP_U16
#undef MIP_U32
#undef MIP_U64
#undef MIP_BYTES
  (void)at;
}

#undef MIP_LAYOUT_ID
#undef MIP_LAYOUT_CAT
#undef MIP_LAYOUT_CAT2
#undef MIP_LAYOUT_NAME
#undef MIP_LAYOUT_FILE
