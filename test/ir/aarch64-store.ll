; On AArch64 the coverage probe is the byte's page (adrp) and a store of
; the zero register at the page offset: two instructions, 8 bytes, no
; flags, no load, no scratch value. The byte starts at 1 ("not yet") and
; is 0 once entered (include/mip/arch.h); order's first-call test is then
; a cbnz. Checked on the encoded instructions, in position-dependent and
; position-independent code alike.
; REQUIRES: aarch64 llvm-19+
; RUN: %opt -passes=mip-generate %s -o %t.bc
; RUN: %llc -O2 -filetype=obj %t.bc -o %t.o
; RUN: %objdump -d -r %t.o | %FileCheck %s
; RUN: %llc -O2 -relocation-model=pic -filetype=obj %t.bc -o %t.pic.o
; RUN: %objdump -d -r %t.pic.o | %FileCheck %s
; RUN: %objdump -s -j __mip_cov %t.o | %FileCheck %s --check-prefix=INIT
; RUN: %opt -passes='mip-generate<order>' %s -o %t.ord.bc
; RUN: %llc -O2 -filetype=obj %t.ord.bc -o %t.ord.o
; RUN: %objdump -d -r --no-show-raw-insn %t.ord.o | %FileCheck %s --check-prefix=ORD
target triple = "aarch64-unknown-linux-gnu"

; CHECK-LABEL: <leaf>:
; CHECK: adrp [[P:x[0-9]+]],
; CHECK-NEXT: R_AARCH64_ADR_PREL_PG_HI21 __mip_cov
; CHECK-NEXT: 3900011f strb wzr, [[[P]]]
; CHECK-NEXT: R_AARCH64_LDST8_ABS_LO12_NC __mip_cov
; CHECK-NEXT: ret

; INIT: Contents of section __mip_cov:
; INIT-NEXT: 0000 01

; ORD-LABEL: <leaf>:
; ORD: adrp [[P:x[0-9]+]],
; ORD-NEXT: R_AARCH64_ADR_PREL_PG_HI21 __mip_cov
; ORD-NEXT: ldrb [[B:w[0-9]+]], [[[P]]]
; ORD-NEXT: R_AARCH64_LDST8_ABS_LO12_NC __mip_cov
; ORD-NEXT: cbnz [[B]],
; ORD: bl
; ORD-NEXT: R_AARCH64_CALL26 __mip_first_call
define i32 @leaf(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}
