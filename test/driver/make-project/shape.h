#ifndef SHAPE_H
#define SHAPE_H

int shape_area(int w, int h);
int shape_perimeter(int w, int h);

#endif
