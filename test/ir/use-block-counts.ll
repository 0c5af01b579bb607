; REQUIRES: llvm-19+
; -fmip-generate=block-counts counts edges before inlining, on those a
; spanning tree of each function's graph leaves out; mip-use-early gives
; each function its calls as entry count (in thousandths of a call) and
; every branch the counts its edges ran, solved from those counters by
; conservation: @main's loop runs 1000 times and leaves once, @pick takes
; its first arm for 100 of its 1000 calls, its switch goes to each case
; as often as the loop sent it there; @never never ran. The summary is
; made of the counters. The end of the pipeline (mip-use) leaves the
; exact weights alone.
; RUN: %profile %s block-counts %t
; RUN: %opt -passes='mip-use-early<profile=%t.mip>' -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %opt -passes='mip-use-early<profile=%t.mip>,mip-use<profile=%t.mip>' -S %s | %FileCheck %s
; Without edge counts in the profile (counts only), @pick's branch gets no
; weights of its own.
; RUN: %profile %s counts %t.calls
; RUN: %opt -passes='mip-use-early<profile=%t.calls.mip>' -S %s | %FileCheck %s --check-prefix=CALLS
; @pick changed (one more block): its counts are stale, not used, and a
; missed remark says so; the others keep theirs.
; RUN: sed 's/^  br i1 %low, label %a, label %b ; pick$/  br i1 %low, label %a, label %c\nc:\n  br label %b/' %s >%t.changed.ll
; RUN: %opt -passes='mip-use-early<profile=%t.mip>' -pass-remarks-missed=mip -S %t.changed.ll -o %t.changed.out.ll 2>%t.err
; RUN: %FileCheck %s --check-prefix=STALE --input-file=%t.changed.out.ll
; RUN: %FileCheck %s --check-prefix=REMARK --input-file=%t.err
; The instrumented module: u64 counters in __mip_bcnt, one record each.
; RUN: %opt -passes='mip-generate<block-counts>' -S %s | %FileCheck %s --check-prefix=GEN

; CHECK: define i32 @never(i32 %x) #{{[0-9]+}} !prof ![[ZERO:[0-9]+]]
; CHECK: define i32 @pick(i32 %x) #[[EXACT:[0-9]+]] !prof ![[THOUSAND:[0-9]+]] {
; CHECK: br i1 %low, label %a, label %b, !prof ![[PICK:[0-9]+]]
; CHECK: switch i32 %r, label %d0 [
; CHECK-NEXT: i32 1, label %d1
; CHECK-NEXT: i32 2, label %d2
; CHECK-NEXT: ], !prof ![[SWITCH:[0-9]+]]
; CHECK: define i32 @main() #[[EXACT]] !prof ![[ONE:[0-9]+]] {
; CHECK: br i1 %done, label %exit, label %loop, !prof ![[LOOP:[0-9]+]]
; CHECK: attributes #[[EXACT]] = { {{.*}}"mip-block-counts"
; CHECK: !{i32 1, !"ProfileSummary",
; CHECK-DAG: ![[ZERO]] = !{!"function_entry_count", i64 0}
; CHECK-DAG: ![[THOUSAND]] = !{!"function_entry_count", i64 1000000}
; CHECK-DAG: ![[ONE]] = !{!"function_entry_count", i64 1000}
; CHECK-DAG: ![[PICK]] = !{!"branch_weights", i32 100, i32 900}
; CHECK-DAG: ![[SWITCH]] = !{!"branch_weights", i32 334, i32 333, i32 333}
; CHECK-DAG: ![[LOOP]] = !{!"branch_weights", i32 1, i32 999}

; CALLS: br i1 %low, label %a, label %b{{$}}

; STALE: define i32 @pick(i32 %x) #{{[0-9]+}} {
; STALE: br i1 %low, label %a, label %c{{$}}
; STALE: define i32 @main() #[[EXACT:[0-9]+]] !prof
; STALE: br i1 %done, label %exit, label %loop, !prof
; REMARK: remark: {{.*}}block counts not used: the function changed since they were counted

; GEN: .pushsection .debug_mip
; GEN: @__mip_7.pick = internal global [{{[0-9]+}} x i64] zeroinitializer, {{.*}}!mip.edge_counts
; GEN: load i64, ptr {{.*}}@__mip_7.pick

define i32 @never(i32 %x) noinline {
  %y = mul i32 %x, 3
  ret i32 %y
}

define i32 @pick(i32 %x) noinline {
entry:
  %low = icmp ult i32 %x, 100
  br i1 %low, label %a, label %b ; pick
a:
  br label %b
b:
  %r = urem i32 %x, 3
  switch i32 %r, label %d0 [
    i32 1, label %d1
    i32 2, label %d2
  ]
d0:
  ret i32 0
d1:
  ret i32 1
d2:
  ret i32 2
}

define i32 @main() noinline {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %h = call i32 @pick(i32 %i)
  %s1 = add i32 %s, %h
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 1000
  br i1 %done, label %exit, label %loop
exit:
  ret i32 0
}
