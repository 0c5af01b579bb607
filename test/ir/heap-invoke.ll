; An allocation by invoke is hooked where it returns normally: at the start
; of its normal destination, or in a block of its own on that edge when
; other edges lead there too. A deallocation by invoke is hooked before it.
; RUN: %opt -passes='mip-generate<heap>' -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll
; With blocks, the blocks record keeps the function's own blocks.
; RUN: %opt -passes='mip-generate<heap;blocks>' -S %s -o %t.blocks.ll
; RUN: %FileCheck %s --check-prefix=BLOCKS --input-file=%t.blocks.ll

; The normal destination has no other predecessor: the hook goes in it,
; after its phis.
; CHECK-LABEL: define ptr @single(
; CHECK: %p = invoke ptr @_Znwm(i64 %n)
; CHECK-NEXT: to label %ok unwind label %lpad
; CHECK: ok:
; CHECK-NEXT: %one = phi ptr [ %p, %entry ]
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %p, i64 %n, ptr @__mip_5.single)
; CHECK-NEXT: ret ptr %one
define ptr @single(i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %p = invoke ptr @_Znwm(i64 %n)
          to label %ok unwind label %lpad
ok:
  %one = phi ptr [ %p, %entry ]
  ret ptr %one
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; Two invokes and a branch share the destination: each invoke's edge gets
; a block with its hook, and the phi takes its values from those blocks.
; CHECK-LABEL: define ptr @shared(
; CHECK: call.a:
; CHECK-NEXT: %a = invoke ptr @malloc(i64 %n)
; CHECK-NEXT: to label %[[A:.*]] unwind label %lpad
; CHECK: [[A]]:
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %a, i64 %n, ptr @__mip_5.shared)
; CHECK-NEXT: br label %join
; CHECK: second:
; CHECK-NEXT: %b = invoke ptr @calloc(i64 %n, i64 2)
; CHECK-NEXT: to label %[[B:.*]] unwind label %lpad
; CHECK: [[B]]:
; CHECK-NEXT: %mip.mul = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %n, i64 2)
; CHECK: call void @__mip_heap_alloc(ptr %b, i64 %mip.size, ptr getelementptr inbounds ([2 x i8], ptr @__mip_5.shared, i64 0, i64 1))
; CHECK-NEXT: br label %join
; CHECK: join:
; CHECK-NEXT: %r = phi ptr [ %a, %[[A]] ], [ %b, %[[B]] ], [ null, %first ]
define ptr @shared(i64 %n, i1 %c, i1 %d) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %first, label %second
first:
  br i1 %d, label %call.a, label %join
call.a:
  %a = invoke ptr @malloc(i64 %n)
          to label %join unwind label %lpad
second:
  %b = invoke ptr @calloc(i64 %n, i64 2)
          to label %join unwind label %lpad
join:
  %r = phi ptr [ %a, %call.a ], [ %b, %second ], [ null, %first ]
  ret ptr %r
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; A delete by invoke: the hook before it, in the invoke's block.
; CHECK-LABEL: define void @del(
; CHECK: call void @__mip_heap_free(ptr %p, ptr @__mip_5.del)
; CHECK-NEXT: invoke void @_ZdlPv(ptr %p)
define void @del(ptr %p) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @_ZdlPv(ptr %p)
          to label %ok unwind label %lpad
ok:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; An invoke through a pointer of malloc's prototype: the comparison and
; the block of the hook go where the hook would, after the phis.
; CHECK-LABEL: define ptr @through(
; CHECK: %p = invoke ptr %alloc(i64 %n)
; CHECK-NEXT: to label %ok unwind label %lpad
; CHECK: ok:
; CHECK-NEXT: %one = phi ptr [ %p, %entry ]
; CHECK-NEXT: %mip.is.malloc = icmp eq ptr %alloc, @malloc
; CHECK-NEXT: br i1 %mip.is.malloc, label %[[HOOK:.*]], label %[[REST:.*]]
; CHECK: [[HOOK]]:
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %p, i64 %n, ptr @__mip_5.through)
; CHECK-NEXT: br label %[[REST]]
; CHECK: [[REST]]:
; CHECK-NEXT: ret ptr %one
define ptr @through(ptr %alloc, i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %p = invoke ptr %alloc(i64 %n)
          to label %ok unwind label %lpad
ok:
  %one = phi ptr [ %p, %entry ]
  ret ptr %one
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; The blocks record of @shared lists its 6 blocks as they were before the
; edges were split, like a build without heap mode.
; BLOCKS: module asm ".ascii \22shared\22"
; BLOCKS: module asm ".short 3"
; BLOCKS-NEXT: module asm ".short 1"
; BLOCKS-NEXT: module asm ".long {{[0-9]+}}"
; BLOCKS-NEXT: module asm ".quad __mip_1.shared"
; BLOCKS-NEXT: module asm ".long 6"
; And @through's its own 3.
; BLOCKS: module asm ".ascii \22through\22"
; BLOCKS: module asm ".short 3"
; BLOCKS-NEXT: module asm ".short 1"
; BLOCKS-NEXT: module asm ".long {{[0-9]+}}"
; BLOCKS-NEXT: module asm ".quad __mip_1.through"
; BLOCKS-NEXT: module asm ".long 3"

declare ptr @_Znwm(i64)
declare void @_ZdlPv(ptr)
declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare i32 @__gxx_personality_v0(...)
