; The module that defines main also gets the .preinit_array entry that maps
; the heap shadow before any constructor runs; the interpose group comes
; once per module.
; RUN: %opt -passes='mip-generate<heap>' -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %opt -passes='mip-generate' -S %s -o %t.plain.ll
; RUN: %FileCheck %s --check-prefix=PLAIN --input-file=%t.plain.ll

; CHECK-COUNT-1: module asm ".pushsection .text.__mip_heap_interpose
; CHECK: module asm ".pushsection .preinit_array,\22aw\22,@preinit_array"
; CHECK-NEXT: module asm ".p2align 3"
; CHECK-NEXT: module asm ".quad __mip_heap_preinit"
; PLAIN-NOT: __mip_heap
define i32 @main() {
  %p = call ptr @malloc(i64 8)
  call void @free(ptr %p)
  ret i32 0
}
declare ptr @malloc(i64)
declare void @free(ptr)
