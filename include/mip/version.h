/* MIP's version, defined here once: `mipdata --version` and
 * `mipcc --version` print it, with the LLVM version the build is for
 * (lib/version.c). */
#ifndef MIP_VERSION_H
#define MIP_VERSION_H

#define MIP_VERSION "0.1.0"

#endif
