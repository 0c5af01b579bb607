/* A variable defined in one unit and accessed from two (test/e2e/data.sh):
 * both units count into its one counter. And a function that writes
 * through the pointer it is given: to whatever variable, not counted. */
unsigned shared_count;

void bump(unsigned by) { shared_count += by; }

void fill(int *p, int n) {
  for (int i = 0; i < n; i++)
    p[i] = i * 3;
}
