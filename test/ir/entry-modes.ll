; The entry probe of each mode, after the entry block's static allocas.
; RUN: %opt -passes='mip-generate<counts>' -S %s -o %t.counts.ll
; RUN: %FileCheck %s --check-prefix=COUNTS --input-file=%t.counts.ll
; RUN: %opt -passes='mip-generate<counts;atomic>' -S %s -o %t.atomic.ll
; RUN: %FileCheck %s --check-prefix=ATOMIC --input-file=%t.atomic.ll
; RUN: %opt -passes='mip-generate<order>' -S %s -o %t.order.ll
; RUN: %FileCheck %s --check-prefix=ORDER --input-file=%t.order.ll
; RUN: %opt -passes='mip-generate<counts;order>' -S %s -o %t.co.ll
; RUN: %FileCheck %s --check-prefix=CO --input-file=%t.co.ll
; RUN: %opt -passes='mip-generate<edges>' -S %s -o %t.edges.ll
; RUN: %FileCheck %s --check-prefix=EDGES --input-file=%t.edges.ll

; COUNTS: @__mip_2.f = internal global i64 0, align 8, !associated !{{[0-9]+}} #[[CNT:[0-9]+]]
; COUNTS-LABEL: define i32 @f(
; COUNTS-NEXT: %buf = alloca [16 x i8]
; COUNTS-NEXT: %mip.calls = load i64, ptr @__mip_2.f
; COUNTS-NEXT: [[N:%.*]] = add i64 %mip.calls, -1
; COUNTS-NEXT: store i64 [[N]], ptr @__mip_2.f
; COUNTS-NEXT: store atomic i8 1, ptr @__mip_1.f monotonic
; COUNTS: attributes #[[CNT]] = { "bss-section"="__mip_cnt" "data-section"="__mip_cnt" }

; ATOMIC-LABEL: define i32 @f(
; ATOMIC: atomicrmw sub ptr @__mip_2.f, i64 1 monotonic, align 8

; ORDER: @__mip_3.f = internal global i32 0, align 4, !associated !{{[0-9]+}} #[[ORD:[0-9]+]]
; ORDER-LABEL: define i32 @f(
; ORDER: %mip.seen = load atomic i8, ptr @__mip_1.f monotonic
; ORDER-NEXT: %mip.first = icmp eq i8 %mip.seen, 0
; ORDER-NEXT: br i1 %mip.first, label %[[COLD:.*]], label %[[REST:.*]], !prof ![[UNLIKELY:[0-9]+]]
; ORDER: [[COLD]]:
; ORDER-NEXT: call preserve_mostcc void @__mip_first_call(ptr @__mip_1.f, ptr @__mip_3.f)
; ORDER-NEXT: br label %[[REST]]
; ORDER: declare hidden preserve_mostcc void @__mip_first_call(ptr, ptr)
; ORDER: attributes #[[ORD]] = { "bss-section"="__mip_ord" "data-section"="__mip_ord" }
; ORDER: ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048576}

; With counts, the counter's old value tells the first call.
; CO-LABEL: define i32 @f(
; CO: %mip.calls = load i64, ptr @__mip_2.f
; CO-NEXT: [[N:%.*]] = add i64 %mip.calls, -1
; CO-NEXT: store i64 [[N]], ptr @__mip_2.f
; CO-NEXT: %mip.first = icmp eq i64 %mip.calls, 0
; CO-NEXT: br i1 %mip.first
; CO: call preserve_mostcc void @__mip_first_call(ptr @__mip_1.f, ptr @__mip_3.f)

; EDGES-LABEL: define i32 @f(
; EDGES: %mip.calls = load i64, ptr @__mip_2.f
; EDGES: [[PHASE:%.*]] = and i64 %mip.calls, 1023
; EDGES-NEXT: [[SAMPLE:%.*]] = icmp eq i64 [[PHASE]], 0
; EDGES-NEXT: br i1 [[SAMPLE]]
; EDGES: %mip.site = call ptr @llvm.returnaddress(i32 0)
; EDGES-NEXT: call void @__mip_edge_sample(ptr @__mip_1.f, ptr %mip.site)
; EDGES: declare hidden void @__mip_edge_sample(ptr, ptr)

define i32 @f(i32 %x) {
  %buf = alloca [16 x i8]
  %r = add i32 %x, 1
  ret i32 %r
}
