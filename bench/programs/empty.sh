# empty: `int main(void) { return 0; }`, not a benchmark: built plain and
# with MIP, the difference is the size of the MIP runtime (less 8 bytes for
# each instrumented function).
PKG=
PROG_SRCS="empty.c"
PROG_CFLAGS=""
PROG_LIBS=""
prog_prepare() { :; }
