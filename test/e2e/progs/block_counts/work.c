__attribute__((noinline)) int classify(int x) {
  if (x % 7 == 0)
    return 3;
  switch (x % 4) {
  case 0: return 1;
  case 1: return x > 500 ? 5 : 2;
  default: return 0;
  }
}
__attribute__((noinline)) long walk(int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      s += (i ^ j) & 3;
  return s;
}
__attribute__((noinline)) int never(int x) { return x + 1; }
