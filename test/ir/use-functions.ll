; -fmip-use on functions: never-run ones become cold (.text.unlikely),
; the most-called hot (.text.hot); a function the source already marks the
; other way, or with a section of its own, is left alone; every decision
; is a remark.
; RUN: %profile %s counts %t
; RUN: %opt -passes='mip-use<profile=%t.mip>' -pass-remarks=mip -pass-remarks-missed=mip -S %s -o %t.ll 2>%t.remarks
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
; The section prefixes reach the object file.
; RUN: %llc -filetype=obj %t.ll -o %t.o
; RUN: %objdump -h %t.o | %FileCheck %s --check-prefix=SECTIONS
; cold-minsize also optimizes cold functions for size.
; RUN: %opt -passes='mip-use<profile=%t.mip;cold-minsize>' -S %s | %FileCheck %s --check-prefix=MINSIZE
; hot-share=0 makes nothing hot; 1 makes every function hot that is called
; more than once per run (main, called once, stays warm).
; RUN: %opt -passes='mip-use<profile=%t.mip;hot-share=0>' -S %s | %FileCheck %s --check-prefix=NOHOT
; RUN: %opt -passes='mip-use<profile=%t.mip;hot-share=1>' -S %s | %FileCheck %s --check-prefix=ALLHOT
; A profile with coverage only: cold functions, nothing hot.
; RUN: %profile %s coverage %t.cov
; RUN: %opt -passes='mip-use<profile=%t.cov.mip>' -S %s | %FileCheck %s --check-prefix=COVERAGE

; CHECK: define i32 @never(i32 %x) #[[COLD:[0-9]+]] !section_prefix ![[UNLIKELY:[0-9]+]] {
; CHECK: define i32 @hot(i32 %x) #[[HOT:[0-9]+]] !section_prefix ![[HOTP:[0-9]+]] {
; CHECK: define i32 @warm(i32 %x) #[[WARM:[0-9]+]] {
; CHECK: define i32 @marked_hot(i32 %x) #[[HOT]] {
; CHECK: define i32 @sectioned(i32 %x) #[[WARM]] section ".text.mine" {
; CHECK-DAG: attributes #[[COLD]] = { cold noinline }
; CHECK-DAG: attributes #[[HOT]] = { hot noinline }
; CHECK-DAG: attributes #[[WARM]] = { noinline }
; CHECK: ![[UNLIKELY]] = !{!"function_section_prefix", !"unlikely"}
; CHECK: ![[HOTP]] = !{!"function_section_prefix", !"hot"}

; REMARK-DAG: remark: <unknown>:0:0: marked cold: never ran in 1 run
; REMARK-DAG: remark: <unknown>:0:0: marked hot: 1000 calls, among the functions that make 90.00% of all calls (hot from 1000 calls)
; REMARK-DAG: remark: <unknown>:0:0: not marked cold: the source marks it hot
; REMARK-DAG: remark: <unknown>:0:0: not marked cold: it has a section of its own

; SECTIONS: .text.unlikely.
; SECTIONS: .text.hot.

; MINSIZE: define i32 @never(i32 %x) #[[MS:[0-9]+]] !section_prefix
; MINSIZE: attributes #[[MS]] = { cold minsize noinline optsize }

; NOHOT: define i32 @never(i32 %x) #{{[0-9]+}} !section_prefix
; NOHOT: define i32 @hot(i32 %x) #[[N:[0-9]+]] {
; NOHOT: attributes #[[N]] = { noinline }
; NOHOT-NOT: !"hot"
; ALLHOT: define i32 @hot(i32 %x) #[[H:[0-9]+]] !section_prefix
; ALLHOT: define i32 @warm(i32 %x) #[[H]] !section_prefix
; ALLHOT: define i32 @main() #[[M:[0-9]+]] {
; ALLHOT-DAG: attributes #[[H]] = { hot noinline }
; ALLHOT-DAG: attributes #[[M]] = { noinline }

; COVERAGE: define i32 @never(i32 %x) #[[C:[0-9]+]] !section_prefix
; COVERAGE: define i32 @hot(i32 %x) #[[N:[0-9]+]] {
; COVERAGE: attributes #[[C]] = { cold noinline }
; COVERAGE: attributes #[[N]] = { noinline }

define i32 @never(i32 %x) noinline {
  %y = mul i32 %x, 3
  ret i32 %y
}

define i32 @hot(i32 %x) noinline {
  %y = xor i32 %x, 7
  ret i32 %y
}

define i32 @warm(i32 %x) noinline {
  %y = add i32 %x, 1
  ret i32 %y
}

define i32 @marked_hot(i32 %x) noinline hot {
  ret i32 %x
}

define i32 @sectioned(i32 %x) noinline section ".text.mine" {
  ret i32 %x
}

define i32 @main() noinline {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s2, %loop ]
  %h = call i32 @hot(i32 %i)
  %s1 = add i32 %s, %h
  %w = icmp ult i32 %i, 10
  %wv = select i1 %w, i32 %i, i32 0
  %s2 = add i32 %s1, %wv
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 1000
  br i1 %done, label %exit, label %loop
exit:
  %a = call i32 @warm(i32 %s2)
  %b = call i32 @warm(i32 %a)
  ret i32 0
}
