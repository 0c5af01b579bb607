; Block coverage on an LLVM release without coverage inference (before
; 17, docs/llvm.md): mode blocks probes every block but the entry, as
; all-blocks does: three bytes for the diamond's three other blocks,
; where the inference needs two (blocks.ll).
; REQUIRES: no-block-inference
; RUN: %opt -passes='mip-generate<blocks>' -S %s -o %t.ll
; RUN: %opt -passes='mip-generate<all-blocks>' -S %s -o %t.all.ll
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %FileCheck %s --input-file=%t.all.ll

; CHECK: @__mip_4.diamond = internal global [3 x i8] zeroinitializer
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

declare void @g()
