# libmipfmt.a: the file formats, shared by mipdata and the plugin.
LIBMIPFMT_SRC := $(wildcard lib/*.c)
LIBMIPFMT_OBJ := $(LIBMIPFMT_SRC:%.c=$(OBJ)/%.o)
LIBMIPFMT     := $(LIB)/libmipfmt.a
ALL_TARGETS   += $(LIBMIPFMT)

# Position-independent, so the plugin (a shared object) can link it too.
$(LIBMIPFMT_OBJ): ALL_CFLAGS += -fPIC

# MIP's own version is in include/mip/version.h; the LLVM version it is
# built for (the plugin's) comes from llvm-config, for --version.
LLVM_VERSION := $(shell $(LLVM_DIR)/bin/llvm-config --version 2>/dev/null)
$(OBJ)/lib/version.o: ALL_CFLAGS += -DMIP_LLVM_VERSION='"$(or $(LLVM_VERSION),unknown)"'

$(LIBMIPFMT): $(LIBMIPFMT_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^
