/* The order of a profile's global variables (data mode) for the linker:
 * `mipdata order --data` writes it, `mipdata show --data` shows each
 * variable's place. */
#ifndef MIPDATA_DATA_ORDER_H
#define MIPDATA_DATA_ORDER_H

#include "mipfmt.h"

struct data_entry {
  uint32_t data; /* index in profile->data */
  enum mip_temperature temperature;
};

/* The variables a unit that defines them counted (only those have a
 * place: the others are defined outside instrumented code), hot first,
 * then warm, each by accesses (the most first), then cold, in profile
 * order; and, by temperature, how many. A rebuild with the profile
 * (-fmip-use) gives the hot and cold ones the same temperatures
 * (mip_data_temperature, at the same hot share). */
struct data_order {
  struct data_entry *entries;
  size_t count;
  size_t by_temperature[MIP_TEMP_HOT + 1];
};

void data_order(const struct mip_profile *p, double hot_share,
                struct data_order *out);
void data_order_free(struct data_order *o);

/* The section a variable is in without a profile (-fdata-sections):
 * ".bss", ".rodata" (or ".data.rel.ro"), ".data". */
const char *data_section(const struct mip_data_object *d);

#endif
