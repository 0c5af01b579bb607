/* Protocol-buffer wire encoding, the part pprof needs (protobuf.h). */
#include <string.h>

#include "protobuf.h"

enum { PB_VARINT = 0, PB_LEN = 2 };

void pb_varint(struct mip_buf *b, uint64_t v) {
  uint8_t bytes[10];
  size_t n = 0;
  do {
    bytes[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  mip_buf_append(b, bytes, n);
}

static void pb_key(struct mip_buf *b, uint32_t field, unsigned wire) {
  pb_varint(b, (uint64_t)field << 3 | wire);
}

void pb_uint(struct mip_buf *b, uint32_t field, uint64_t v) {
  if (!v)
    return;
  pb_key(b, field, PB_VARINT);
  pb_varint(b, v);
}

void pb_bytes(struct mip_buf *b, uint32_t field, const void *data, size_t n) {
  pb_key(b, field, PB_LEN);
  pb_varint(b, n);
  if (n)
    mip_buf_append(b, data, n);
}

void pb_string(struct mip_buf *b, uint32_t field, const char *s) {
  pb_bytes(b, field, s, strlen(s));
}

void pb_message(struct mip_buf *b, uint32_t field, struct mip_buf *msg) {
  pb_bytes(b, field, msg->data, msg->size);
  msg->size = 0;
}

void pb_packed(struct mip_buf *b, uint32_t field, struct mip_buf *packed) {
  if (packed->size)
    pb_message(b, field, packed);
}
