; An instrumented object that calls mip_dump() also refers to the symbol
; of the runtime's member that defines it (include/mip/link.h): a weak
; reference to mip_dump, as <mip/mip.h> declares it, pulls nothing out of
; libmip_rt.a. Coverage only: no reference to the code for other kinds.
; RUN: %opt -passes=mip-generate -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll

; CHECK: module asm ".pushsection .rodata.mip.link,\22aGR\22,%progbits,__mip_link_with_mipcc_or_libmip_rt.ref,comdat"
; CHECK-NEXT: module asm ".p2align 2"
; CHECK-NEXT: module asm ".long __mip_link_with_mipcc_or_libmip_rt@PLT"
; CHECK-NEXT: module asm ".hidden __mip_link_with_mipcc_or_libmip_rt"
; CHECK-NEXT: module asm ".popsection"
; CHECK-NEXT: module asm ".pushsection .rodata.mip.link,\22aGR\22,%progbits,__mip_link_dump.ref,comdat"
; CHECK-NEXT: module asm ".p2align 2"
; CHECK-NEXT: module asm ".long __mip_link_dump@PLT"
; CHECK-NEXT: module asm ".hidden __mip_link_dump"
; CHECK-NEXT: module asm ".popsection"
; CHECK-NOT: __mip_link_counter_kinds

target triple = "x86_64-pc-linux-gnu"

define void @work() {
  %have = icmp ne ptr @mip_dump, null
  br i1 %have, label %dump, label %done
dump:
  %rc = call i32 @mip_dump()
  br label %done
done:
  ret void
}
declare extern_weak i32 @mip_dump()
