# libmipfmt.a: the file formats, shared by mipdata and the plugin.
LIBMIPFMT_SRC := $(wildcard lib/*.c)
LIBMIPFMT_OBJ := $(LIBMIPFMT_SRC:%.c=$(OBJ)/%.o)
LIBMIPFMT     := $(LIB)/libmipfmt.a
ALL_TARGETS   += $(LIBMIPFMT)

# Position-independent, so the plugin (a shared object) can link it too.
$(LIBMIPFMT_OBJ): ALL_CFLAGS += -fPIC

$(LIBMIPFMT): $(LIBMIPFMT_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^
