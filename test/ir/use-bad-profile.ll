; A profile that cannot be used is an error naming the file and the
; problem, never a crash: missing, empty, not a profile, truncated, from a
; newer version, corrupt where the header is read, corrupt in an entry
; read later; bad arguments too.
; RUN: %profile %s counts %t
; RUN: not %opt -passes='mip-use<profile=%t.missing>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=MISSING
; MISSING: mip: {{.*}}.missing: cannot open: No such file or directory
; RUN: : >%t.empty
; RUN: not %opt -passes='mip-use<profile=%t.empty>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=EMPTY
; EMPTY: mip: {{.*}}.empty: empty file
; RUN: not %opt -passes='mip-use<profile=%t.1.mipraw>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=RAW
; RAW: mip: {{.*}}.1.mipraw: not a MIP indexed profile (this is a raw profile)
; RUN: head -c 60 %t.mip >%t.short
; RUN: not %opt -passes='mip-use<profile=%t.short>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=SHORT
; SHORT: mip: {{.*}}.short: truncated indexed profile (header needs 104 bytes, file has 60)
; RUN: cp %t.mip %t.newer && printf '\003' | dd of=%t.newer bs=1 seek=8 conv=notrunc 2>/dev/null
; RUN: not %opt -passes='mip-use<profile=%t.newer>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=NEWER
; NEWER: mip: {{.*}}.newer: profile version 3 is newer than this MIP reads (2); update MIP
; The string table (first section) no longer ends in a NUL.
; RUN: cp %t.mip %t.strings && at=$(($(od -An -t u8 -j 112 -N 8 %t.mip) + $(od -An -t u8 -j 120 -N 8 %t.mip) - 1)) && printf 'x' | dd of=%t.strings bs=1 seek=$at conv=notrunc 2>/dev/null
; RUN: not %opt -passes='mip-use<profile=%t.strings>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=STRINGS
; STRINGS: mip: {{.*}}.strings: corrupt profile: bad string table
; The first function's name (FUNCTIONS is the third section) out of range:
; refused when the profile is opened, as mipdata refuses it, whatever the
; module looks up.
; RUN: cp %t.mip %t.name && at=$(($(od -An -t u8 -j 160 -N 8 %t.mip) + 4)) && printf '\377\377\377\177' | dd of=%t.name bs=1 seek=$at conv=notrunc 2>/dev/null
; RUN: not %opt -passes='mip-use<profile=%t.name>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=NAME
; NAME: mip: {{.*}}.name: corrupt profile: function 0 names a string out of range
; RUN: echo 'define void @not_in_the_profile() { ret void }' >%t.other.ll
; RUN: not %opt -passes='mip-use<profile=%t.name>' -disable-output %t.other.ll 2>&1 | %FileCheck %s --check-prefix=NAME
; RUN: not %opt -passes='mip-use<profile=%t.mip;hot-share=2>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=SHARE
; SHARE: mip: hot-share=2: expected a number from 0 to 1
; RUN: not %opt -passes='mip-use<profile=%t.mip;cold-min-lifetime=soon>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=LIFETIME
; LIFETIME: mip: cold-min-lifetime=soon: expected a number from 0 to 1e+09
; RUN: not %opt -passes='mip-use<profile=%t.mip;list-stale=yes>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=FLAG
; FLAG: mip: list-stale takes no value
; RUN: not %opt -passes='mip-use<hot-share=0.5>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=NOFILE
; NOFILE: mip: mip-use needs profile=FILE

define i32 @a() {
  ret i32 0
}

define i32 @main() {
  %r = call i32 @a()
  ret i32 %r
}
