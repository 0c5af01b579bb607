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
; RUN: %lib truncated %t.mip $(($(dump_value %t.mip .header.header_size) / 2)) %t.short
; RUN: not %opt -passes='mip-use<profile=%t.short>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=SHORT
; SHORT: mip: {{.*}}.short: truncated indexed profile (header needs 104 bytes, file has 52)
; RUN: %lib with_byte %t.mip $(dump_offset %t.mip .header version) 003 %t.newer
; RUN: not %opt -passes='mip-use<profile=%t.newer>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=NEWER
; NEWER: mip: {{.*}}.newer: profile version 3 is newer than this MIP reads (2); update MIP
; The string table no longer ends in a NUL (its last byte an 'x').
; RUN: %lib with_byte %t.mip $(dump_value %t.mip '.sections[] | select(.name == "STRINGS") | .offset + .size - 1') 170 %t.strings
; RUN: not %opt -passes='mip-use<profile=%t.strings>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=STRINGS
; STRINGS: mip: {{.*}}.strings: corrupt profile: bad string table
; The first function's name out of range (its string offset's top byte
; 0x7f): refused when the profile is opened, as mipdata refuses it,
; whatever the module looks up.
; RUN: %lib with_byte %t.mip $(($(dump_offset %t.mip '.sections[] | select(.name == "FUNCTIONS") | .entries[0]' name) + 3)) 177 %t.name
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
