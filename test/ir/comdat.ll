; A COMDAT (inline, template) function's counter and map record join its
; group, so the linker keeps or drops all three together.
; RUN: %opt -passes=mip-generate -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll

$_Z5twiceIiET_S0_ = comdat any

; The unit's own section holds the unit and the non-COMDAT function...
; CHECK: module asm ".pushsection .debug_mip,\22\22,%progbits"
; CHECK: module asm ".ascii \22user\22"
; CHECK: module asm ".popsection"
; ...and the template's record sits in its group.
; CHECK: module asm ".pushsection .debug_mip,\22G\22,%progbits,_Z5twiceIiET_S0_,comdat"
; CHECK: module asm ".ascii \22_Z5twiceIiET_S0_\22"
; CHECK: module asm ".popsection"
; CHECK: @__mip_1._Z5twiceIiET_S0_ = internal global i8 0, comdat($_Z5twiceIiET_S0_), align 1, !associated !{{[0-9]+}} #[[COV:[0-9]+]]
define linkonce_odr i32 @_Z5twiceIiET_S0_(i32 %x) comdat {
  %r = add i32 %x, %x
  ret i32 %r
}

define i32 @user(i32 %x) {
  %r = call i32 @_Z5twiceIiET_S0_(i32 %x)
  ret i32 %r
}

; CHECK: attributes #[[COV]] = { "bss-section"="__mip_cov" "data-section"="__mip_cov" }
