/*
 * What ties an instrumented object to what must be linked with it
 * (docs/mipcc.md, "Linking without mipcc"). Every object the plugin
 * instruments refers to MIP_RT_LINK_SYMBOL, which libmip_rt.a defines (and
 * which pulls its exit-time writer out of the archive); every object built
 * with heap mode also refers to MIP_HEAP_LINK_SYMBOL, which the heap
 * interposer objects define. The references are hidden, so a link that
 * lacks either fails, executable or shared library alike, with an
 * undefined symbol whose name says what to do.
 */
#ifndef MIP_LINK_H
#define MIP_LINK_H

#define MIP_RT_LINK_SYMBOL "__mip_link_with_mipcc_or_libmip_rt"
#define MIP_HEAP_LINK_SYMBOL "__mip_heap_link_with_mipcc_or_mip_interpose"

/* Pool mode's merge (%Nm) is in libmip_rt.a but no instrumented object
 * refers to it: an image links it only when asked (mipcc -fmip-pool),
 * through an undefined reference (-u) to MIP_RT_POOL_SYMBOL; a heap image
 * also to MIP_RT_POOL_HEAP_SYMBOL, the merge of its heap data. Without
 * them a pool pattern gets a file per process (docs/runtime.md). */
#define MIP_RT_POOL_SYMBOL "__mip_link_pool"
#define MIP_RT_POOL_HEAP_SYMBOL "__mip_link_pool_heap"

/* The check that keeps a configure-time test program from leaving a
 * profile behind (rt/profile/probe.c) is in libmip_rt.a too, and an
 * image links it only when mipcc links an executable named as build
 * systems name those programs (conftest, cmTC_*), through an undefined
 * reference to MIP_RT_PROBE_SYMBOL. */
#define MIP_RT_PROBE_SYMBOL "__mip_link_probe"

/* mip_dump() (and the copy of the loaded objects a forked child's dump
 * walks) is in a member of its own: an instrumented object that refers
 * to mip_dump also refers to MIP_RT_DUMP_SYMBOL, which that member
 * defines. An image whose objects do not call it does without. */
#define MIP_RT_DUMP_SYMBOL "__mip_link_dump"

/* The counters of every kind but coverage bytes (their payloads, their
 * reset in a forked child) are in a member of their own: an instrumented
 * object with such counters refers to MIP_RT_KINDS_SYMBOL, which that
 * member defines. */
#define MIP_RT_KINDS_SYMBOL "__mip_link_counter_kinds"

/* The retained section of each instrumented object that holds the
 * references: 4 bytes each, in the image's .rodata. */
#define MIP_LINK_SECTION ".rodata.mip.link"

/* The heap interposer objects, in the MIP library directory beside
 * libmip_rt.a: one for executables (free, realloc, reallocarray of the
 * whole process), one for shared libraries (the same, hidden). */
#define MIP_INTERPOSE_EXE "mip_interpose.o"
#define MIP_INTERPOSE_SHARED "mip_interpose_shared.o"

#endif
