# The Clang/LLVM plugin (the only C++ in the project), in two libraries:
#   libmip.so        the passes; LLVM only, so opt can load it
#   libmip-clang.so  clang's -fplugin glue, loaded by libmip.so when it
#                    finds itself inside clang (opt lacks clang's symbols,
#                    and loading clang's library into opt clashes)
#
# One pair per LLVM release, side by side in lib/mip/llvm-N/; lib/mip/
# itself links to the default release's (the newest built), which is what
# mipcc uses unless told otherwise (docs/llvm.md). PLUGIN_LLVM lists the
# releases: every supported one installed (Debian's /usr/lib/llvm-N with
# LLVM's and clang's headers), or only that of LLVM=N or LLVM_DIR= when
# the command line names one.
SUPPORTED_LLVM := 14 15 16 19
LLVM_MAJOR     := $(shell $(LLVM_DIR)/bin/llvm-config --version 2>/dev/null | cut -d. -f1)
llvm_installed  = $(wildcard /usr/lib/llvm-$(1)/include/clang/Frontend/FrontendPluginRegistry.h)
# Before 17 the plugin needs libxxhash's header too (plugin/Compat.h).
llvm_buildable  = $(and $(call llvm_installed,$(1)),$(if $(filter 14 15 16,$(1)),$(wildcard /usr/include/xxhash.h),yes))
ifneq ($(filter command% environment%,$(origin LLVM) $(origin LLVM_DIR)),)
PLUGIN_LLVM ?= $(LLVM_MAJOR)
else
PLUGIN_LLVM ?= $(sort $(LLVM_MAJOR) $(foreach n,$(SUPPORTED_LLVM),$(if $(call llvm_buildable,$(n)),$(n))))
$(foreach n,$(SUPPORTED_LLVM),$(if $(and $(call llvm_installed,$(n)),$(if $(call llvm_buildable,$(n)),,1)),\
  $(warning LLVM $(n) is installed but libxxhash-dev is not: no plugin for LLVM $(n) (MIP_LLVM=$(n) scripts/install-deps))))
endif
# Numeric order is the names' while releases have two digits.
DEFAULT_LLVM := $(lastword $(sort $(PLUGIN_LLVM)))
OTHER_LLVM   := $(filter-out $(DEFAULT_LLVM),$(PLUGIN_LLVM))
# Where release N lives: LLVM_DIR for its own release, Debian's place for
# the others.
llvm_dir = $(if $(filter $(1),$(LLVM_MAJOR)),$(LLVM_DIR),/usr/lib/llvm-$(1))

# How clang hands the passes to its code generator (ClangHook.h).
PLUGIN_HOOKS  := plugin/ClangHookCallbacks.cpp plugin/ClangHookPassPlugins.cpp
PLUGIN_SRC    := $(filter-out plugin/ClangAction.cpp $(PLUGIN_HOOKS) plugin/Before19.cpp,$(wildcard plugin/*.cpp))
# What rests on LLVM 19's MemProf context disambiguation and its profile
# inference over IR functions: before 19, Before19.cpp stands in for it
# (docs/llvm.md says what that leaves out).
PLUGIN_19_ONLY := plugin/LtoHints.cpp plugin/ContextHints.cpp plugin/FlowWeights.cpp
plugin_src     = $(if $(filter 1,$(shell test $(1) -ge 19 && echo 1)),$(PLUGIN_SRC),\
  $(filter-out $(PLUGIN_19_ONLY),$(PLUGIN_SRC)) plugin/Before19.cpp)
clang_hook     = plugin/ClangHook$(if $(filter 1,$(shell test $(1) -ge 17 && echo 1)),Callbacks,PassPlugins).cpp

PLUGIN        := $(LIB)/mip/libmip.so
PLUGIN_CLANG  := $(LIB)/mip/libmip-clang.so
PLUGINS       := $(foreach n,$(PLUGIN_LLVM),$(LIB)/mip/llvm-$(n)/libmip.so $(LIB)/mip/llvm-$(n)/libmip-clang.so)
ALL_TARGETS   += $(PLUGIN) $(PLUGIN_CLANG) $(PLUGINS)

# LLVM's headers are system headers to us: their warnings are not ours.
plugin_cxxflags = -std=c++17 $(WARN) -O2 -g -fPIC -fno-exceptions \
  -isystem $(call llvm_dir,$(1))/include -D_GNU_SOURCE -D__STDC_CONSTANT_MACROS \
  -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS -Iinclude -Ilib -MMD -MP

# $(call plugin_release,N): the rules of release N's pair.
define plugin_release
$(OBJ)/llvm-$(1)/plugin/%.o: plugin/%.cpp
	@mkdir -p $$(@D)
	$$(CXX) $$(call plugin_cxxflags,$(1)) -c $$< -o $$@

$(LIB)/mip/llvm-$(1)/libmip.so: $(patsubst %.cpp,$(OBJ)/llvm-$(1)/%.o,$(call plugin_src,$(1))) $(LIBMIPFMT)
	@mkdir -p $$(@D)
	$$(CXX) -shared -o $$@ $$^ -L$(call llvm_dir,$(1))/lib -lLLVM \
	  -ldl -Wl,-soname,libmip.so -Wl,-z,defs

# Finds libmip.so next to itself ($$ORIGIN), already loaded by then.
$(LIB)/mip/llvm-$(1)/libmip-clang.so: $(OBJ)/llvm-$(1)/plugin/ClangAction.o \
  $(patsubst %.cpp,$(OBJ)/llvm-$(1)/%.o,$(call clang_hook,$(1))) $(LIB)/mip/llvm-$(1)/libmip.so
	@mkdir -p $$(@D)
	$$(CXX) -shared -o $$@ $$^ \
	  $$(firstword $$(wildcard $(call llvm_dir,$(1))/lib/libclang-cpp.so.$(1)*)) \
	  -L$(call llvm_dir,$(1))/lib -lLLVM -Wl,-rpath,'$$$$ORIGIN' -Wl,-z,defs
endef
$(foreach n,$(PLUGIN_LLVM),$(eval $(call plugin_release,$(n))))

# lib/mip/libmip.so and libmip-clang.so: the default release's, by a
# relative link that an installed tree keeps.
$(PLUGIN) $(PLUGIN_CLANG): $(LIB)/mip/%: $(LIB)/mip/llvm-$(DEFAULT_LLVM)/%
	ln -sfn llvm-$(DEFAULT_LLVM)/$* $@
