; A target MIP has no runtime for is refused with one error naming it,
; before anything is instrumented; -fmip-use alone is not refused.
; REQUIRES: riscv64
; RUN: not %opt -passes=mip-generate %s -o %t.bc 2>%t.err
; RUN: %FileCheck %s --input-file=%t.err
; RUN: count 1 < %t.err
; RUN: sed 's/^target triple = .*/target triple = "x86_64-apple-macosx"/' %s | not %opt -passes='mip-generate<heap>' -o %t.mac.bc 2>&1 | %FileCheck %s --check-prefix=MAC
target triple = "riscv64-unknown-linux-gnu"

; CHECK: error: mip: target riscv64-unknown-linux-gnu is not supported (MIP supports x86_64-linux, aarch64-linux, armv7-linux-gnueabihf)
; MAC: error: mip: target x86_64-apple-macosx is not supported
define i32 @f(i32 %x) {
  ret i32 %x
}
