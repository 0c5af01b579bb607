#pragma once
#include <string>
#include <vector>

template <typename T> T twice(T x) { return x + x; }

inline int shared_inline(int x) { return x * 5 + 1; }

struct Shape {
  virtual ~Shape() = default;
  virtual long area() const = 0;
  virtual std::string name() const = 0;
};

std::vector<Shape *> make_shapes(const std::string &which);
long total_area(const std::vector<Shape *> &shapes);
