/*
 * rt/arch/armv7.h on the target: the thread pointer as the compiler
 * reads it, the trampoline (a jump through a word, entered in Thumb
 * state, to a function of either state) and the direct-jump decoder (a
 * Thumb b.w and an Arm b). Prints what each gave and
 * "ok" or "bad"; exits 1 if any is bad.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#include "arch.h"

int __attribute__((noinline, target("thumb"))) thumb_triple(int x) { return 3 * x; }
int __attribute__((noinline, target("arm"))) arm_double(int x) { return 2 * x; }

/* Functions that are one direct jump. */
__asm__(".text\n"
        ".p2align 2\n"
        ".thumb\n.thumb_func\n.globl thumb_jump\nthumb_jump: b.w thumb_triple\n"
        ".p2align 2\n"
        ".arm\n.globl arm_jump\n.type arm_jump, %function\narm_jump: b arm_double\n");
void thumb_jump(void);
void arm_jump(void);

static int failures;

static void expect(const char *what, uintptr_t got, uintptr_t want) {
  int ok = got == want;
  failures += !ok;
  printf("%s: %#lx %s\n", what, (unsigned long)got, ok ? "ok" : "bad");
}

int main(void) {
  expect("thread pointer", mip_rt_thread_pointer(),
         (uintptr_t)__builtin_thread_pointer());
  uint8_t *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (code == MAP_FAILED)
    return 2;
  static uint64_t word;
  int (*through)(int) = (int (*)(int))(uintptr_t)(code + 1);
  mip_rt_trampoline_put(code, &word);
  word = (uintptr_t)thumb_triple;
  expect("trampoline to Thumb code", (uintptr_t)through(14), 42);
  word = (uintptr_t)arm_double;
  expect("trampoline to Arm code", (uintptr_t)through(21), 42);
  expect("Thumb b.w", mip_rt_direct_jump((const uint8_t *)(uintptr_t)thumb_jump),
         (uintptr_t)thumb_triple);
  expect("Arm b", mip_rt_direct_jump((const uint8_t *)(uintptr_t)arm_jump),
         (uintptr_t)arm_double);
  expect("not a jump", mip_rt_direct_jump((const uint8_t *)(uintptr_t)thumb_triple), 0);
  return failures != 0;
}
