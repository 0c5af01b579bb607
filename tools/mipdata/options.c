/* mipdata's command-line parser and its --help (options.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "emit.h"
#include "options.h"
#include "output.h"

const char *const emit_format_names[] = {"text", "yaml", "json", NULL};
_Static_assert(EMIT_TEXT == 0 && EMIT_YAML == 1 && EMIT_JSON == 2,
               "emit_format_names follows enum emit_format");

struct opt opt_decide(enum mip_decide_setting which, double *value) {
  static const struct opt settings[] = {
#define MIP_DECIDE_SETTING(NAME, field, key, unit, def, lo, hi, text)         \
  [MIP_DECIDE_##NAME] = {.name = key, .kind = OPT_NUMBER, .arg = unit,         \
                         .help = text, .min = lo, .max = hi},
#include "mip/decide.inc"
#undef MIP_DECIDE_SETTING
  };
  struct opt o = settings[which];
  o.value = value;
  return o;
}

/* ---- values -------------------------------------------------------------- */

/* A bound as people write it: 1e12, not 1e+12. */
static const char *bound(double d, char *buf, size_t size) {
  snprintf(buf, size, "%g", d);
  char *e = strchr(buf, 'e');
  if (e) {
    char *digits = e + 1 + (e[1] == '+' || e[1] == '-');
    char *from = digits;
    while (*from == '0' && from[1])
      from++;
    memmove(digits, from, strlen(from) + 1);
    if (e[1] == '+')
      memmove(e + 1, e + 2, strlen(e + 2) + 1);
  }
  return buf;
}

static int parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  double d = strtod(s, &end);
  if (!*s || errno || *end || !isfinite(d))
    return -1;
  *out = d;
  return 0;
}

static int parse_u64(const char *s, uint64_t *out) {
  char *end;
  if (*s < '0' || *s > '9') /* no sign, no space */
    return -1;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end)
    return -1;
  *out = v;
  return 0;
}

/* "text, yaml or json" */
static void choice_list(const struct opt *o, char *buf, size_t size) {
  size_t at = 0;
  buf[0] = '\0';
  for (int i = 0; o->choices[i] && at < size; i++)
    at += (size_t)snprintf(buf + at, size - at, "%s%s",
                           i == 0                ? ""
                           : o->choices[i + 1] ? ", "
                                                 : " or ",
                           o->choices[i]);
}

static int set_number(const struct cli *cli, struct opt *o, const char *v) {
  double d;
  char lo[32], hi[32];
  if (parse_double(v, &d) || d < o->min || d > o->max)
    return cli_error(cli, "--%s wants a number from %s to %s, not '%s'",
                     o->name, bound(o->min, lo, sizeof lo),
                     bound(o->max, hi, sizeof hi), v);
  *(double *)o->value = d;
  return 0;
}

static int set_uint(const struct cli *cli, struct opt *o, const char *v) {
  uint64_t n;
  if (!parse_u64(v, &n) && n >= o->umin && n <= o->umax) {
    *(uint64_t *)o->value = n;
    return 0;
  }
  if (o->umax == UINT64_MAX)
    return cli_error(cli, "--%s wants a whole number from %" PRIu64
                          " up, not '%s'",
                     o->name, o->umin, v);
  return cli_error(cli,
                   "--%s wants a whole number from %" PRIu64 " to %" PRIu64
                   ", not '%s'",
                   o->name, o->umin, o->umax, v);
}

static int set_choice(const struct cli *cli, struct opt *o, const char *v) {
  for (int i = 0; o->choices[i]; i++)
    if (strcmp(v, o->choices[i]) == 0) {
      *(int *)o->value = i;
      return 0;
    }
  char list[256];
  choice_list(o, list, sizeof list);
  return cli_error(cli, "unknown %s '%s' (%s)", o->noun ? o->noun : o->name,
                   v, list);
}

static void append(struct opt_list *list, const char *v) {
  list->v = mip_xrealloc(list->v, list->n + 1, sizeof *list->v);
  list->v[list->n++] = v;
}

/* Stores value (NULL: an optional value left out) into o. */
static int set_value(const struct cli *cli, struct opt *o, const char *v) {
  o->given++;
  if (!v && o->kind != OPT_FLAG)
    return 0;
  switch (o->kind) {
  case OPT_FLAG:
    *(int *)o->value = 1;
    return 0;
  case OPT_STRING:
    *(const char **)o->value = v;
    return 0;
  case OPT_STRINGS:
    append(o->value, v);
    return 0;
  case OPT_UINT:
    return set_uint(cli, o, v);
  case OPT_NUMBER:
    return set_number(cli, o, v);
  case OPT_CHOICE:
    return set_choice(cli, o, v);
  }
  return 0;
}

/* ---- finding options ------------------------------------------------------- */

/* The option whose long name is name[0..len), or the only one it
 * begins; NULL when none does or several do (then in *others, the
 * candidates). */
static struct opt *find_long(struct opt *options, const char *name,
                             size_t len, char *others, size_t size) {
  struct opt *found = NULL;
  int count = 0;
  size_t at = 0;
  others[0] = '\0';
  for (struct opt *o = options; o->name; o++) {
    if (strncmp(o->name, name, len) != 0)
      continue;
    if (!o->name[len])
      return o;
    found = o;
    count++;
    if (at < size)
      at += (size_t)snprintf(others + at, size - at, "%s--%s",
                             count > 1 ? ", " : "", o->name);
  }
  return count == 1 ? found : NULL;
}

static struct opt *find_short(struct opt *options, char letter) {
  for (struct opt *o = options; o->name; o++)
    if (o->letter && o->letter == letter)
      return o;
  return NULL;
}

/* --name[=VALUE] [VALUE] at argv[*i]; *i moves past what it used. */
static int long_option(struct cli *cli, int argc, char **argv, int *i) {
  const char *arg = argv[*i], *name = arg + 2, *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  char others[256];
  struct opt *o = find_long(cli->options, name, len, others, sizeof others);
  if (!o && others[0])
    return cli_error(cli, "unknown or ambiguous option '--%.*s' (%s)",
                     (int)len, name, others);
  if (!o)
    return cli_error(cli, "unknown or ambiguous option '--%.*s'", (int)len,
                     name);
  if (o->kind == OPT_FLAG && eq)
    return cli_error(cli, "option '--%s' takes no value", o->name);
  const char *value = eq ? eq + 1 : NULL;
  if (!value && o->kind != OPT_FLAG && !(o->flags & OPT_OPTIONAL_VALUE)) {
    if (*i + 1 >= argc)
      return cli_error(cli, "option '--%s' needs a value", o->name);
    value = argv[++*i];
  }
  return set_value(cli, o, value);
}

/* -x VALUE or -xVALUE at argv[*i]. */
static int short_option(struct cli *cli, int argc, char **argv, int *i) {
  const char *arg = argv[*i];
  struct opt *o = find_short(cli->options, arg[1]);
  if (!o)
    return cli_error(cli, "unknown option '-%c'", arg[1]);
  const char *value = arg[2] ? arg + 2 : NULL;
  if (o->kind == OPT_FLAG && value)
    return cli_error(cli, "option '-%c' takes no value", o->letter);
  if (!value && o->kind != OPT_FLAG) {
    if (*i + 1 >= argc)
      return cli_error(cli, "option '-%c' needs a value", o->letter);
    value = argv[++*i];
  }
  return set_value(cli, o, value);
}

/* ---- help ------------------------------------------------------------------- */

#define HELP_WIDTH 79
#define HELP_COLUMN 30 /* where the option descriptions start */

/* o as the usage and the list spell it: "-p PROFILE", "--covered",
 * "--format text|yaml|json", "--explain[=text|yaml|json]". */
static void spell(const struct opt *o, int with_short, char *buf,
                  size_t size) {
  char value[256] = "";
  if (o->kind == OPT_CHOICE) {
    size_t at = 0;
    for (int i = 0; o->choices[i] && at < sizeof value; i++)
      at += (size_t)snprintf(value + at, sizeof value - at, "%s%s",
                             i ? "|" : "", o->choices[i]);
  } else if (o->kind != OPT_FLAG) {
    snprintf(value, sizeof value, "%s", o->arg);
  }
  const char *sep = !value[0]                          ? ""
                    : (o->flags & OPT_OPTIONAL_VALUE) ? "[="
                                                       : " ";
  const char *end = (o->flags & OPT_OPTIONAL_VALUE) ? "]" : "";
  if (with_short && o->letter)
    snprintf(buf, size, "-%c%s%s%s", o->letter, sep, value, end);
  else
    snprintf(buf, size, "--%s%s%s%s", o->name, sep, value, end);
}

/* Prints a word at column *col: after a space, or on a new line indented
 * by indent when it would reach past HELP_WIDTH (the first word of a line,
 * at indent, goes where it is). */
static void put_word(FILE *out, const char *word, size_t len, size_t *col,
                     size_t indent) {
  if (*col > indent && *col + 1 + len > HELP_WIDTH) {
    fprintf(out, "\n%*s", (int)indent, "");
    *col = indent;
  } else if (*col > indent) {
    fputc(' ', out);
    (*col)++;
  }
  fwrite(word, 1, len, out);
  *col += len;
}

/* The words of text, one space apart, as put_word puts them. */
static void put_words(FILE *out, const char *text, size_t *col,
                      size_t indent) {
  while (*text) {
    size_t len = strcspn(text, " ");
    if (len)
      put_word(out, text, len, col, indent);
    text += len;
    text += strspn(text, " ");
  }
}

static void print_usage(const struct cli *cli, FILE *out) {
  char token[320], spelled[288];
  int n = fprintf(out, "usage: mipdata %s ", cli->command);
  size_t indent = n > 0 ? (size_t)n : 0, col = indent;
  for (const struct opt *o = cli->options; o->name; o++) {
    spell(o, 1, spelled, sizeof spelled);
    int required = (o->flags & OPT_REQUIRED) != 0;
    if (required && o->kind == OPT_STRINGS)
      snprintf(token, sizeof token, "%s [%s...]", spelled, spelled);
    else if (required)
      snprintf(token, sizeof token, "%s", spelled);
    else
      snprintf(token, sizeof token, "[%s%s]", spelled,
               o->kind == OPT_STRINGS ? "..." : "");
    put_word(out, token, strlen(token), &col, indent);
  }
  if (cli->operands)
    put_word(out, cli->operands, strlen(cli->operands), &col, indent);
  fputc('\n', out);
}

/* "(from 1 up; default 4096)", "(from 0 to 9; default 3)"; UINT64_MAX is
 * no limit. */
static void uint_tail(const struct opt *o, char *buf, size_t size) {
  uint64_t value = *(uint64_t *)o->value;
  char hi[48] = " up", def[32] = "no limit";
  if (o->umax != UINT64_MAX)
    snprintf(hi, sizeof hi, " to %" PRIu64, o->umax);
  if (value != UINT64_MAX)
    snprintf(def, sizeof def, "%" PRIu64, value);
  snprintf(buf, size, "(from %" PRIu64 "%s; default %s)", o->umin, hi, def);
}

/* What the list adds to an option's help: its range and default. */
static void help_tail(const struct opt *o, char *buf, size_t size) {
  char lo[32], hi[32], def[32];
  buf[0] = '\0';
  if (o->kind == OPT_NUMBER)
    snprintf(buf, size, "(from %s to %s; default %s)",
             bound(o->min, lo, sizeof lo), bound(o->max, hi, sizeof hi),
             bound(*(double *)o->value, def, sizeof def));
  else if (o->kind == OPT_UINT)
    uint_tail(o, buf, size);
  else if (o->kind == OPT_CHOICE && !(o->flags & OPT_REQUIRED))
    snprintf(buf, size, "(default %s)", o->choices[*(int *)o->value]);
  else if (o->kind == OPT_STRING && *(const char **)o->value)
    snprintf(buf, size, "(default %s)", *(const char **)o->value);
  else if (o->kind == OPT_STRINGS)
    snprintf(buf, size, "(may be given more than once)");
}

static void print_option(const struct opt *o, FILE *out) {
  char spelled[288], left[320], tail[128];
  spell(o, 0, spelled, sizeof spelled);
  if (o->letter)
    snprintf(left, sizeof left, "  -%c, %s", o->letter, spelled);
  else
    snprintf(left, sizeof left, "      %s", spelled);
  fputs(left, out);
  size_t col = strlen(left);
  if (col + 2 > HELP_COLUMN) {
    fputc('\n', out);
    col = 0;
  }
  fprintf(out, "%*s", (int)(HELP_COLUMN - col), "");
  col = HELP_COLUMN;
  put_words(out, o->help, &col, HELP_COLUMN);
  help_tail(o, tail, sizeof tail);
  put_words(out, tail, &col, HELP_COLUMN);
  fputc('\n', out);
}

static void print_help(const struct cli *cli, FILE *out) {
  print_usage(cli, out);
  fputc('\n', out);
  for (const struct opt *o = cli->options; o->name; o++)
    print_option(o, out);
  fprintf(out, "\ndocs/mipdata.md describes '%s' and its output.\n",
          cli->command);
}

/* ---- the command line -------------------------------------------------------- */

/* After the arguments: the required options and the operands are there. */
static int check(const struct cli *cli) {
  char spelled[288];
  for (const struct opt *o = cli->options; o->name; o++)
    if ((o->flags & OPT_REQUIRED) && !o->given) {
      spell(o, 1, spelled, sizeof spelled);
      return cli_error(cli, "%s is required", spelled);
    }
  int n = cli->operand_count;
  if (n < cli->min)
    return cli_error(cli, "expects %s %s", cli->max == 1 ? "one" : "at least one",
                     cli->noun);
  if (cli->max == 0 && n > 0)
    return cli_error(cli, "unexpected argument '%s'", cli->operand[0]);
  if (cli->max > 0 && n > cli->max)
    return cli_error(cli, "expects one %s", cli->noun);
  return 0;
}

/* Whether path names the file st describes. */
static int names(const char *path, const struct stat *st) {
  struct stat other;
  return stat(path, &other) == 0 && other.st_dev == st->st_dev &&
         other.st_ino == st->st_ino;
}

/* The operand or value of an option other than --output that names the
 * file st describes; NULL when none does. */
static const char *input_named(const struct cli *cli, const struct stat *st) {
  for (int i = 0; i < cli->operand_count; i++)
    if (names(cli->operand[i], st))
      return cli->operand[i];
  for (const struct opt *o = cli->options; o->name; o++) {
    if (!o->given || strcmp(o->name, "output") == 0)
      continue;
    if (o->kind == OPT_STRING && names(*(const char **)o->value, st))
      return *(const char **)o->value;
    const struct opt_list *list = o->value;
    for (size_t i = 0; o->kind == OPT_STRINGS && i < list->n; i++)
      if (names(list->v[i], st))
        return list->v[i];
  }
  return NULL;
}

/* -o naming one of the command's inputs (by any name: a link, another
 * path) is refused before the command reads anything: nothing is written,
 * and nothing the command would say first (a note) is said. */
static int check_output(const struct cli *cli) {
  for (const struct opt *o = cli->options; o->name; o++) {
    struct stat st;
    const char *input;
    if (strcmp(o->name, "output") != 0 || !o->given || o->kind != OPT_STRING ||
        stat(*(const char **)o->value, &st) != 0 ||
        !(input = input_named(cli, &st)))
      continue;
    struct mip_error err;
    output_over_input(*(const char **)o->value, input, &err);
    return report(&err);
  }
  return CLI_GO_ON;
}

int cli_parse(struct cli *cli, int argc, char **argv) {
  /* The operands move to the front of argv, in order: each goes to a
   * place the walk has passed. */
  cli->operand = argv + 1;
  cli->operand_count = 0;
  for (struct opt *o = cli->options; o->name; o++)
    o->given = 0;
  int only_operands = 0, status = 0;
  for (int i = 1; i < argc && !status; i++) {
    const char *a = argv[i];
    if (only_operands || a[0] != '-' || !a[1]) {
      cli->operand[cli->operand_count++] = argv[i];
    } else if (strcmp(a, "--") == 0) {
      only_operands = 1;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      print_help(cli, stdout);
      return 0;
    } else {
      status = a[1] == '-' ? long_option(cli, argc, argv, &i)
                           : short_option(cli, argc, argv, &i);
    }
  }
  if (!status)
    status = check(cli);
  if (status)
    return status;
  status = check_output(cli);
  if (status != CLI_GO_ON)
    return status;
  for (const struct opt *o = cli->options; o->name; o++)
    if ((o->flags & OPT_REPORT_FILE) && o->given)
      output_report_to(*(const char **)o->value);
  return CLI_GO_ON;
}

int cli_given(const struct cli *cli, const char *name) {
  for (const struct opt *o = cli->options; o->name; o++)
    if (strcmp(o->name, name) == 0)
      return o->given;
  return 0;
}

void cli_free(struct cli *cli) {
  for (struct opt *o = cli->options; o->name; o++)
    if (o->kind == OPT_STRINGS) {
      struct opt_list *list = o->value;
      free(list->v);
      list->v = NULL;
      list->n = 0;
    }
}
