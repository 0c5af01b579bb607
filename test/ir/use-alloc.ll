; Allocation hints: a site whose contexts are all cold calls the hinted
; allocator with 1, all hot with 254 (LLVM's and tcmalloc's values, as a
; zeroext i8 after the call's own arguments); a site whose contexts
; disagree, and a notcold one, keep their plain call. Frees count as sites
; too, so the numbering must skip over them.
; RUN: %profile %s heap %t
; Thresholds for a run of milliseconds: cold below 1000 accesses per byte
; per second at any lifetime, hot above 5000. (A cold block can be charged
; some accesses of its neighbours: they share 64-byte granules.)
; RUN: %opt -passes='mip-use<profile=%t.mip;cold-min-lifetime=0;cold-max-density=1000;hot-min-density=5000>' -pass-remarks=mip -pass-remarks-missed=mip -S %s -o %t.ll 2>%t.remarks
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
; With the default thresholds (cold only after 200 s), nothing is cold.
; RUN: %opt -passes='mip-use<profile=%t.mip;hot-min-density=5000>' -S %s | %FileCheck %s --check-prefix=DEFAULT
; no-alloc-hints leaves every call alone.
; RUN: %opt -passes='mip-use<profile=%t.mip;cold-min-lifetime=0;cold-max-density=1000;no-alloc-hints>' -S %s | %FileCheck %s --check-prefix=OFF
; OFF-NOT: _hint
; OFF-NOT: __hot_cold_t

; CHECK-LABEL: define ptr @keep_cold(
; CHECK: %p = call noalias ptr @__mip_malloc_hint(i64 4096, i8 zeroext 1)
; CHECK-LABEL: define void @touch_hot(
; CHECK: %p = call noalias ptr @__mip_calloc_hint(i64 8, i64 8, i8 zeroext -2)
; CHECK: call void @free(ptr %p)
; CHECK-LABEL: define ptr @helper(
; CHECK: %p = call noalias ptr @malloc(i64 %n)
; A cold allocation through a function pointer keeps its call: no hinted
; allocator can stand for what the pointer holds.
; CHECK-LABEL: define ptr @keep_cold_through(
; CHECK: %p = call noalias ptr %alloc(i64 4096)
; CHECK-LABEL: define ptr @cxx_cold(
; CHECK: %p = invoke noalias ptr @_Znwm12__hot_cold_t(i64 4096, i8 zeroext 1)
; CHECK-NEXT: to label %ok unwind label %lpad
; CHECK-LABEL: define void @cxx_hot(
; CHECK: %p = call noalias ptr @_Znam12__hot_cold_t(i64 64, i8 zeroext -2)
; CHECK: declare noalias ptr @__mip_malloc_hint(i64, i8 zeroext)
; CHECK: declare noalias ptr @__mip_calloc_hint(i64, i64, i8 zeroext)

; REMARK-DAG: remark: <unknown>:0:0: allocation hinted cold: 1 context, 20 allocations
; REMARK-DAG: remark: <unknown>:0:0: allocation hinted hot: 1 context, 20 allocations
; REMARK-DAG: remark: <unknown>:0:0: allocation is cold but made through a function pointer, which no hinted allocator can replace
; REMARK-DAG: remark: <unknown>:0:0: allocation left notcold: its contexts disagree (1 cold, 1 hot, 0 notcold)

; DEFAULT-NOT: i8 zeroext 1)
; DEFAULT: @__mip_calloc_hint(i64 8, i64 8, i8 zeroext -2)

@kept = global [64 x ptr] zeroinitializer
@kept_through = global [20 x ptr] zeroinitializer

declare noalias ptr @malloc(i64)
declare noalias ptr @calloc(i64, i64)
declare void @free(ptr)
declare noalias ptr @_Znwm(i64)
declare noalias ptr @_Znam(i64)
declare void @_ZdlPv(ptr)
declare void @_ZdaPv(ptr)
declare i32 @__gxx_personality_v0(...)

; Allocated, touched once, kept to the end.
define ptr @keep_cold(i32 %i) #0 {
  %p = call noalias ptr @malloc(i64 4096)
  store i8 1, ptr %p
  ret ptr %p
}

; Allocated, touched 4000 times, freed at once.
define void @touch_hot() #0 {
  %p = call noalias ptr @calloc(i64 8, i64 8)
  br label %loop
loop:
  %i = phi i32 [ 0, %0 ], [ %next, %loop ]
  %slot = and i32 %i, 7
  %at = getelementptr i64, ptr %p, i32 %slot
  %v = load volatile i64, ptr %at
  %v2 = add i64 %v, 1
  store volatile i64 %v2, ptr %at
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 2000
  br i1 %done, label %out, label %loop
out:
  call void @free(ptr %p)
  ret void
}

; One site, reached from a cold and a hot caller.
define ptr @helper(i64 %n) #0 {
  %p = call noalias ptr @malloc(i64 %n)
  ret ptr %p
}

; The helper's cold context: kept to the end, never touched.
define void @cold_caller(i32 %i) #0 {
  %m = call ptr @helper(i64 4096)
  %i20 = add i32 %i, 20
  %slot = getelementptr [64 x ptr], ptr @kept, i32 0, i32 %i20
  store ptr %m, ptr %slot
  ret void
}

; Its hot one: touched 2000 times, freed at once.
define void @hot_caller() #0 {
entry:
  %h = call ptr @helper(i64 64)
  br label %touch
touch:
  %j = phi i32 [ 0, %entry ], [ %jn, %touch ]
  store volatile i64 2, ptr %h
  %jn = add i32 %j, 1
  %jd = icmp eq i32 %jn, 2000
  br i1 %jd, label %done, label %touch
done:
  call void @free(ptr %h)
  ret void
}

; As keep_cold, through the pointer it is given (malloc).
define ptr @keep_cold_through(ptr %alloc) #0 {
  %p = call noalias ptr %alloc(i64 4096)
  store i8 1, ptr %p
  ret ptr %p
}

define ptr @cxx_cold() #0 personality ptr @__gxx_personality_v0 {
  %p = invoke noalias ptr @_Znwm(i64 4096)
          to label %ok unwind label %lpad
ok:
  store i8 1, ptr %p
  ret ptr %p
lpad:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

define void @cxx_hot() #0 {
  %p = call noalias ptr @_Znam(i64 64)
  br label %loop
loop:
  %i = phi i32 [ 0, %0 ], [ %next, %loop ]
  %slot = and i32 %i, 7
  %at = getelementptr i64, ptr %p, i32 %slot
  store volatile i64 1, ptr %at
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 4000
  br i1 %done, label %out, label %loop
out:
  call void @_ZdaPv(ptr %p)
  ret void
}

define i32 @main() #1 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %c = call ptr @keep_cold(i32 %i)
  %slot = getelementptr [64 x ptr], ptr @kept, i32 0, i32 %i
  store ptr %c, ptr %slot
  call void @touch_hot()
  call void @cold_caller(i32 %i)
  call void @hot_caller()
  %x = call ptr @cxx_cold()
  %i40 = add i32 %i, 40
  %xslot = getelementptr [64 x ptr], ptr @kept, i32 0, i32 %i40
  store ptr %x, ptr %xslot
  call void @cxx_hot()
  %t = call ptr @keep_cold_through(ptr @malloc)
  %tslot = getelementptr [20 x ptr], ptr @kept_through, i32 0, i32 %i
  store ptr %t, ptr %tslot
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 20
  br i1 %done, label %exit, label %loop
exit:
  br label %release
release:
  %k = phi i32 [ 0, %exit ], [ %kn, %release ]
  %kslot = getelementptr [64 x ptr], ptr @kept, i32 0, i32 %k
  %kp = load ptr, ptr %kslot
  call void @free(ptr %kp)
  %kn = add i32 %k, 1
  %kd = icmp eq i32 %kn, 40
  br i1 %kd, label %cxx, label %release
cxx:
  %c2 = phi i32 [ 40, %release ], [ %cn, %cxx ]
  %cslot = getelementptr [64 x ptr], ptr @kept, i32 0, i32 %c2
  %cp = load ptr, ptr %cslot
  call void @_ZdlPv(ptr %cp)
  %cn = add i32 %c2, 1
  %cd = icmp eq i32 %cn, 60
  br i1 %cd, label %through, label %cxx
through:
  %t2 = phi i32 [ 0, %cxx ], [ %tn, %through ]
  %tslot2 = getelementptr [20 x ptr], ptr @kept_through, i32 0, i32 %t2
  %tp = load ptr, ptr %tslot2
  call void @free(ptr %tp)
  %tn = add i32 %t2, 1
  %td = icmp eq i32 %tn, 20
  br i1 %td, label %end, label %through
end:
  ret i32 0
}

; Heap mode walks frame pointers for the calling contexts.
attributes #0 = { noinline "frame-pointer"="all" }
attributes #1 = { "frame-pointer"="all" }
