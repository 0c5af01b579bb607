; Heap site records: where each site is, from the call's own debug
; location. For code inlined from elsewhere that is the innermost location
; (the line of the malloc call itself, in the function it was written in)
; and the linkage name of that function.
; RUN: %opt -passes='mip-generate<heap>' -S %s -o %t.ll
; RUN: %FileCheck %s --input-file=%t.ll

; The object refers to the heap interposer (free, realloc and
; reallocarray, which jump to the runtime), which mipcc links beside the
; runtime; no .preinit_array entry, since main is not here.
; CHECK: module asm ".long __mip_heap_link_with_mipcc_or_mip_interpose@PLT"
; CHECK-NOT: preinit_array

; The unit's section: the unit record, with the SITE section's bounds.
; CHECK: module asm ".pushsection .debug_mip,\22\22,%progbits"
; CHECK: module asm ".long 5"
; CHECK-NEXT: module asm ".long 1"
; CHECK-NEXT: module asm ".quad __start___mip_site"
; CHECK-NEXT: module asm ".quad __stop___mip_site"

; malloc inlined from inner() (/usr/include/inner.h:3:12) into outer():
; the record says inner.h, line 3, column 12, _Z5innerv.
; CHECK: module asm ".ascii \22_Z5outerv\22"
; CHECK: module asm ".short 4"
; CHECK-NEXT: module asm ".short 1"
; CHECK-NEXT: module asm ".long 80"
; CHECK-NEXT: module asm ".quad __mip_5._Z5outerv"
; CHECK-NEXT: module asm ".quad __mip_1._Z5outerv"
; CHECK-NEXT: module asm ".long 3"
; CHECK-NEXT: module asm ".long 12"
; CHECK-NEXT: module asm ".long 1"
; CHECK-NEXT: module asm ".long 20"
; CHECK-NEXT: module asm ".long 9"
; CHECK-NEXT: module asm ".long 0"
; CHECK-NEXT: module asm ".ascii \22/usr/include/inner.h\22"
; CHECK-NEXT: module asm ".byte 0"
; CHECK-NEXT: module asm ".ascii \22_Z5innerv\22"
; CHECK-NEXT: module asm ".byte 0"
; CHECK-NEXT: module asm ".zero 1"
; free in outer() itself, in a lexical block; a relative file name is
; joined to its directory.
; CHECK-NEXT: module asm ".short 4"
; CHECK-NEXT: module asm ".short 1"
; CHECK-NEXT: module asm ".long 88"
; CHECK-NEXT: module asm ".quad __mip_5._Z5outerv+1"
; CHECK-NEXT: module asm ".quad __mip_1._Z5outerv"
; CHECK-NEXT: module asm ".long 10"
; CHECK-NEXT: module asm ".long 3"
; CHECK-NEXT: module asm ".long 32"
; CHECK-NEXT: module asm ".long 25"
; CHECK-NEXT: module asm ".long 9"
; CHECK-NEXT: module asm ".long 0"
; CHECK-NEXT: module asm ".ascii \22/home/u/proj/src/main.cpp\22"
; CHECK-NEXT: module asm ".byte 0"
; CHECK-NEXT: module asm ".ascii \22_Z5outerv\22"
; CHECK-NEXT: module asm ".byte 0"
; CHECK-NEXT: module asm ".zero 4"
; A C function has no linkage name: its name is the symbol. A file name
; without a directory stays as it is.
; CHECK: module asm ".ascii \22cfun\22"
; CHECK: module asm ".short 4"
; CHECK-NEXT: module asm ".short 1"
; CHECK-NEXT: module asm ".long 64"
; CHECK-NEXT: module asm ".quad __mip_5.cfun"
; CHECK-NEXT: module asm ".quad __mip_1.cfun"
; CHECK-NEXT: module asm ".long 4"
; CHECK-NEXT: module asm ".long 7"
; CHECK-NEXT: module asm ".long 9"
; CHECK-NEXT: module asm ".long 3"
; CHECK-NEXT: module asm ".long 4"
; CHECK-NEXT: module asm ".long 0"
; CHECK-NEXT: module asm ".ascii \22c.c\22"
; CHECK-NEXT: module asm ".byte 0"
; CHECK-NEXT: module asm ".ascii \22cfun\22"
; CHECK-NEXT: module asm ".byte 0"
; CHECK-NEXT: module asm ".zero 7"
; CHECK: module asm ".popsection"

; A COMDAT function's site records go into its group, with its function
; record; its site bytes join the group too.
; CHECK: module asm ".pushsection .debug_mip,\22G\22,%progbits,_Z4tmplIiEvv,comdat"
; CHECK: module asm ".ascii \22_Z4tmplIiEvv\22"
; CHECK: module asm ".short 4"
; CHECK-NEXT: module asm ".short 1"
; CHECK-NEXT: module asm ".long 56"
; CHECK-NEXT: module asm ".quad __mip_5._Z4tmplIiEvv"
; CHECK: module asm ".popsection"
; CHECK: @__mip_5._Z4tmplIiEvv = internal global i8 0, comdat($_Z4tmplIiEvv), align 1, !associated !{{[0-9]+}} #[[SITE:[0-9]+]]

; The hooks carry the call's location.
; CHECK-LABEL: define void @_Z5outerv(
; CHECK: %p = call ptr @malloc(i64 8), !dbg [[INLINED:![0-9]+]]
; CHECK-NEXT: call void @__mip_heap_alloc(ptr %p, i64 8, ptr @__mip_5._Z5outerv) #{{[0-9]+}}, !dbg [[INLINED]]
; CHECK-NEXT: call void @__mip_heap_free(ptr %p, {{.*}}) #{{[0-9]+}}, !dbg [[OWN:![0-9]+]]
; CHECK-NEXT: call void @free(ptr %p), !dbg [[OWN]]
; CHECK: attributes #[[SITE]] = { "bss-section"="__mip_site" "data-section"="__mip_site" }

$_Z4tmplIiEvv = comdat any

define void @_Z5outerv() !dbg !10 {
  %p = call ptr @malloc(i64 8), !dbg !20
  call void @free(ptr %p), !dbg !21
  ret void
}

define void @cfun() !dbg !30 {
  %p = call ptr @strdup(ptr null), !dbg !31
  ret void
}

define linkonce_odr void @_Z4tmplIiEvv() comdat {
  %p = call ptr @_Znwm(i64 4)
  ret void
}

declare ptr @malloc(i64)
declare ptr @strdup(ptr)
declare void @free(ptr)
declare ptr @_Znwm(i64)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!1, !2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !{i32 2, !"Debug Info Version", i32 3}
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !DIFile(filename: "src/main.cpp", directory: "/home/u/proj")
!4 = !DIFile(filename: "/usr/include/inner.h", directory: "/home/u/proj")
!5 = !DIFile(filename: "c.c", directory: "")
!10 = distinct !DISubprogram(name: "outer", linkageName: "_Z5outerv", scope: !3, file: !3, line: 8, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{null})
!12 = distinct !DISubprogram(name: "inner", linkageName: "_Z5innerv", scope: !4, file: !4, line: 2, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!13 = distinct !DILexicalBlock(scope: !10, file: !3, line: 9, column: 1)
!20 = !DILocation(line: 3, column: 12, scope: !12, inlinedAt: !22)
!22 = distinct !DILocation(line: 9, column: 5, scope: !10)
!21 = !DILocation(line: 10, column: 3, scope: !13)
!30 = distinct !DISubprogram(name: "cfun", scope: !5, file: !5, line: 3, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!31 = !DILocation(line: 4, column: 7, scope: !30)
