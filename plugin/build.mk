# libmip.so: the Clang/LLVM plugin (the only C++ in the project).
LLVM_CONFIG  := $(LLVM_DIR)/bin/llvm-config
PLUGIN_SRC   := $(wildcard plugin/*.cpp)
PLUGIN_OBJ   := $(PLUGIN_SRC:%.cpp=$(OBJ)/%.o)
PLUGIN       := $(LIB)/mip/libmip.so
ALL_TARGETS  += $(PLUGIN)

# LLVM's headers are system headers to us: their warnings are not ours.
PLUGIN_CXXFLAGS = -std=c++17 $(WARN) -O2 -g -fPIC -fno-exceptions \
  -isystem $(LLVM_DIR)/include -D_GNU_SOURCE -D__STDC_CONSTANT_MACROS \
  -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS -Iinclude -Ilib -MMD -MP

# Linked against libclang-cpp as well as libLLVM so that opt, which has no
# clang in it, can load the same library.
$(PLUGIN): $(PLUGIN_OBJ) $(LIBMIPFMT)
	@mkdir -p $(@D)
	$(CXX) -shared -o $@ $(PLUGIN_OBJ) $(LIBMIPFMT) \
	  $(LLVM_DIR)/lib/libclang-cpp.so.19.1 -L$(LLVM_DIR)/lib -lLLVM -Wl,-z,defs

$(OBJ)/plugin/%.o: plugin/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(PLUGIN_CXXFLAGS) -c $< -o $@
