# libmip_alloc.a: the allocator side of allocation hints (docs/alloc.md),
# linked with -ljemalloc into programs rebuilt with a profile. Three
# objects, one per concern: arena.c (the arenas, the switch, the checks),
# hint.c (the C entry points), new.c (the C++ ones, which alone need the
# C++ runtime). Position-independent; internal symbols hidden, the entry
# points exported (so one copy serves the whole process); never sanitized
# or instrumented: jemalloc has to be the process's malloc, which no
# sanitizer allows.
ALLOC_SRC := $(wildcard rt/alloc/*.c)
ALLOC_OBJ := $(ALLOC_SRC:%.c=$(OBJ)/%.o)
ALLOC_LIB := $(LIB)/mip/libmip_alloc.a
ALL_TARGETS += $(ALLOC_LIB)

$(ALLOC_OBJ): SAN_FLAGS :=
$(ALLOC_OBJ): ALL_CFLAGS += -fPIC -fvisibility=hidden
# The standard operator new it falls back on may throw through it.
$(OBJ)/rt/alloc/new.o: ALL_CFLAGS += -fexceptions

$(ALLOC_LIB): $(ALLOC_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^
