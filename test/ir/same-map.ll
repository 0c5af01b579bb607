; The same module gets the same map from every LLVM release (docs/llvm.md):
; the map is module assembly, compared line for line with the default
; release's, CFG hashes (XXH3, libxxhash's before LLVM 17) and all.
; RUN: %opt -passes='mip-generate<counts;heap>' -S %s -o %t.ll
; RUN: %default-opt -passes='mip-generate<counts;heap>' -S %s -o %t.default.ll
; RUN: grep '^module asm' %t.ll >%t.asm
; RUN: grep '^module asm' %t.default.ll >%t.default.asm
; RUN: grep -q '^module asm ".quad [0-9]' %t.asm
; RUN: cmp %t.asm %t.default.asm
target triple = "x86_64-unknown-linux-gnu"

define i32 @pick(i32 %k, ptr %p) {
entry:
  switch i32 %k, label %other [
    i32 1, label %one
    i32 7, label %seven
  ]
one:
  call void @g()
  br label %done
seven:
  %v = load i32, ptr %p
  %big = icmp sgt i32 %v, 1000
  br i1 %big, label %done, label %other
other:
  %q = call ptr @malloc(i64 16)
  call void @free(ptr %q)
  br label %done
done:
  ret i32 0
}

define void @loop(i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  call void @g()
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %body, label %exit
exit:
  ret void
}

declare void @g()
declare ptr @malloc(i64)
declare void @free(ptr)
