/* mipdata show --data: the global variables of a profile of data mode. */
#ifndef MIPDATA_SHOW_DATA_H
#define MIPDATA_SHOW_DATA_H

#include "emit.h"
#include "report.h"

/* Prints r's variables in their linker order (data_order.h), with their
 * accesses and temperatures at hot_share, in the format. */
void show_data(const struct report *r, enum emit_format format,
               double hot_share);

#endif
