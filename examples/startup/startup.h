/* startup: a tool that sets up sixteen small subsystems (character
 * tables, codecs, number tables, configuration), each with an init
 * function of its own, before it runs one command. Its commands are
 * quick; most of its time, and most of the code it touches, is start-up:
 * one init function from here, one from there, spread over the program. */
#ifndef STARTUP_H
#define STARTUP_H

#include <stdint.h>
#include <stdio.h>

/* A subsystem: its init builds its tables and returns a digest of them. */
struct subsystem {
  const char *name;
  uint32_t (*init)(void);
};

/* A command: startup NAME ARGS... */
struct command {
  const char *name;
  const char *args;
  int (*run)(int argc, char **argv);
};

/* text.c */
uint32_t ctype_init(void);
uint32_t casemap_init(void);
uint32_t utf8_init(void);
uint32_t keywords_init(void);
int cmd_classify(int argc, char **argv);
int cmd_upper(int argc, char **argv);
int cmd_lower(int argc, char **argv);
int cmd_chars(int argc, char **argv);
int cmd_keyword(int argc, char **argv);
int is_keyword(const char *word);

/* codec.c */
uint32_t crc32_init(void);
uint32_t base64_init(void);
uint32_t hex_init(void);
uint32_t escape_init(void);
uint32_t crc32(const void *data, size_t n, uint32_t crc);
int cmd_crc32(int argc, char **argv);
int cmd_base64(int argc, char **argv);
int cmd_unbase64(int argc, char **argv);
int cmd_hex(int argc, char **argv);
int cmd_escape(int argc, char **argv);

/* numbers.c */
uint32_t primes_init(void);
uint32_t sine_init(void);
uint32_t log2_init(void);
uint32_t popcount_init(void);
int is_prime(unsigned long n);
int cmd_primes(int argc, char **argv);
int cmd_factor(int argc, char **argv);
int cmd_sin(int argc, char **argv);
int cmd_bits(int argc, char **argv);

/* store.c */
uint32_t config_init(void);
uint32_t levels_init(void);
uint32_t metrics_init(void);
uint32_t history_init(void);
const char *config_get(const char *key);
int cmd_config(int argc, char **argv);
int cmd_log(int argc, char **argv);
int cmd_metrics(int argc, char **argv);
int cmd_history(int argc, char **argv);

#endif
