#!/bin/bash
# bench/size.sh PROG CONFIG: prints "STRIPPED TEXT DATA BSS FUNCTIONS CODE
# COUNTERS COUNTER_FILE"
# for the CONFIG build of PROG: the stripped file's size in bytes, its text,
# data and bss (llvm-size, Berkeley format: text includes read-only data,
# the unwind tables and the dynamic linking tables), the number of
# functions MIP instrumented, the size of the .text section alone, and the
# bytes of MIP's counters, and how many of those the file holds.
set -eu
. "$(dirname "$0")/lib.sh"

bin=$BIN/${1:?usage: size.sh PROG CONFIG}/${2:?usage: size.sh PROG CONFIG}
[ -f "$bin.stripped" ] || die "$1/$2: no stripped binary ($bin.stripped)"
code=$("$SIZE" -A "$bin.stripped" | awk '$1 == ".text" { print $2 }')
echo "$(stat -c %s "$bin.stripped") $(text_data_bss "$bin.stripped") $(mip_functions "$bin") ${code:-0} $(mip_counter_bytes "$bin") $(mip_section_bytes "$bin" PROGBITS)"
