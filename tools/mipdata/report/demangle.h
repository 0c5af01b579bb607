#ifndef MIPDATA_DEMANGLE_H
#define MIPDATA_DEMANGLE_H

/* The demangled form of a C++ symbol, or a copy of name when it is not a
 * mangled one (C functions). Free with free(). */
char *demangle(const char *name);

#endif
