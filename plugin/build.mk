# The Clang/LLVM plugin (the only C++ in the project), in two libraries:
#   libmip.so        the passes; LLVM only, so opt can load it
#   libmip-clang.so  clang's -fplugin glue, loaded by libmip.so when it
#                    finds itself inside clang (opt lacks clang's symbols,
#                    and loading clang's library into opt clashes)
LLVM_CONFIG  := $(LLVM_DIR)/bin/llvm-config
PLUGIN_SRC   := $(filter-out plugin/ClangAction.cpp,$(wildcard plugin/*.cpp))
PLUGIN_OBJ   := $(PLUGIN_SRC:%.cpp=$(OBJ)/%.o)
PLUGIN       := $(LIB)/mip/libmip.so
PLUGIN_CLANG := $(LIB)/mip/libmip-clang.so
ALL_TARGETS  += $(PLUGIN) $(PLUGIN_CLANG)

# LLVM's headers are system headers to us: their warnings are not ours.
PLUGIN_CXXFLAGS = -std=c++17 $(WARN) -O2 -g -fPIC -fno-exceptions \
  -isystem $(LLVM_DIR)/include -D_GNU_SOURCE -D__STDC_CONSTANT_MACROS \
  -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS -Iinclude -Ilib -MMD -MP

$(PLUGIN): $(PLUGIN_OBJ) $(LIBMIPFMT)
	@mkdir -p $(@D)
	$(CXX) -shared -o $@ $(PLUGIN_OBJ) $(LIBMIPFMT) -L$(LLVM_DIR)/lib -lLLVM \
	  -ldl -Wl,-soname,libmip.so -Wl,-z,defs

# Finds libmip.so next to itself ($ORIGIN), already loaded by then.
$(PLUGIN_CLANG): $(OBJ)/plugin/ClangAction.o $(PLUGIN)
	@mkdir -p $(@D)
	$(CXX) -shared -o $@ $(OBJ)/plugin/ClangAction.o $(PLUGIN) \
	  $(LLVM_DIR)/lib/libclang-cpp.so.19.1 -L$(LLVM_DIR)/lib -lLLVM \
	  -Wl,-rpath,'$$ORIGIN' -Wl,-z,defs

$(OBJ)/plugin/%.o: plugin/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(PLUGIN_CXXFLAGS) -c $< -o $@
