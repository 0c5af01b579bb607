// C++ allocation sites: new, new[], delete, delete[], with and without
// nothrow and alignment.
#include <cstdio>
#include <new>

struct Node {
  long value;
  Node *next;
  ~Node() { value = 0; }
};

struct alignas(64) Wide {
  char bytes[100];
};

int main(int argc, char **) {
  Node *head = nullptr;
  for (int i = 0; i < 30 + argc; i++) {
    Node *n = new Node{i, head};
    head = n;
  }
  Node *array = new Node[7]();
  int *numbers = new (std::nothrow) int[50];
  Wide *wide = new Wide;
  long sum = 0;
  // Use every block, so the optimizer keeps every allocation.
  for (int i = 0; i < 50; i++)
    numbers[i] = i;
  for (int i = 0; i < 50; i++)
    sum += numbers[i];
  for (int i = 0; i < 7; i++)
    sum += array[i].value;
  wide->bytes[argc] = 1;
  sum += wide->bytes[argc];
  while (head) {
    Node *next = head->next;
    sum += head->value;
    delete head;
    head = next;
  }
  delete[] array;
  delete[] numbers;
  delete wide;
  std::printf("%ld\n", sum);
  return 0;
}
