; Instrumenting an instrumented module again (compiling saved IR) changes
; nothing.
; RUN: %opt -passes=mip-generate -S %s -o %t.once.ll
; RUN: %opt -passes=mip-generate -S %t.once.ll -o %t.twice.ll
; RUN: %FileCheck %s --input-file=%t.twice.ll
; CHECK-COUNT-1: module asm ".pushsection .debug_mip
; CHECK-NOT: module asm ".pushsection .debug_mip
; CHECK: @__mip_1.f = internal global
; CHECK-NOT: @__mip_1.f{{.*}} = internal global
; CHECK-COUNT-1: store atomic i8 1
; CHECK-NOT: store atomic i8 1
define void @f() {
  ret void
}
