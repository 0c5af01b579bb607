; Heap mode: every call of an allocation or deallocation function gets a
; byte in __mip_site and a runtime hook, after allocations (with the size
; the program asked for) and before deallocations.
; RUN: %opt -passes='mip-generate<heap>' -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %FileCheck %s --check-prefix=MAP --input-file=%t.ll
; Without heap mode, nothing of it.
; RUN: %opt -passes='mip-generate<all>' -S %s -o %t.all.ll
; RUN: %FileCheck %s --check-prefix=NOHEAP --input-file=%t.all.ll
; NOHEAP-NOT: __mip_heap
; NOHEAP-NOT: __mip_site

; The sites of a function are one array, a byte each, in call order.
; CHECK: @__mip_5.c_allocators = internal global [16 x i8] zeroinitializer, align 1, !associated ![[C:[0-9]+]] #[[SITE:[0-9]+]]
; CHECK: @__mip_5.cxx_new = internal global [16 x i8] zeroinitializer, {{.*}} #[[SITE]]
; CHECK: @__mip_5.cxx_delete = internal global [17 x i8] zeroinitializer, {{.*}} #[[SITE]]
; CHECK: @__mip_5.tail_free = internal global i8 0, align 1, {{.*}} #[[SITE]]
; CHECK: @__mip_5.one = internal global i8 0, align 1, {{.*}} #[[SITE]]
; CHECK: @__mip_5.through_pointers = internal global [3 x i8] zeroinitializer, {{.*}} #[[SITE]]

; CHECK-LABEL: define void @c_allocators(
; CHECK-NEXT: store atomic i8 1, ptr @__mip_1.c_allocators monotonic
; CHECK-NEXT: %a = call ptr @malloc(i64 %n)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %a, i64 %n, ptr @__mip_5.c_allocators)
; calloc: n * m, or UINT64_MAX when the product overflows.
; CHECK-NEXT: %b = call ptr @calloc(i64 %n, i64 %m)
; CHECK-NEXT: %mip.mul = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %n, i64 %m)
; CHECK-NEXT: %mip.product = extractvalue { i64, i1 } %mip.mul, 0
; CHECK-NEXT: %mip.overflow = extractvalue { i64, i1 } %mip.mul, 1
; CHECK-NEXT: %mip.size = select i1 %mip.overflow, i64 -1, i64 %mip.product
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %b, i64 %mip.size, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 1))
; Constant factors are multiplied here.
; CHECK-NEXT: %b2 = call ptr @calloc(i64 4, i64 8)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %b2, i64 32, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 2))
; CHECK-NEXT: %b3 = call ptr @calloc(i64 -1, i64 2)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %b3, i64 -1, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 3))
; CHECK-NEXT: %c = call ptr @aligned_alloc(i64 64, i64 %n)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %c, i64 %n, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 4))
; CHECK-NEXT: %d = call ptr @memalign(i64 64, i64 %n)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %d, i64 %n, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 5))
; CHECK-NEXT: %e = call ptr @valloc(i64 %n)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %e, i64 %n, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 6))
; CHECK-NEXT: %e2 = call ptr @pvalloc(i64 %n)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %e2, i64 %n, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 7))
; posix_memalign: the block is at *out when the result is 0.
; CHECK-NEXT: %r = call i32 @posix_memalign(ptr %out, i64 64, i64 %n)
; CHECK-NEXT: call void @__mip_heap_alloc_at(ptr %out, i32 %r, i64 %n, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 8))
; CHECK-NEXT: %s = call ptr @strdup(ptr %a)
; CHECK-NEXT: call void @__mip_heap_alloc_str(ptr %s, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 9))
; CHECK-NEXT: %s2 = call ptr @strndup(ptr %a, i64 %n)
; CHECK-NEXT: call void @__mip_heap_alloc_str(ptr %s2, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 10))
; CHECK-NEXT: %s3 = call ptr @__strdup(ptr %a)
; CHECK-NEXT: call void @__mip_heap_alloc_str(ptr %s3, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 11))
; CHECK-NEXT: %s4 = call ptr @__strndup(ptr %a, i64 %n)
; CHECK-NEXT: call void @__mip_heap_alloc_str(ptr %s4, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 12))
; realloc: the old block, the new one, the new size.
; CHECK-NEXT: %g = call ptr @realloc(ptr %a, i64 %m)
; CHECK-NEXT: call void @__mip_heap_realloc(ptr %a, ptr %g, i64 %m, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 13))
; reallocarray: n * m, UINT64_MAX on overflow.
; CHECK-NEXT: %h = call ptr @reallocarray(ptr %g, i64 %n, i64 %m)
; CHECK-NEXT: %mip.mul1 = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %n, i64 %m)
; CHECK-NEXT: %mip.product2 = extractvalue { i64, i1 } %mip.mul1, 0
; CHECK-NEXT: %mip.overflow3 = extractvalue { i64, i1 } %mip.mul1, 1
; CHECK-NEXT: %mip.size4 = select i1 %mip.overflow3, i64 -1, i64 %mip.product2
; CHECK-NEXT: call void @__mip_heap_realloc(ptr %g, ptr %h, i64 %mip.size4, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 14))
; Deallocations: the hook comes first, while the block is still there.
; CHECK-NEXT: call void @__mip_heap_free(ptr %h, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.c_allocators, i64 0, i64 15))
; CHECK-NEXT: call void @free(ptr %h)
; A call through a declaration of another prototype is not an allocator.
; CHECK-NEXT: %bad = call i32 @malloc(i32 3)
; CHECK-NEXT: ret void
define void @c_allocators(i64 %n, i64 %m, ptr %out) {
  %a = call ptr @malloc(i64 %n)
  %b = call ptr @calloc(i64 %n, i64 %m)
  %b2 = call ptr @calloc(i64 4, i64 8)
  %b3 = call ptr @calloc(i64 -1, i64 2)
  %c = call ptr @aligned_alloc(i64 64, i64 %n)
  %d = call ptr @memalign(i64 64, i64 %n)
  %e = call ptr @valloc(i64 %n)
  %e2 = call ptr @pvalloc(i64 %n)
  %r = call i32 @posix_memalign(ptr %out, i64 64, i64 %n)
  %s = call ptr @strdup(ptr %a)
  %s2 = call ptr @strndup(ptr %a, i64 %n)
  %s3 = call ptr @__strdup(ptr %a)
  %s4 = call ptr @__strndup(ptr %a, i64 %n)
  %g = call ptr @realloc(ptr %a, i64 %m)
  %h = call ptr @reallocarray(ptr %g, i64 %n, i64 %m)
  call void @free(ptr %h)
  %bad = call i32 @malloc(i32 3)
  ret void
}

; Every operator new, with its size.
; CHECK-LABEL: define void @cxx_new(
; CHECK: %n1 = call ptr @_Znwm(i64 %n)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %n1, i64 %n, ptr @__mip_5.cxx_new)
; CHECK-NEXT: %n2 = call ptr @_Znam(i64 %n)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %n2, i64 %n, ptr getelementptr inbounds ([16 x i8], ptr @__mip_5.cxx_new, i64 0, i64 1))
; CHECK-NEXT: %n3 = call ptr @_ZnwmRKSt9nothrow_t(i64 %n, ptr %nt)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %n3, i64 %n, {{.*}} i64 2))
; CHECK-NEXT: %n4 = call ptr @_ZnamRKSt9nothrow_t(i64 %n, ptr %nt)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %n4, i64 %n, {{.*}} i64 3))
; CHECK-NEXT: %n5 = call ptr @_ZnwmSt11align_val_t(i64 %n, i64 64)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %n5, i64 %n, {{.*}} i64 4))
; CHECK-NEXT: %n6 = call ptr @_ZnamSt11align_val_t(i64 %n, i64 64)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %n6, i64 %n, {{.*}} i64 5))
; CHECK-NEXT: %n7 = call ptr @_ZnwmSt11align_val_tRKSt9nothrow_t(i64 %n, i64 64, ptr %nt)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %n7, i64 %n, {{.*}} i64 6))
; CHECK-NEXT: %n8 = call ptr @_ZnamSt11align_val_tRKSt9nothrow_t(i64 %n, i64 64, ptr %nt)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %n8, i64 %n, {{.*}} i64 7))
; 32-bit size_t: the size is widened to 64 bits.
; CHECK-NEXT: %n9 = call ptr @_Znwj(i32 %k)
; CHECK-NEXT: [[K:%.*]] = zext i32 %k to i64
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %n9, i64 [[K]], {{.*}} i64 8))
define void @cxx_new(i64 %n, i32 %k, ptr %nt) {
  %n1 = call ptr @_Znwm(i64 %n)
  %n2 = call ptr @_Znam(i64 %n)
  %n3 = call ptr @_ZnwmRKSt9nothrow_t(i64 %n, ptr %nt)
  %n4 = call ptr @_ZnamRKSt9nothrow_t(i64 %n, ptr %nt)
  %n5 = call ptr @_ZnwmSt11align_val_t(i64 %n, i64 64)
  %n6 = call ptr @_ZnamSt11align_val_t(i64 %n, i64 64)
  %n7 = call ptr @_ZnwmSt11align_val_tRKSt9nothrow_t(i64 %n, i64 64, ptr %nt)
  %n8 = call ptr @_ZnamSt11align_val_tRKSt9nothrow_t(i64 %n, i64 64, ptr %nt)
  %n9 = call ptr @_Znwj(i32 %k)
  ; Results nobody uses are still allocations (clang may have deleted
  ; such calls before MIP runs, which is fine).
  call ptr @_Znwm(i64 1)
  call ptr @_Znam(i64 2)
  call ptr @malloc(i64 3)
  call ptr @calloc(i64 4, i64 5)
  call ptr @realloc(ptr %nt, i64 6)
  call ptr @strdup(ptr %nt)
  call i32 @posix_memalign(ptr %nt, i64 64, i64 7)
  ret void
}
; CHECK: [[U1:%.*]] = call ptr @_Znwm(i64 1)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr [[U1]], i64 1, {{.*}} i64 9))
; CHECK-NEXT: [[U2:%.*]] = call ptr @_Znam(i64 2)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr [[U2]], i64 2, {{.*}} i64 10))
; CHECK-NEXT: [[U3:%.*]] = call ptr @malloc(i64 3)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr [[U3]], i64 3, {{.*}} i64 11))
; CHECK-NEXT: [[U4:%.*]] = call ptr @calloc(i64 4, i64 5)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr [[U4]], i64 20, {{.*}} i64 12))
; CHECK-NEXT: [[U5:%.*]] = call ptr @realloc(ptr %nt, i64 6)
; CHECK-NEXT: call void @__mip_heap_realloc(ptr %nt, ptr [[U5]], i64 6, {{.*}} i64 13))
; CHECK-NEXT: [[U6:%.*]] = call ptr @strdup(ptr %nt)
; CHECK-NEXT: call void @__mip_heap_alloc_str(ptr [[U6]], {{.*}} i64 14))
; CHECK-NEXT: [[U7:%.*]] = call i32 @posix_memalign(ptr %nt, i64 64, i64 7)
; CHECK-NEXT: call void @__mip_heap_alloc_at(ptr %nt, i32 [[U7]], i64 7, {{.*}} i64 15))
; CHECK-NEXT: ret void

; Every operator delete, and free and cfree: the hook before the call.
; CHECK-LABEL: define void @cxx_delete(
; CHECK: call void @__mip_heap_free(ptr %p, ptr @__mip_5.cxx_delete)
; CHECK-NEXT: call void @_ZdlPv(ptr %p)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 1))
; CHECK-NEXT: call void @_ZdaPv(ptr %p)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 2))
; CHECK-NEXT: call void @_ZdlPvm(ptr %p, i64 8)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 3))
; CHECK-NEXT: call void @_ZdaPvm(ptr %p, i64 8)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 4))
; CHECK-NEXT: call void @_ZdlPvSt11align_val_t(ptr %p, i64 64)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 5))
; CHECK-NEXT: call void @_ZdaPvSt11align_val_t(ptr %p, i64 64)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 6))
; CHECK-NEXT: call void @_ZdlPvmSt11align_val_t(ptr %p, i64 8, i64 64)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 7))
; CHECK-NEXT: call void @_ZdaPvmSt11align_val_t(ptr %p, i64 8, i64 64)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 8))
; CHECK-NEXT: call void @_ZdlPvRKSt9nothrow_t(ptr %p, ptr %nt)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 9))
; CHECK-NEXT: call void @_ZdaPvRKSt9nothrow_t(ptr %p, ptr %nt)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 10))
; CHECK-NEXT: call void @_ZdlPvSt11align_val_tRKSt9nothrow_t(ptr %p, i64 64, ptr %nt)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 11))
; CHECK-NEXT: call void @_ZdaPvSt11align_val_tRKSt9nothrow_t(ptr %p, i64 64, ptr %nt)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 12))
; CHECK-NEXT: call void @_ZdlPvj(ptr %p, i32 8)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 13))
; CHECK-NEXT: call void @free(ptr %p)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 14))
; CHECK-NEXT: call void @cfree(ptr %p)
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}} i64 15))
; CHECK-NEXT: tail call void @free(ptr %p)
; CHECK-NEXT: call void @__mip_heap_free(ptr null, {{.*}} i64 16))
; CHECK-NEXT: call void @free(ptr null)
; CHECK-NEXT: ret void
define void @cxx_delete(ptr %p, ptr %nt) {
  call void @_ZdlPv(ptr %p)
  call void @_ZdaPv(ptr %p)
  call void @_ZdlPvm(ptr %p, i64 8)
  call void @_ZdaPvm(ptr %p, i64 8)
  call void @_ZdlPvSt11align_val_t(ptr %p, i64 64)
  call void @_ZdaPvSt11align_val_t(ptr %p, i64 64)
  call void @_ZdlPvmSt11align_val_t(ptr %p, i64 8, i64 64)
  call void @_ZdaPvmSt11align_val_t(ptr %p, i64 8, i64 64)
  call void @_ZdlPvRKSt9nothrow_t(ptr %p, ptr %nt)
  call void @_ZdaPvRKSt9nothrow_t(ptr %p, ptr %nt)
  call void @_ZdlPvSt11align_val_tRKSt9nothrow_t(ptr %p, i64 64, ptr %nt)
  call void @_ZdaPvSt11align_val_tRKSt9nothrow_t(ptr %p, i64 64, ptr %nt)
  call void @_ZdlPvj(ptr %p, i32 8)
  call void @free(ptr %p)
  call void @cfree(ptr %p)
  tail call void @free(ptr %p)
  call void @free(ptr null)
  ret void
}

; A musttail deallocation still gets its hook, before it.
; CHECK-LABEL: define void @tail_free(
; CHECK: call void @__mip_heap_free(ptr %p, ptr @__mip_5.tail_free)
; CHECK-NEXT: musttail call void @free(ptr %p)
; CHECK-NEXT: ret void
define void @tail_free(ptr %p) {
  musttail call void @free(ptr %p)
  ret void
}

; A lone site is the array itself.
; CHECK-LABEL: define ptr @one(
; CHECK: %p = call ptr @malloc(i64 %n)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %p, i64 %n, ptr @__mip_5.one)
; Nothing can follow a musttail call: that allocation goes unhooked.
; CHECK-NEXT: %q = musttail call ptr @malloc(i64 %n)
; CHECK-NEXT: ret ptr %q
define ptr @one(i64 %n) {
  %p = call ptr @malloc(i64 %n)
  %q = musttail call ptr @malloc(i64 %n)
  ret ptr %q
}

; A program's own operator new: its callers' calls are the sites, not the
; malloc inside it.
; CHECK-LABEL: define ptr @_Znwm(
; CHECK-NOT: __mip_heap
; CHECK: ret ptr
define ptr @_Znwm(i64 %n) {
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}

; A call through a function pointer of exactly the prototype of malloc,
; calloc or realloc is a site of that allocator: its hook runs when the
; pointer holds it. Pointers of other prototypes (free's among them: the
; runtime's free closes blocks whoever frees them) are not sites.
; CHECK-LABEL: define ptr @through_pointers(
; CHECK: %p = call ptr %alloc(i64 %n)
; CHECK-NEXT: %mip.is.malloc = icmp eq ptr %alloc, @malloc
; CHECK-NEXT: br i1 %mip.is.malloc, label %[[M:.*]], label %[[MDONE:.*]]
; CHECK: [[M]]:
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %p, i64 %n, ptr @__mip_5.through_pointers)
; CHECK-NEXT: br label %[[MDONE]]
; CHECK: [[MDONE]]:
; CHECK-NEXT: %z = call ptr %zalloc(i64 %n, i64 4)
; CHECK-NEXT: %mip.is.calloc = icmp eq ptr %zalloc, @calloc
; CHECK-NEXT: br i1 %mip.is.calloc, label %[[C:.*]], label %[[CDONE:.*]]
; CHECK: [[C]]:
; CHECK: call void @__mip_heap_alloc(ptr %z, i64 %mip.size, {{.*}} i64 1))
; CHECK: [[CDONE]]:
; CHECK-NEXT: %g = call ptr %grow(ptr %p, i64 %n)
; CHECK-NEXT: %mip.is.realloc = icmp eq ptr %grow, @realloc
; CHECK-NEXT: br i1 %mip.is.realloc, label %[[R:.*]], label %[[RDONE:.*]]
; CHECK: [[R]]:
; CHECK-NEXT: call void @__mip_heap_realloc(ptr %p, ptr %g, i64 %n, {{.*}} i64 2))
; CHECK: [[RDONE]]:
; CHECK-NEXT: call void %drop(ptr %g)
; CHECK-NEXT: %s = call ptr %narrow(i32 8)
; CHECK-NEXT: %d = call ptr %dup(ptr %s)
; CHECK-NEXT: %v = call ptr (i64, ...) %variadic(i64 %n)
; CHECK-NEXT: ret ptr %d
define ptr @through_pointers(ptr %alloc, ptr %zalloc, ptr %grow, ptr %drop,
                             ptr %narrow, ptr %dup, ptr %variadic, i64 %n) {
  %p = call ptr %alloc(i64 %n)
  %z = call ptr %zalloc(i64 %n, i64 4)
  %g = call ptr %grow(ptr %p, i64 %n)
  call void %drop(ptr %g)
  %s = call ptr %narrow(i32 8)
  %d = call ptr %dup(ptr %s)
  %v = call ptr (i64, ...) %variadic(i64 %n)
  ret ptr %d
}

; The hooks cannot throw.
; CHECK: declare hidden void @__mip_heap_alloc(ptr, i64, ptr) #[[NOUNWIND:[0-9]+]]
; CHECK: declare hidden void @__mip_heap_alloc_at(ptr, i32, i64, ptr) #[[NOUNWIND]]
; CHECK: declare hidden void @__mip_heap_alloc_str(ptr, ptr) #[[NOUNWIND]]
; CHECK: declare hidden void @__mip_heap_realloc(ptr, ptr, i64, ptr) #[[NOUNWIND]]
; CHECK: declare hidden void @__mip_heap_free(ptr, ptr) #[[NOUNWIND]]
; CHECK: attributes #[[SITE]] = { "bss-section"="__mip_site" "data-section"="__mip_site" }
; CHECK: attributes #[[NOUNWIND]] = { nounwind }

; The unit lists the site section; each function record has a SITE slot
; (kind 5, one element per site) next to its coverage byte (flags 4: its
; hash covers call targets and branch constants); each site has
; a record (kind 4, version 1) in the function's section: the site's byte,
; the function's coverage byte, line 0, column 0, the allocator
; (MIP_ALLOC_*), and empty file and name without debug information.
; MAP: module asm ".quad __start___mip_site"
; MAP-NEXT: module asm ".quad __stop___mip_site"
; MAP: module asm ".quad c_allocators"
; MAP-NEXT: module asm ".long 4"
; MAP-NEXT: module asm ".long 2"
; MAP: module asm ".long 5"
; MAP-NEXT: module asm ".long 16"
; MAP-NEXT: module asm ".quad __mip_5.c_allocators"
; MAP-NEXT: module asm ".long 1"
; MAP-NEXT: module asm ".long 1"
; MAP-NEXT: module asm ".quad __mip_1.c_allocators"
; MAP: module asm ".short 4"
; MAP-NEXT: module asm ".short 1"
; MAP-NEXT: module asm ".long 56"
; MAP-NEXT: module asm ".quad __mip_5.c_allocators"
; MAP-NEXT: module asm ".quad __mip_1.c_allocators"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 1"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".byte 0"
; MAP-NEXT: module asm ".byte 0"
; MAP-NEXT: module asm ".zero 6"
; MAP-NEXT: module asm ".short 4"
; MAP-NEXT: module asm ".short 1"
; MAP-NEXT: module asm ".long 56"
; MAP-NEXT: module asm ".quad __mip_5.c_allocators+1"
; MAP-NEXT: module asm ".quad __mip_1.c_allocators"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 2"
; Allocator kinds, in order: malloc 1, calloc 2 (three times),
; aligned_alloc 5, memalign 7, valloc 8 (pvalloc too), posix_memalign 6,
; strdup 9, strndup 10 (and their __ forms), realloc 3, reallocarray 4,
; free 32.
; MAP: module asm ".quad __mip_5.c_allocators+4"
; MAP-NEXT: module asm ".quad __mip_1.c_allocators"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 5"
; MAP: module asm ".quad __mip_5.c_allocators+5"
; MAP: module asm ".long 7"
; MAP: module asm ".quad __mip_5.c_allocators+6"
; MAP: module asm ".long 8"
; MAP: module asm ".quad __mip_5.c_allocators+7"
; MAP: module asm ".long 8"
; MAP: module asm ".quad __mip_5.c_allocators+8"
; MAP: module asm ".long 6"
; MAP: module asm ".quad __mip_5.c_allocators+9"
; MAP: module asm ".long 9"
; MAP: module asm ".quad __mip_5.c_allocators+10"
; MAP: module asm ".long 10"
; MAP: module asm ".quad __mip_5.c_allocators+11"
; MAP: module asm ".long 9"
; MAP: module asm ".quad __mip_5.c_allocators+12"
; MAP: module asm ".long 10"
; MAP: module asm ".quad __mip_5.c_allocators+13"
; MAP: module asm ".long 3"
; MAP: module asm ".quad __mip_5.c_allocators+14"
; MAP: module asm ".long 4"
; MAP: module asm ".quad __mip_5.c_allocators+15"
; MAP-NEXT: module asm ".quad __mip_1.c_allocators"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 32"
; new 11, new[] 12
; MAP: module asm ".ascii \22cxx_new\22"
; MAP: module asm ".quad __mip_5.cxx_new"
; MAP-NEXT: module asm ".quad __mip_1.cxx_new"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 11"
; MAP: module asm ".quad __mip_5.cxx_new+1"
; MAP-NEXT: module asm ".quad __mip_1.cxx_new"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 12"
; delete 33, delete[] 34
; MAP: module asm ".ascii \22cxx_delete\22"
; MAP: module asm ".quad __mip_5.cxx_delete"
; MAP-NEXT: module asm ".quad __mip_1.cxx_delete"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 33"
; MAP: module asm ".quad __mip_5.cxx_delete+1"
; MAP-NEXT: module asm ".quad __mip_1.cxx_delete"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 34"
; MAP: module asm ".quad __mip_5.cxx_delete+14"
; MAP-NEXT: module asm ".quad __mip_1.cxx_delete"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 32"
; Sites through pointers: malloc 1, calloc 2, realloc 3.
; MAP: module asm ".ascii \22through_pointers\22"
; MAP: module asm ".quad __mip_5.through_pointers"
; MAP-NEXT: module asm ".quad __mip_1.through_pointers"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 1"
; MAP: module asm ".quad __mip_5.through_pointers+1"
; MAP-NEXT: module asm ".quad __mip_1.through_pointers"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 2"
; MAP: module asm ".quad __mip_5.through_pointers+2"
; MAP-NEXT: module asm ".quad __mip_1.through_pointers"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 0"
; MAP-NEXT: module asm ".long 3"

declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare ptr @aligned_alloc(i64, i64)
declare ptr @memalign(i64, i64)
declare ptr @valloc(i64)
declare ptr @pvalloc(i64)
declare i32 @posix_memalign(ptr, i64, i64)
declare ptr @strdup(ptr)
declare ptr @strndup(ptr, i64)
declare ptr @__strdup(ptr)
declare ptr @__strndup(ptr, i64)
declare ptr @realloc(ptr, i64)
declare ptr @reallocarray(ptr, i64, i64)
declare void @free(ptr)
declare void @cfree(ptr)
declare ptr @_Znam(i64)
declare ptr @_ZnwmRKSt9nothrow_t(i64, ptr)
declare ptr @_ZnamRKSt9nothrow_t(i64, ptr)
declare ptr @_ZnwmSt11align_val_t(i64, i64)
declare ptr @_ZnamSt11align_val_t(i64, i64)
declare ptr @_ZnwmSt11align_val_tRKSt9nothrow_t(i64, i64, ptr)
declare ptr @_ZnamSt11align_val_tRKSt9nothrow_t(i64, i64, ptr)
declare ptr @_Znwj(i32)
declare void @_ZdlPv(ptr)
declare void @_ZdaPv(ptr)
declare void @_ZdlPvm(ptr, i64)
declare void @_ZdaPvm(ptr, i64)
declare void @_ZdlPvSt11align_val_t(ptr, i64)
declare void @_ZdaPvSt11align_val_t(ptr, i64)
declare void @_ZdlPvmSt11align_val_t(ptr, i64, i64)
declare void @_ZdaPvmSt11align_val_t(ptr, i64, i64)
declare void @_ZdlPvRKSt9nothrow_t(ptr, ptr)
declare void @_ZdaPvRKSt9nothrow_t(ptr, ptr)
declare void @_ZdlPvSt11align_val_tRKSt9nothrow_t(ptr, i64, ptr)
declare void @_ZdaPvSt11align_val_tRKSt9nothrow_t(ptr, i64, ptr)
declare void @_ZdlPvj(ptr, i32)
