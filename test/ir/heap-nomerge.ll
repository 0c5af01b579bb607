; Heap mode: no pass merges the hook calls of two sites, whose return
; address is the first frame of their calling contexts. Every hook call is
; nomerge; after SimplifyCFG's sinking and the backend's branch folding
; (tail merging), each site in arms that end alike keeps its own call.
; REQUIRES: x86-64
; RUN: %opt -passes='mip-generate<heap>' -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %opt -passes='simplifycfg<sink-common-insts;hoist-common-insts>' -S %t.ll -o %t.sunk.ll
; RUN: grep -c 'call void @__mip_heap_alloc(' %t.sunk.ll | grep -qx 5
; RUN: grep -c 'call void @__mip_heap_free(' %t.sunk.ll | grep -qx 2
; RUN: %llc -O2 %t.ll -o %t.s
; RUN: grep -c 'callq.*__mip_heap_alloc$' %t.s | grep -qx 5
; RUN: grep -c 'callq.*__mip_heap_free$' %t.s | grep -qx 2
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define ptr @arms(
; CHECK: call void @__mip_heap_alloc({{.*}}) #[[NOMERGE:[0-9]+]]
; CHECK: call void @__mip_heap_alloc({{.*}}) #[[NOMERGE]]
; CHECK: call void @__mip_heap_alloc({{.*}}) #[[NOMERGE]]
define ptr @arms(i32 %k, i64 %n) {
entry:
  switch i32 %k, label %c [
    i32 0, label %a
    i32 1, label %b
  ]
a:
  %pa = call ptr @malloc(i64 %n)
  br label %done
b:
  %pb = call ptr @aligned_alloc(i64 64, i64 %n)
  br label %done
c:
  %pc = call ptr @calloc(i64 1, i64 %n)
  br label %done
done:
  %p = phi ptr [ %pa, %a ], [ %pb, %b ], [ %pc, %c ]
  ret ptr %p
}

; CHECK-LABEL: define ptr @twice(
; CHECK: call void @__mip_heap_alloc({{.*}}) #[[NOMERGE]]
; CHECK: call void @__mip_heap_alloc({{.*}}) #[[NOMERGE]]
define ptr @twice(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %pa = call ptr @malloc(i64 16)
  br label %done
b:
  %pb = call ptr @malloc(i64 32)
  br label %done
done:
  %p = phi ptr [ %pa, %a ], [ %pb, %b ]
  ret ptr %p
}

; Without nomerge, SimplifyCFG sinks these two into one call whose site
; is a phi.
; CHECK-LABEL: define void @frees(
; CHECK: call void @__mip_heap_free({{.*}}) #[[NOMERGE]]
; CHECK: call void @__mip_heap_free({{.*}}) #[[NOMERGE]]
define void @frees(i1 %c, ptr %p) {
entry:
  br i1 %c, label %a, label %b
a:
  store i32 1, ptr %p
  call void @free(ptr %p)
  br label %done
b:
  store i32 2, ptr %p
  call void @free(ptr %p)
  br label %done
done:
  ret void
}

; CHECK: attributes #[[NOMERGE]] = { nomerge }

declare ptr @malloc(i64)
declare ptr @aligned_alloc(i64, i64)
declare ptr @calloc(i64, i64)
declare void @free(ptr)
