# libmip_rt.a: the runtime linked into every instrumented image, one
# archive from three folders:
#   rt/profile/  what every image links: counters, first-call order, edge
#                samples, the raw profile and when it is written
#   rt/heap/     heap mode's runtime (allocation contexts, live blocks,
#                access counters); only heap images link it
#   rt/pool/     pool mode's merge of a run into a pooled raw file (%Nm),
#                which only images linked with mipcc -fmip-pool pull out
#                (include/mip/link.h)
# Position-independent (it goes into shared libraries too), hidden by
# default (each image keeps its own copy), never sanitized or
# instrumented itself. File names are unique across the folders: they are
# the archive's member names.
RT_DIRS := rt/profile rt/heap rt/pool
# Their headers, and what differs per architecture (rt/arch/arch.h).
RT_INCLUDES := $(RT_DIRS:%=-I%) -Irt/arch
RT_SRC := $(foreach d,$(RT_DIRS),$(wildcard $(d)/*.c))
RT_OBJ := $(RT_SRC:%.c=$(OBJ)/%.o)
RT_LIB := $(LIB)/mip/libmip_rt.a
ALL_TARGETS += $(RT_LIB)

$(RT_OBJ): SAN_FLAGS :=
# DWARF 4: valgrind 3.19 cannot read DWARF 5, and the runtime ends up in
# every instrumented program. Optimized for size (-Oz: about 900 bytes
# less than -Os in an empty coverage program, x86-64 and AArch64 alike;
# it runs at start-up and when a profile is written), without unwind
# tables (no exception ever crosses it): it is part of what every image
# ships. A section per function and per object, so that a link with
# --gc-sections keeps only what the image uses (mipcc adds none: the link
# is the user's).
RT_CFLAGS := -fPIC -fvisibility=hidden -gdwarf-4 -Oz \
  -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-plt \
  -ffunction-sections -fdata-sections $(RT_INCLUDES)
# $(call rt_arch_cflags,TRIPLE): on AArch64, atomics inline (LL/SC)
# rather than calls to libgcc's helpers, which would bring their LSE
# test, a constructor and an import with them (660 bytes of the empty
# coverage program): the runtime's atomics run at start-up and when a
# profile is written. The heap runtime, whose atomics run at every
# allocation, keeps the helpers (rt_heap_arch_cflags).
rt_arch_cflags = $(if $(filter aarch64%,$(1)),-mno-outline-atomics)
rt_heap_arch_cflags = $(if $(filter aarch64%,$(1)),-moutline-atomics)
RT_HOST := $(shell $(CC) -dumpmachine)
$(RT_OBJ): ALL_CFLAGS += $(RT_CFLAGS) $(call rt_arch_cflags,$(RT_HOST))
# Except the heap runtime, which runs at every allocation and free:
# optimized for speed (Lua's bench run, 6.2 million blocks, 11% faster
# than at -Os, for 6 KiB more text).
$(filter $(OBJ)/rt/heap/%.o,$(RT_OBJ)): ALL_CFLAGS += -O2 \
  $(call rt_heap_arch_cflags,$(RT_HOST))
# And pool mode's merge, linked only for it (-fmip-pool), stays at -Os:
# the figures of `make bench-pool` (docs/runtime.md) were taken so.
$(filter $(OBJ)/rt/pool/%.o,$(RT_OBJ)): ALL_CFLAGS += -Os

$(RT_LIB): $(RT_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# The heap interposers (rt/interpose/): objects mipcc links into heap
# images beside the archive, one for executables and one for shared
# libraries (the marker and the link symbol only).
INTERPOSE_EXE    := $(LIB)/mip/mip_interpose.o
INTERPOSE_SHARED := $(LIB)/mip/mip_interpose_shared.o
ALL_TARGETS += $(INTERPOSE_EXE) $(INTERPOSE_SHARED)
INTERPOSE_OBJ := $(OBJ)/rt/interpose/exe.o $(OBJ)/rt/interpose/shared.o

$(INTERPOSE_OBJ): SAN_FLAGS :=
$(INTERPOSE_OBJ): ALL_CFLAGS += -fPIC -Irt/arch
$(OBJ)/rt/interpose/shared.o: ALL_CFLAGS += -DMIP_INTERPOSE_FOR_SHARED
$(INTERPOSE_OBJ): $(OBJ)/rt/interpose/%.o: rt/interpose/interpose.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(INTERPOSE_EXE): $(OBJ)/rt/interpose/exe.o
	@mkdir -p $(@D)
	cp $< $@
$(INTERPOSE_SHARED): $(OBJ)/rt/interpose/shared.o
	@mkdir -p $(@D)
	cp $< $@

# Continuous mode (rt/continuous/): an object mipcc links into an image
# only with -fmip-continuous, before the runtime, because the page padding
# it brings costs every image linked with it memory and file size
# (docs/runtime.md, "Continuous mode"). Built as the runtime is.
CONTINUOUS_OBJ := $(OBJ)/rt/continuous/continuous.o
CONTINUOUS     := $(LIB)/mip/mip_continuous.o
ALL_TARGETS += $(CONTINUOUS)

$(CONTINUOUS_OBJ): SAN_FLAGS :=
$(CONTINUOUS_OBJ): ALL_CFLAGS += $(RT_CFLAGS) $(call rt_arch_cflags,$(RT_HOST))

$(CONTINUOUS): $(CONTINUOUS_OBJ)
	@mkdir -p $(@D)
	cp $< $@

# The runtime for other targets, the way compiler-rt installs its
# libraries: lib/mip/TRIPLE/ holds libmip_rt.a and the objects above built
# for TRIPLE (the host's stay in lib/mip/), and mipcc takes them from
# there for --target=TRIPLE. Built for each triple of CROSS_TARGETS whose
# C library headers are installed (Debian's libc6-dev-arm64-cross for
# aarch64-linux-gnu; scripts/install-deps cross). No libmip_alloc.a: it
# needs the target's jemalloc (docs/alloc.md).
CROSS_TARGETS ?= aarch64-linux-gnu
CROSS_BUILT := $(foreach t,$(CROSS_TARGETS),$(if $(wildcard /usr/$(t)/include/stdio.h),$(t)))

# $(call cross_runtime,TRIPLE)
define cross_runtime
$(1)_RT_OBJ := $$(RT_SRC:%.c=$$(OBJ)/$(1)/%.o)
$(1)_INTERPOSE_OBJ := $$(OBJ)/$(1)/rt/interpose/exe.o $$(OBJ)/$(1)/rt/interpose/shared.o
$(1)_CONTINUOUS_OBJ := $$(OBJ)/$(1)/rt/continuous/continuous.o
ALL_TARGETS += $$(LIB)/mip/$(1)/libmip_rt.a \
  $$(LIB)/mip/$(1)/mip_interpose.o $$(LIB)/mip/$(1)/mip_interpose_shared.o \
  $$(LIB)/mip/$(1)/mip_continuous.o

$$($(1)_RT_OBJ) $$($(1)_INTERPOSE_OBJ) $$($(1)_CONTINUOUS_OBJ): SAN_FLAGS :=
$$($(1)_RT_OBJ) $$($(1)_CONTINUOUS_OBJ): ALL_CFLAGS += --target=$(1) \
  $$(RT_CFLAGS) $$(call rt_arch_cflags,$(1))
$$(filter $$(OBJ)/$(1)/rt/heap/%.o,$$($(1)_RT_OBJ)): ALL_CFLAGS += -O2 \
  $$(call rt_heap_arch_cflags,$(1))
$$(filter $$(OBJ)/$(1)/rt/pool/%.o,$$($(1)_RT_OBJ)): ALL_CFLAGS += -Os
$$($(1)_INTERPOSE_OBJ): ALL_CFLAGS += --target=$(1) -fPIC -Irt/arch
$$(OBJ)/$(1)/rt/interpose/shared.o: ALL_CFLAGS += -DMIP_INTERPOSE_FOR_SHARED

$$(OBJ)/$(1)/%.o: %.c
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_CFLAGS) -c $$< -o $$@
$$(OBJ)/$(1)/rt/interpose/%.o: rt/interpose/interpose.c
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_CFLAGS) -c $$< -o $$@

$$(LIB)/mip/$(1)/libmip_rt.a: $$($(1)_RT_OBJ)
	@mkdir -p $$(@D)
	rm -f $$@ && $$(AR) rcs $$@ $$^
$$(LIB)/mip/$(1)/mip_interpose.o: $$(OBJ)/$(1)/rt/interpose/exe.o
	@mkdir -p $$(@D)
	cp $$< $$@
$$(LIB)/mip/$(1)/mip_interpose_shared.o: $$(OBJ)/$(1)/rt/interpose/shared.o
	@mkdir -p $$(@D)
	cp $$< $$@
$$(LIB)/mip/$(1)/mip_continuous.o: $$($(1)_CONTINUOUS_OBJ)
	@mkdir -p $$(@D)
	cp $$< $$@
endef
$(foreach t,$(CROSS_BUILT),$(eval $(call cross_runtime,$(t))))
