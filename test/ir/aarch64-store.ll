; On AArch64 the coverage probe is the byte's page (adrp), a register
; holding 1 and a byte store at the page offset: three instructions, 12
; bytes, no flags, no load. Checked on the encoded instructions, in
; position-dependent and position-independent code alike.
; REQUIRES: aarch64
; RUN: %opt -passes=mip-generate %s -o %t.bc
; RUN: %llc -O2 -filetype=obj %t.bc -o %t.o
; RUN: %objdump -d -r %t.o | %FileCheck %s
; RUN: %llc -O2 -relocation-model=pic -filetype=obj %t.bc -o %t.pic.o
; RUN: %objdump -d -r %t.pic.o | %FileCheck %s
target triple = "aarch64-unknown-linux-gnu"

; CHECK-LABEL: <leaf>:
; CHECK: adrp [[P:x[0-9]+]],
; CHECK-NEXT: R_AARCH64_ADR_PREL_PG_HI21 __mip_cov
; CHECK-NEXT: mov [[ONE:w[0-9]+]], #0x1
; CHECK-NEXT: strb [[ONE]], [[[P]]]
; CHECK-NEXT: R_AARCH64_LDST8_ABS_LO12_NC __mip_cov
; CHECK-NEXT: ret
define i32 @leaf(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}
