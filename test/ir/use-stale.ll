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
; After counts before inlining the warning allows that the counts, not
; the source, may have made the function differ.
; RUN: %opt -passes='mip-use-early<profile=%t.mip>,mip-use<profile=%t.mip>' -disable-output %t.changed.ll 2>&1 | %FileCheck %s --check-prefix=EARLY
; Unchanged, nothing is stale.
; RUN: %opt -passes='mip-use<profile=%t.mip>' -disable-output %s 2>&1 | count 0
; The same shape, but @loop calls another function, or runs its loop to
; another bound: stale too (what a function calls and how often its
; branches go decide its temperature and its callees').
; RUN: sed 's/call i32 @step(/call i32 @other_step(/' %s >%t.callee.ll
; RUN: %opt -passes='mip-use<profile=%t.mip;list-stale>' -disable-output %t.callee.ll 2>&1 | %FileCheck %s --check-prefix=LOOP
; RUN: sed 's/icmp ult i32 %next, 1000000/icmp ult i32 %next, 10/' %s >%t.bound.ll
; RUN: %opt -passes='mip-use<profile=%t.mip;list-stale>' -disable-output %t.bound.ll 2>&1 | %FileCheck %s --check-prefix=LOOP
; A profile of an older MIP, whose hashes cover the shape only (its
; functions lack flag 4, MIP_FN_HASH_CALLS): compared by that recipe, it
; still matches the unchanged module, and cannot see the new callee.
; RUN: MIP_IR_OPT_FLAGS=-mip-cfg-hash-recipe=1 %profile %s counts %t.shape
; RUN: %opt -passes='mip-use<profile=%t.shape.mip>' -disable-output %s 2>&1 | count 0
; RUN: %opt -passes='mip-use<profile=%t.shape.mip>' -disable-output %t.callee.ll 2>&1 | count 0

; CHECK: define i32 @changes(i32 %x) #[[PLAIN:[0-9]+]] {
; CHECK: define i32 @also_never(i32 %x) #[[COLD:[0-9]+]] !section_prefix
; CHECK: define i32 @brand_new(i32 %x) #[[PLAIN]] {
; CHECK: attributes #[[PLAIN]] = { noinline }
; CHECK: attributes #[[COLD]] = { cold noinline }

; WARN: remark: <unknown>:0:0: profile not used: the function changed since it was profiled
; WARN: warning: mip: {{.*}}.mip: 1 function of {{.*}}.changed.ll has changed since the profile was taken and will not use it (-fmip-list-stale lists them)
; WARN-NOT: brand_new

; EARLY: warning: mip: {{.*}}.mip: 1 function of {{.*}}.changed.ll differs from the profiled build (changed since, or inlined otherwise by the profile's counts) and will not use its blocks (-fmip-list-stale lists them)

; LIST: warning: mip: {{.*}}.mip: 1 function of {{.*}} has changed since the profile was taken and will not use it{{$}}
; LIST-NEXT: note: mip: stale: changes

; LOOP: warning: mip: {{.*}}.mip: 1 function of {{.*}} has changed since the profile was taken and will not use it{{$}}
; LOOP-NEXT: note: mip: stale: loop

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

define i32 @step(i32 %x) noinline {
  %y = add i32 %x, 1
  ret i32 %y
}

define i32 @other_step(i32 %x) noinline {
  %y = add i32 %x, 2
  ret i32 %y
}

define i32 @loop() noinline {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %s = call i32 @step(i32 %i)
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, 1000000
  br i1 %more, label %body, label %done
done:
  ret i32 %s
}

define i32 @main() {
  %r = call i32 @loop()
  %z = and i32 %r, 0
  ret i32 %z
}
