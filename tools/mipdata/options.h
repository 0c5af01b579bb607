/*
 * mipdata's command lines, declared: each command lists its options in a
 * table (names, kind of value, range or choices, help) and one parser
 * reads them, checks them and prints `mipdata CMD --help` from the same
 * table. The options several commands share (-p, -o, --format, --debug,
 * the decision settings of mip/decide.inc) are declared here once.
 *
 * Syntax, as getopt_long's: --name VALUE or --name=VALUE, -p VALUE or
 * -pVALUE, a long name shortened as long as it stays unambiguous, options
 * and operands in any order, "--" ending the options. A value is the next
 * argument whatever it looks like (--startup -3 is a bad count, not an
 * unknown option). An option given twice keeps its last value, unless it
 * is one that collects its values (-p of merge).
 */
#ifndef MIPDATA_OPTIONS_H
#define MIPDATA_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "message.h"
#include "mipfmt.h"

enum opt_kind {
  OPT_FLAG,    /* int: 1 when given */
  OPT_STRING,  /* const char *: the last value given */
  OPT_STRINGS, /* struct opt_list: every value given, in order */
  OPT_UINT,    /* uint64_t, a whole number from umin to umax */
  OPT_NUMBER,  /* double, a finite number from min to max */
  OPT_CHOICE,  /* int: the index of the value in choices */
};

enum opt_flags {
  OPT_REQUIRED = 1u,       /* the command needs it */
  OPT_OPTIONAL_VALUE = 2u, /* OPT_CHOICE: --name alone leaves the value as
                              it is; --name=VALUE sets it */
  OPT_REPORT_FILE = 4u,    /* OPT_STRING: the file the report goes to
                              instead of stdout (output_report_to) */
};

/* The values of an OPT_STRINGS option (the array is malloc'd). */
struct opt_list {
  const char **v;
  size_t n;
};

struct opt {
  const char *name; /* long name, without "--"; NULL ends a table */
  char letter;      /* short name, or 0 */
  enum opt_kind kind;
  void *value; /* where the value goes; its initial value is the default */
  const char *arg;  /* the value's name in help and messages */
  const char *help; /* one sentence, no period */
  unsigned flags;   /* enum opt_flags */
  double min, max;  /* OPT_NUMBER */
  uint64_t umin, umax;        /* OPT_UINT */
  const char *const *choices; /* OPT_CHOICE: NULL-terminated */
  const char *noun; /* OPT_CHOICE: "unknown NOUN 'x'" (default: name) */
  int given;        /* how many times the command line gave it */
};

/* A command's command line. */
struct cli {
  const char *command;  /* "show" */
  const char *operands; /* in the usage: "INPUT...", "[ADDRESS...]"; NULL
                           when it takes none */
  const char *noun;     /* one operand, in messages: "input" */
  int min, max;         /* how many operands: min 0 or 1; max 0, 1 or -1
                           (no limit) */
  struct opt *options;  /* ends with OPT_END */
  /* Set by cli_parse: the operands, in order (argv, reordered). */
  char **operand;
  int operand_count;
};

/* What cli_parse returns when the command goes on. */
#define CLI_GO_ON (-1)

/* Reads argv[1..argc) (argv[0] is the command's name). Returns CLI_GO_ON,
 * or the status the command is done with: 0 after --help (printed on
 * stdout), 2 after a usage error (said on stderr). */
int cli_parse(struct cli *cli, int argc, char **argv);
/* How many times option name was given. */
int cli_given(const struct cli *cli, const char *name);
/* Frees the values OPT_STRINGS options collected. */
void cli_free(struct cli *cli);

/* A usage error of cli's command (message.h); returns 2. */
#define cli_error(cli, ...) usage_error((cli)->command, __VA_ARGS__)

/* ---- declaring options ------------------------------------------------ */

/* value, checked to point to a T (a mismatch does not compile under
 * -Werror: "pointer type mismatch"). */
#define OPT_POINTER(T, value) ((void *)(1 ? (value) : (T *)0))

#define OPT_END {.name = NULL}
#define OPT_FLAG(NAME, VALUE, HELP)                                            \
  {.name = (NAME), .kind = OPT_FLAG, .value = OPT_POINTER(int, VALUE),         \
   .help = (HELP)}
#define OPT_STRING(NAME, LETTER, VALUE, ARG, HELP)                             \
  {.name = (NAME), .letter = (LETTER), .kind = OPT_STRING,                     \
   .value = OPT_POINTER(const char *, VALUE), .arg = (ARG), .help = (HELP)}
#define OPT_STRINGS(NAME, LETTER, VALUE, ARG, HELP)                            \
  {.name = (NAME), .letter = (LETTER), .kind = OPT_STRINGS,                    \
   .value = OPT_POINTER(struct opt_list, VALUE), .arg = (ARG), .help = (HELP)}
#define OPT_UINT(NAME, VALUE, MIN, MAX, ARG, HELP)                             \
  {.name = (NAME), .kind = OPT_UINT, .value = OPT_POINTER(uint64_t, VALUE),    \
   .umin = (MIN), .umax = (MAX), .arg = (ARG), .help = (HELP)}
#define OPT_NUMBER(NAME, VALUE, MIN, MAX, ARG, HELP)                           \
  {.name = (NAME), .kind = OPT_NUMBER, .value = OPT_POINTER(double, VALUE),    \
   .min = (MIN), .max = (MAX), .arg = (ARG), .help = (HELP)}
#define OPT_CHOICE(NAME, VALUE, CHOICES, HELP)                                 \
  {.name = (NAME), .kind = OPT_CHOICE, .value = OPT_POINTER(int, VALUE),       \
   .choices = (CHOICES), .help = (HELP)}

/* OPTION, which the command cannot do without:
 * OPT_NEEDED(OPT_DEBUG(&debug, "...")). */
static inline struct opt opt_needed(struct opt o) {
  o.flags |= OPT_REQUIRED;
  return o;
}
#define OPT_NEEDED(OPTION) opt_needed((struct opt)OPTION)

/* The common options. */
#define OPT_PROFILE(VALUE, HELP)                                               \
  {.name = "profile", .letter = 'p', .kind = OPT_STRING,                       \
   .value = OPT_POINTER(const char *, VALUE), .arg = "PROFILE",                \
   .help = (HELP), .flags = OPT_REQUIRED}
/* -p given once or more (merge). */
#define OPT_PROFILES(VALUE, HELP)                                              \
  {.name = "profile", .letter = 'p', .kind = OPT_STRINGS,                      \
   .value = OPT_POINTER(struct opt_list, VALUE), .arg = "PROFILE",             \
   .help = (HELP), .flags = OPT_REQUIRED}
#define OPT_OUTPUT(VALUE, ARG, HELP)                                           \
  OPT_STRING("output", 'o', VALUE, ARG, HELP)
/* The report's file instead of stdout (show, annotate, symbolize): once
 * the command line is read, cli_parse hands it to the output sink. */
#define OPT_REPORT(VALUE)                                                      \
  {.name = "output", .letter = 'o', .kind = OPT_STRING,                        \
   .value = OPT_POINTER(const char *, VALUE), .arg = "FILE",                   \
   .help = "write the report to FILE instead of stdout",                       \
   .flags = OPT_REPORT_FILE}
#define OPT_DEBUG(VALUE, HELP) OPT_STRING("debug", 0, VALUE, "BINARY", HELP)
/* --debug of a report with source locations (show, annotate). */
#define OPT_DEBUG_LOCATIONS(VALUE)                                             \
  OPT_DEBUG(VALUE, "the profiled binary (unstripped) or its debug file: "      \
                   "where each function is declared")
#define OPT_DEBUGS(VALUE, HELP) OPT_STRINGS("debug", 0, VALUE, "BINARY", HELP)
/* text, yaml or json: an enum emit_format, held in an int. */
#define OPT_FORMAT(VALUE)                                                      \
  OPT_CHOICE("format", VALUE, emit_format_names, "how to print the report")
extern const char *const emit_format_names[];

/* The option of decision setting which (MIP_DECIDE_HOT_SHARE, ...) of
 * mip/decide.inc: --hot-share F and so on, in its range. */
struct opt opt_decide(enum mip_decide_setting which, double *value);

#endif
