; On x86-64 the call counter is one 7-byte `decq disp32(%rip)` (it counts
; down), and with order one `subq $1` whose borrow jumps to the first-call
; path: two instructions per call.
; REQUIRES: x86-64 llvm-16+
; RUN: %opt -passes='mip-generate<counts>' %s -o %t.bc
; RUN: %llc -O2 -filetype=obj %t.bc -o %t.o
; RUN: %objdump -d -r %t.o | %FileCheck %s
; RUN: %opt -passes='mip-generate<counts;order>' %s -o %t.co.bc
; RUN: %llc -O2 -filetype=obj %t.co.bc -o %t.co.o
; RUN: %objdump -d -r --no-show-raw-insn %t.co.o | %FileCheck %s --check-prefix=CO
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: <leaf>:
; CHECK-NEXT: 48 ff 0d 00 00 00 00 decq (%rip)
; CHECK-NEXT: R_X86_64_PC32 __mip_cnt-0x4
; CHECK-NEXT: c6 05 00 00 00 00 01 movb $0x1, (%rip)

; CO-LABEL: <leaf>:
; CO: subq $0x1, (%rip)
; CO-NEXT: R_X86_64_PC32 __mip_cnt-0x5
; CO-NEXT: jb
; CO-NOT: movb
; CO: callq
; CO-NEXT: R_X86_64_PLT32 __mip_first_call-0x4
define i32 @leaf(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}
