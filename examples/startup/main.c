/* startup [--faults] [COMMAND ARGS...]: sets up every subsystem, in the
 * order of the table below, then runs COMMAND (default: status).
 * --faults prints the minor page faults of the whole run on stderr. */
#include <string.h>
#include <sys/resource.h>

#include "startup.h"

static const struct subsystem subsystems[] = {
    {"ctype", ctype_init},     {"casemap", casemap_init},
    {"utf8", utf8_init},       {"crc32", crc32_init},
    {"base64", base64_init},   {"hex", hex_init},
    {"escape", escape_init},   {"keywords", keywords_init},
    {"config", config_init},   {"levels", levels_init},
    {"primes", primes_init},   {"sine", sine_init},
    {"log2", log2_init},       {"popcount", popcount_init},
    {"metrics", metrics_init}, {"history", history_init},
};
#define SUBSYSTEMS (sizeof subsystems / sizeof *subsystems)

static uint32_t digests[SUBSYSTEMS];

static int cmd_status(int argc, char **argv);
static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
    {"status", "", cmd_status},
    {"help", "", cmd_help},
    {"classify", "TEXT...", cmd_classify},
    {"upper", "TEXT...", cmd_upper},
    {"lower", "TEXT...", cmd_lower},
    {"chars", "TEXT...", cmd_chars},
    {"keyword", "WORD...", cmd_keyword},
    {"crc32", "TEXT...", cmd_crc32},
    {"base64", "TEXT...", cmd_base64},
    {"unbase64", "BASE64...", cmd_unbase64},
    {"hex", "TEXT|HEX...", cmd_hex},
    {"escape", "TEXT...", cmd_escape},
    {"primes", "N...", cmd_primes},
    {"factor", "N...", cmd_factor},
    {"sin", "DEGREES...", cmd_sin},
    {"bits", "N...", cmd_bits},
    {"config", "[KEY...]", cmd_config},
    {"log", "LEVEL MESSAGE...", cmd_log},
    {"metrics", "", cmd_metrics},
    {"history", "LINE...", cmd_history},
};
#define COMMANDS (sizeof commands / sizeof *commands)

/* A quick check of a few tables against known answers. */
static int self_test(void) {
  unsigned primes = 0;
  for (unsigned long n = 0; n < 10000; n++)
    primes += (unsigned)is_prime(n);
  return primes == 1229 && crc32("123456789", 9, 0) == 0xcbf43926u &&
         is_keyword("while") && !is_keyword("whilst");
}

static int cmd_status(int argc, char **argv) {
  (void)argc;
  (void)argv;
  uint32_t all = 0;
  for (size_t i = 0; i < SUBSYSTEMS; i++)
    all = crc32(&digests[i], sizeof digests[i], all);
  int ok = self_test();
  printf("%zu subsystems ready (digest %08x), %zu commands, self-test %s\n",
         SUBSYSTEMS, (unsigned)all, COMMANDS, ok ? "passed" : "FAILED");
  return ok ? 0 : 1;
}

static int cmd_help(int argc, char **argv) {
  (void)argc;
  (void)argv;
  printf("usage: startup [--faults] [COMMAND ARGS...]\ncommands:\n");
  for (size_t i = 0; i < COMMANDS; i++)
    printf("  %-9s %s\n", commands[i].name, commands[i].args);
  printf("subsystems:");
  for (size_t i = 0; i < SUBSYSTEMS; i++)
    printf(" %s", subsystems[i].name);
  putchar('\n');
  return 0;
}

int main(int argc, char **argv) {
  int faults = argc > 1 && strcmp(argv[1], "--faults") == 0;
  if (faults) {
    argc--;
    argv++;
  }
  for (size_t i = 0; i < SUBSYSTEMS; i++)
    digests[i] = subsystems[i].init();
  const char *name = argc > 1 ? argv[1] : "status";
  int status = 2;
  size_t i = 0;
  while (i < COMMANDS && strcmp(commands[i].name, name) != 0)
    i++;
  if (i < COMMANDS)
    status = commands[i].run(argc > 1 ? argc - 2 : 0, argv + 2);
  else
    fprintf(stderr, "startup: no command %s (startup help lists them)\n", name);
  fflush(stdout);
  if (faults) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(stderr, "%ld minor page faults\n", ru.ru_minflt);
  }
  return status;
}
