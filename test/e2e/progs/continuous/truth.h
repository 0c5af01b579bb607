/* The program's own count of its calls, the ground truth the test holds
 * MIP's profile to. truth.c is compiled without MIP and hidden, into each
 * image: every instrumented function of the test programs calls TALLY()
 * first, and the image writes what it counted with truth_write. */
#ifndef TRUTH_H
#define TRUTH_H

#define TALLY() tally(__func__)

void tally(const char *function);
/* Forgets everything counted so far (a forked child starts from zero, as
 * MIP's counters do). */
void truth_reset(void);
/* "function calls rank" per function called, rank being the order of its
 * first call (1, 2, ...). */
void truth_write(const char *path);
/* path and suffix, in a static buffer. */
const char *truth_name(const char *path, const char *suffix);
/* Writes "ready PID" to fd and waits to be killed. */
__attribute__((noreturn)) void truth_ready(int fd);

#endif
