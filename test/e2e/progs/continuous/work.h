#ifndef WORK_H
#define WORK_H

void setup(void);
long step(int i);
long rare(int n);
void never(void);
long child_work(int n);

/* The linked library (lib.c). */
long lib_work(int n);
void lib_truth(const char *path);

#endif
