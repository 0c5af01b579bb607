; Heap mode counts every access that may touch the heap: the 64-bit shadow
; counter of its 64-byte granule, at ((addr >> 6) << 3) + 0x7fff8000, goes
; up by one right before it. Accesses provably to the stack or to globals
; are left alone; memcpy, memmove and memset pass their ranges to the
; runtime.
; REQUIRES: llvm-16+
; RUN: %opt -passes='mip-generate<heap>' -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll
; Every other mode on top: none of their own code is counted, and the
; entry probe comes before the counted accesses.
; RUN: %opt -passes='mip-generate<all;heap>' -S %s -o %t.all.ll
; RUN: %FileCheck %s --check-prefix=ALL --input-file=%t.all.ll
; One increment per group of counted accesses, two per short range, in the
; whole module (9 groups and 4 short ranges below).
; RUN: grep -c 'mip.accesses[0-9]* = load' %t.ll | grep -qx 17
; RUN: grep -c 'mip.accesses[0-9]* = load' %t.all.ll | grep -qx 17
; heap-allocs: the allocation hooks without a single counter or range
; call; the unit record says so (flags 1, MIP_MAP_UNIT_HEAP_UNCOUNTED);
; heap and heap-allocs together count.
; RUN: %opt -passes='mip-generate<heap-allocs>' -S %s -o %t.allocs.ll
; RUN: not grep -q 'mip.shadow\|mip.granule\|call.*__mip_heap_access_range' %t.allocs.ll
; RUN: grep -A1 'module asm ".long 5"' %t.allocs.ll | grep -q 'module asm ".long 1"'
; RUN: grep -q 'mip.shadow' %t.ll
; RUN: not grep -A1 'module asm ".long 5"' %t.ll | grep -q 'module asm ".long 1"$'
; RUN: %opt -passes='mip-generate<heap;heap-allocs>' -S %s -o %t.both.ll
; RUN: grep -c 'mip.accesses[0-9]* = load' %t.both.ll | grep -qx 17

@g = global [16 x i32] zeroinitializer
@tls = thread_local global i32 0

; A load and a store to the same place, and a store 100 bytes on through
; an inbounds GEP (the same block): three accesses, one add of 3 to the
; granule of the first.
; CHECK-LABEL: define void @heap(
; CHECK-NEXT: store atomic i8 1, ptr @__mip_1.heap monotonic
; CHECK-NEXT: [[A:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT: %mip.granule = lshr i64 [[A]], 6
; CHECK-NEXT: [[O:%.*]] = shl i64 %mip.granule, 3
; CHECK-NEXT: [[S:%.*]] = add i64 [[O]], 2147450880
; CHECK-NEXT: %mip.shadow = inttoptr i64 [[S]] to ptr
; CHECK-NEXT: %mip.accesses = load i64, ptr %mip.shadow, align 8, !nosanitize ![[EMPTY:[0-9]+]]
; CHECK-NEXT: [[N:%.*]] = add i64 %mip.accesses, 3
; CHECK-NEXT: store i64 [[N]], ptr %mip.shadow, align 8, !nosanitize ![[EMPTY]]
; CHECK-NEXT: %x = load i32, ptr %p
; CHECK-NEXT: %y = add i32 %x, 1
; CHECK-NEXT: store i32 %y, ptr %p
; CHECK-NEXT: %q = getelementptr inbounds i8, ptr %p, i64 100
; CHECK-NEXT: store i32 %y, ptr %q
; CHECK-NEXT: ret void
define void @heap(ptr %p) {
  %x = load i32, ptr %p
  %y = add i32 %x, 1
  store i32 %y, ptr %p
  %q = getelementptr inbounds i8, ptr %p, i64 100
  store i32 %y, ptr %q
  ret void
}

; What keeps accesses apart: a call that may free memory between them
; (one known not to free does not), a GEP that is not inbounds (it may
; leave the block), a variable offset, another basic block.
; CHECK-LABEL: define void @apart(
; CHECK: %mip.accesses = load i64
; CHECK-NEXT: add i64 %mip.accesses, 2
; CHECK: store i32 1, ptr %p
; CHECK-NEXT: call void @nofree()
; CHECK-NEXT: store i32 2, ptr %p
; CHECK-NEXT: call void @opaque()
; CHECK: add i64 %mip.accesses{{[0-9]+}}, 1
; CHECK-NEXT: store i64
; CHECK-NEXT: store i32 3, ptr %p
; CHECK-NEXT: %r = getelementptr i8, ptr %p, i64 8
; CHECK: add i64 %mip.accesses{{[0-9]+}}, 1
; CHECK-NEXT: store i64
; CHECK-NEXT: store i32 4, ptr %r
; CHECK-NEXT: %v = getelementptr inbounds i32, ptr %p, i64 %i
; CHECK: add i64 %mip.accesses{{[0-9]+}}, 1
; CHECK-NEXT: store i64
; CHECK-NEXT: store i32 5, ptr %v
; CHECK-NEXT: br label %next
; CHECK-EMPTY:
; CHECK: next:
; CHECK: add i64 %mip.accesses{{[0-9]+}}, 1
; CHECK-NEXT: store i64
; CHECK-NEXT: store i32 6, ptr %p
; CHECK-NEXT: ret void
define void @apart(ptr %p, i64 %i) {
  store i32 1, ptr %p
  call void @nofree()
  store i32 2, ptr %p
  call void @opaque()
  store i32 3, ptr %p
  %r = getelementptr i8, ptr %p, i64 8
  store i32 4, ptr %r
  %v = getelementptr inbounds i32, ptr %p, i64 %i
  store i32 5, ptr %v
  br label %next
next:
  store i32 6, ptr %p
  ret void
}

; Atomics, vectors, masked loads and stores count once each: 7 accesses
; through %p (a gather's addresses are a vector: not counted).
; CHECK-LABEL: define void @kinds(
; CHECK: %mip.accesses = load i64
; CHECK-NEXT: add i64 %mip.accesses, 7
; CHECK-NOT: %mip.accesses
; CHECK: %a = load atomic i32, ptr %p seq_cst
; CHECK: %m = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p
; CHECK: %gv = call <2 x i32> @llvm.masked.gather
; CHECK-NEXT: ret void
define void @kinds(ptr %p, <4 x i1> %mask, <2 x ptr> %ps) {
  %a = load atomic i32, ptr %p seq_cst, align 4
  store atomic i32 %a, ptr %p release, align 4
  %b = atomicrmw add ptr %p, i32 1 seq_cst
  %c = cmpxchg ptr %p, i32 0, i32 1 seq_cst seq_cst
  %v = load <8 x i32>, ptr %p
  %m = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 4, <4 x i1> %mask, <4 x i32> zeroinitializer)
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %m, ptr %p, i32 4, <4 x i1> %mask)
  %gv = call <2 x i32> @llvm.masked.gather.v2i32.v2p0(<2 x ptr> %ps, i32 4, <2 x i1> <i1 true, i1 true>, <2 x i32> zeroinitializer)
  ret void
}

; The stack: allocas, through GEPs, phis and selects (a pointer walking an
; array in a loop too), and the caller's copy of a by-value argument.
; CHECK-LABEL: define i32 @stack(
; CHECK-NOT: %mip.accesses
; CHECK: ret i32
define i32 @stack(i1 %c, i64 %i, ptr byval([8 x i32]) %arg) {
entry:
  %a = alloca [8 x i32]
  %b = alloca [8 x i32]
  %dyn = alloca i32, i64 %i
  store i32 1, ptr %a
  %ai = getelementptr inbounds [8 x i32], ptr %a, i64 0, i64 %i
  store i32 2, ptr %ai
  %sel = select i1 %c, ptr %a, ptr %b
  store i32 3, ptr %sel
  store i32 4, ptr %dyn
  %x = load i32, ptr %arg
  br label %loop
loop:
  %p = phi ptr [ %a, %entry ], [ %next, %loop ]
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  store i32 5, ptr %p
  %next = getelementptr inbounds i32, ptr %p, i64 1
  %k1 = add i64 %k, 1
  %done = icmp eq i64 %k1, 8
  br i1 %done, label %exit, label %loop
exit:
  %y = load i32, ptr %b
  %r = add i32 %x, %y
  ret i32 %r
}

; Globals, thread-local ones too.
; CHECK-LABEL: define i32 @globals(
; CHECK-NOT: %mip.accesses
; CHECK: ret i32
define i32 @globals(i64 %i) {
  store i32 1, ptr @g
  %gi = getelementptr inbounds [16 x i32], ptr @g, i64 0, i64 %i
  store i32 2, ptr %gi
  store i32 3, ptr getelementptr inbounds ([16 x i32], ptr @g, i64 0, i64 3)
  %t = call ptr @llvm.threadlocal.address.p0(ptr @tls)
  %x = load i32, ptr %t
  ret i32 %x
}

; Either the stack or somewhere else: counted.
; CHECK-LABEL: define void @maybe(
; CHECK: %either = select i1 %c, ptr %a, ptr %p
; CHECK: %mip.accesses = load i64
; CHECK: store i32 1, ptr %either
define void @maybe(i1 %c, ptr %p) {
  %a = alloca i32
  %either = select i1 %c, ptr %a, ptr %p
  store i32 1, ptr %either
  ret void
}

; Other address spaces (x86's %fs and %gs), code a sanitizer marked as its
; own, and functions that asked for no sanitizer instrumentation: not
; counted.
; CHECK-LABEL: define i32 @other(
; CHECK-NOT: %mip.accesses
; CHECK: ret i32
define i32 @other(ptr addrspace(256) %fs, ptr %p) {
  %x = load i32, ptr addrspace(256) %fs
  %y = load i32, ptr %p, !nosanitize !{}
  %r = add i32 %x, %y
  ret i32 %r
}
; CHECK-LABEL: define i32 @nosan(
; CHECK-NOT: %mip.accesses
; CHECK: ret i32
define i32 @nosan(ptr %p) disable_sanitizer_instrumentation {
  %x = load i32, ptr %p
  ret i32 %x
}
; Nor what coverage skips.
; CHECK-LABEL: define i32 @noprofile(
; CHECK-NOT: %mip
; CHECK: ret i32
define i32 @noprofile(ptr %p) noprofile {
  %x = load i32, ptr %p
  ret i32 %x
}

; memcpy and memmove: both ranges, memset: its destination; each unless it
; is on the stack or in a global; nothing for a length of 0. A constant
; length of at most 64 bytes is counted inline: one access in the first
; granule, one in the last unless it is the first.
; CHECK-LABEL: define void @ranges(
; CHECK-NEXT: %s = alloca [64 x i8]
; CHECK-NEXT: store atomic i8 1
; CHECK-NEXT: [[F:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT: [[L:%.*]] = add i64 [[F]], 63
; CHECK-NEXT: [[G0:%.*]] = lshr i64 [[F]], 6
; CHECK-NEXT: [[G1:%.*]] = lshr i64 [[L]], 6
; CHECK-NEXT: [[TWO:%.*]] = icmp ne i64 [[G0]], [[G1]]
; CHECK-NEXT: %mip.granule = lshr i64 [[F]], 6
; CHECK: %mip.accesses = load i64
; CHECK-NEXT: add i64 %mip.accesses, 1
; CHECK-NEXT: store i64
; CHECK-NEXT: %mip.granule{{[0-9]+}} = lshr i64 [[L]], 6
; CHECK: [[Z:%.*]] = zext i1 [[TWO]] to i64
; CHECK-NEXT: %mip.accesses{{[0-9]+}} = load i64
; CHECK-NEXT: add i64 %mip.accesses{{[0-9]+}}, [[Z]]
; CHECK-NEXT: store i64
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %s, i64 64, i1 false)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %q, i64 %n)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %s, ptr %q, i64 %n, i1 false)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %p, i64 %n)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %q, i64 %n)
; CHECK-NEXT: call void @llvm.memmove.p0.p0.i64(ptr %p, ptr %q, i64 %n, i1 false)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %p, i64 %n)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 %n, i1 false)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %s, i8 0, i64 64, i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr @g, ptr %s, i64 64, i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 0, i1 false)
; CHECK-NEXT: ptrtoint ptr %p to i64
; CHECK-NEXT: add i64 {{%.*}}, 31
; CHECK-NOT: call
; CHECK: ptrtoint ptr %q to i64
; CHECK-NEXT: add i64 {{%.*}}, 31
; CHECK-NOT: call
; CHECK: call void @llvm.memcpy.inline.p0.p0.i64(ptr %p, ptr %q, i64 32, i1 false)
; CHECK-NEXT: ptrtoint ptr %p to i64
; CHECK-NEXT: add i64 {{%.*}}, 15
; CHECK-NOT: call
; CHECK: call void @llvm.memset.inline.p0.i64(ptr %p, i8 1, i64 16, i1 false)
; The element-wise atomic forms, a 32-bit length.
; CHECK-NEXT: [[L:%.*]] = zext i32 %m to i64
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %p, i64 [[L]])
; CHECK-NEXT: [[L2:%.*]] = zext i32 %m to i64
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %q, i64 [[L2]])
; CHECK-NEXT: call void @llvm.memcpy.element.unordered.atomic.p0.p0.i32(ptr align 4 %p, ptr align 4 %q, i32 %m, i32 4)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %p, i64 %n)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %q, i64 %n)
; CHECK-NEXT: call void @llvm.memmove.element.unordered.atomic.p0.p0.i64(ptr align 4 %p, ptr align 4 %q, i64 %n, i32 4)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %p, i64 %n)
; CHECK-NEXT: call void @llvm.memset.element.unordered.atomic.p0.i64(ptr align 4 %p, i8 0, i64 %n, i32 4)
; The library functions (-fno-builtin keeps them calls; _FORTIFY_SOURCE
; makes them __*_chk).
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %p, i64 %n)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %q, i64 %n)
; CHECK-NEXT: %r1 = call ptr @memcpy(ptr %p, ptr %q, i64 %n)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %p, i64 %n)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %q, i64 %n)
; CHECK-NEXT: %r2 = call ptr @memmove(ptr %p, ptr %q, i64 %n)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %p, i64 %n)
; CHECK-NEXT: %r3 = call ptr @memset(ptr %p, i32 0, i64 %n)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %p, i64 %n)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %q, i64 %n)
; CHECK-NEXT: %r4 = call ptr @__memcpy_chk(ptr %p, ptr %q, i64 %n, i64 -1)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %p, i64 %n)
; CHECK-NEXT: %r5 = call ptr @__memset_chk(ptr %p, i32 0, i64 %n, i64 -1)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %p, i64 %n)
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %q, i64 %n)
; CHECK-NEXT: %r6 = call ptr @mempcpy(ptr %p, ptr %q, i64 %n)
; CHECK-NEXT: %r7 = call ptr @memset(ptr %s, i32 0, i64 64)
; A constant length over 64 bytes goes to the runtime.
; CHECK-NEXT: call void @__mip_heap_access_range(ptr %p, i64 65)
; CHECK-NEXT: %r8 = call ptr @memset(ptr %p, i32 0, i64 65)
; CHECK-NEXT: ret void
define void @ranges(ptr %p, ptr %q, i64 %n, i32 %m) {
  %s = alloca [64 x i8]
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %s, i64 64, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %s, ptr %q, i64 %n, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr %p, ptr %q, i64 %n, i1 false)
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 %n, i1 false)
  call void @llvm.memset.p0.i64(ptr %s, i8 0, i64 64, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr @g, ptr %s, i64 64, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 0, i1 false)
  call void @llvm.memcpy.inline.p0.p0.i64(ptr %p, ptr %q, i64 32, i1 false)
  call void @llvm.memset.inline.p0.i64(ptr %p, i8 1, i64 16, i1 false)
  call void @llvm.memcpy.element.unordered.atomic.p0.p0.i32(ptr align 4 %p, ptr align 4 %q, i32 %m, i32 4)
  call void @llvm.memmove.element.unordered.atomic.p0.p0.i64(ptr align 4 %p, ptr align 4 %q, i64 %n, i32 4)
  call void @llvm.memset.element.unordered.atomic.p0.i64(ptr align 4 %p, i8 0, i64 %n, i32 4)
  %r1 = call ptr @memcpy(ptr %p, ptr %q, i64 %n)
  %r2 = call ptr @memmove(ptr %p, ptr %q, i64 %n)
  %r3 = call ptr @memset(ptr %p, i32 0, i64 %n)
  %r4 = call ptr @__memcpy_chk(ptr %p, ptr %q, i64 %n, i64 -1)
  %r5 = call ptr @__memset_chk(ptr %p, i32 0, i64 %n, i64 -1)
  %r6 = call ptr @mempcpy(ptr %p, ptr %q, i64 %n)
  %r7 = call ptr @memset(ptr %s, i32 0, i64 64)
  %r8 = call ptr @memset(ptr %p, i32 0, i64 65)
  ret void
}

; The heap hooks are not counted, the store into the new block is.
; CHECK-LABEL: define void @hooks(
; CHECK: %p = call ptr @malloc(i64 8)
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %p, i64 8, ptr @__mip_5.hooks)
; CHECK-NEXT: ptrtoint ptr %p to i64
; CHECK: %mip.accesses = load i64
; CHECK: store i32 1, ptr %p
; CHECK-NEXT: call void @__mip_heap_free(ptr %p
; CHECK-NEXT: call void @free(ptr %p)
; CHECK-NEXT: ret void
define void @hooks() {
  %p = call ptr @malloc(i64 8)
  store i32 1, ptr %p
  call void @free(ptr %p)
  ret void
}

; With every mode: the entry probe first, then the counted access; none
; of the probes' own loads and stores is counted.
; ALL-LABEL: define void @heap(
; ALL-NEXT: %mip.calls = load i64, ptr @__mip_2.heap
; ALL-NOT: %mip.accesses
; ALL: call preserve_mostcc void @__mip_first_call(
; ALL-NOT: %mip.accesses
; ALL: call void @__mip_edge_sample(
; ALL-NOT: %mip.accesses
; ALL: %mip.granule = lshr
; ALL: %x = load i32, ptr %p
; ALL-LABEL: define i32 @stack(
; ALL-NOT: %mip.accesses
; ALL: store atomic i8 1, ptr @__mip_4.stack
; ALL-NOT: %mip.accesses
; ALL: ret i32

declare <4 x i32> @llvm.masked.load.v4i32.p0(ptr, i32, <4 x i1>, <4 x i32>)
declare void @llvm.masked.store.v4i32.p0(<4 x i32>, ptr, i32, <4 x i1>)
declare <2 x i32> @llvm.masked.gather.v2i32.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x i32>)
declare ptr @llvm.threadlocal.address.p0(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.inline.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.inline.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.element.unordered.atomic.p0.p0.i32(ptr, ptr, i32, i32)
declare void @llvm.memmove.element.unordered.atomic.p0.p0.i64(ptr, ptr, i64, i32)
declare void @llvm.memset.element.unordered.atomic.p0.i64(ptr, i8, i64, i32)
declare ptr @memcpy(ptr, ptr, i64)
declare ptr @memmove(ptr, ptr, i64)
declare ptr @memset(ptr, i32, i64)
declare ptr @mempcpy(ptr, ptr, i64)
declare ptr @__memcpy_chk(ptr, ptr, i64, i64)
declare ptr @__memset_chk(ptr, i32, i64, i64)
declare ptr @malloc(i64)
declare void @nofree() nofree
declare void @opaque()
declare void @free(ptr)
