; The module that defines main also gets the .preinit_array entry that maps
; the heap shadow before any constructor runs; the reference to the heap
; interposer (free, realloc, reallocarray) comes once per module, and
; nothing of it is defined here.
; RUN: %opt -passes='mip-generate<heap>' -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %opt -passes='mip-generate' -S %s -o %t.plain.ll
; RUN: %FileCheck %s --check-prefix=PLAIN --input-file=%t.plain.ll

; CHECK-COUNT-1: module asm ".long __mip_heap_link_with_mipcc_or_mip_interpose@PLT"
; CHECK: module asm ".pushsection .preinit_array,\22aw\22,%preinit_array"
; CHECK-NEXT: module asm ".p2align 3"
; CHECK-NEXT: module asm ".quad __mip_heap_preinit"
; CHECK-NOT: free:
; PLAIN-NOT: __mip_heap
define i32 @main() {
  %p = call ptr @malloc(i64 8)
  call void @free(ptr %p)
  ret i32 0
}
declare ptr @malloc(i64)
declare void @free(ptr)
