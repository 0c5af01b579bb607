# libmip_rt.a: the runtime linked into every instrumented image, one
# archive from three folders:
#   rt/profile/  what every image links: counters, first-call order, edge
#                samples, the raw profile and when it is written
#   rt/heap/     heap mode's runtime (allocation contexts, live blocks,
#                access counters); only heap images link it
#   rt/pool/     pool mode's merge of a run into a pooled raw file (%Nm),
#                which only images linked with mipcc -fmip-pool pull out
#                (include/mip/link.h)
# (rt/shared/ is the shared runtime's, built apart: below.)
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
# RT_CODEGEN_FLAGS are those that also make machine code out of bitcode
# (the core below).
RT_CODEGEN_FLAGS := -fPIC -gdwarf-4 -Oz \
  -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-plt \
  -ffunction-sections -fdata-sections
RT_CFLAGS := $(RT_CODEGEN_FLAGS) -fvisibility=hidden $(RT_INCLUDES)
# $(call rt_arch_cflags,TRIPLE): on AArch64, atomics inline (LL/SC)
# rather than calls to libgcc's helpers, which would bring their LSE
# test, a constructor and an import with them (660 bytes of the empty
# coverage program): the runtime's atomics run at start-up and when a
# profile is written. The heap runtime, whose atomics run at every
# allocation, keeps the helpers (rt_heap_arch_cflags).
# And no frame pointers, which AArch64 keeps by default (x86-64 does not
# at -Oz): 432 bytes of the core's code. Nothing walks the runtime's own
# frames; the heap runtime, whose hooks start the walks of the program's
# frame records (heap_unwind.c), keeps them: on Armv7 AAPCS frame records
# in r11, as mipcc has heap code keep them (Thumb code would keep r7's,
# which Arm state code does not follow).
# On Armv7, Thumb-2 (30% less code than Arm state: rt/profile is 9,995
# bytes of text against 14,355; programs in
# either state call it alike) without frame pointers, which it keeps by
# default too; its atomics are ldrex/strex inline. 64-bit file offsets
# and struct stat as the kernel's stat64 (rt/profile/sys.h).
rt_arch_cflags = $(if $(filter aarch64%,$(1)),-mno-outline-atomics -fomit-frame-pointer)$(if \
  $(filter armv7%,$(1)),-mthumb -fomit-frame-pointer -D_FILE_OFFSET_BITS=64)
rt_heap_arch_cflags = $(if $(filter aarch64%,$(1)),-moutline-atomics -fno-omit-frame-pointer)$(if \
  $(filter armv7%,$(1)),-fno-omit-frame-pointer -mframe-chain=aapcs)
RT_HOST := $(shell $(CC) -dumpmachine)
$(RT_OBJ): ALL_CFLAGS += $(RT_CFLAGS) $(call rt_arch_cflags,$(RT_HOST))
# Except the heap runtime, which runs at every allocation and free:
# optimized for speed (Lua's bench run, 6.2 million blocks, 11% faster
# than at -Os, for 6 KiB more text).
$(filter $(OBJ)/rt/heap/%.o,$(RT_OBJ)): ALL_CFLAGS += -O2 \
  $(call rt_heap_arch_cflags,$(RT_HOST))
# The hooks and the interposed functions, which see every block, read
# their thread's countdown and notes through TLS descriptors on x86-64
# (-mtls-dialect=gnu2, AArch64's own default): that access is a call
# which keeps every register, so that a block a sampled run passes over
# costs the hook no register saved. (The default's __tls_get_addr call,
# which the link of an executable turns into a load, still makes the
# compiler save every argument: 20 of the 35 instructions of such a
# hook.) General registers only: glibc before 2.40 may clobber vector
# registers in the descriptor call of a dlopen'd library's dynamic TLS.
# Where the compiler knows them for x86-64 (clang 19 does, 16 does not:
# then the default's, slower and as right).
RT_CC_TLSDESC := $(shell $(CC) --target=x86_64-linux-gnu -mtls-dialect=gnu2 \
  -x c -c /dev/null -o /dev/null 2>/dev/null && echo yes)
rt_heap_tls_cflags = $(if $(RT_CC_TLSDESC),$(if $(filter x86_64%,$(1)),-mtls-dialect=gnu2 -mgeneral-regs-only))
RT_HEAP_TLS_SRC := rt/heap/heap_hooks.c rt/heap/heap_interpose.c
$(RT_HEAP_TLS_SRC:%.c=$(OBJ)/%.o): ALL_CFLAGS += $(call rt_heap_tls_cflags,$(RT_HOST))
# And pool mode's merge, linked only for it (-fmip-pool), stays at -Os:
# the figures of `make bench-pool` (docs/runtime.md) were taken so.
$(filter $(OBJ)/rt/pool/%.o,$(RT_OBJ)): ALL_CFLAGS += -Os

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

# The core: what every image links out of rt/profile (an empty coverage
# program pulls exactly these members). It goes into the archive as ONE
# object, mip_rt_core.o, compiled as one module: the files' bitcode
# linked, every symbol that nothing outside the core needs made internal,
# optimized for size again across the files, then compiled with the same
# code generation flags (and debug info) as the other members. The other
# members of rt/profile (order.c, edges.c, write_fd.c) stay apart, as do
# rt/heap and rt/pool: the archive pulls them only when an image refers to
# them. The unit tests link the per-file objects (test/build.mk).
# The empty coverage program's text+data, against the objects linked
# apart: 157 bytes less on x86-64, 508 on AArch64 (bench/README.md, "The
# runtime's size", which also says what a whole link-time optimization
# takes that this cannot: the symbols the other members use, the weak
# stand-ins, mip_dump).
RT_CORE := exit write path util report image dump note options fork \
  continuous_stub sys
# And beside it, mip_rt_api.o: a copy of the core's files that keep no
# state and that only pool and continuous mode call from outside (the
# writer, the profile's name), compiled as one module too. The archive
# pulls it only for them; in the core those functions are internal,
# inlined and specialized for its own calls (the empty coverage program,
# loaded bytes over plain: 9,243 -> 8,780 on x86-64, 10,004 -> 9,496 on
# AArch64, 7,496 -> 7,196 on Armv7; with -fmip-pool or -fmip-continuous
# about 2.5 KiB more for the copy: bench/README.md). The core exports
# what the copy uses of it.
RT_API := write path
LLVM_LINK    := $(LLVM_DIR)/bin/llvm-link
LLVM_OPT     := $(LLVM_DIR)/bin/opt
LLVM_NM      := $(LLVM_DIR)/bin/llvm-nm
LLVM_READELF := $(LLVM_DIR)/bin/llvm-readelf
# What stays global (hidden, as before) in the core, computed from the
# objects: every symbol that an object linked with it (the rest of the
# archive, the continuous and interposer objects) leaves undefined; and,
# out of the core's own symbols (llvm-readelf -s), every weak definition
# (the stand-ins that order.o, edges.o, pool and continuous mode
# override: they must stay weak, which also keeps them from being
# inlined), every symbol of default visibility (mip_dump) and every
# __mip_* symbol (the link anchors of include/mip/link.h).
# Over llvm-readelf -s --wide (Num Value Size Type Bind Vis Ndx Name):
# what the core exports of its own; and its global symbols, "NAME BIND".
RT_CORE_EXPORTED := '$$7 != "UND" && ($$5 == "WEAK" || \
  ($$5 == "GLOBAL" && ($$6 != "HIDDEN" || $$8 ~ /^__mip_/))) { print $$8 }'
RT_CORE_GLOBALS := '$$7 != "UND" && ($$5 == "GLOBAL" || $$5 == "WEAK") \
  { print $$8, $$5 }'

# $(call rt_core,KEY,OBJDIR,TARGET_CFLAGS,RT_OBJ,LINKED_OBJ,ARCHIVE): the
# core of the runtime in OBJDIR/rt/core/, and ARCHIVE with it in place of
# the core's members of RT_OBJ. LINKED_OBJ: the objects linked beside the
# archive, whose references the core must keep.
define rt_core
$(1)_CORE_OBJ := $$(RT_CORE:%=$(2)/rt/profile/%.o)
$(1)_CORE_BC := $$(RT_CORE:%=$(2)/rt/core/%.bc)
$(1)_CORE_REST := $$(filter-out $$($(1)_CORE_OBJ),$(4))
$(1)_API_BC := $$(RT_API:%=$(2)/rt/core/%.bc)

$$($(1)_CORE_BC): SAN_FLAGS :=
$$($(1)_CORE_BC): ALL_CFLAGS += $$(RT_CFLAGS) $(3)
$$($(1)_CORE_BC): $(2)/rt/core/%.bc: rt/profile/%.c
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_CFLAGS) -flto -c $$< -o $$@

# mip_rt_api.o: the copy, optimized as the core is but all its symbols
# kept.
$(2)/rt/core/mip_rt_api.o: $$($(1)_API_BC)
	$$(LLVM_LINK) $$^ -o $$@.bc
	$$(LLVM_OPT) -passes='default<Oz>' $$@.bc -o $$@.opt.bc
	$$(CC) $$(WARN) $$(RT_CODEGEN_FLAGS) $(3) -c $$@.opt.bc -o $$@

# What the core exports: what the rest of the archive, the objects linked
# beside it and mip_rt_api.o leave undefined, but what mip_rt_api.o
# defines itself (api.txt.copied).
$(2)/rt/core/api.txt: $$($(1)_CORE_OBJ) $$($(1)_CORE_REST) $(5) \
  $(2)/rt/core/mip_rt_api.o
	@mkdir -p $$(@D)
	$$(LLVM_NM) -A -u $$($(1)_CORE_REST) $(5) $(2)/rt/core/mip_rt_api.o \
	  >$$@.undefined
	$$(LLVM_NM) -g -j --defined-only $(2)/rt/core/mip_rt_api.o >$$@.copied
	$$(LLVM_READELF) -s --wide $$($(1)_CORE_OBJ) >$$@.symbols
	awk '{ print $$$$NF }' $$@.undefined | grep -vxF -f $$@.copied >$$@.tmp || true
	awk $$(RT_CORE_EXPORTED) $$@.symbols >>$$@.tmp
	sort -u -o $$@ $$@.tmp

$(2)/rt/core/core.bc: $$($(1)_CORE_BC)
	$$(LLVM_LINK) $$^ -o $$@

$(2)/rt/core/core.opt.bc: $(2)/rt/core/core.bc $(2)/rt/core/api.txt
	$$(LLVM_OPT) -passes='internalize,default<Oz>' \
	  -internalize-public-api-file=$(2)/rt/core/api.txt $$< -o $$@

# Then the check that it exports everything the per-file objects
# exported to the rest (api.txt.symbols, their symbol tables), the weak
# stand-ins still weak. It may export more: a symbol defined in the
# core's module assembly (mip_rt_syscall, sys.c) stays global, hidden.
$(2)/rt/core/mip_rt_core.o: $(2)/rt/core/core.opt.bc
	$$(CC) $$(WARN) $$(RT_CODEGEN_FLAGS) $(3) -c $$< -o $$@.tmp.o
	$$(LLVM_READELF) -s --wide $$@.tmp.o >$$@.symbols
	awk $$(RT_CORE_GLOBALS) $$@.symbols | sort -u >$$@.globals
	awk $$(RT_CORE_GLOBALS) $(2)/rt/core/api.txt.symbols | sort -u | \
	  awk 'NR == FNR { kept[$$$$1]; next } $$$$1 in kept' $(2)/rt/core/api.txt - \
	  >$$@.expected
	test -s $$@.expected && comm -23 $$@.expected $$@.globals >$$@.missing
	test ! -s $$@.missing || { cat $$@.missing; false; }
	mv $$@.tmp.o $$@

$(6): $(2)/rt/core/mip_rt_core.o $(2)/rt/core/mip_rt_api.o $$($(1)_CORE_REST)
	@mkdir -p $$(@D)
	rm -f $$@ && $$(AR) rcs $$@ $$^
endef
$(eval $(call rt_core,host,$(OBJ),$(call rt_arch_cflags,$(RT_HOST)),$(RT_OBJ),\
  $(CONTINUOUS_OBJ) $(INTERPOSE_OBJ),$(RT_LIB)))

# The runtime for other targets, the way compiler-rt installs its
# libraries: lib/mip/TRIPLE/ holds libmip_rt.a and the objects above built
# for TRIPLE (the host's stay in lib/mip/), and mipcc takes them from
# there for --target=TRIPLE. Built for each triple of CROSS_TARGETS whose
# C library headers are installed (Debian's libc6-dev-arm64-cross in
# /usr/aarch64-linux-gnu for aarch64-linux-gnu, libc6-dev-armhf-cross in
# /usr/arm-linux-gnueabihf for armv7a-linux-gnueabihf: Debian's triple
# says arm, clang's must say armv7a for Armv7-A code; scripts/install-deps
# cross). No libmip_alloc.a: it needs the target's jemalloc (docs/alloc.md).
CROSS_TARGETS ?= aarch64-linux-gnu armv7a-linux-gnueabihf
cross_sysroot = /usr/$(patsubst armv7a-%,arm-%,$(1))
CROSS_BUILT := $(foreach t,$(CROSS_TARGETS),$(if $(wildcard $(call cross_sysroot,$(t))/include/stdio.h),$(t)))

# $(call cross_sources,TRIPLE): the runtime's sources for TRIPLE.
cross_sources = $(RT_SRC)

# $(call cross_runtime,TRIPLE)
define cross_runtime
$(1)_RT_OBJ := $$(patsubst %.c,$$(OBJ)/$(1)/%.o,$$(call cross_sources,$(1)))
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
$$(RT_HEAP_TLS_SRC:%.c=$$(OBJ)/$(1)/%.o): ALL_CFLAGS += $$(call rt_heap_tls_cflags,$(1))
$$(filter $$(OBJ)/$(1)/rt/pool/%.o,$$($(1)_RT_OBJ)): ALL_CFLAGS += -Os
$$($(1)_INTERPOSE_OBJ): ALL_CFLAGS += --target=$(1) -fPIC -Irt/arch
$$(OBJ)/$(1)/rt/interpose/shared.o: ALL_CFLAGS += -DMIP_INTERPOSE_FOR_SHARED

$$(OBJ)/$(1)/%.o: %.c
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_CFLAGS) -c $$< -o $$@
$$(OBJ)/$(1)/rt/interpose/%.o: rt/interpose/interpose.c
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_CFLAGS) -c $$< -o $$@

$$(eval $$(call rt_core,$(1),$$(OBJ)/$(1),--target=$(1) $$(call rt_arch_cflags,$(1)),\
  $$($(1)_RT_OBJ),$$($(1)_CONTINUOUS_OBJ) $$($(1)_INTERPOSE_OBJ),\
  $$(LIB)/mip/$(1)/libmip_rt.a))
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

# The shared runtime (mipcc -fmip-shared-runtime; rt/shared/): for a
# program of many instrumented images, libmip_rt.so once for the process
# and, in each image, mip_rt_image.o: its counters' bounds, its note and
# the calls that register it and write its profile. libmip_rt.so is the
# core of rt/profile built with MIP_RT_SHARED (given each image rather
# than finding its own), rt/shared/runtime.c and pool mode's merge; no
# order, edges or heap runtime: their state is an image's own
# (docs/mipcc.md says what a link of such objects does).
SHARED_RT_SRC := $(RT_CORE:%=rt/profile/%.c) rt/profile/write_fd.c \
  rt/profile/dump_all.c rt/profile/probe.c \
  rt/shared/runtime.c $(filter-out rt/pool/merge_heap.c,$(wildcard rt/pool/*.c))
SHARED_RT_CFLAGS = $(RT_CFLAGS) -Irt/shared -DMIP_RT_SHARED
# -z defs: every symbol it uses is its own or libc's.
SHARED_RT_LDFLAGS := -shared -Wl,-soname,libmip_rt.so -Wl,--gc-sections -Wl,-z,defs

# $(call shared_runtime,KEY,OBJDIR,TARGET_CFLAGS,TARGET_LDFLAGS,LIBDIR)
define shared_runtime
$(1)_SHARED_RT_OBJ := $$(SHARED_RT_SRC:%.c=$(2)/shared/%.o)
ALL_TARGETS += $(5)/libmip_rt.so $(5)/mip_rt_image.o

$$($(1)_SHARED_RT_OBJ) $(2)/shared/image.o: SAN_FLAGS :=
$$($(1)_SHARED_RT_OBJ) $(2)/shared/image.o: ALL_CFLAGS += $$(SHARED_RT_CFLAGS) $(3)
$$(filter $(2)/shared/rt/pool/%.o,$$($(1)_SHARED_RT_OBJ)): ALL_CFLAGS += -Os
$$($(1)_SHARED_RT_OBJ): $(2)/shared/%.o: %.c
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_CFLAGS) -c $$< -o $$@
$(2)/shared/image.o: rt/shared/image.c
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_CFLAGS) -c $$< -o $$@

$(5)/libmip_rt.so: $$($(1)_SHARED_RT_OBJ)
	@mkdir -p $$(@D)
	$$(CC) $(3) $(4) $$(SHARED_RT_LDFLAGS) $$^ -o $$@
$(5)/mip_rt_image.o: $(2)/shared/image.o
	@mkdir -p $$(@D)
	cp $$< $$@
endef
$(eval $(call shared_runtime,host,$(OBJ),$(call rt_arch_cflags,$(RT_HOST)),,$(LIB)/mip))
$(foreach t,$(CROSS_BUILT),$(eval $(call shared_runtime,$(t),$(OBJ)/$(t),\
  --target=$(t) $(call rt_arch_cflags,$(t)),-fuse-ld=lld,$(LIB)/mip/$(t))))
