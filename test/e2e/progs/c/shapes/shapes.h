#ifndef SHAPES_H
#define SHAPES_H
struct shape {
  const char *name;
  long (*area)(long size);
};
extern const struct shape shape_table[3];
long circle_area(long r);
long circle_perimeter(long r);
long square_area(long side);
#endif
