; What an instrumented object needs at its link (include/mip/link.h): a
; reference to the runtime's link symbol, and with heap mode (whose site
; bytes are counters of another kind than coverage bytes) to the
; runtime's code for every counter kind and to the heap interposer's, from a retained allocated section, hidden, each in a COMDAT group of its own; and hidden
; declarations of every runtime function it calls, so that a shared
; library linked without the runtime fails rather than leave them to run
; time.
; RUN: %opt -passes=mip-generate -S %s -o %t.ll
; RUN: %FileCheck %s --check-prefix=COV --input-file=%t.ll
; RUN: %opt -passes='mip-generate<all;heap>' -S %s -o %t.heap.ll
; RUN: %FileCheck %s --check-prefix=HEAP --input-file=%t.heap.ll
; RUN: %llc -filetype=obj %t.heap.ll -o %t.o
; RUN: %objdump -r %t.o | %FileCheck %s --check-prefix=RELOC
; A module without a function to instrument needs nothing.
; RUN: echo 'declare void @f()' | %opt -passes=mip-generate -S -o %t.empty.ll
; RUN: not grep -q mip.link %t.empty.ll

; COV: module asm ".pushsection .rodata.mip.link,\22aGR\22,%progbits,__mip_link_with_mipcc_or_libmip_rt.ref,comdat"
; COV-NEXT: module asm ".p2align 2"
; COV-NEXT: module asm ".long __mip_link_with_mipcc_or_libmip_rt@PLT"
; COV-NEXT: module asm ".hidden __mip_link_with_mipcc_or_libmip_rt"
; COV-NEXT: module asm ".popsection"
; COV-NOT: __mip_heap
; COV-NOT: __mip_link_counter_kinds
; COV-NOT: __mip_link_dump

; HEAP: module asm ".pushsection .rodata.mip.link,\22aGR\22,%progbits,__mip_link_with_mipcc_or_libmip_rt.ref,comdat"
; HEAP-NEXT: module asm ".p2align 2"
; HEAP-NEXT: module asm ".long __mip_link_with_mipcc_or_libmip_rt@PLT"
; HEAP-NEXT: module asm ".hidden __mip_link_with_mipcc_or_libmip_rt"
; HEAP-NEXT: module asm ".popsection"
; HEAP-NEXT: module asm ".pushsection .rodata.mip.link,\22aGR\22,%progbits,__mip_heap_link_with_mipcc_or_mip_interpose.ref,comdat"
; HEAP-NEXT: module asm ".p2align 2"
; HEAP-NEXT: module asm ".long __mip_heap_link_with_mipcc_or_mip_interpose@PLT"
; HEAP-NEXT: module asm ".hidden __mip_heap_link_with_mipcc_or_mip_interpose"
; HEAP-NEXT: module asm ".popsection"
; HEAP-NEXT: module asm ".pushsection .rodata.mip.link,\22aGR\22,%progbits,__mip_link_counter_kinds.ref,comdat"
; HEAP-NEXT: module asm ".p2align 2"
; HEAP-NEXT: module asm ".long __mip_link_counter_kinds@PLT"
; HEAP-NEXT: module asm ".hidden __mip_link_counter_kinds"
; HEAP-NEXT: module asm ".popsection"
; Nothing defines free, realloc or reallocarray any more.
; HEAP-NOT: free:
; HEAP-DAG: declare hidden preserve_mostcc void @__mip_first_call(ptr, ptr)
; HEAP-DAG: declare hidden void @__mip_edge_sample(ptr, ptr)
; HEAP-DAG: declare hidden void @__mip_heap_alloc(ptr, i64, ptr)
; HEAP-DAG: declare hidden void @__mip_heap_free(ptr, ptr)
; HEAP-DAG: declare hidden void @__mip_heap_access_range(ptr, i64)

; One group a reference: the linker keeps one copy of each in an image,
; however many objects make it.
; RELOC: RELOCATION RECORDS FOR [.rodata.mip.link]:
; RELOC-NEXT: OFFSET TYPE VALUE
; RELOC-NEXT: 0000000000000000 R_X86_64_PLT32 __mip_link_with_mipcc_or_libmip_rt
; RELOC: RELOCATION RECORDS FOR [.rodata.mip.link]:
; RELOC-NEXT: OFFSET TYPE VALUE
; RELOC-NEXT: 0000000000000000 R_X86_64_PLT32 __mip_heap_link_with_mipcc_or_mip_interpose
; RELOC: RELOCATION RECORDS FOR [.rodata.mip.link]:
; RELOC-NEXT: OFFSET TYPE VALUE
; RELOC-NEXT: 0000000000000000 R_X86_64_PLT32 __mip_link_counter_kinds
; RUN: %readelf -g %t.o | %FileCheck %s --check-prefix=GROUPS
; GROUPS-DAG: COMDAT group section [{{ *[0-9]+}}] `.group' [__mip_link_with_mipcc_or_libmip_rt.ref]
; GROUPS-DAG: COMDAT group section [{{ *[0-9]+}}] `.group' [__mip_heap_link_with_mipcc_or_mip_interpose.ref]
; GROUPS-DAG: COMDAT group section [{{ *[0-9]+}}] `.group' [__mip_link_counter_kinds.ref]

target triple = "x86_64-pc-linux-gnu"

define void @work(ptr %p, ptr %q, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 %n, i1 false)
  %b = call ptr @malloc(i64 8)
  call void @free(ptr %b)
  ret void
}
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
