/*
 * Reads the command line the way the clang driver will, only as far as
 * mipcc needs: its own -fmip-* flags, which arguments are input files and
 * of what language, and where the compilation stops (-c, -S, -E, ...).
 * Nothing here changes an argument; command.c decides what to add.
 */
#include <stdlib.h>
#include <string.h>

#include "mipcc.h"

/* File name extensions clang compiles as C, C++ or Objective-C(++)
 * (including their preprocessed forms). Headers are not in the list:
 * a header input makes a precompiled header, not code. */
static const char *const source_exts[] = {
    "c",  "i",   "cc", "cp", "cxx", "cpp", "CPP", "c++", "C", "CC",
    "CXX", "C++", "ii", "m",  "mm",  "M",   "mi",  "mii",
};

/* -x languages with the same meaning. */
static const char *const source_langs[] = {
    "c",
    "c++",
    "objective-c",
    "objective-c++",
    "cpp-output",
    "c++-cpp-output",
    "objective-c-cpp-output",
    "objc-cpp-output",
    "objective-c++-cpp-output",
    "objc++-cpp-output",
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

static bool in_list(const char *s, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, list[i]) == 0)
      return true;
  return false;
}

/* The walk over the expanded arguments. */
struct walk {
  struct request *rq;
  const char *lang;        /* the -x in force, NULL for "by extension" */
  const char *lang_at_top; /* lang when the current argv element started */
  int top;                 /* argv element being read */
  bool rest_inputs;        /* after "--": everything is an input */
};

static bool is_source(const char *path, const char *lang) {
  if (lang)
    return in_list(lang, source_langs, COUNT(source_langs));
  const char *dot = strrchr(path, '.');
  if (!dot || strchr(dot, '/'))
    return false;
  return in_list(dot + 1, source_exts, COUNT(source_exts));
}

static void add_input(struct walk *w, const char *path) {
  struct request *rq = w->rq;
  rq->inputs++;
  /* "-" is standard input: only -x says what it holds. */
  bool stdin_input = strcmp(path, "-") == 0;
  if (stdin_input ? w->lang && is_source("", w->lang)
                  : is_source(path, w->lang)) {
    rq->sources++;
    if (!rq->first_source)
      rq->first_source = path;
  } else if (!stdin_input) {
    strvec_push(&rq->files, path);
  }
}

static void set_lang(struct walk *w, const char *lang) {
  w->lang = strcmp(lang, "none") == 0 ? NULL : lang;
}

/* -fmip-* and -fno-mip-* are mipcc's, whatever follows. */
static bool is_own(const char *arg) {
  return has_prefix(arg, "-fmip-") || has_prefix(arg, "-fno-mip-") ||
         has_prefix(arg, "--mip-llvm=");
}

/* Whether the comma-separated LIST names mode (blanks around a name are
 * ignored, as the plugin ignores them). */
static bool lists_mode(const char *list, const char *mode) {
  size_t len = strlen(mode);
  for (const char *at = list;; at++) {
    while (*at == ' ' || *at == '\t')
      at++;
    const char *end = at + strcspn(at, ",");
    const char *last = end;
    while (last > at && (last[-1] == ' ' || last[-1] == '\t'))
      last--;
    if ((size_t)(last - at) == len && strncmp(at, mode, len) == 0)
      return true;
    if (!*end)
      return false;
    at = end;
  }
}

/* The settings of -fmip-use passed on to the plugin, by enum use_key:
 * numbers take =VALUE (unit names it in messages), flags have a -fno-
 * form. */
static const struct {
  const char *key;
  const char *unit; /* NULL for a flag */
} use_flags[USE_KEYS] = {
#define MIP_DECIDE_SETTING(NAME, field, key, unit, def, min, max, help)       \
  [USE_##NAME] = {key, unit},
#include "mip/decide.inc"
#undef MIP_DECIDE_SETTING
    [USE_LIST_STALE] = {"list-stale", NULL},
    [USE_COLD_MINSIZE] = {"cold-minsize", NULL},
    [USE_ALLOC_HINTS] = {"alloc-hints", NULL},
    [USE_BRANCH_WEIGHTS] = {"branch-weights", NULL},
};

/* "-fmip-hot-share=F, ...": the settings of mip/decide.inc, for messages. */
static const char decide_flags[] =
#define MIP_DECIDE_SETTING(NAME, field, key, unit, def, min, max, help)       \
  "-fmip-" key "=" unit ", "
#include "mip/decide.inc"
#undef MIP_DECIDE_SETTING
    ;

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* A decimal number: [+-]digits[.digits][e[+-]digits], with digits on at
 * least one side of the point. Whether it is in range is the plugin's
 * business. */
static bool is_number(const char *s) {
  if (*s == '+' || *s == '-')
    s++;
  size_t digits = 0;
  for (; is_digit(*s); s++)
    digits++;
  if (*s == '.')
    for (s++; is_digit(*s); s++)
      digits++;
  if (!digits)
    return false;
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '+' || *s == '-')
      s++;
    if (!is_digit(*s))
      return false;
    while (is_digit(*s))
      s++;
  }
  return *s == '\0';
}

/* -fmip-KEY[=VALUE] / -fno-mip-KEY for the keys of use_flags; false when
 * arg is none of them. */
static bool apply_use_flag(struct request *rq, const char *arg) {
  bool off = has_prefix(arg, "-fno-mip-");
  const char *rest = arg + strlen(off ? "-fno-mip-" : "-fmip-");
  for (int k = 0; k < USE_KEYS; k++) {
    const char *key = use_flags[k].key, *unit = use_flags[k].unit;
    size_t len = strlen(key);
    if (strncmp(rest, key, len) != 0 || (rest[len] && rest[len] != '='))
      continue;
    const char *value = rest[len] == '=' ? rest + len + 1 : NULL;
    if (unit && off)
      return false; /* -fno-mip-hot-share: unknown */
    if (unit && !value)
      die("%s needs a value: -fmip-%s=%s", arg, key, unit);
    if (unit && !is_number(value))
      die("%s: '%s' is not a number", arg, value);
    if (!unit && value)
      die("%s takes no value", arg);
    rq->use_args[k] = unit ? rest : off ? xconcat("no-", key, NULL) : key;
    if (k == USE_HOT_SHARE)
      rq->hot_share = value;
    if (!rq->needs_use)
      rq->needs_use = arg;
    return true;
  }
  return false;
}

static void apply_own(struct request *rq, const char *arg) {
  if (has_prefix(arg, "--mip-llvm=")) {
    rq->llvm = arg + strlen("--mip-llvm=");
  } else if (strcmp(arg, "-fmip-generate") == 0) {
    rq->generate = true;
    rq->modes = NULL;
    rq->heap = false;
  } else if (has_prefix(arg, "-fmip-generate=")) {
    rq->generate = true;
    rq->modes = arg + strlen("-fmip-generate=");
    rq->heap = lists_mode(rq->modes, "heap") ||
               lists_mode(rq->modes, "heap-allocs");
    rq->own_state =
        lists_mode(rq->modes, "order") || lists_mode(rq->modes, "edges");
  } else if (strcmp(arg, "-fno-mip-generate") == 0) {
    rq->generate = false;
    rq->modes = NULL;
    rq->heap = false;
  } else if (has_prefix(arg, "-fmip-use=")) {
    rq->use = arg + strlen("-fmip-use=");
    if (!*rq->use)
      die("-fmip-use needs a profile: -fmip-use=FILE");
    rq->use_given = true;
  } else if (strcmp(arg, "-fno-mip-use") == 0) {
    rq->use = NULL;
  } else if (strcmp(arg, "-fmip-use") == 0) {
    die("-fmip-use needs a profile: -fmip-use=FILE");
  } else if (strcmp(arg, "-fmip-order") == 0 ||
             strcmp(arg, "-fno-mip-order") == 0) {
    rq->order = arg[2] == 'm';
    if (!rq->needs_use)
      rq->needs_use = arg;
  } else if (strcmp(arg, "-fmip-continuous") == 0 ||
             strcmp(arg, "-fno-mip-continuous") == 0) {
    rq->continuous = arg[2] == 'm';
  } else if (strcmp(arg, "-fmip-pool") == 0 ||
             strcmp(arg, "-fno-mip-pool") == 0) {
    rq->pool = arg[2] == 'm';
  } else if (strcmp(arg, "-fmip-shared-runtime") == 0 ||
             strcmp(arg, "-fno-mip-shared-runtime") == 0) {
    rq->shared_runtime = arg[2] == 'm';
  } else if (!apply_use_flag(rq, arg)) {
    die("unknown option '%s' (known: -f[no-]mip-generate[=MODES], "
        "-fmip-use=FILE, -fno-mip-use, -f[no-]mip-order, "
        "-f[no-]mip-continuous, -f[no-]mip-pool, -f[no-]mip-shared-runtime, %s"
        "-f[no-]mip-list-stale, -f[no-]mip-cold-minsize, "
        "-f[no-]mip-alloc-hints, -f[no-]mip-branch-weights)",
        arg, decide_flags);
  }
}

/* Options that end the compilation before the link; the second group also
 * stops before code generation, so the plugin would have nothing to do. */
static const char *const stop_before_link[] = {
    "-c", "--compile", "-S", "--assemble",
};
static const char *const stop_before_codegen[] = {
    "-E",          "--preprocess", "-M",        "--dependencies",
    "-MM",         "--user-dependencies",       "-fsyntax-only",
    "--precompile", "--analyze",   "-emit-ast",
};

static void apply_flag(struct walk *w, const char *arg) {
  struct request *rq = w->rq;
  if (in_list(arg, stop_before_link, COUNT(stop_before_link))) {
    rq->no_link = true;
  } else if (in_list(arg, stop_before_codegen, COUNT(stop_before_codegen))) {
    rq->no_link = true;
    rq->no_codegen = true;
  } else if (strcmp(arg, "-flto") == 0 || has_prefix(arg, "-flto=")) {
    rq->lto = true;
  } else if (strcmp(arg, "-fno-lto") == 0) {
    rq->lto = false;
  } else if (has_prefix(arg, "--target=")) {
    rq->target = arg + strlen("--target=");
  } else if (has_prefix(arg, "-fuse-ld=")) {
    rq->fuse_ld = arg + strlen("-fuse-ld=");
  } else if (has_prefix(arg, "--ld-path=")) {
    rq->ld_path = arg + strlen("--ld-path=");
  } else if (has_prefix(arg, "--output=")) {
    rq->output = arg + strlen("--output=");
  } else if (has_prefix(arg, "-o") && arg[2] && !has_prefix(arg, "-obj")) {
    rq->output = arg + 2; /* -oFILE; -objcmt-..., -object are others */
  } else if (strcmp(arg, "-r") == 0) {
    rq->relocatable = true;
  } else if (strcmp(arg, "--version") == 0) {
    rq->version = true;
  } else if (has_prefix(arg, "--language=")) {
    set_lang(w, arg + strlen("--language="));
  } else if (has_prefix(arg, "-x") && arg[2]) {
    set_lang(w, arg + 2); /* -xc: no other clang option starts with -x */
  } else {
    linkargs_flag(rq->link, arg);
  }
}

/* Reads an option and its separate values; returns how many arguments
 * after it were used. */
static size_t apply_option(struct walk *w, const struct arg *a, size_t left) {
  size_t values = (size_t)separate_values(a->text);
  if (values > left)
    values = left; /* clang reports the missing value itself */
  if (values && (strcmp(a->text, "-x") == 0 ||
                 strcmp(a->text, "--language") == 0))
    set_lang(w, a[1].text);
  else if (values == 1 && strcmp(a->text, "-target") == 0)
    w->rq->target = a[1].text;
  else if (values == 1 && (strcmp(a->text, "-o") == 0 ||
                           strcmp(a->text, "--output") == 0))
    w->rq->output = a[1].text;
  else if (values == 1)
    linkargs_option(w->rq->link, a->text, a[1].text);
  if (!values)
    apply_flag(w, a->text);
  return values;
}

static void own_flag(struct walk *w, const struct arg *a) {
  struct request *rq = w->rq;
  rq->own[a - rq->args.v] = true;
  /* A response file cannot be passed on with the flag still in it (clang
   * does not know it), so it is passed on expanded instead. */
  rq->action[a->top] = a->from_file ? INLINE : DROP;
  apply_own(rq, a->text);
}

/* The runtime goes before "--": after it even options are inputs. */
static void mark_tail(struct walk *w) {
  if (w->rest_inputs)
    return;
  w->rest_inputs = true;
  w->rq->tail = w->top;
  w->rq->lang_at_tail = w->lang_at_top != NULL;
}

static size_t read_arg(struct walk *w, const struct arg *a, size_t left) {
  const char *s = a->text;
  if (a->top != w->top) {
    w->top = a->top;
    w->lang_at_top = w->lang;
  }
  if (w->rest_inputs || s[0] != '-' || s[1] == '\0')
    add_input(w, s);
  else if (strcmp(s, "--") == 0)
    mark_tail(w);
  else if (is_own(s))
    own_flag(w, a);
  else
    return apply_option(w, a, left);
  return 0;
}

void parse_request(int argc, char **argv, struct request *rq) {
  *rq = (struct request){.tail = argc, .link = linkargs_new()};
  expand_args(argc, argv, &rq->args);
  rq->own = calloc(rq->args.n + 1, sizeof *rq->own);
  rq->action = calloc((size_t)argc, sizeof *rq->action); /* all KEEP */
  if (!rq->own || !rq->action)
    die("out of memory");

  struct walk w = {.rq = rq, .top = 0};
  for (size_t i = 0; i < rq->args.n; i++)
    i += read_arg(&w, &rq->args.v[i], rq->args.n - i - 1);
  if (!w.rest_inputs)
    rq->lang_at_tail = w.lang != NULL;
}
