/* libfoo: linked into the program the normal way. */
int foo_add(int a, int b);
int foo_twice(int x);
int foo_unused(int x);
