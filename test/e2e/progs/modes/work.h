#ifndef WORK_H
#define WORK_H
void setup_a(void);
void setup_b(void);
long step(int i);
long rare(int n);
void never(void);
#endif
