# make install / make uninstall: a toolchain's layout under $(PREFIX),
# staged under $(DESTDIR) when it is set (packaging).
#   bin/mipcc, bin/mipc++ (a link), bin/mipdata
#   lib/mip/       the runtime and the heap and allocation objects; links to
#                  the default LLVM release's plugin
#   lib/mip/llvm-N/  the plugin for LLVM release N, for each built
#   lib/mip/TRIPLE/  the runtime and its objects for another target
#   lib/pkgconfig/mip.pc
#   include/mip/   mip.h, alloc.h, version.h
#   share/man/man1/mipcc.1, mipc++.1 (a link), mipdata.1
#   share/doc/mip/ the documentation
INSTALL_ROOT := $(DESTDIR)$(PREFIX)
# The version is defined once, in include/mip/version.h.
MIP_VERSION  := $(shell sed -n 's/^\#define MIP_VERSION "\(.*\)"/\1/p' include/mip/version.h 2>/dev/null)
INSTALL_BIN  := mipdata mipcc
INSTALL_PLUGIN := libmip.so libmip-clang.so
INSTALL_LIB  := libmip_rt.a mip_interpose.o \
  mip_interpose_shared.o mip_continuous.o libmip_alloc.a libmip_rt.so \
  mip_rt_image.o
INSTALL_INCLUDE := mip.h alloc.h version.h
INSTALL_MAN  := mipcc.1 mipdata.1
INSTALL_DOC  := $(notdir $(wildcard docs/*.md))

# Other targets' runtimes (lib/mip/TRIPLE/, rt/build.mk), those built.
INSTALL_CROSS := mip_interpose.o mip_interpose_shared.o mip_continuous.o libmip_rt.a \
  libmip_rt.so mip_rt_image.o

install: all
	install -d $(INSTALL_ROOT)/bin $(INSTALL_ROOT)/lib/mip \
	  $(INSTALL_ROOT)/lib/pkgconfig $(INSTALL_ROOT)/include/mip \
	  $(INSTALL_ROOT)/share/man/man1 $(INSTALL_ROOT)/share/doc/mip
	install -m 755 $(INSTALL_BIN:%=$(BIN)/%) $(INSTALL_ROOT)/bin/
	ln -sf mipcc $(INSTALL_ROOT)/bin/mipc++
	install -m 644 $(INSTALL_LIB:%=$(LIB)/mip/%) $(INSTALL_ROOT)/lib/mip/
	$(foreach n,$(PLUGIN_LLVM),install -d $(INSTALL_ROOT)/lib/mip/llvm-$(n) && \
	  install -m 644 $(INSTALL_PLUGIN:%=$(LIB)/mip/llvm-$(n)/%) $(INSTALL_ROOT)/lib/mip/llvm-$(n)/ &&) true
	$(foreach f,$(INSTALL_PLUGIN),ln -sfn llvm-$(DEFAULT_LLVM)/$(f) $(INSTALL_ROOT)/lib/mip/$(f) &&) true
	$(foreach t,$(CROSS_BUILT),install -d $(INSTALL_ROOT)/lib/mip/$(t) && \
	  install -m 644 $(INSTALL_CROSS:%=$(LIB)/mip/$(t)/%) $(INSTALL_ROOT)/lib/mip/$(t)/ &&) true
	install -m 644 $(INSTALL_INCLUDE:%=include/mip/%) $(INSTALL_ROOT)/include/mip/
	install -m 644 $(INSTALL_MAN:%=docs/man/%) $(INSTALL_ROOT)/share/man/man1/
	ln -sf mipcc.1 $(INSTALL_ROOT)/share/man/man1/mipc++.1
	install -m 644 $(INSTALL_DOC:%=docs/%) $(INSTALL_ROOT)/share/doc/mip/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(MIP_VERSION)|' \
	  dist/mip.pc.in > $(INSTALL_ROOT)/lib/pkgconfig/mip.pc
	chmod 644 $(INSTALL_ROOT)/lib/pkgconfig/mip.pc

# Removes exactly what install copied, then the directories of MIP's own
# that are left empty.
uninstall:
	rm -f $(INSTALL_BIN:%=$(INSTALL_ROOT)/bin/%) $(INSTALL_ROOT)/bin/mipc++ \
	  $(INSTALL_LIB:%=$(INSTALL_ROOT)/lib/mip/%) \
	  $(INSTALL_PLUGIN:%=$(INSTALL_ROOT)/lib/mip/%) \
	  $(foreach n,$(PLUGIN_LLVM),$(INSTALL_PLUGIN:%=$(INSTALL_ROOT)/lib/mip/llvm-$(n)/%)) \
	  $(INSTALL_INCLUDE:%=$(INSTALL_ROOT)/include/mip/%) \
	  $(INSTALL_MAN:%=$(INSTALL_ROOT)/share/man/man1/%) \
	  $(INSTALL_ROOT)/share/man/man1/mipc++.1 \
	  $(INSTALL_DOC:%=$(INSTALL_ROOT)/share/doc/mip/%) \
	  $(INSTALL_ROOT)/lib/pkgconfig/mip.pc \
	  $(foreach t,$(CROSS_BUILT),$(INSTALL_CROSS:%=$(INSTALL_ROOT)/lib/mip/$(t)/%))
	-rmdir $(CROSS_BUILT:%=$(INSTALL_ROOT)/lib/mip/%) \
	  $(PLUGIN_LLVM:%=$(INSTALL_ROOT)/lib/mip/llvm-%) 2>/dev/null
	-rmdir $(INSTALL_ROOT)/lib/mip $(INSTALL_ROOT)/include/mip \
	  $(INSTALL_ROOT)/share/doc/mip 2>/dev/null
