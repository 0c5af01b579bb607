; On Armv7 a counted access adds 1, saturating (qadd), to the u32 at
; base + (((a >> 6) & mask) << 2), where {base, mask} is the image's
; __mip_heap_shadow, loaded once at the function's entry: {0x20000000,
; all ones} once the runtime has the shadow, {a word of its own, 0}
; before and when it cannot have it (include/mip/arch.h,
; rt/heap/heap_shadow.c). Thumb-2 and Arm state alike: the shift folded
; into the and, then the counter's load, qadd and store, 16 bytes. The
; preinit entry is one 4-byte word.
; REQUIRES: arm llvm-19+
; RUN: %opt -passes='mip-generate<heap>' %s -S -o %t.ll
; RUN: %FileCheck %s --check-prefix=IR --input-file=%t.ll
; RUN: %llc -O2 -relocation-model=pic -filetype=obj %t.ll -o %t.o
; RUN: %objdump -d -r --no-show-raw-insn %t.o | %FileCheck %s --check-prefix=THUMB
; RUN: sed 's/^target triple = .*/target triple = "armv7-unknown-linux-gnueabihf"/' %s | %opt -passes='mip-generate<heap>' -o %t.arm.bc
; RUN: %llc -O2 -relocation-model=pic -filetype=obj %t.arm.bc -o %t.arm.o
; RUN: %objdump -d -r --no-show-raw-insn %t.arm.o | %FileCheck %s --check-prefix=ARM
; RUN: %objdump -s -j .preinit_array %t.o | %FileCheck %s --check-prefix=PREINIT
; RUN: %objdump -r %t.o | %FileCheck %s --check-prefix=PREINIT-REL
target triple = "thumbv7-unknown-linux-gnueabihf"

; IR: @__mip_heap_shadow = external hidden global [2 x i32]
; IR-LABEL: define i32 @get(
; IR: %mip.shadow.base = load i32, ptr @__mip_heap_shadow, align 4, !nosanitize
; IR-NEXT: %mip.shadow.mask = load i32, ptr getelementptr inbounds ([2 x i32], ptr @__mip_heap_shadow, i32 0, i32 1), align 4, !nosanitize
; IR: %mip.granule = lshr i32 %{{.*}}, 6
; IR-NEXT: and i32 %mip.granule, %mip.shadow.mask
; IR-NEXT: shl i32 %{{.*}}, 2
; IR-NEXT: add i32 %mip.shadow.base,
; IR: %mip.accesses = load i32, ptr %mip.shadow, align 4, !nosanitize
; IR-NEXT: call i32 @llvm.sadd.sat.i32(i32 %mip.accesses, i32 1)
; IR-NEXT: store i32 {{.*}}, ptr %mip.shadow, align 4, !nosanitize
; IR-LABEL: define i32 @local(
; IR-NOT: __mip_heap_shadow
; IR: ret i32

; THUMB-LABEL: <get>:
; THUMB: ldrd [[B:r[0-9]+]], [[M:r[0-9]+]], [{{r[0-9]+}}]
; THUMB-NEXT: and.w [[G:r[0-9]+]], [[M]], r0, lsr #6
; THUMB-NEXT: ldr.w [[N:r[0-9]+]], [[[B]], [[G]], lsl #2]
; THUMB-NEXT: qadd [[N]], [[N]], {{r[0-9]+}}
; THUMB-NEXT: str.w [[N]], [[[B]], [[G]], lsl #2]
; THUMB: R_ARM_REL32 __mip_heap_shadow
; THUMB-LABEL: <local>:
; THUMB-NOT: qadd
; THUMB: bx lr

; ARM-LABEL: <get>:
; ARM: and [[G:r[0-9]+]], {{r[0-9]+}}, r0, lsr #6
; ARM: ldr [[N:r[0-9]+]], [[[B:r[0-9]+]], [[G]], lsl #2]
; ARM-NEXT: qadd [[N]], [[N]], {{r[0-9]+}}
; ARM-NEXT: str [[N]], [[[B]], [[G]], lsl #2]

; PREINIT: Contents of section .preinit_array:
; PREINIT-NEXT: 0000 00000000 ....
; PREINIT-REL-LABEL: RELOCATION RECORDS FOR [.preinit_array]:
; PREINIT-REL-NEXT: OFFSET
; PREINIT-REL-NEXT: 00000000 R_ARM_ABS32 __mip_heap_preinit
define i32 @get(ptr %p) {
  %x = load i32, ptr %p
  ret i32 %x
}

define i32 @local() {
  %a = alloca i32
  store volatile i32 1, ptr %a
  %x = load volatile i32, ptr %a
  ret i32 %x
}

define i32 @main() {
  ret i32 0
}
