# zstd: the zstd command line program (library and CLI in one binary),
# for the size tables only (bench/targets.sh): no workload. One explicit
# command over Debian's source, the same for every target: the
# multithreaded compressor, no legacy formats, no assembly (the x86-64
# decoder's .S file has no AArch64 or Armv7 counterpart).
PKG=zstd
PROG_SRCS="lib/common/*.c lib/compress/*.c lib/decompress/*.c lib/dictBuilder/*.c programs/*.c"
PROG_CFLAGS="-Ilib -Ilib/common -Iprograms -DZSTD_DISABLE_ASM -DZSTD_MULTITHREAD -DZSTD_LEGACY_SUPPORT=0 -pthread"
PROG_LIBS="-pthread"

prog_prepare() { :; }
