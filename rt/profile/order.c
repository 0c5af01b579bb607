/*
 * First-call order. The first time a function runs, instrumented code
 * (order mode) calls __mip_first_call out of line, with the function's
 * coverage byte and rank slot: exactly one caller swaps the byte from
 * "not yet" to "entered" (1 on x86-64 and Armv7, 0 on AArch64: rt/arch/), and that
 * one takes the next tick of the image's clock as the
 * function's rank. So ranks are unique, without gaps, in the order
 * functions were first entered, with any number of threads. One clock per
 * image: ranks compare within an image, which is what a link order needs.
 *
 * preserve_most: the caller keeps every register but r11 across the call,
 * so the probe costs the instrumented function no spills, only this cold
 * call on its first entry (where the target has it: rt/arch/).
 */
#include "mip_rt.h"

static uint32_t clock_ticks;

MIP_RT_HIDDEN MIP_RT_PRESERVE_MOST void
__mip_first_call(uint8_t *cov, uint32_t *rank) {
  if (__atomic_exchange_n(cov, MIP_RT_COV_ENTERED, __ATOMIC_RELAXED) !=
      MIP_RT_COV_ENTERED)
    __atomic_store_n(rank,
                     __atomic_add_fetch(&clock_ticks, 1, __ATOMIC_RELAXED),
                     __ATOMIC_RELAXED);
}

void mip_rt_order_reset(void) {
  __atomic_store_n(&clock_ticks, 0, __ATOMIC_RELAXED);
}
