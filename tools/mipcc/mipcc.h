/*
 * mipcc / mipc++: a drop-in for clang / clang++ that adds the MIP plugin
 * and runtime to the commands that need them and passes everything else
 * through untouched, then replaces itself with the real compiler.
 *
 *   main.c     what to do, in order
 *   args.c     reading the command line: our flags, inputs, phases
 *   options.c  which clang options take their value in the next argument
 *   rspfile.c  reading @response files the way clang does
 *   paths.c    finding the real compiler, the plugin and the runtime
 *   command.c  building the command that gets exec'd
 *   util.c     messages, allocation, string vectors
 */
#ifndef MIPCC_H
#define MIPCC_H

#include <stdbool.h>
#include <stddef.h>

/* ---- util.c ---- */

/* The name messages start with ("mipcc" or "mipc++"). */
extern const char *mipcc_name;

/* Prints "mipcc: <message>" on stderr and exits 1. */
_Noreturn void die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
/* The concatenation of the strings up to the NULL, freshly allocated. */
char *xconcat(const char *first, ...) __attribute__((sentinel));

bool has_prefix(const char *s, const char *prefix);
bool has_suffix(const char *s, const char *suffix);

/* A growable, NULL-terminated array of strings (the strings are borrowed). */
struct strvec {
  const char **v;
  size_t n, cap;
};
void strvec_push(struct strvec *sv, const char *s);

/* ---- rspfile.c ---- */

/* One argument as clang will see it once response files are expanded. */
struct arg {
  const char *text;
  int top;        /* index in argv of the command-line argument it came from */
  bool from_file; /* read out of a response file */
};

struct arglist {
  struct arg *v;
  size_t n, cap;
};

/* Expands argv[1..argc) into out, reading @file arguments (and the ones
 * they name) the way clang does. argv itself is left as it is. */
void expand_args(int argc, char **argv, struct arglist *out);

/* ---- options.c ---- */

/* How many of the following arguments are the value of option arg
 * (0 for flags, joined values and unknown options). */
int separate_values(const char *arg);

/* ---- args.c ---- */

/* What becomes of a command-line argument. */
enum action {
  KEEP = 0, /* passed on as it is */
  DROP,     /* a mipcc flag: taken out */
  INLINE,   /* a response file holding mipcc flags: replaced by its
               arguments, without those flags */
};

/* What the command line asks for, as far as mipcc is concerned. */
struct request {
  bool generate;     /* -fmip-generate[=LIST], last one wins */
  const char *modes; /* LIST of -fmip-generate=LIST, or NULL */
  bool heap;         /* "heap" is in that LIST */
  const char *use;   /* FILE of -fmip-use=FILE, or NULL */
  bool lto;          /* -flto[=...], unless a later -fno-lto */
  bool no_link;      /* -c, -S, -E, -fsyntax-only, -M, -MM, --precompile... */
  bool no_codegen;   /* -E, -fsyntax-only, -M, -MM, --precompile... */
  bool relocatable;  /* -r: a partial link, not an image */
  size_t inputs;     /* input files, of any kind */
  size_t sources;    /* inputs that are C, C++ or Objective-C sources */
  struct arglist args; /* argv[1..] with response files expanded */
  bool *own;           /* own[k]: args.v[k] is a mipcc flag */
  enum action *action; /* action[i]: what to do with argv[i] */
  int tail;          /* argv index at which arguments stop being options
                        ("--"), argc when there is none */
  bool lang_at_tail; /* a -x language is in force at argv[tail] */
};

void parse_request(int argc, char **argv, struct request *rq);

/* ---- paths.c ---- */

/* The real compiler: $MIP_CLANG / $MIP_CLANGXX or the one built in. */
const char *compiler_path(bool cxx);
/* Absolute path of a file of the MIP library directory ($MIP_LIBDIR, or
 * ../lib/mip next to this executable); exits naming it if it is missing. */
char *mip_file(const char *name);
/* Exits if the compiler would be this very program (endless recursion). */
void check_not_self(const char *compiler);

/* ---- command.c ---- */

struct additions {
  const char *plugin;  /* absolute path of libmip.so, NULL for none */
  const char *runtime; /* absolute path of libmip_rt.a, NULL for none */
  bool frame_pointers; /* -fno-omit-frame-pointer
                          -mno-omit-leaf-frame-pointer (heap mode) */
};

/* The argv to exec: the compiler, then argv[1..argc) without mipcc's own
 * flags (see enum action), with the plugin, frame-pointer and runtime
 * arguments added. */
const char **build_command(const char *compiler, int argc, char **argv,
                           const struct request *rq,
                           const struct additions *add);

/* Prints the command on stderr, quoted so it can be pasted into a shell. */
void print_command(const char *const *cmd);

#endif
