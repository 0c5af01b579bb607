#ifndef TALLY_H
#define TALLY_H
int count_words(const char *text);
int count_unused(const char *text);
char *format_count(int n);
void format_free(char *s);
#endif
