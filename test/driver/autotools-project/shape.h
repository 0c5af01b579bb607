#ifndef SHAPE_H
#define SHAPE_H
int shape_area(int w, int h);
int shape_perimeter(int w, int h);
int shape_unused(int w);
char *shape_name(int sides);
void shape_free(char *name);
#endif
