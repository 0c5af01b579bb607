/* What --version prints. MIP_LLVM_VERSION comes from the Makefile
 * (llvm-config --version of the LLVM the plugin is built against). */
#include "mip/version.h"
#include "mipfmt.h"

#ifndef MIP_LLVM_VERSION
#define MIP_LLVM_VERSION "unknown"
#endif

const char *mip_version(void) {
  return MIP_VERSION ", built for LLVM " MIP_LLVM_VERSION;
}
