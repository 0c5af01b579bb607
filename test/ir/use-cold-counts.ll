; REQUIRES: llvm-19+
; With block counts, mip-use-early optimizes for size, before inlining,
; what the counts show cold, by LLVM's own rule for its PGO's `cold`: the
; function's busiest block ran no more often than the profile summary's
; cold count. @never never ran and @once's only block ran once (cold
; against @hot's million calls): both get cold, minsize and optsize and
; the section prefix "unlikely". @main was called once too, but its loop
; ran a million times: not cold. @never_hot never ran but its source says
; hot: left alone, and a missed remark says why.
; RUN: %profile %s block-counts %t
; RUN: %opt -passes='mip-use-early<profile=%t.mip>' -pass-remarks=mip -pass-remarks-missed=mip -S %s -o %t.ll 2>%t.err
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %FileCheck %s --check-prefix=REMARK --input-file=%t.err
; The end of the pipeline (mip-use) keeps them.
; RUN: %opt -passes='mip-use-early<profile=%t.mip>,mip-use<profile=%t.mip>' -S %s | %FileCheck %s
; -mip-use-cold-minsize=0 turns it off, for comparison.
; RUN: %opt -passes='mip-use-early<profile=%t.mip>' -mip-use-cold-minsize=0 -S %s | %FileCheck %s --check-prefix=OFF
; A profile of call counts only says which functions ran, not how often
; their blocks did: nothing is optimized for size before inlining.
; RUN: %profile %s counts %t.calls
; RUN: %opt -passes='mip-use-early<profile=%t.calls.mip>' -S %s | %FileCheck %s --check-prefix=OFF

; CHECK: define i32 @hot(i32 %x) #[[WARM:[0-9]+]] !prof
; CHECK: define i32 @once(i32 %x) #[[COLD:[0-9]+]] !prof ![[ONE:[0-9]+]] !section_prefix ![[UNLIKELY:[0-9]+]] {
; CHECK: define i32 @never(i32 %x) #[[COLD]] !prof ![[ZERO:[0-9]+]] !section_prefix ![[UNLIKELY]] {
; CHECK: define i32 @never_hot(i32 %x) #[[HOT:[0-9]+]] !prof ![[ZERO]] {
; CHECK: define i32 @main(i32 %argc) #[[WARM]] !prof ![[ONE]] {
; CHECK-DAG: attributes #[[WARM]] = { noinline "mip-block-counts" }
; CHECK-DAG: attributes #[[COLD]] = { cold minsize noinline optsize "mip-block-counts" }
; CHECK-DAG: attributes #[[HOT]] = { hot noinline "mip-block-counts" }
; CHECK-DAG: ![[ONE]] = !{!"function_entry_count", i64 1000}
; CHECK-DAG: ![[ZERO]] = !{!"function_entry_count", i64 0}
; CHECK-DAG: ![[UNLIKELY]] = !{!"function_section_prefix", !"unlikely"}

; REMARK-DAG: remark: {{.*}}marked cold before inlining: its busiest block ran 1 time, cold by the profile summary (minsize)
; REMARK-DAG: remark: {{.*}}marked cold before inlining: it never ran (minsize)
; REMARK-DAG: remark: {{.*}}not optimized for size: the source marks it hot
; REMARK-NOT: marked cold

; OFF-NOT: minsize
; OFF-NOT: optsize

define i32 @hot(i32 %x) noinline {
  %y = mul i32 %x, 3
  ret i32 %y
}

define i32 @once(i32 %x) noinline {
  %y = add i32 %x, 7
  ret i32 %y
}

define i32 @never(i32 %x) noinline {
  %y = mul i32 %x, 5
  ret i32 %y
}

define i32 @never_hot(i32 %x) noinline hot {
  %y = mul i32 %x, 9
  ret i32 %y
}

define i32 @main(i32 %argc) noinline {
entry:
  %big = icmp sgt i32 %argc, 5
  br i1 %big, label %rare, label %loop
rare:
  %a = call i32 @never(i32 %argc)
  %b = call i32 @never_hot(i32 %a)
  ret i32 %b
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %h = call i32 @hot(i32 %i)
  %s1 = add i32 %s, %h
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 1000000
  br i1 %done, label %exit, label %loop
exit:
  %o = call i32 @once(i32 %s1)
  %r = and i32 %o, 0
  ret i32 %r
}
