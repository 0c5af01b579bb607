/* A plug-in: dlopened, called and dlclosed by the program. */
__attribute__((noinline)) int plug_helper(int x) { return x * 3; }

__attribute__((noinline)) int plug_run(int x) { return plug_helper(x) + 1; }

__attribute__((noinline)) int plug_unused(int x) { return x; }

__attribute__((noinline)) int plug_unused_too(int x) { return x + 2; }
