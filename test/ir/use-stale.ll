; A function whose structure changed since the profile is stale: it is
; left alone, with a missed remark, and the pass warns once per module
; with the count (list-stale names each one). A function the profile does
; not know is left alone without a word.
; RUN: %profile %s counts %t
; The same module with @changes given one more block, and a new function.
; RUN: sed -e 's/^  ret i32 %y ; one block$/  br label %more\nmore:\n  ret i32 %y/' -e 's/^; NEW //' %s >%t.changed.ll
; RUN: %opt -passes='mip-use<profile=%t.mip>' -pass-remarks-missed=mip -S %t.changed.ll -o %t.ll 2>%t.err
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %FileCheck %s --check-prefix=WARN --input-file=%t.err
; RUN: %opt -passes='mip-use<profile=%t.mip;list-stale>' -disable-output %t.changed.ll 2>&1 | %FileCheck %s --check-prefix=LIST
; Unchanged, nothing is stale.
; RUN: %opt -passes='mip-use<profile=%t.mip>' -disable-output %s 2>&1 | count 0

; CHECK: define i32 @changes(i32 %x) #[[PLAIN:[0-9]+]] {
; CHECK: define i32 @also_never(i32 %x) #[[COLD:[0-9]+]] !section_prefix
; CHECK: define i32 @brand_new(i32 %x) #[[PLAIN]] {
; CHECK: attributes #[[PLAIN]] = { noinline }
; CHECK: attributes #[[COLD]] = { cold noinline }

; WARN: remark: <unknown>:0:0: profile not used: the function changed since it was profiled
; WARN: warning: mip: {{.*}}.mip: 1 function of {{.*}}.changed.ll has changed since the profile was taken and will not use it (-fmip-list-stale lists them)
; WARN-NOT: brand_new

; LIST: warning: mip: {{.*}}.mip: 1 function of {{.*}} has changed since the profile was taken and will not use it{{$}}
; LIST-NEXT: note: mip: stale: changes

define i32 @changes(i32 %x) noinline {
  %y = mul i32 %x, 3
  ret i32 %y ; one block
}

define i32 @also_never(i32 %x) noinline {
  ret i32 %x
}

; NEW define i32 @brand_new(i32 %x) noinline {
; NEW   ret i32 %x
; NEW }

define i32 @main() {
  ret i32 0
}
