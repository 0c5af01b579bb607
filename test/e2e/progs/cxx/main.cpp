// C++ coverage test program: templates and inline functions instantiated
// in two translation units (COMDAT), virtual calls, lambdas, static
// initialisation, and functions that never run.
#include <algorithm>
#include <cstdio>
#include <map>

#include "shapes.hpp"

static std::map<std::string, int> registry = {{"one", 1}, {"two", 2}};

template <typename T> struct Box {
  T value;
  T get() const { return value; }
  T unused_get() const { return value + 1; }
};

__attribute__((noinline)) int never_called_cxx(int x) { return twice(x) * 7; }

int main(int argc, char **argv) {
  std::string which = argc > 1 ? argv[1] : "c";
  std::vector<Shape *> shapes = make_shapes(which);
  long total = total_area(shapes) + twice(argc) + shared_inline(argc);
  std::sort(shapes.begin(), shapes.end(), [](const Shape *a, const Shape *b) {
    return a->area() < b->area();
  });
  for (Shape *s : shapes) {
    std::printf("%s ", s->name().c_str());
    delete s;
  }
  Box<double> box{twice(1.25)};
  if (argc > 2)
    total += static_cast<long>(box.get());
  std::printf("%ld %d\n", total, registry.at("two"));
  return 0;
}
