; A profile truncated in place while the compiler reads it (another job
; rewriting it): one error naming the file, never a crash of the compiler
; (a memory-mapped profile would die of SIGBUS). The shim empties the file
; right after the first read or mapping of it.
; RUN: %profile %s counts %t
; RUN: %clang -shared -fPIC -O1 -o %t.shim.so %S/truncate-shim.c -ldl
; RUN: cp %t.mip %t.cut.mip
; RUN: MIP_TEST_TRUNCATE=%t.cut.mip LD_PRELOAD=%t.shim.so %opt -passes='mip-use<profile=%t.cut.mip>' -disable-output %s >%t.out 2>&1; echo "status $?" >>%t.out
; RUN: %FileCheck %s <%t.out
; CHECK: mip: {{.*}}.cut.mip: changed while it was being read
; CHECK: status 1
; The shim really cut the file.
; RUN: test $(wc -c <%t.cut.mip) -lt $(wc -c <%t.mip)

define i32 @main() {
  ret i32 0
}
