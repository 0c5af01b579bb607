/*
 * A program whose source file names and function names hold the bytes
 * that break output formats (test/e2e/hostile_names.sh): newlines that
 * would add lcov and callgrind records, carriage returns and pipes that
 * would add markdown table rows, terminal escapes, "<!--<script>" that
 * would stop an HTML page's script, backticks, a byte that is not UTF-8,
 * a leading "(1) " that callgrind would read as a compressed name's id.
 * File names come from #line, function names from assembler labels. Each
 * function allocates, so that heap frames carry the names too; VERSION 2
 * allocates more in some, for mipdata diff.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef VERSION
#define VERSION 1
#endif

static void *kept[256];
static int kept_count;

static void keep(void *p) { kept[kept_count++ % 256] = p; }

#define NOINLINE __attribute__((noinline))

#line 1 "a\nSF:/etc/passwd\nend_of_record\nb.c"
NOINLINE void newline_file(int n) { keep(malloc((size_t)n)); }

#line 1 "cr\r| forged | cell |\r.c"
NOINLINE void cr_file(int n) { keep(malloc((size_t)n * VERSION)); }

#line 1 "esc\033]0;pwned\007\033[2J.c"
NOINLINE void esc_file(int n) { keep(malloc((size_t)n)); }

#line 1 "<!--<script>x.c"
NOINLINE void script_file(int n) { keep(malloc((size_t)n * VERSION)); }

#line 1 "pipe|`tick`\xff.c"
NOINLINE void odd_file(int n) { keep(malloc((size_t)n)); }

#line 1 "names.c"
NOINLINE void escape_name(int n) __asm__("esc\033]0;pwned\007\033[2J;fn");
NOINLINE void escape_name(int n) { keep(malloc((size_t)n)); }
NOINLINE void script_name(int n) __asm__("<!--<script>fn</script>");
NOINLINE void script_name(int n) { keep(malloc((size_t)n * VERSION)); }
NOINLINE void row_name(int n) __asm__("row\r| forged | cell |\n`tick`");
NOINLINE void row_name(int n) { keep(malloc((size_t)n * VERSION)); }
NOINLINE void bad_name(int n) __asm__("bad\xff\xfe_fn");
NOINLINE void bad_name(int n) { keep(malloc((size_t)n)); }
NOINLINE void paren_name(int n) __asm__("(1) forged");
NOINLINE void paren_name(int n) { keep(malloc((size_t)n)); }

#line 100 "main.c"
int main(int argc, char **argv) {
  (void)argv;
  for (int i = 0; i < argc + 1; i++) {
    newline_file(16);
    cr_file(32);
    esc_file(48);
    script_file(64);
    odd_file(80);
    escape_name(96);
    script_name(112);
    row_name(128);
    bad_name(144);
    paren_name(160);
  }
  printf("%d\n", kept_count);
  return 0;
}
