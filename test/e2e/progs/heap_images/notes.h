#ifndef NOTES_H
#define NOTES_H

/* The visitor main hands the shelf: keeps a note of each label. */
void note_visit(const char *label, long weight);
char *note_summary(long total);
void notes_clear(void);

#endif
