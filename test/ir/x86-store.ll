; On x86-64 the probe is one 7-byte instruction, movb $1, disp32(%rip):
; no register, no flags. Checked on the encoded bytes.
; REQUIRES: x86-64 llvm-16+
; RUN: %opt -passes=mip-generate %s -o %t.bc
; RUN: %llc -O2 -filetype=obj %t.bc -o %t.o
; RUN: %objdump -d -r %t.o | %FileCheck %s
; RUN: %llc -O2 -relocation-model=pic -filetype=obj %t.bc -o %t.pic.o
; RUN: %objdump -d -r %t.pic.o | %FileCheck %s
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: <leaf>:
; CHECK-NEXT: c6 05 00 00 00 00 01 movb $0x1, (%rip)
; CHECK-NEXT: R_X86_64_PC32 __mip_cov-0x5
define i32 @leaf(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}
