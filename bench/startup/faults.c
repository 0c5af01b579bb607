/*
 * bench/startup/faults.c: runs a program once and prints what it cost in
 * page faults, for `make bench-startup`.
 *
 *   faults [-d FILE] [-t] [-i STDIN] [-o STDOUT] -- PROGRAM [ARGS...]
 *
 * Prints one line: "minflt majflt wall_us cached_pages text_rss_kb"
 *   minflt, majflt  the child's minor and major page faults (wait4)
 *   wall_us         fork to reaped child, in microseconds
 *   cached_pages    with -d: pages of FILE in the page cache after the run
 *                   (mincore), i.e. what the run read of it; else -1
 *   text_rss_kb     with -t: resident KiB of the program's executable
 *                   mappings when it exits (/proc/PID/smaps, read while
 *                   the child is held at exit by ptrace); else -1
 *
 * -d FILE drops FILE from the page cache before the run (fdatasync, then
 * posix_fadvise POSIX_FADV_DONTNEED, which needs no privilege and works
 * on clean pages of a file no process maps), so the run reads it from
 * disk: its page faults on FILE become major faults.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what) {
  fprintf(stderr, "faults: %s: %s\n", what, strerror(errno));
  exit(1);
}

static void drop_from_cache(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    die(path);
  fdatasync(fd); /* dirty pages cannot be dropped; a fresh link has some */
  int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  if (rc) {
    errno = rc;
    die("posix_fadvise");
  }
  close(fd);
}

static long cached_pages(const char *path) {
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st))
    die(path);
  long page = sysconf(_SC_PAGESIZE);
  size_t pages = ((size_t)st.st_size + (size_t)page - 1) / (size_t)page;
  long n = 0;
  if (pages) {
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
      die("mmap");
    unsigned char *vec = malloc(pages);
    if (!vec || mincore(map, (size_t)st.st_size, vec))
      die("mincore");
    for (size_t i = 0; i < pages; i++)
      n += vec[i] & 1;
    free(vec);
    munmap(map, (size_t)st.st_size);
  }
  close(fd);
  return n;
}

/* Resident KiB of the executable mappings of the process's own file. */
static long text_rss_kb(pid_t pid) {
  char path[64], exe[PATH_MAX];
  snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
  ssize_t n = readlink(path, exe, sizeof exe - 1);
  if (n < 0)
    return -1;
  exe[n] = 0;
  snprintf(path, sizeof path, "/proc/%d/smaps", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  char line[PATH_MAX + 256];
  int in_text = 0;
  long kb = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    char perms[8];
    int used = 0;
    if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &lo, &hi, perms, &used) ==
            3 &&
        used) {
      char *name = line + used;
      name[strcspn(name, "\n")] = 0;
      in_text = perms[2] == 'x' && strcmp(name, exe) == 0;
      continue;
    }
    long v;
    if (in_text && sscanf(line, "Rss: %ld kB", &v) == 1)
      kb += v;
  }
  fclose(f);
  return kb;
}

static void redirect(const char *path, int fd, int flags) {
  if (!path)
    return;
  int f = open(path, flags, 0644);
  if (f < 0 || dup2(f, fd) < 0)
    die(path);
  close(f);
}

int main(int argc, char **argv) {
  const char *drop = NULL, *in = NULL, *out = NULL;
  int trace = 0, c;
  while ((c = getopt(argc, argv, "+d:ti:o:")) != -1) {
    switch (c) {
    case 'd':
      drop = optarg;
      break;
    case 't':
      trace = 1;
      break;
    case 'i':
      in = optarg;
      break;
    case 'o':
      out = optarg;
      break;
    default:
      fprintf(stderr, "usage: faults [-d FILE] [-t] [-i STDIN] [-o STDOUT] "
                      "-- PROGRAM [ARGS...]\n");
      return 2;
    }
  }
  if (optind >= argc) {
    fprintf(stderr, "faults: no program\n");
    return 2;
  }
  if (drop)
    drop_from_cache(drop);

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid < 0)
    die("fork");
  if (pid == 0) {
    redirect(in, 0, O_RDONLY);
    redirect(out, 1, O_WRONLY | O_CREAT | O_TRUNC);
    if (trace && ptrace(PTRACE_TRACEME, 0, NULL, NULL))
      die("ptrace");
    execv(argv[optind], argv + optind);
    die(argv[optind]);
  }

  long rss = -1;
  int status;
  struct rusage ru;
  for (;;) {
    if (wait4(pid, &status, 0, &ru) < 0)
      die("wait4");
    if (!WIFSTOPPED(status))
      break;
    int sig = WSTOPSIG(status);
    if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
      rss = text_rss_kb(pid);
      sig = 0;
    } else if (sig == SIGTRAP) { /* the stop after execve */
      if (ptrace(PTRACE_SETOPTIONS, pid, NULL,
                 (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL)))
        die("ptrace");
      sig = 0;
    }
    if (ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig))
      die("ptrace");
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (!WIFEXITED(status) || WEXITSTATUS(status)) {
    fprintf(stderr, "faults: %s failed (status 0x%x)\n", argv[optind], status);
    return 1;
  }
  long wall =
      (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000L;
  printf("%ld %ld %ld %ld %ld\n", ru.ru_minflt, ru.ru_majflt, wall,
         drop ? cached_pages(drop) : -1L, rss);
  return 0;
}
