/*
 * The image's first-call clock. Instrumented code (order mode) takes a
 * tick with an atomic add the first time each function runs and stores it
 * as that function's rank, so ranks are unique and follow the order in
 * which functions were first entered. One clock per image: ranks compare
 * within an image, which is what a link order needs.
 */
#include "mip_rt.h"

MIP_RT_HIDDEN uint32_t __mip_order_clock;

void mip_rt_order_reset(void) {
  __atomic_store_n(&__mip_order_clock, 0, __ATOMIC_RELAXED);
}
