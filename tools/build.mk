# mipdata and the mipcc/mipc++ driver. mipdata is layered, a folder a
# layer (README.md's table says what each holds): the dispatcher and the
# shared option parsing at the top, commands/ (one file per subcommand),
# report/ (the report model), output/ (the one output writer and the text
# reports), export/, diff/, flame/, dump/ and debuginfo/ (the binaries
# read). Headers are included by name from any layer.
MIPDATA_DIR  := tools/mipdata
MIPDATA_DIRS := $(MIPDATA_DIR) $(patsubst %/,%,$(sort $(dir $(wildcard $(MIPDATA_DIR)/*/*.c))))
MIPDATA_INCLUDES := $(addprefix -I,$(MIPDATA_DIRS))
MIPDATA_SRC := $(foreach d,$(MIPDATA_DIRS),$(wildcard $(d)/*.c))
# The flame graph page's script, styles and HTML (tools/mipdata/flame/),
# embedded as strings generated into the build directory (flame_assets.h).
FLAME_ASSETS := $(addprefix tools/mipdata/flame/,flame.html flame.css flame.js)
FLAME_ASSETS_C := $(BUILD)/gen/flame_assets.c
MIPDATA_OBJ := $(MIPDATA_SRC:%.c=$(OBJ)/%.o) $(OBJ)/gen/flame_assets.o
MIPDATA     := $(BIN)/mipdata
MIPDATA_LIBS := -lelf -ldwarf -lz -liberty -lm
# The report model (tools/mipdata/report*.c, docs/report.md) and what it
# needs, without its debug-binary adapter (report_debug.c): what the unit
# tests link.
REPORT_OBJ := $(patsubst %.c,$(OBJ)/%.o,$(filter-out %/report_debug.c,\
  $(wildcard tools/mipdata/report/report*.c tools/mipdata/output/report*.c)) \
  tools/mipdata/output/emit.c tools/mipdata/output/escape.c \
  tools/mipdata/output/text_name.c tools/mipdata/report/demangle.c)
# What mipdata export's writers share that the unit tests check: the
# protocol-buffer encoder and the tables of distinct strings.
EXPORT_UNIT_OBJ := $(OBJ)/tools/mipdata/export/protobuf.o $(OBJ)/tools/mipdata/export/export_util.o

# The flame graph's tree and arithmetic, which the unit tests link too.
FLAME_OBJ := $(OBJ)/tools/mipdata/flame/flame_tree.o $(OBJ)/tools/mipdata/flame/folded.o

$(FLAME_ASSETS_C): $(FLAME_ASSETS) tools/mipdata/flame/embed.sh
	@mkdir -p $(@D)
	tools/mipdata/flame/embed.sh $(FLAME_ASSETS) >$@.tmp && mv $@.tmp $@

$(OBJ)/gen/flame_assets.o: $(FLAME_ASSETS_C)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@
# diff's arithmetic of changes, which the unit tests check too.
DIFF_RATIO_OBJ := $(OBJ)/tools/mipdata/diff/diff_ratio.o

MIPCC_SRC := $(wildcard tools/mipcc/*.c)
MIPCC_OBJ := $(MIPCC_SRC:%.c=$(OBJ)/%.o)
MIPCC     := $(BIN)/mipcc
ALL_TARGETS += $(MIPDATA) $(MIPCC) $(BIN)/mipc++

$(MIPDATA_OBJ): ALL_CFLAGS += -I/usr/include/libdwarf $(MIPDATA_INCLUDES)

$(MIPDATA): $(MIPDATA_OBJ) $(LIBMIPFMT)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(MIPDATA_LIBS)

# The driver knows where the real compiler lives; everything else it finds
# next to itself (../lib/mip), so an installed tree works as a built one.
$(MIPCC_OBJ): ALL_CFLAGS += -DMIP_CLANG='"$(CLANG)"' -DMIP_CLANGXX='"$(CLANGXX)"' \
  -DMIP_LLVM_MAJOR=$(LLVM_MAJOR)

$(MIPCC): $(MIPCC_OBJ) $(LIBMIPFMT)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lelf

$(BIN)/mipc++: $(MIPCC)
	ln -sf mipcc $@
