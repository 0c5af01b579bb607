; Unknown modes are refused with a clear message.
; RUN: not %opt -passes='mip-generate<sideways>' -disable-output %s 2>&1 | %FileCheck %s
; CHECK: mip: unknown mode 'sideways'
; RUN: %opt -passes='mip-generate<coverage>' -disable-output %s
define void @f() {
  ret void
}
