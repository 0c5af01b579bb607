; Block coverage sets branch weights: a branch whose block ran, with
; successors that never ran, weighs those 1 and the others as likely;
; a branch whose successors all ran keeps what it had.
; RUN: %profile %s counts,blocks %t
; RUN: %opt -passes='mip-use<profile=%t.mip>' -pass-remarks=mip -S %s -o %t.ll 2>%t.remarks
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
; no-branch-weights leaves every branch alone.
; RUN: %opt -passes='mip-use<profile=%t.mip;no-branch-weights>' -S %s | %FileCheck %s --check-prefix=OFF
; OFF-NOT: branch_weights", i32 1

; CHECK-LABEL: define i32 @pick(
; CHECK: br i1 %big, label %rare, label %common, !prof ![[UNLIKELY:[0-9]+]]
; CHECK-LABEL: define i32 @dispatch(
; CHECK: switch i32 %k, label %other [
; CHECK: ], !prof ![[SWITCH:[0-9]+]]
; CHECK-LABEL: define i32 @both(
; CHECK: br i1 %odd, label %a, label %b, !prof ![[KEPT:[0-9]+]]
; CHECK: ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 [[LIKELY:[0-9]+]]}
; Default (ran), case 0 (ran), case 1 (never), case 2 (ran).
; CHECK: ![[SWITCH]] = !{!"branch_weights", i32 [[LIKELY]], i32 [[LIKELY]], i32 1, i32 [[LIKELY]]}
; CHECK: ![[KEPT]] = !{!"branch_weights", i32 3, i32 5}

; REMARK: remark: <unknown>:0:0: weighed 1 branch by the blocks that never ran
; REMARK: remark: <unknown>:0:0: weighed 1 branch by the blocks that never ran
; REMARK-NOT: weighed

define i32 @pick(i32 %x) noinline {
entry:
  %big = icmp ugt i32 %x, 1000000
  br i1 %big, label %rare, label %common
rare:
  %r = mul i32 %x, 3
  br label %join
common:
  %c = add i32 %x, 1
  br label %join
join:
  %v = phi i32 [ %r, %rare ], [ %c, %common ]
  ret i32 %v
}

define i32 @dispatch(i32 %k) noinline {
entry:
  switch i32 %k, label %other [
    i32 0, label %zero
    i32 1, label %one
    i32 2, label %two
  ]
zero:
  ret i32 10
one:
  ret i32 11
two:
  ret i32 12
other:
  ret i32 13
}

define i32 @both(i32 %x) noinline {
entry:
  %bit = and i32 %x, 1
  %odd = icmp ne i32 %bit, 0
  br i1 %odd, label %a, label %b, !prof !0
a:
  ret i32 1
b:
  ret i32 2
}

define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %p = call i32 @pick(i32 %i)
  %k = urem i32 %i, 4
  %k2 = icmp eq i32 %k, 1
  %k3 = select i1 %k2, i32 2, i32 %k
  %d = call i32 @dispatch(i32 %k3)
  %o = call i32 @both(i32 %i)
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 100
  br i1 %done, label %exit, label %loop
exit:
  ret i32 0
}

!0 = !{!"branch_weights", i32 3, i32 5}
