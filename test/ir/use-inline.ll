; REQUIRES: llvm-19+
; -fmip-use before inlining: with the entry counts, the call-site counts of
; the sampled edges and the flow they imply, the inliner sees which call
; sites are hot and which functions never ran. @big is too large for the
; inliner's usual threshold, but its call site in @main's loop is taken
; 100000 times, among the hottest counts of the profile: inlined with the
; profile, not without. @small_cold is small enough to be inlined without
; the profile, but it never ran: not inlined with it. Counts are in
; thousandths of a call. @main's branches get weights by the flow of its
; counts: its entry's, the loops' call sites' (from the edges: @big's and
; @warm's calls all come from @main) and 0 for the call of @small_cold,
; which never ran: the branch whose successors all have counts, and the
; loops' exits, as their calls say how often they iterate.
; RUN: %profile %s counts,edges %t
; RUN: %opt -passes='mip-use-early<profile=%t.mip>,default<O2>' -pass-remarks=inline -pass-remarks-missed=inline -disable-output %s 2>&1 | %FileCheck %s --check-prefix=USE
; RUN: %opt -passes='default<O2>' -pass-remarks=inline -pass-remarks-missed=inline -disable-output %s 2>&1 | %FileCheck %s --check-prefix=PLAIN
; RUN: %opt -passes='mip-use-early<profile=%t.mip>' -pass-remarks=mip -S %s -o %t.ll 2>%t.remarks
; RUN: %FileCheck %s --input-file=%t.ll
; RUN: %FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
; Without edges the call sites of @big and @warm (external) have no
; count: no branch has only successors of known count, and all keep
; LLVM's estimates.
; RUN: %profile %s counts %t.counts
; RUN: %opt -passes='mip-use-early<profile=%t.counts.mip>' -S %s | %FileCheck %s --check-prefix=NOEDGES

; USE-DAG: remark: <unknown>:0:0: 'big' inlined into 'main'
; USE-DAG: remark: <unknown>:0:0: 'small_cold' not inlined into 'main' because too costly to inline
; PLAIN-DAG: remark: <unknown>:0:0: 'big' not inlined into 'main' because too costly to inline
; PLAIN-DAG: remark: <unknown>:0:0: 'small_cold' inlined into 'main'

; CHECK: define i32 @main(i32 %argc, ptr %argv) !prof ![[ONE:[0-9]+]] {
; CHECK: br i1 %rare, label %cold, label %loop, !prof ![[RARE:[0-9]+]]
; CHECK: br i1 %done, label %warmloop, label %loop, !prof ![[LOOP:[0-9]+]]
; CHECK: br i1 %jdone, label %exit, label %warmloop, !prof ![[WARMLOOP:[0-9]+]]
; CHECK-DAG: ![[ONE]] = !{!"function_entry_count", i64 1000}
; CHECK-DAG: ![[RARE]] = !{!"branch_weights", i32 0, i32 1000}
; CHECK-DAG: ![[LOOP]] = !{!"branch_weights", i32 1000, i32 99999000}
; CHECK-DAG: ![[WARMLOOP]] = !{!"branch_weights", i32 1000, i32 1999000}
; REMARK: remark: <unknown>:0:0: weighed 3 branches by the flow of 4 block counts
; NOEDGES: define i32 @main(i32 %argc, ptr %argv) !prof
; NOEDGES-NOT: branch_weights

define i32 @big(i32 %x) {
  %b0 = mul i32 %x, %x
  %b1 = xor i32 %b0, 7932
  %b2 = lshr i32 %b1, 3
  %b3 = add i32 %b2, %x
  %b4 = sub i32 %x, %b3
  %b5 = mul i32 %b4, %x
  %b6 = xor i32 %b5, 47527
  %b7 = lshr i32 %b6, 8
  %b8 = add i32 %b7, %x
  %b9 = sub i32 %x, %b8
  %b10 = mul i32 %b9, %x
  %b11 = xor i32 %b10, 87122
  %b12 = lshr i32 %b11, 13
  %b13 = add i32 %b12, %x
  %b14 = sub i32 %x, %b13
  %b15 = mul i32 %b14, %x
  %b16 = xor i32 %b15, 126717
  %b17 = lshr i32 %b16, 5
  %b18 = add i32 %b17, %x
  %b19 = sub i32 %x, %b18
  %b20 = mul i32 %b19, %x
  %b21 = xor i32 %b20, 166312
  %b22 = lshr i32 %b21, 10
  %b23 = add i32 %b22, %x
  %b24 = sub i32 %x, %b23
  %b25 = mul i32 %b24, %x
  %b26 = xor i32 %b25, 205907
  %b27 = lshr i32 %b26, 2
  %b28 = add i32 %b27, %x
  %b29 = sub i32 %x, %b28
  %b30 = mul i32 %b29, %x
  %b31 = xor i32 %b30, 245502
  %b32 = lshr i32 %b31, 7
  %b33 = add i32 %b32, %x
  %b34 = sub i32 %x, %b33
  %b35 = mul i32 %b34, %x
  %b36 = xor i32 %b35, 285097
  %b37 = lshr i32 %b36, 12
  %b38 = add i32 %b37, %x
  %b39 = sub i32 %x, %b38
  %b40 = mul i32 %b39, %x
  %b41 = xor i32 %b40, 324692
  %b42 = lshr i32 %b41, 4
  %b43 = add i32 %b42, %x
  %b44 = sub i32 %x, %b43
  %b45 = mul i32 %b44, %x
  %b46 = xor i32 %b45, 364287
  %b47 = lshr i32 %b46, 9
  %b48 = add i32 %b47, %x
  %b49 = sub i32 %x, %b48
  %b50 = mul i32 %b49, %x
  %b51 = xor i32 %b50, 403882
  %b52 = lshr i32 %b51, 1
  %b53 = add i32 %b52, %x
  %b54 = sub i32 %x, %b53
  %b55 = mul i32 %b54, %x
  %b56 = xor i32 %b55, 443477
  %b57 = lshr i32 %b56, 6
  %b58 = add i32 %b57, %x
  %b59 = sub i32 %x, %b58
  %b60 = mul i32 %b59, %x
  %b61 = xor i32 %b60, 483072
  %b62 = lshr i32 %b61, 11
  %b63 = add i32 %b62, %x
  %b64 = sub i32 %x, %b63
  %b65 = mul i32 %b64, %x
  %b66 = xor i32 %b65, 522667
  %b67 = lshr i32 %b66, 3
  %b68 = add i32 %b67, %x
  %b69 = sub i32 %x, %b68
  %b70 = mul i32 %b69, %x
  %b71 = xor i32 %b70, 562262
  %b72 = lshr i32 %b71, 8
  %b73 = add i32 %b72, %x
  %b74 = sub i32 %x, %b73
  %b75 = mul i32 %b74, %x
  %b76 = xor i32 %b75, 601857
  %b77 = lshr i32 %b76, 13
  %b78 = add i32 %b77, %x
  %b79 = sub i32 %x, %b78
  %b80 = mul i32 %b79, %x
  %b81 = xor i32 %b80, 641452
  %b82 = lshr i32 %b81, 5
  %b83 = add i32 %b82, %x
  %b84 = sub i32 %x, %b83
  %b85 = mul i32 %b84, %x
  %b86 = xor i32 %b85, 681047
  %b87 = lshr i32 %b86, 10
  %b88 = add i32 %b87, %x
  %b89 = sub i32 %x, %b88
  %b90 = mul i32 %b89, %x
  %b91 = xor i32 %b90, 720642
  %b92 = lshr i32 %b91, 2
  %b93 = add i32 %b92, %x
  %b94 = sub i32 %x, %b93
  %b95 = mul i32 %b94, %x
  %b96 = xor i32 %b95, 760237
  %b97 = lshr i32 %b96, 7
  %b98 = add i32 %b97, %x
  %b99 = sub i32 %x, %b98
  %b100 = mul i32 %b99, %x
  %b101 = xor i32 %b100, 799832
  %b102 = lshr i32 %b101, 12
  %b103 = add i32 %b102, %x
  %b104 = sub i32 %x, %b103
  %b105 = mul i32 %b104, %x
  %b106 = xor i32 %b105, 839427
  %b107 = lshr i32 %b106, 4
  %b108 = add i32 %b107, %x
  %b109 = sub i32 %x, %b108
  %b110 = mul i32 %b109, %x
  %b111 = xor i32 %b110, 879022
  %b112 = lshr i32 %b111, 9
  %b113 = add i32 %b112, %x
  %b114 = sub i32 %x, %b113
  %b115 = mul i32 %b114, %x
  %b116 = xor i32 %b115, 918617
  %b117 = lshr i32 %b116, 1
  %b118 = add i32 %b117, %x
  %b119 = sub i32 %x, %b118
  %b120 = mul i32 %b119, %x
  %b121 = xor i32 %b120, 958212
  %b122 = lshr i32 %b121, 6
  %b123 = add i32 %b122, %x
  %b124 = sub i32 %x, %b123
  %b125 = mul i32 %b124, %x
  %b126 = xor i32 %b125, 997807
  %b127 = lshr i32 %b126, 11
  %b128 = add i32 %b127, %x
  %b129 = sub i32 %x, %b128
  %b130 = mul i32 %b129, %x
  %b131 = xor i32 %b130, 1037402
  %b132 = lshr i32 %b131, 3
  %b133 = add i32 %b132, %x
  %b134 = sub i32 %x, %b133
  %b135 = mul i32 %b134, %x
  %b136 = xor i32 %b135, 1076997
  %b137 = lshr i32 %b136, 8
  %b138 = add i32 %b137, %x
  %b139 = sub i32 %x, %b138
  %b140 = mul i32 %b139, %x
  %b141 = xor i32 %b140, 1116592
  %b142 = lshr i32 %b141, 13
  %b143 = add i32 %b142, %x
  %b144 = sub i32 %x, %b143
  %b145 = mul i32 %b144, %x
  %b146 = xor i32 %b145, 1156187
  %b147 = lshr i32 %b146, 5
  %b148 = add i32 %b147, %x
  %b149 = sub i32 %x, %b148
  ret i32 %b149
}

define i32 @small_cold(i32 %x) {
  %c0 = mul i32 %x, %x
  %c1 = xor i32 %c0, 34
  %c2 = lshr i32 %c1, 3
  %c3 = mul i32 %c2, %x
  %c4 = xor i32 %c3, 127
  %c5 = lshr i32 %c4, 6
  %c6 = mul i32 %c5, %x
  %c7 = xor i32 %c6, 220
  %c8 = lshr i32 %c7, 2
  %c9 = mul i32 %c8, %x
  %c10 = xor i32 %c9, 313
  %c11 = lshr i32 %c10, 5
  %c12 = mul i32 %c11, %x
  %c13 = xor i32 %c12, 406
  %c14 = lshr i32 %c13, 1
  %c15 = mul i32 %c14, %x
  %c16 = xor i32 %c15, 499
  %c17 = lshr i32 %c16, 4
  %c18 = mul i32 %c17, %x
  %c19 = xor i32 %c18, 592
  %c20 = lshr i32 %c19, 7
  %c21 = mul i32 %c20, %x
  %c22 = xor i32 %c21, 685
  %c23 = lshr i32 %c22, 3
  ret i32 %c23
}

define i32 @warm(i32 %x) noinline {
  %y = add i32 %x, 1
  ret i32 %y
}

define i32 @main(i32 %argc, ptr %argv) {
entry:
  %rare = icmp sgt i32 %argc, 5
  br i1 %rare, label %cold, label %loop
cold:
  %c = call i32 @small_cold(i32 %argc)
  ret i32 %c
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %b = call i32 @big(i32 %i)
  %s1 = add i32 %s, %b
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 100000
  br i1 %done, label %warmloop, label %loop
warmloop:
  %j = phi i32 [ 0, %loop ], [ %jnext, %warmloop ]
  %w = call i32 @warm(i32 %j)
  %jnext = add i32 %j, 1
  %jdone = icmp eq i32 %jnext, 2000
  br i1 %jdone, label %exit, label %warmloop
exit:
  %z = and i32 %s1, 0
  ret i32 %z
}
