; On Armv7 the coverage probe loads the byte's pc-relative offset from a
; literal, adds pc, and stores 1 (Arm has no zero register, so the byte
; starts at 0 and takes no file bytes): Thumb-2, 4 instructions of 2 bytes
; and the 4-byte literal; Arm state, the same in 4-byte instructions.
; Order's first call is a plain call (Arm has no preserve_most); the map
; holds 32-bit addresses (R_ARM_ABS32, then 4 zero bytes), each function's
; flagged MIP_FN_THUMB_BIT; the link reference is R_ARM_REL32 (heap
; mode: armv7-heap.ll).
; REQUIRES: arm llvm-19+
; RUN: %opt -passes=mip-generate %s -o %t.bc
; RUN: %llc -O2 -relocation-model=pic -filetype=obj %t.bc -o %t.o
; RUN: %objdump -d -r %t.o | %FileCheck %s --check-prefix=THUMB
; RUN: sed 's/^target triple = .*/target triple = "armv7-unknown-linux-gnueabihf"/' %s | %opt -passes=mip-generate -o %t.arm.bc
; RUN: %llc -O2 -relocation-model=pic -filetype=obj %t.arm.bc -o %t.arm.o
; RUN: %objdump -d -r %t.arm.o | %FileCheck %s --check-prefix=ARM
; RUN: %objdump -h %t.o | %FileCheck %s --check-prefix=BSS
; RUN: %objdump -r %t.o | %FileCheck %s --check-prefix=MAP
; RUN: %opt -passes='mip-generate<order>' %s -S -o - | %FileCheck %s --check-prefix=ORD
target triple = "thumbv7-unknown-linux-gnueabihf"

; THUMB-LABEL: <leaf>:
; THUMB: ldr [[P:r[0-9]+]], [pc,
; THUMB: movs [[ONE:r[0-9]+]], #0x1
; THUMB-NEXT: add [[P]], pc
; THUMB-NEXT: 70{{[0-9a-f]+}} strb [[ONE]], [[[P]]]
; THUMB: R_ARM_REL32 __mip_1.leaf

; ARM-LABEL: <leaf>:
; ARM: e59f{{[0-9a-f]+}} ldr [[P:r[0-9]+]], [pc,
; ARM: mov [[ONE:r[0-9]+]], #1
; ARM: add [[P]], pc, [[P]]
; ARM-NEXT: strb [[ONE]], [[[P]]]
; ARM: R_ARM_REL32 __mip_1.leaf

; BSS: __mip_cov {{[0-9a-f]+}} {{[0-9a-f]+}} BSS

; MAP-LABEL: RELOCATION RECORDS FOR [.rodata.mip.link]:
; MAP-NEXT: OFFSET
; MAP-NEXT: R_ARM_REL32 __mip_link_with_mipcc_or_libmip_rt
; MAP-LABEL: RELOCATION RECORDS FOR [.debug_mip]:
; MAP-NEXT: OFFSET
; MAP-NEXT: 00000020 R_ARM_ABS32 __start___mip_cov
; MAP-NEXT: 00000028 R_ARM_ABS32 __stop___mip_cov
; MAP-NEXT: {{[0-9a-f]+}} R_ARM_ABS32 leaf
; MAP-NEXT: {{[0-9a-f]+}} R_ARM_ABS32 __mip_cov

; ORD: call void @__mip_first_call(
; ORD: declare hidden void @__mip_first_call(ptr, ptr)

define i32 @leaf(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}
