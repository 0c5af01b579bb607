; On AArch64 a counted access adds 1 to the u64 at ((a >> 6) << 3) +
; 2^36 (include/mip/arch.h): the offset in a register, a shift and a
; mask, and a load, add and store of the counter. The link references are
; R_AARCH64_PLT32 (plugin/Target.cpp).
; REQUIRES: aarch64 llvm-16+
; RUN: %opt -passes='mip-generate<heap>' %s -o %t.bc
; RUN: %llc -O2 -filetype=obj %t.bc -o %t.o
; RUN: %objdump -d -r --no-show-raw-insn %t.o | %FileCheck %s
; RUN: %objdump -r %t.o | %FileCheck %s --check-prefix=REF
target triple = "aarch64-unknown-linux-gnu"

; CHECK-LABEL: <get>:
; CHECK-DAG: mov [[OFF:x[0-9]+]], #0x1000000000
; CHECK-DAG: lsr [[G:x[0-9]+]], x0, #3
; CHECK-DAG: and [[C:x[0-9]+]], [[G]], #0x1ffffffffffffff8
; CHECK: ldr [[N:x[0-9]+]], [[[C]], [[OFF]]]
; CHECK-NEXT: add [[N]], [[N]], #0x1
; CHECK-NEXT: str [[N]], [[[C]], [[OFF]]]
; CHECK: ret
define i32 @get(ptr %p) {
  %x = load i32, ptr %p
  ret i32 %x
}

; CHECK-LABEL: <local>:
; CHECK-NOT: #0x1000000000
; CHECK: ret
define i32 @local() {
  %a = alloca i32
  store i32 1, ptr %a
  %x = load i32, ptr %a
  ret i32 %x
}

; REF: R_AARCH64_PLT32 __mip_link_with_mipcc_or_libmip_rt
; REF: R_AARCH64_PLT32 __mip_heap_link
