; Block coverage: a byte only where coverage cannot be inferred, the entry
; told by the function's coverage byte, and a blocks record in the map.
; REQUIRES: block-inference
; RUN: %opt -passes='mip-generate<blocks>' -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %opt -passes='mip-generate<all-blocks>' -S %s -o %t.all.ll
; RUN: %FileCheck %s --check-prefix=ALL --input-file=%t.all.ll

; A diamond: one side's byte, the join from either side... two of the
; three non-entry blocks need a byte.
; CHECK: module asm ".short 3"
; CHECK: @__mip_4.diamond = internal global [2 x i8] zeroinitializer, align 1, !associated !{{[0-9]+}} #[[BLK:[0-9]+]]
; ALL: @__mip_4.diamond = internal global [3 x i8] zeroinitializer, align 1, !associated !{{[0-9]+}} #[[ALL_BLK:[0-9]+]]
define i32 @diamond(i1 %c) {
entry:
  br i1 %c, label %then, label %else
then:
  call void @g()
  br label %join
else:
  call void @g()
  br label %join
join:
  ret i32 0
}

; A loop whose body and latch are separate blocks: the inference leaves
; them depending on each other, so one of them gets a byte besides the
; two LLVM picks (without that, this would be [2 x i8]).
; CHECK: @__mip_4.loop = internal global [3 x i8]
define void @loop(i32 %n) {
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %body, label %done
latch:
  %more = icmp slt i32 %next, 100
  br i1 %more, label %after, label %done
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  call void @g()
  %next = add i32 %i, 1
  %again = icmp slt i32 %next, %n
  br i1 %again, label %body, label %latch
after:
  call void @g()
  br label %done
done:
  ret void
}

declare void @g()

; Counters go in their sections as the code generator puts .bss data there
; (no file bytes), not as an explicit section.
; CHECK: attributes #[[BLK]] = { "bss-section"="__mip_blk" "data-section"="__mip_blk" }
; ALL: attributes #[[ALL_BLK]] = { "bss-section"="__mip_blk" "data-section"="__mip_blk" }
