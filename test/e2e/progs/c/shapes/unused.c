/* An archive member nothing refers to: the linker leaves it out, so it
 * must not appear in the profile at all. */
__attribute__((noinline)) long unused_member(long x) { return x + 17; }
