#ifndef POOL_WORK_H
#define POOL_WORK_H

long step(long i);
long even_path(long n);
long odd_path(long n);
long rare_path(long n);
long heap_work(long n);

#endif
