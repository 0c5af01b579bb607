/* Configuration, log levels, metrics, a command history. */
#include <stdlib.h>
#include <string.h>

#include "startup.h"

/* Configuration: built-in defaults, "key=value", then STARTUP_<KEY>
 * from the environment. */
#define CONFIG_MAX 16
static struct {
  char key[24];
  char value[40];
} config[CONFIG_MAX];
static int config_count;

static void config_set(const char *key, const char *value) {
  int i = 0;
  while (i < config_count && strcmp(config[i].key, key) != 0)
    i++;
  if (i == CONFIG_MAX)
    return;
  if (i == config_count) {
    snprintf(config[i].key, sizeof config[i].key, "%s", key);
    config_count++;
  }
  snprintf(config[i].value, sizeof config[i].value, "%s", value);
}

const char *config_get(const char *key) {
  for (int i = 0; i < config_count; i++)
    if (strcmp(config[i].key, key) == 0)
      return config[i].value;
  return NULL;
}

uint32_t config_init(void) {
  static const char *const defaults[] = {
      "name=startup", "level=info",  "history=8",   "color=auto",
      "width=80",     "output=-",    "metrics=on",  "locale=C"};
  uint32_t digest = 0;
  for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++) {
    char key[24];
    const char *eq = strchr(defaults[i], '=');
    snprintf(key, sizeof key, "%.*s", (int)(eq - defaults[i]), defaults[i]);
    char env[40] = "STARTUP_";
    for (size_t k = 0; key[k] && k + 9 < sizeof env; k++)
      env[8 + k] = (char)(key[k] >= 'a' && key[k] <= 'z' ? key[k] - 32 : key[k]);
    const char *value = getenv(env);
    config_set(key, value ? value : eq + 1);
    digest = crc32(defaults[i], strlen(defaults[i]), digest);
  }
  return digest;
}

int cmd_config(int argc, char **argv) {
  if (argc == 0)
    for (int i = 0; i < config_count; i++)
      printf("%s=%s\n", config[i].key, config[i].value);
  for (int i = 0; i < argc; i++) {
    const char *v = config_get(argv[i]);
    printf("%s=%s\n", argv[i], v ? v : "(unset)");
  }
  return 0;
}

static const char *const level_names[] = {"error", "warning", "info", "debug"};
static int log_level;

uint32_t levels_init(void) {
  const char *want = config_get("level");
  log_level = 2;
  for (int i = 0; i < 4; i++)
    if (want && strcmp(want, level_names[i]) == 0)
      log_level = i;
  return (uint32_t)log_level;
}

int cmd_log(int argc, char **argv) {
  if (argc < 1) {
    fprintf(stderr, "startup: log LEVEL MESSAGE...\n");
    return 2;
  }
  int level = -1;
  for (int i = 0; i < 4; i++)
    if (strcmp(argv[0], level_names[i]) == 0)
      level = i;
  if (level < 0) {
    fprintf(stderr, "startup: no log level %s\n", argv[0]);
    return 2;
  }
  if (level <= log_level) {
    printf("[%s]", level_names[level]);
    for (int i = 1; i < argc; i++)
      printf(" %s", argv[i]);
    putchar('\n');
  }
  return 0;
}

/* Metrics: named counters, registered at start-up. */
static struct {
  const char *name;
  uint64_t value;
} metrics[8];
static int metric_count;

uint32_t metrics_init(void) {
  static const char *const names[] = {"commands", "errors", "bytes_in", "bytes_out"};
  const char *on = config_get("metrics");
  metric_count = 0;
  if (on && strcmp(on, "on") == 0)
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
      metrics[metric_count++].name = names[i];
  return (uint32_t)metric_count;
}

int cmd_metrics(int argc, char **argv) {
  (void)argv;
  metrics[0].value++;
  metrics[2].value += (uint64_t)argc;
  for (int i = 0; i < metric_count; i++)
    printf("%-10s %llu\n", metrics[i].name, (unsigned long long)metrics[i].value);
  return 0;
}

/* History: the last few command lines, in a ring. */
static char **history;
static int history_size, history_next;

uint32_t history_init(void) {
  const char *n = config_get("history");
  history_size = n ? atoi(n) : 8;
  if (history_size < 1 || history_size > 1024)
    history_size = 8;
  history = calloc((size_t)history_size, sizeof *history);
  history_next = 0;
  return history ? (uint32_t)history_size : 0;
}

static char *copy_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  return p ? memcpy(p, s, n) : NULL;
}

int cmd_history(int argc, char **argv) {
  if (!history)
    return 1;
  for (int i = 0; i < argc; i++) {
    free(history[history_next]);
    history[history_next] = copy_string(argv[i]);
    history_next = (history_next + 1) % history_size;
  }
  for (int i = 0; i < history_size; i++) {
    const char *h = history[(history_next + i) % history_size];
    if (h)
      printf("%s\n", h);
  }
  return 0;
}
