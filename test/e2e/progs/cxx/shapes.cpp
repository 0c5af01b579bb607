#include "shapes.hpp"

namespace {
struct Circle : Shape {
  long r;
  explicit Circle(long r) : r(r) {}
  long area() const override { return twice(314 * r * r / 200); }
  std::string name() const override { return "circle"; }
};
struct Square : Shape {
  long s;
  explicit Square(long s) : s(s) {}
  long area() const override { return s * s; }
  std::string name() const override { return "square"; }
};
} // namespace

std::vector<Shape *> make_shapes(const std::string &which) {
  std::vector<Shape *> out;
  if (which.find('c') != std::string::npos)
    out.push_back(new Circle(shared_inline(2)));
  if (which.find('s') != std::string::npos)
    out.push_back(new Square(3));
  return out;
}

long total_area(const std::vector<Shape *> &shapes) {
  long sum = 0;
  for (const Shape *s : shapes)
    sum += s->area();
  return sum;
}
