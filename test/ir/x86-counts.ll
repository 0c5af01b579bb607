; On x86-64 the call counter is one 7-byte `incq disp32(%rip)`.
; RUN: %opt -passes='mip-generate<counts>' %s -o %t.bc
; RUN: %llc -O2 -filetype=obj %t.bc -o %t.o
; RUN: %objdump -d -r %t.o | %FileCheck %s
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: <leaf>:
; CHECK-NEXT: 48 ff 05 00 00 00 00 incq (%rip)
; CHECK-NEXT: R_X86_64_PC32 __mip_cnt-0x4
; CHECK-NEXT: c6 05 00 00 00 00 01 movb $0x1, (%rip)
define i32 @leaf(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}
