/*
 * mipcc / mipc++: a drop-in for clang / clang++ that adds the MIP plugin
 * and libraries to the commands that need them and passes everything else
 * through untouched, then replaces itself with the real compiler.
 *
 *   main.c     what to do, in order
 *   args.c     reading the command line: our flags, inputs, phases
 *   options.c  which clang options take their value in the next argument
 *   rspfile.c  reading @response files the way clang does
 *   llvm.c     which LLVM release: its clang and its plugin
 *   paths.c    finding the real compiler, the plugin and the runtime
 *   linkargs.c what the linker gets besides the inputs: -Wl, -Xlinker,
 *              -L, -l, -static, -shared; the static libraries -l finds
 *   scan.c     what the link's objects need: the runtime, the heap
 *              interposer, the allocation-hint library
 *   profile.c  whether the profile hints any allocation
 *   command.c  building the command that gets exec'd
 *   run.c      running it: exec, or (-fmip-order) run and wait, to
 *              remove the temporary ordering file afterwards
 *   util.c     messages, allocation, string vectors
 */
#ifndef MIPCC_H
#define MIPCC_H

#include <stdbool.h>
#include <stddef.h>

/* ---- util.c ---- */

/* The name messages start with ("mipcc" or "mipc++"). */
extern const char *mipcc_name;

/* Prints "mipcc: <message>" on stderr. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, then exits 1. */
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

/* The settings of -fmip-use that mipcc passes on to the plugin, each as
 * -fplugin-arg-mip-KEY[=VALUE] (plugin/Options.cpp reads them). */
enum use_key {
  /* -fmip-hot-share=F, ...: the settings of mip/decide.inc */
#define MIP_DECIDE_SETTING(NAME, field, key, unit, def, min, max, help)       \
  USE_##NAME,
#include "mip/decide.inc"
#undef MIP_DECIDE_SETTING
  USE_LIST_STALE,        /* -f[no-]mip-list-stale */
  USE_COLD_MINSIZE,      /* -f[no-]mip-cold-minsize */
  USE_ALLOC_HINTS,       /* -f[no-]mip-alloc-hints */
  USE_BRANCH_WEIGHTS,    /* -f[no-]mip-branch-weights */
  USE_KEYS
};

/* What the command line asks for, as far as mipcc is concerned. */
struct request {
  bool generate;     /* -fmip-generate[=LIST], last one wins */
  const char *modes; /* LIST of -fmip-generate=LIST, or NULL */
  bool heap;         /* "heap" is in that LIST */
  bool own_state;    /* "order" or "edges" is in that LIST */
  const char *use;   /* FILE of -fmip-use=FILE, or NULL */
  bool use_given;    /* a -fmip-use=FILE appeared, even if cancelled */
  /* use_args[k]: the plugin argument of the last flag for key k
   * ("hot-share=0.8", "no-list-stale"), or NULL. */
  const char *use_args[USE_KEYS];
  const char *hot_share; /* F of the last -fmip-hot-share=F, or NULL */
  bool order;            /* -fmip-order, last one wins */
  bool continuous;       /* -fmip-continuous, last one wins */
  bool pool;             /* -fmip-pool, last one wins */
  bool shared_runtime;   /* -fmip-shared-runtime, last one wins */
  const char *needs_use; /* the first flag that only means something
                            with -fmip-use, or NULL */
  const char *target;    /* TRIPLE of the last --target= or -target, or
                            NULL: the host's */
  const char *fuse_ld;   /* value of the last -fuse-ld=, or NULL */
  const char *ld_path;   /* value of the last --ld-path=, or NULL */
  bool lto;          /* -flto[=...], unless a later -fno-lto */
  bool no_link;      /* -c, -S, -E, -fsyntax-only, -M, -MM, --precompile... */
  bool no_codegen;   /* -E, -fsyntax-only, -M, -MM, --precompile... */
  bool relocatable;  /* -r: a partial link, not an image */
  const char *output; /* FILE of the last -o FILE (--output), or NULL */
  bool version;      /* --version: clang prints its own */
  const char *llvm;  /* N of --mip-llvm=N, or NULL */
  size_t inputs;     /* input files, of any kind */
  size_t sources;    /* inputs that are C, C++ or Objective-C sources */
  const char *first_source; /* the first of them, or NULL */
  struct strvec files; /* the other inputs, in order, "-" left out: what
                          the linker may get as it is */
  struct linkargs *link; /* what the linker gets besides them (linkargs.c) */
  struct arglist args; /* argv[1..] with response files expanded */
  bool *own;           /* own[k]: args.v[k] is a mipcc flag */
  enum action *action; /* action[i]: what to do with argv[i] */
  int tail;          /* argv index at which arguments stop being options
                        ("--"), argc when there is none */
  bool lang_at_tail; /* a -x language is in force at argv[tail] */
};

void parse_request(int argc, char **argv, struct request *rq);

/* ---- linkargs.c ---- */

/* Reads the linker's share of the command line: -Wl,ARGS and -Xlinker ARG
 * (options, and the files they name as inputs), -L DIR, -l NAME, -static,
 * -Bstatic/-Bdynamic and -shared. */
struct linkargs *linkargs_new(void);
/* A driver flag with its value joined (-Wl,..., -Ldir, -lname, -shared,
 * -static); false when it is none of those. */
bool linkargs_flag(struct linkargs *la, const char *arg);
/* A driver option with a separate value (-Xlinker ARG, -L DIR, -l NAME);
 * false when it is none of those. */
bool linkargs_option(struct linkargs *la, const char *option,
                     const char *value);
/* Whether the command makes a shared library (-shared, -Wl,-shared). */
bool linkargs_shared(const struct linkargs *la);
/* Appends to files what the linker will read that mipcc can look into:
 * files named through -Wl, and -Xlinker, and the static libraries -l NAME
 * finds in the command's -L directories, in each the one ld would take
 * (libNAME.so before libNAME.a, unless -static or -Bstatic is in force; a
 * shared library is another image, and is left out). */
void linkargs_files(const struct linkargs *la, struct strvec *files);

/* ---- llvm.c ---- */

/* Chooses the LLVM release: asked (--mip-llvm=N), else $MIP_LLVM, else
 * the newest lib/mip/llvm-N holds a plugin for; exits naming those there
 * are when the one asked for is not among them. */
void choose_llvm(const char *asked);
/* The release chosen; 0 when the library directory has no llvm-N. */
int chosen_llvm(void);
/* That release's clang or clang++. */
const char *llvm_compiler(bool cxx);
/* That release's plugin, lib/mip/llvm-N/libmip.so (lib/mip/libmip.so for
 * none); exits naming it if it is missing. */
char *llvm_plugin(void);
/* For --version: the release and its compiler, on stderr. */
void print_llvm_version(void);

/* ---- paths.c ---- */

/* The real compiler: $MIP_CLANG / $MIP_CLANGXX, or the chosen LLVM
 * release's (llvm.c). */
const char *compiler_path(bool cxx);
/* The directory of MIP's libraries: $MIP_LIBDIR, or ../lib/mip. */
char *mip_libdir(void);
/* Absolute path of a file of the MIP library directory ($MIP_LIBDIR, or
 * ../lib/mip next to this executable); exits naming it if it is missing. */
char *mip_file(const char *name);
/* The same for a library built per target: for a TRIPLE (not NULL),
 * lib/mip/TRIPLE/NAME, else lib/mip/ARCH-linux-gnu/NAME for the triple's
 * architecture, else, when that is the host's, lib/mip/NAME as for no
 * TRIPLE; exits naming the target if there is none. */
char *mip_target_file(const char *triple, const char *name);
/* Whether that file exists for TRIPLE (always for no TRIPLE). */
bool mip_target_has(const char *triple, const char *name);
/* Whether TRIPLE is 32-bit Arm (armv7a-linux-gnueabihf and its other
 * spellings; little-endian): Thumb-2 by default, no heap mode. */
bool mip_target_is_arm32(const char *triple);
/* mipdata: $MIP_MIPDATA, or the one next to this executable; exits naming
 * it if it cannot be run. */
char *mipdata_path(void);
/* Exits if the compiler would be this very program (endless recursion). */
void check_not_self(const char *compiler);

/* ---- scan.c ---- */

/* What the link's inputs need. */
enum need {
  NEED_RUNTIME = 1, /* an instrumented object: libmip_rt.a */
  NEED_HEAP = 2,    /* an object built with heap mode: the interposer */
  NEED_HINT = 4,    /* a hinted allocation call: libmip_alloc.a */
  NEED_OWN_STATE = 8, /* order or edges code, whose state is the image's
                         own: no shared runtime */
};
#define NEEDS 4

/* Where a need was found. */
struct need_at {
  const char *file; /* the input that holds it, as named */
  char *member;     /* the archive member, or NULL */
  char *symbol;     /* the undefined symbol that says so, or NULL when it
                       is the object's counter section */
};

struct link_scan {
  unsigned found;           /* enum need bits */
  struct need_at at[NEEDS]; /* by bit number (need_at) */
};

/* Where need (one bit) was found, when scan->found has it. */
const struct need_at *need_at(const struct link_scan *scan, enum need need);

/* Whether name is that of a hinted allocation function: one the plugin
 * calls at -fmip-use (__mip_malloc_hint, ..., operator new with a
 * __hot_cold_t, whose mangled names end in 12__hot_cold_t). */
bool is_hinted_name(const char *name);

/* Looks through files, in order (ELF relocatable objects and the ELF
 * members of static archives), for what the wanted needs, and stops once
 * each is found. Reads section headers and symbol tables only; what
 * cannot be opened or is not such a file is passed over. */
void scan_link(const struct strvec *files, unsigned wanted,
               struct link_scan *out);

/* ---- profile.c ---- */

/* How many allocation sites the profile of -fmip-use makes cold or hot
 * (with the thresholds of the command line), so that the plugin hints
 * their calls; -1 when the profile cannot be read (the compiler then says
 * why). */
int profile_hinted_sites(const struct request *rq);
/* How many allocation sites of the profile have contexts that disagree,
 * cold or hot ones among them: reached through a wrapper, hinted only by
 * cloning it per context, at a
 * -flto link (docs/use.md, "Wrappers and LTO"); -1 as above. */
int profile_wrapper_sites(const struct request *rq);

/* ---- command.c ---- */

/* The linkers that can order functions (-fmip-order). */
enum linker { LINKER_LLD, LINKER_GOLD };

/* Continuous mode's object, beside libmip_rt.a (-fmip-continuous). */
#define MIP_CONTINUOUS_OBJECT "mip_continuous.o"
/* The shared runtime's object in each image, beside libmip_rt.so
 * (-fmip-shared-runtime). */
#define MIP_RT_IMAGE_OBJECT "mip_rt_image.o"

struct additions {
  const char *plugin;  /* absolute path of libmip.so, NULL for none */
  const char *runtime; /* absolute path of libmip_rt.a, NULL for none */
  const char *runtime_why; /* why it is (not) added, at a link; NULL
                              elsewhere */
  const char *interpose; /* absolute path of the heap interposer object
                            (mip_interpose.o, or mip_interpose_shared.o
                            for a shared library), NULL for none */
  const char *interpose_why; /* why it is added */
  const char *continuous; /* absolute path of mip_continuous.o (continuous
                             mode, -fmip-continuous), NULL for none */
  bool pool;           /* pool mode's merge, out of libmip_rt.a (-fmip-pool) */
  bool probe; /* the configure-time test program's check, out of
                 libmip_rt.a (an executable named as build systems name
                 them: conftest, cmTC_*) */
  const char *image_object; /* -fmip-shared-runtime: absolute path of
                               mip_rt_image.o, and runtime is that of
                               libmip_rt.so; NULL otherwise */
  const char *alloc;   /* absolute path of libmip_alloc.a (linked with
                          jemalloc), NULL for none */
  const char *alloc_why; /* why it is (not) added, at a link with
                            -fmip-use; NULL elsewhere */
  bool frame_pointers; /* -fno-omit-frame-pointer
                          after the command's flags, -momit-leaf-frame-pointer
                          before them (heap mode) */
  bool frame_chain; /* -mframe-chain=aapcs with them (Armv7: Thumb and Arm
                       code alike keep AAPCS frame records in r11) */
  bool function_sections; /* -ffunction-sections -fdata-sections
                             (-fmip-order compiles) */
  bool thumb; /* -mthumb before the command's own flags (Armv7: Thumb-2
                 unless it says -marm) */
  bool order;          /* the link follows the profile's function order */
  enum linker linker;  /* the linker that does it */
  bool add_fuse_ld;    /* -fuse-ld=lld: the command names no linker */
  const char *order_file; /* the ordering file mipdata wrote (order) */
  /* absolute path of libmip.so for lld to load into the link's LTO
   * (-fmip-use with -flto), with the options that have LLVM clone
   * wrappers per context; NULL for none */
  const char *lto_plugin;
};

/* The argv to exec: the compiler, then argv[1..argc) without mipcc's own
 * flags (see enum action), with the plugin, frame-pointer, ordering and
 * library arguments added. */
const char **build_command(const char *compiler, int argc, char **argv,
                           const struct request *rq,
                           const struct additions *add);

/* The mipdata command that writes the ordering file for the link. */
const char **order_command(const char *mipdata, const struct request *rq,
                           const struct additions *add);

/* Prints the command on stderr, quoted so it can be pasted into a shell. */
void print_command(const char *const *cmd);

/* ---- run.c ---- */

/* Creates an empty file STEM.XXXXXX in $TMPDIR (default /tmp) with
 * mkstemp and returns its path. It is removed when mipcc exits, or dies of
 * a signal, whatever the path. */
char *temp_file(const char *stem);
/* Replaces mipcc with cmd; exits 1 if it cannot be run. */
_Noreturn void run_exec(const char *const *cmd);
/* Runs cmd as a child (quiet: its stdout goes to /dev/null) and returns
 * its wait status. */
int run_wait(const char *const *cmd, bool quiet);
/* Ends mipcc the way a process with wait status status ended. */
_Noreturn void exit_like(int status);

#endif
