; Entry coverage: one private byte per defined function, in __mip_cov, tied
; to its function, set by a single store at entry.
; RUN: %opt -passes=mip-generate -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll

; The map comes first in the printed module: a non-allocated section, one
; unit record, then one record per function, with link-time references to
; the counter section, the functions and their counters.
; CHECK: module asm ".pushsection .debug_mip,\22\22,%progbits"
; CHECK: module asm ".quad __start___mip_cov"
; CHECK: module asm ".quad __stop___mip_cov"
; CHECK: module asm ".quad plain"
; CHECK: module asm ".quad __mip_1.plain"
; CHECK: module asm ".ascii \22plain\22"
; CHECK: module asm ".quad local"
; CHECK: module asm ".ascii \22local\22"
; The unit's name follows a local function's name.
; CHECK-NEXT: module asm ".byte 0"
; CHECK-NEXT: module asm ".ascii \22{{.*}}entry-coverage.ll\22"
; CHECK: module asm ".popsection"

; CHECK: @__mip_1.plain = internal global i8 0, align 1, !associated ![[PLAIN:[0-9]+]] #[[COV:[0-9]+]]
; CHECK: @__mip_1.local = internal global i8 0, align 1, !associated ![[LOCAL:[0-9]+]] #[[COV]]
; CHECK-NOT: @__mip_1.declared
; CHECK-NOT: @__mip_1.naked
; CHECK-NOT: @__mip_1.not_profiled
; CHECK-NOT: @__mip_1.inline_copy
; CHECK: @llvm.compiler.used = appending global {{.*}}@__mip_1.plain{{.*}}@__mip_1.local

define i32 @plain(i32 %x) {
; CHECK-LABEL: define i32 @plain(
; CHECK-NEXT: store atomic i8 1, ptr @__mip_1.plain monotonic, align 1
; CHECK-NEXT: add i32
  %r = add i32 %x, 1
  ret i32 %r
}

define internal i32 @local(i32 %x) {
; CHECK-LABEL: define internal i32 @local(
; CHECK-NEXT: store atomic i8 1, ptr @__mip_1.local monotonic
  ret i32 %x
}

declare i32 @declared(i32)

define void @naked() naked {
; CHECK-LABEL: define void @naked(
; CHECK-NOT: store
  call void asm sideeffect "ret", ""()
  unreachable
}

define void @not_profiled() noprofile {
; CHECK-LABEL: define void @not_profiled(
; CHECK-NOT: store
  ret void
}

define available_externally i32 @inline_copy(i32 %x) {
; CHECK-LABEL: define available_externally i32 @inline_copy(
; CHECK-NOT: store
  ret i32 %x
}

; CHECK: attributes #[[COV]] = { "bss-section"="__mip_cov" "data-section"="__mip_cov" }
; CHECK-DAG: !{i32 7, !"mip.instrumented", i32 1}
; CHECK-DAG: ![[PLAIN]] = !{ptr @plain}
; CHECK-DAG: ![[LOCAL]] = !{ptr @local}
