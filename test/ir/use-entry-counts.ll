; REQUIRES: llvm-19+
; -fmip-use before inlining (mip-use-early): every function the profile
; counted gets its calls as its entry count (in thousandths of a call), 0
; when it never ran, and the module the profile summary LLVM's
; instrumented PGO writes, made from the whole profile's counts, in which
; only 0 is cold; a function the profile does not know gets none.
; RUN: %profile %s counts %t
; RUN: sed 's/^; NEW //' %s >%t.new.ll
; RUN: %opt -passes='mip-use-early<profile=%t.mip>' -S %t.new.ll -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll
; Run twice (a ThinLTO back end runs the early passes again), the counts
; and summary are not added again.
; RUN: %opt -passes='mip-use-early<profile=%t.mip>,mip-use-early<profile=%t.mip>' -S %t.new.ll | %FileCheck %s
; A profile of coverage only has no counts: nothing is added.
; RUN: %profile %s coverage %t.cov
; RUN: %opt -passes='mip-use-early<profile=%t.cov.mip>' -S %s | %FileCheck %s --check-prefix=COVERAGE
; Nor does a module that already has a profile summary (LLVM's own PGO).
; RUN: %opt -passes='mip-use-early<profile=%t.mip>' -S %t.ll | %FileCheck %s

; CHECK: define i32 @never(i32 %x) #0 !prof ![[ZERO:[0-9]+]] {
; CHECK: define i32 @hot(i32 %x) #0 !prof ![[THOUSAND:[0-9]+]] {
; CHECK: define i32 @warm(i32 %x) #0 !prof ![[TWO:[0-9]+]] {
; CHECK: define i32 @brand_new(i32 %x) #0 {
; CHECK: define i32 @main() #0 !prof ![[ONE:[0-9]+]] {
; CHECK: !llvm.module.flags = !{![[FLAG:[0-9]+]]}
; CHECK: ![[FLAG]] = !{i32 1, !"ProfileSummary", ![[SUMMARY:[0-9]+]]}
; CHECK: ![[SUMMARY]] = !{![[FORMAT:[0-9]+]], ![[TOTAL:[0-9]+]], ![[MAXCOUNT:[0-9]+]], ![[MAXINTERNAL:[0-9]+]], ![[MAXFN:[0-9]+]], ![[NUMCOUNTS:[0-9]+]], ![[NUMFNS:[0-9]+]]
; CHECK: ![[FORMAT]] = !{!"ProfileFormat", !"InstrProf"}
; CHECK: ![[TOTAL]] = !{!"TotalCount", i64 1003000}
; CHECK: ![[MAXCOUNT]] = !{!"MaxCount", i64 1000000}
; CHECK: ![[MAXFN]] = !{!"MaxFunctionCount", i64 1000000}
; CHECK: ![[NUMCOUNTS]] = !{!"NumCounts", i64 4}
; CHECK: ![[NUMFNS]] = !{!"NumFunctions", i64 4}
; The hot cutoff (99%) is @hot's count; the cold ones (above 99%) are 0.
; CHECK: !{i32 990000, i64 1000000, i32 1}
; CHECK: !{i32 999000, i64 0, i32 2}
; CHECK: !{i32 999999, i64 0, i32 3}
; CHECK-DAG: ![[ZERO]] = !{!"function_entry_count", i64 0}
; CHECK-DAG: ![[THOUSAND]] = !{!"function_entry_count", i64 1000000}
; CHECK-DAG: ![[TWO]] = !{!"function_entry_count", i64 2000}
; CHECK-DAG: ![[ONE]] = !{!"function_entry_count", i64 1000}

; COVERAGE-NOT: !prof
; COVERAGE-NOT: ProfileSummary

define i32 @never(i32 %x) noinline {
  %y = mul i32 %x, 3
  ret i32 %y
}

define i32 @hot(i32 %x) noinline {
  %y = xor i32 %x, 7
  ret i32 %y
}

define i32 @warm(i32 %x) noinline {
  %y = add i32 %x, 1
  ret i32 %y
}

; NEW define i32 @brand_new(i32 %x) noinline {
; NEW   ret i32 %x
; NEW }

define i32 @main() noinline {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %h = call i32 @hot(i32 %i)
  %s1 = add i32 %s, %h
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 1000
  br i1 %done, label %exit, label %loop
exit:
  %a = call i32 @warm(i32 %s1)
  %b = call i32 @warm(i32 %a)
  ret i32 0
}
