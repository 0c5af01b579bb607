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
# DWARF 4, as for the runtime: valgrind 3.19 gives up on a program with
# any DWARF 5 in it, and this library goes into every hinted program.
$(ALLOC_OBJ): ALL_CFLAGS += -fPIC -fvisibility=hidden -gdwarf-4
# The standard operator new it falls back on may throw through it.
$(OBJ)/rt/alloc/new.o: ALL_CFLAGS += -fexceptions

$(ALLOC_LIB): $(ALLOC_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^
