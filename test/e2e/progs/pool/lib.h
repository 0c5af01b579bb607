/* The instrumented shared library of the pool test program. */
#ifndef POOL_LIB_H
#define POOL_LIB_H

long lib_mix(long n);
long lib_call_back(long (*fn)(long), long n);
void *lib_alloc(long n);
void lib_release(void *p);

#endif
