# libmip_rt.a: the runtime linked into every instrumented image.
# Position-independent (it goes into shared libraries too), hidden by
# default (each image keeps its own copy), never sanitized or
# instrumented itself.
RT_SRC := $(wildcard rt/*.c)
RT_OBJ := $(RT_SRC:%.c=$(OBJ)/%.o)
RT_LIB := $(LIB)/mip/libmip_rt.a
ALL_TARGETS += $(RT_LIB)

$(RT_OBJ): SAN_FLAGS :=
$(RT_OBJ): ALL_CFLAGS += -fPIC -fvisibility=hidden -fno-profile-instr-generate

$(RT_LIB): $(RT_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^
