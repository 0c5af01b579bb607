/*
 * The few protocol-buffer wire types a pprof profile needs, written by
 * hand (https://protobuf.dev/programming-guides/encoding/): varints
 * (wire type 0) and length-delimited fields (wire type 2: strings,
 * embedded messages, packed repeated integers). A message is built in a
 * buffer of its own, then appended to its parent as one length-delimited
 * field.
 */
#ifndef MIPDATA_PROTOBUF_H
#define MIPDATA_PROTOBUF_H

#include <stddef.h>
#include <stdint.h>

#include "mipfmt.h"

void pb_varint(struct mip_buf *b, uint64_t v);
/* Field number field, a varint (int64, uint64, bool): nothing when v is
 * 0, the default every reader assumes. */
void pb_uint(struct mip_buf *b, uint32_t field, uint64_t v);
/* Field number field, length-delimited: n bytes of data. */
void pb_bytes(struct mip_buf *b, uint32_t field, const void *data, size_t n);
void pb_string(struct mip_buf *b, uint32_t field, const char *s);
/* An embedded message: msg's bytes as field, then msg emptied for the
 * next one. */
void pb_message(struct mip_buf *b, uint32_t field, struct mip_buf *msg);
/* A packed repeated integer field from the varints already in packed. */
void pb_packed(struct mip_buf *b, uint32_t field, struct mip_buf *packed);

#endif
