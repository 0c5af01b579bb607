int twice(int x) { return 2 * x; }

int never_called(int x) { return x - 1; }
