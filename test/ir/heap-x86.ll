; On x86-64 a counted access costs a copy of its address (mov or lea), a
; `shrq $6` and one `incq 0x7fff8000(,%reg,8)`: three instructions, one
; scratch register, no call. Accesses to the stack cost nothing.
; REQUIRES: x86-64 llvm-16+
; RUN: %opt -passes='mip-generate<heap>' %s -o %t.bc
; RUN: %llc -O2 -filetype=obj %t.bc -o %t.o
; RUN: %objdump -d -r --no-show-raw-insn %t.o | %FileCheck %s
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: <get>:
; CHECK-NEXT: movb $0x1, (%rip)
; CHECK-NEXT: R_X86_64_PC32 __mip_cov-0x5
; CHECK-NEXT: leaq (%rdi,%rsi,4), [[R:%r[a-z0-9]+]]
; CHECK-NEXT: shrq $0x6, [[R]]
; CHECK-NEXT: incq 0x7fff8000(,[[R]],8)
; CHECK-NEXT: movl (%rdi,%rsi,4), %eax
; CHECK-NEXT: movq %rdi, [[R2:%r[a-z0-9]+]]
; CHECK-NEXT: shrq $0x6, [[R2]]
; CHECK-NEXT: incq 0x7fff8000(,[[R2]],8)
; CHECK-NEXT: movl $0x0, (%rdi)
; CHECK-NEXT: retq
define i32 @get(ptr %p, i64 %i) {
  %q = getelementptr inbounds i32, ptr %p, i64 %i
  %x = load i32, ptr %q
  store i32 0, ptr %p
  ret i32 %x
}

; CHECK-LABEL: <local>:
; CHECK-NOT: 0x7fff8000
; CHECK: retq
define i32 @local(i64 %i) {
  %a = alloca [16 x i32]
  %q = getelementptr inbounds [16 x i32], ptr %a, i64 0, i64 %i
  store i32 1, ptr %q
  %x = load i32, ptr %a
  ret i32 %x
}

; Fields of one struct read together: one add of their number. A short
; struct copy: first and last granule, the last only when it differs from
; the first, without a branch or a call.
; CHECK-LABEL: <fields>:
; CHECK: shrq $0x6, [[R:%r[a-z0-9]+]]
; CHECK-NEXT: addq $0x3, 0x7fff8000(,[[R]],8)
; CHECK-NOT: 0x7fff8000
; CHECK: retq
define i64 @fields(ptr %p) {
  %a = load i64, ptr %p
  %q = getelementptr inbounds i8, ptr %p, i64 8
  %b = load i64, ptr %q
  %r = getelementptr inbounds i8, ptr %p, i64 16
  %c = load i64, ptr %r
  %ab = add i64 %a, %b
  %abc = add i64 %ab, %c
  ret i64 %abc
}

; CHECK-LABEL: <copy>:
; CHECK-NOT: call
; CHECK: setne
; CHECK-NOT: call
; CHECK: incq 0x7fff8000(,[[F:%r[a-z0-9]+]],8)
; CHECK-NEXT: addq {{%r[a-z0-9]+}}, 0x7fff8000(,{{%r[a-z0-9]+}},8)
; CHECK-NOT: call
; CHECK: retq
define void @copy(ptr %p, ptr %q) {
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr @src, i64 48, i1 false)
  ret void
}

@src = global [48 x i8] zeroinitializer
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
