; -fmip-use with a profile of data mode: the most-accessed variables
; (hot-share of all accesses) get sections .KIND.hot.NAME, those no run
; touched .KIND.unlikely.NAME, in the section kind the code generator
; would choose (.bss, .data, .rodata, .data.rel.ro for a constant that
; holds addresses); the rest, a variable whose address escapes, one in a
; section of its own or in a COMDAT, are left alone.
; RUN: %profile %s data %t
; RUN: %opt -passes='mip-use<profile=%t.mip>' -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll
; The sections reach the object file, with their kinds' flags.
; RUN: %llc -filetype=obj %t.ll -o %t.o
; RUN: %objdump -h %t.o | %FileCheck %s --check-prefix=SECTIONS
; hot-share=0 makes nothing hot; the cold ones stay cold.
; RUN: %opt -passes='mip-use<profile=%t.mip;hot-share=0>' -S %s | %FileCheck %s --check-prefix=NOHOT
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$inline_var = comdat any

; CHECK-DAG: @counter = global i32 0, section ".bss.hot.counter", align 4 #[[HOT:[0-9]+]]
; CHECK-DAG: @lookup = internal constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], section ".rodata.hot.lookup", align 16
; CHECK-DAG: @handlers = constant [2 x ptr] [ptr @counter, ptr @seed], section ".data.rel.ro.hot.handlers", align 16
; CHECK-DAG: @seed = global i32 5, section ".data.hot.seed", align 4
; CHECK-DAG: @never = global i32 9, section ".data.unlikely.never", align 4 #[[COLD:[0-9]+]]
; CHECK-DAG: @never_zero = global [1024 x i32] zeroinitializer, section ".bss.unlikely.never_zero", align 16
; CHECK-DAG: @never_table = constant [64 x i32] zeroinitializer, section ".rodata.unlikely.never_table", align 16
; CHECK-DAG: @once = global i32 0, align 4
; CHECK-DAG: @passed = global [4 x i32] zeroinitializer, align 16
; CHECK-DAG: @mine = global i32 0, section ".mine", align 4
; CHECK-DAG: @inline_var = linkonce_odr global i32 0, comdat, align 4
; Each placed one is marked (#HOT, #COLD), so that an instrumented build
; of it still counts it.
; CHECK-DAG: attributes #[[HOT]] = { "mip-data-temperature"="hot" }
; CHECK-DAG: attributes #[[COLD]] = { "mip-data-temperature"="unlikely" }
@counter = global i32 0, align 4
@lookup = internal constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 16
@handlers = constant [2 x ptr] [ptr @counter, ptr @seed], align 16
@seed = global i32 5, align 4
@never = global i32 9, align 4
@never_zero = global [1024 x i32] zeroinitializer, align 16
@never_table = constant [64 x i32] zeroinitializer, align 16
@once = global i32 0, align 4
@passed = global [4 x i32] zeroinitializer, align 16
@mine = global i32 0, section ".mine", align 4
@inline_var = linkonce_odr global i32 0, comdat, align 4

; NOHOT-DAG: @counter = global i32 0, align 4
; NOHOT-DAG: @never = global i32 9, section ".data.unlikely.never", align 4

; SECTIONS-DAG: .bss.hot.counter {{.*}} BSS
; SECTIONS-DAG: .rodata.hot.lookup {{.*}} DATA
; SECTIONS-DAG: .data.rel.ro.hot.handlers {{.*}} DATA
; SECTIONS-DAG: .data.unlikely.never {{.*}} DATA
; SECTIONS-DAG: .bss.unlikely.never_zero {{.*}} BSS


define void @touch(ptr %p) noinline {
  ret void
}

; Never called: its accesses are not made.
define i32 @unused() noinline {
  %a = load i32, ptr @never, align 4
  %b = load i32, ptr getelementptr ([1024 x i32], ptr @never_zero, i64 0, i64 3), align 4
  %c = load i32, ptr getelementptr ([64 x i32], ptr @never_table, i64 0, i64 3), align 4
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  ret i32 %t
}

define i32 @main() {
entry:
  store i32 1, ptr @once, align 4
  call void @touch(ptr @passed)
  %iv = load i32, ptr @inline_var, align 4
  %mv = load i32, ptr @mine, align 4
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %c = load volatile i32, ptr @counter, align 4
  %c1 = add i32 %c, 1
  store volatile i32 %c1, ptr @counter, align 4
  %k = and i32 %i, 3
  %idx = sext i32 %k to i64
  %lp = getelementptr inbounds [4 x i32], ptr @lookup, i64 0, i64 %idx
  %lv = load volatile i32, ptr %lp, align 4
  %hp = getelementptr inbounds [2 x ptr], ptr @handlers, i64 0, i64 1
  %hv = load volatile ptr, ptr %hp, align 8
  %sv = load volatile i32, ptr @seed, align 4
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 1000
  br i1 %done, label %exit, label %loop

exit:
  ret i32 0
}
