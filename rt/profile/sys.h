/*
 * The system calls of the runtime's core, made directly rather than
 * through libc. Each libc function the runtime imports costs every
 * instrumented image a dynamic symbol, its name, a version entry, a GOT
 * slot and a relocation (about 70 bytes), where a direct call costs the
 * instructions that load its arguments; the 23 libc functions the core
 * no longer imports were about 1.2 KiB of every image (bench/README.md,
 * "The runtime's size").
 * What stays from libc is what only it can do: dl_iterate_phdr,
 * __register_atfork (fork.c), getenv, strerrordesc_np.
 *
 * Each returns what the kernel does: what its libc namesake returns on
 * success, -errno on failure. errno is never set: the core of the
 * runtime leaves the program's errno alone without saving it, and does
 * not import __errno_location (about 200 bytes of every image, its
 * import and its calls). Paths are taken from the current directory
 * (AT_FDCWD), as the libc calls take them.
 */
#ifndef MIP_RT_SYS_H
#define MIP_RT_SYS_H

#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <time.h>

#include "mip_rt.h"

/* System call nr with the arguments that follow it: the result, or
 * -errno. One entry point in assembly (rt/arch), declared once
 * per number of arguments: a call passes only the arguments the system
 * call takes (0s included: the kernel reads every argument of the call),
 * the registers of the others are left as they are and the kernel
 * ignores them. A sixth argument is always 0 (mmap's offset). */
/* A 32-bit kernel has the calls of 64-bit sizes and offsets under their
 * own names (Armv7: the runtime is built with _FILE_OFFSET_BITS=64, so
 * that struct stat is the kernel's stat64 and fcntl's lock commands the
 * 64-bit ones; rt/build.mk). mmap2's offset is in pages: 0 either way. */
#ifdef SYS_fstatat64
#define MIP_SYS_NR_FSTATAT SYS_fstatat64
#define MIP_SYS_NR_FSTAT SYS_fstat64
#define MIP_SYS_NR_FCNTL SYS_fcntl64
#define MIP_SYS_NR_MMAP SYS_mmap2
#else
#define MIP_SYS_NR_FSTATAT SYS_newfstatat
#define MIP_SYS_NR_FSTAT SYS_fstat
#define MIP_SYS_NR_FCNTL SYS_fcntl
#define MIP_SYS_NR_MMAP SYS_mmap
#endif
/* Armv7's geteuid is the old call of 16-bit user ids; geteuid32 gives
 * the whole id. */
#ifdef SYS_geteuid32
#define MIP_SYS_NR_GETEUID SYS_geteuid32
#else
#define MIP_SYS_NR_GETEUID SYS_geteuid
#endif

#define MIP_RT_SYSCALL_DECLARE(name, ...)                                      \
  MIP_RT_HIDDEN long name(long nr, ##__VA_ARGS__) __asm__("mip_rt_syscall")
MIP_RT_SYSCALL_DECLARE(mip_rt_syscall0);
MIP_RT_SYSCALL_DECLARE(mip_rt_syscall1, long);
MIP_RT_SYSCALL_DECLARE(mip_rt_syscall2, long, long);
MIP_RT_SYSCALL_DECLARE(mip_rt_syscall3, long, long, long);
MIP_RT_SYSCALL_DECLARE(mip_rt_syscall4, long, long, long, long);
MIP_RT_SYSCALL_DECLARE(mip_rt_syscall5, long, long, long, long, long);
#undef MIP_RT_SYSCALL_DECLARE

static inline ssize_t mip_sys_write(int fd, const void *buf, size_t size) {
  return mip_rt_syscall3(SYS_write, fd, (long)buf, (long)size);
}

/* All of buf to fd, through short writes and EINTR: 0, or -errno (a
 * write of nothing: -EIO). */
MIP_RT_HIDDEN int mip_rt_write_all(int fd, const void *buf, uint64_t size);

static inline int mip_sys_open(const char *path, int flags, int mode) {
  return (int)mip_rt_syscall4(SYS_openat, AT_FDCWD, (long)path, flags, mode);
}

static inline int mip_sys_close(int fd) {
  return (int)mip_rt_syscall1(SYS_close, fd);
}

static inline int mip_sys_fcntl(int fd, int cmd, long arg) {
  return (int)mip_rt_syscall3(MIP_SYS_NR_FCNTL, fd, cmd, arg);
}

static inline int mip_sys_stat(const char *path, struct stat *st) {
  return (int)mip_rt_syscall4(MIP_SYS_NR_FSTATAT, AT_FDCWD, (long)path, (long)st,
                              0);
}

/* What is at path itself: a symbolic link is not followed. */
static inline int mip_sys_lstat(const char *path, struct stat *st) {
  return (int)mip_rt_syscall4(MIP_SYS_NR_FSTATAT, AT_FDCWD, (long)path, (long)st,
                              AT_SYMLINK_NOFOLLOW);
}

static inline int mip_sys_fstat(int fd, struct stat *st) {
  return (int)mip_rt_syscall2(MIP_SYS_NR_FSTAT, fd, (long)st);
}

/* Cuts a file to nothing: the one length the runtime asks for, which
 * fits ftruncate's long on every target (a 32-bit kernel's 64-bit lengths
 * need ftruncate64 and a register pair). */
static inline int mip_sys_truncate_to_zero(int fd) {
  return (int)mip_rt_syscall2(SYS_ftruncate, fd, 0);
}

static inline int mip_sys_mkdir(const char *path, int mode) {
  return (int)mip_rt_syscall3(SYS_mkdirat, AT_FDCWD, (long)path, mode);
}

static inline int mip_sys_rename(const char *from, const char *to) {
  return (int)mip_rt_syscall4(SYS_renameat, AT_FDCWD, (long)from, AT_FDCWD,
                              (long)to);
}

static inline int mip_sys_unlink(const char *path) {
  return (int)mip_rt_syscall3(SYS_unlinkat, AT_FDCWD, (long)path, 0);
}

static inline ssize_t mip_sys_readlink(const char *path, char *buf,
                                       size_t size) {
  return mip_rt_syscall4(SYS_readlinkat, AT_FDCWD, (long)path, (long)buf,
                         (long)size);
}

static inline int mip_sys_uname(struct utsname *u) {
  return (int)mip_rt_syscall1(SYS_uname, (long)u);
}

static inline int mip_sys_getpid(void) {
  return (int)mip_rt_syscall0(SYS_getpid);
}

static inline int mip_sys_gettid(void) {
  return (int)mip_rt_syscall0(SYS_gettid);
}

static inline unsigned mip_sys_geteuid(void) {
  return (unsigned)mip_rt_syscall0(MIP_SYS_NR_GETEUID);
}

/* size random bytes from the kernel, without waiting for its pool at
 * boot: size, or -errno (-ENOSYS before Linux 3.17). */
static inline ssize_t mip_sys_getrandom(void *buf, size_t size) {
  return mip_rt_syscall3(SYS_getrandom, (long)buf, (long)size, GRND_NONBLOCK);
}

/* Anonymous private memory, read and write; NULL when there is none. */
static inline void *mip_sys_map(size_t size) {
  long p = mip_rt_syscall5(MIP_SYS_NR_MMAP, 0, (long)size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1);
  return (unsigned long)p > -4096UL ? NULL : (void *)p; /* -errno */
}

static inline int mip_sys_unmap(void *p, size_t size) {
  return (int)mip_rt_syscall2(SYS_munmap, (long)p, (long)size);
}

static inline int mip_sys_getrlimit(int resource, struct rlimit *limit) {
  return (int)mip_rt_syscall4(SYS_prlimit64, 0, resource, 0, (long)limit);
}

/* Signal masks as the kernel takes them: bit (signal - 1) of 64. */
#define MIP_SYS_SIGMASK(sig) ((uint64_t)1 << ((sig)-1))

static inline int mip_sys_sigmask(int how, const uint64_t *set, uint64_t *old) {
  return (int)mip_rt_syscall4(SYS_rt_sigprocmask, how, (long)set, (long)old, 8);
}

static inline int mip_sys_sigpending(uint64_t *set) {
  return (int)mip_rt_syscall2(SYS_rt_sigpending, (long)set, 8);
}

/* Takes a pending signal of set, if there is one, without waiting. */
static inline void mip_sys_sigtake(const uint64_t *set) {
  static const struct timespec now = {0, 0};
  mip_rt_syscall4(SYS_rt_sigtimedwait, (long)set, 0, (long)&now, 8);
}

#endif
