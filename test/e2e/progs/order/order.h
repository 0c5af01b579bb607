/* A program with a known shape, for test/e2e/order.sh: a start-up
 * sequence of functions called once each in a fixed order, a hot loop
 * with two call chains, and functions that are never called. */
#ifndef ORDER_PROG_H
#define ORDER_PROG_H

#define NOINLINE __attribute__((noinline))

/* init.c: the start-up sequence, and what runs once at the end */
void config_load(int argc);
void tables_init(void);
void log_open(void);
void progress(long i);
void report(unsigned long long acc);

/* work.c: hot chain work_step -> mix -> rotl */
unsigned long long work_step(unsigned long long x);
/* hash.c: hot chain hash_a -> hash_b */
unsigned long long hash_a(unsigned long long x);

/* cold.c: never called */
void never_a(void);
void never_b(int n);

#endif
