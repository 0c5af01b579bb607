/*
 * The architectures MIP supports, and what the plugin and the runtime
 * must agree on for each: one macro per architecture, which
 * hands its facts to the macro X it is given (docs/instrumentation.md,
 * "Architectures"):
 *
 *   X(ID, name, shadow_offset, addr_bits, cov_entered, counter_shift)
 *
 *   ID             the suffix of the names made from it
 *   name           the triple's architecture, as LLVM spells it
 *   shadow_offset  heap mode's access counter of address a is at
 *                  ((a >> 6) << counter_shift) + shadow_offset:
 *                  AddressSanitizer's offset on Linux for the
 *                  architecture, below the addresses programs get
 *                  (x86-64: the executable at 0x5555..., libraries at
 *                  0x7f...; AArch64: nothing below 2^38 with a 39-bit or
 *                  a 48-bit kernel, nor under qemu-user, which loads at
 *                  0x55_0000_0000; Armv7: 512 MiB, above a non-PIE
 *                  executable at 64 KiB and its brk heap, below the
 *                  libraries and a PIE executable, which Linux maps from
 *                  the top of the 3 GiB or 4 GiB user space down, or up
 *                  from a third of it in the legacy layout)
 *   addr_bits      user space lies below 2^addr_bits
 *   cov_entered    what a function's coverage byte holds once it ran;
 *                  the other value (0 or 1) means not yet. AArch64 stores
 *                  its zero register into a byte that starts at 1: two
 *                  instructions, where a store of 1 takes three. Its raw
 *                  profiles say so (MIP_RAW_COV_ZERO), and their readers
 *                  take a byte of 0 for "entered" then.
 *   counter_shift  log2 of a counter's bytes: 3, a u64, on 64-bit
 *                  targets (a shadow of an eighth of user space); 2 on
 *                  Armv7, a u32 that saturates at 2^31 - 1 (256 MiB, a
 *                  sixteenth of the 4 GiB a 32-bit process may see),
 *                  which instrumented code reaches through the image's
 *                  __mip_heap_shadow (rt/heap/heap_shadow.c), so that a
 *                  shadow that cannot be reserved leaves the program
 *                  running unprofiled
 *
 * What only the code of one architecture needs (its instructions, its
 * relocation types, its thread pointer) is in rt/arch/NAME.h for the
 * runtime and in plugin/Target.cpp for the plugin. mipdata needs nothing:
 * the files are little-endian with fixed widths on every architecture
 * (a 32-bit target's addresses zero-extended; Arm's Thumb bit flagged in
 * the map and cleared by its reader, mip/format.h MIP_FN_THUMB_BIT).
 */
#ifndef MIP_ARCH_H
#define MIP_ARCH_H

#define MIP_ARCH_X86_64(X) X(X86_64, "x86_64", 0x7fff8000ULL, 47, 1, 3)
#define MIP_ARCH_AARCH64(X) X(AARCH64, "aarch64", 0x1000000000ULL, 48, 0, 3)
/* Armv7-A, Arm and Thumb state alike (LLVM's arm and thumb triples). */
#define MIP_ARCH_ARMV7(X) X(ARMV7, "arm", 0x20000000ULL, 32, 1, 2)
#define MIP_ARCHES(X) MIP_ARCH_X86_64(X) MIP_ARCH_AARCH64(X) MIP_ARCH_ARMV7(X)

/* One fact of an architecture: MIP_ARCH_AARCH64(MIP_ARCH_SHADOW_OFFSET). */
#define MIP_ARCH_NAME(ID, name, offset, bits, cov, cshift) name
#define MIP_ARCH_SHADOW_OFFSET(ID, name, offset, bits, cov, cshift) (offset)
#define MIP_ARCH_ADDR_BITS(ID, name, offset, bits, cov, cshift) (bits)
#define MIP_ARCH_COV_ENTERED(ID, name, offset, bits, cov, cshift) (cov)
#define MIP_ARCH_COUNTER_SHIFT(ID, name, offset, bits, cov, cshift) (cshift)

#endif
