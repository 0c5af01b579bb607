; Data mode: every load and store whose address is a global variable's
; (plus any offset) adds to the variable's own counter, once per basic
; block and variable with their number, split at calls that may not
; return; the variables' map records say what each is. Thread-local ones,
; private constants and MIP's own counters are not counted.
; RUN: %opt -passes='mip-generate<data>' -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %FileCheck %s --check-prefix=MAP --input-file=%t.ll
; With atomic, one atomicrmw add per increment.
; RUN: %opt -passes='mip-generate<data;atomic>' -S %s | %FileCheck %s --check-prefix=ATOMIC
; An unknown mode names data among the known ones.
; RUN: not %opt -passes='mip-generate<datum>' -S %s 2>&1 | %FileCheck %s --check-prefix=UNKNOWN
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@hot = global i32 0, align 4
@table = internal constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 16
@cold = global i32 7, align 4
@passed = global [8 x i32] zeroinitializer, align 16
@ext = external global i32
@tls = thread_local global i32 0, align 4
@.str = private unnamed_addr constant [3 x i8] c"%d\00", align 1
; Placed by -fmip-use in a build that also instruments: still counted; a
; section of the program's own is not.
@placed = global i32 0, section ".bss.hot.placed", align 4 #0
@own = global i32 0, section ".mine", align 4

declare void @use(ptr)

; A variable other units see gets a counter they share: linkonce_odr,
; hidden, in a COMDAT of its own; a local one a local counter.
; CHECK-DAG: @__mip_data.hot = linkonce_odr hidden global i64 0, comdat, align 8 #[[SECTION:[0-9]+]]
; CHECK-DAG: @__mip_data.table = internal global i64 0, align 8 #[[SECTION]]
; CHECK-DAG: @__mip_data.ext = linkonce_odr hidden global i64 0, comdat, align 8 #[[SECTION]]
; Defined here, so recorded with its size and kind, though f does not
; read or write it.
; CHECK-DAG: @__mip_data.cold = linkonce_odr hidden global i64 0, comdat
; CHECK-DAG: @__mip_data.placed = linkonce_odr hidden global i64 0, comdat
; CHECK-NOT: @__mip_data.own
; CHECK-NOT: @__mip_data.tls
; CHECK-NOT: @__mip_data..str

; CHECK-LABEL: define i32 @f(
; The two accesses to @hot before the call: one add of 2, at the first.
; CHECK: %mip.data = load i64, ptr @__mip_data.hot, align 8, !nosanitize
; CHECK-NEXT: add i64 %mip.data, 2
; CHECK-NEXT: store i64 {{.*}}, ptr @__mip_data.hot, align 8, !nosanitize
; CHECK-NEXT: %v = load i32, ptr @hot
; An element at a variable index is the table's.
; CHECK: load i64, ptr @__mip_data.table
; CHECK-NEXT: add i64 {{.*}}, 1
; CHECK: %t = load i32, ptr %p
; CHECK: load i64, ptr @__mip_data.ext
; CHECK: %e = load i32, ptr @ext
; CHECK-NEXT: %l = load i32, ptr @tls
; CHECK-NEXT: call void @use(ptr @passed)
; After the call, @hot again: an add of its own.
; CHECK-NEXT: load i64, ptr @__mip_data.hot
; CHECK-NEXT: add i64 {{.*}}, 1
; In the DATA section, without file bytes (as the other counters).
; CHECK: attributes #[[SECTION]] = { "bss-section"="__mip_data" "data-section"="__mip_data" }
define i32 @f(i32 %i) {
entry:
  %v = load i32, ptr @hot, align 4
  %w = add i32 %v, 1
  store i32 %w, ptr @hot, align 4
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds [4 x i32], ptr @table, i64 0, i64 %idx
  %t = load i32, ptr %p, align 4
  %e = load i32, ptr @ext, align 4
  %l = load i32, ptr @tls, align 4
  call void @use(ptr @passed)
  %x = load i32, ptr @hot, align 4
  %s = add i32 %t, %x
  %r = add i32 %s, %e
  %r2 = add i32 %r, %l
  %pl = load i32, ptr @placed, align 4
  %ow = load i32, ptr @own, align 4
  %r3 = add i32 %r2, %pl
  %r4 = add i32 %r3, %ow
  ret i32 %r4
}

attributes #0 = { "mip-data-temperature"="hot" }

; The unit lists the DATA section (kind 6, 8-byte counters).
; MAP: module asm ".long 6"
; MAP-NEXT: module asm ".long 8"
; MAP-NEXT: module asm ".quad __start___mip_data"
; MAP-NEXT: module asm ".quad __stop___mip_data"
; @hot: kind 5, version 1, 56 bytes; its counter, its address, 4 bytes,
; ZERO | DEFINED (20), a 3-byte name.
; MAP: module asm ".short 5"
; MAP-NEXT: module asm ".short 1"
; MAP-NEXT: module asm ".long 56"
; MAP-NEXT: module asm ".quad __mip_data.hot"
; MAP-NEXT: module asm ".quad hot"
; MAP-NEXT: module asm ".quad 4"
; MAP-NEXT: module asm ".long 20"
; MAP-NEXT: module asm ".long 3"
; MAP-NEXT: module asm ".long 0"
; @table: LOCAL | CONSTANT | DEFINED (19), with its unit.
; MAP: module asm ".quad __mip_data.table"
; MAP-NEXT: module asm ".quad table"
; MAP-NEXT: module asm ".quad 16"
; MAP-NEXT: module asm ".long 19"
; MAP-NEXT: module asm ".long 5"
; MAP-NEXT: module asm ".long {{[1-9][0-9]*}}"
; MAP: module asm ".ascii \22table\22"
; MAP-NEXT: module asm ".byte 0"
; MAP-NEXT: module asm ".ascii \22{{.*}}data-accesses.ll\22"
; @ext, only declared here: no address, no size, no flags.
; MAP: module asm ".quad __mip_data.ext"
; MAP-NEXT: module asm ".quad 0"
; MAP-NEXT: module asm ".quad 0"
; MAP-NEXT: module asm ".long 0"
; @cold: DEFINED (16) only.
; MAP: module asm ".quad __mip_data.cold"
; MAP-NEXT: module asm ".quad cold"
; MAP-NEXT: module asm ".quad 4"
; MAP-NEXT: module asm ".long 16"
; @passed, given to a function: ZERO | ESCAPES | DEFINED (28).
; MAP: module asm ".quad __mip_data.passed"
; MAP-NEXT: module asm ".quad passed"
; MAP-NEXT: module asm ".quad 32"
; MAP-NEXT: module asm ".long 28"

; ATOMIC: atomicrmw add ptr @__mip_data.hot, i64 2 monotonic, align 8, !nosanitize
; ATOMIC: atomicrmw add ptr @__mip_data.table, i64 1 monotonic, align 8, !nosanitize
; ATOMIC-NOT: load i64, ptr @__mip_data

; UNKNOWN: unknown mode 'datum' (known: coverage, counts, order, blocks, edges, all, heap, heap-allocs, data, atomic, all-blocks, block-counts)
