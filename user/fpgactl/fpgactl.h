/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpgactl internals: command tables, argument parsing and one output
 * path for text and JSON (each field printed once, in either mode).
 */
#ifndef _FPGACTL_H
#define _FPGACTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fpga.h"

#ifndef FPGACTL_VERSION
#define FPGACTL_VERSION	"unknown"
#endif

/* Exit codes */
#define FC_OK		0
#define FC_FAIL		1	/* the operation failed */
#define FC_USAGE	2	/* the command line is wrong */
#define FC_HELP		(-1)	/* internal: help was printed, exit 0 */

struct fc_cmd {
	const char *name;	/* what is matched: "read" */
	const char *path;	/* the full command: "mmio read" */
	const char *args;	/* "PORT OFFSET [--width 32|64]" */
	const char *help;	/* what it does; more lines after the first */
	int (*run)(const struct fc_cmd *cmd, int argc, char **argv);
	const struct fc_cmd *sub;	/* verbs of an object, NULL-terminated */
};

/* Global options */
extern bool fc_json;
extern bool fc_pretty;

/* ---- dispatch and help (cli.c) ---- */

/* The command called @name (exact, or a unique prefix), or NULL */
const struct fc_cmd *fc_find(const struct fc_cmd *cmds, const char *name,
			     bool *ambiguous);
/* Run argv[0] from @cmds (exact name or unique prefix) */
int fc_dispatch(const char *where, const struct fc_cmd *cmds, int argc,
		char **argv);
/* "Usage:" lines of every command in @cmds (and their verbs) */
void fc_usage_table(FILE *f, const struct fc_cmd *cmds);
/* An object's verbs: "fpgactl mmio" and "fpgactl mmio help" */
int fc_run_object(const struct fc_cmd *cmd, int argc, char **argv);

/* ---- arguments (cli.c) ---- */

struct fc_opt {
	const char *name;	/* long name without "--" */
	char short_name;	/* or 0 */
	const char **value;	/* NULL: a flag without value */
	bool *set;		/* set to true when given */
};

#define FC_MAX_POS	8
struct fc_args {
	int n;
	char *pos[FC_MAX_POS];
};

/*
 * Split argv[1..] into options (@opts, ending with a zeroed entry) and
 * positionals, of which there must be @min..@max.  -h/--help prints the
 * command's help.  Returns FC_OK, FC_USAGE (told the user) or FC_HELP.
 */
int fc_parse_args(const struct fc_cmd *cmd, int argc, char **argv,
		  const struct fc_opt *opts, int min, int max,
		  struct fc_args *a);

/*
 * iproute2's shape: keywords (@kws, their short_name unused), "NAME VALUE"
 * or a lone "NAME" for a flag, anywhere among @min..@max positionals; a
 * word that is no keyword is a positional, and after "--" every word is.
 * Returns as fc_parse_args().
 */
int fc_parse_keywords(const struct fc_cmd *cmd, int argc, char **argv,
		      const struct fc_opt *kws, int min, int max,
		      struct fc_args *a);

/*
 * The arguments of a command that watches for a while:
 * "POSITIONALS [--time MS] [-- COMMAND [ARG...]]" (@min..@max positionals).
 * *@command is what follows "--", or NULL; *@ms changes only with --time.
 * Returns as fc_parse_args().
 */
int fc_parse_timed_args(const struct fc_cmd *cmd, int argc, char **argv,
			int min, int max, struct fc_args *a, uint64_t *ms,
			char ***command);

/* A number argument called @what; prints the reason; FC_OK or FC_USAGE */
int fc_parse_u64(const struct fc_cmd *cmd, const char *what, const char *s,
		 uint64_t max, uint64_t *v);
int fc_parse_size(const struct fc_cmd *cmd, const char *what, const char *s,
		  uint64_t *v);
/* Resolve PORT; a malformed name is a usage error, a missing port not */
int fc_port_lookup(const struct fc_cmd *cmd, const char *spec,
		   struct fpga_port_ref *ref);
/* Open PORT; FC_OK, FC_USAGE or FC_FAIL (told the user) */
int fc_port_open(const struct fc_cmd *cmd, const char *spec,
		 unsigned int flags, struct fpga_port **port);

/* "fpgactl: ..." on stderr */
void fc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A usage error: the message, then where to find help; returns FC_USAGE */
/* An --output FILE argument: a name, not a directory (usage error) */
int fc_check_output(const struct fc_cmd *cmd, const char *output);
int fc_usage_err(const struct fc_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The library's last message; returns FC_FAIL */
int fc_lib_err(void);

/* ---- output (out.c) ---- */

void fc_out_begin(void);
int fc_out_end(void);		/* prints the JSON document; frees it */
void fc_obj_open(const char *key);	/* key NULL in an array */
void fc_obj_close(void);
void fc_arr_open(const char *key);
void fc_arr_close(void);
/* Text: printf(@fmt, value) when @fmt is not NULL; JSON: "key": value */
void fc_str(const char *key, const char *fmt, const char *val);
void fc_u64(const char *key, const char *fmt, uint64_t val);
void fc_int(const char *key, const char *fmt, int64_t val);
void fc_hex(const char *key, const char *fmt, uint64_t val);	/* "0x.." */
void fc_bool(const char *key, const char *fmt, bool val);
void fc_double(const char *key, const char *fmt, double val);
/* Text only */
void fc_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- GBS files (gbs.c) ---- */

/* 32 hex digits, as afu_id and compat_id print a GUID */
void fc_uuid_hex(const uint8_t id[FPGA_UUID_SIZE], char out[33]);
/* What a GBS or raw bitstream in memory holds; FC_FAIL if broken */
int fc_gbs_print(const char *path, const uint8_t *buf, size_t size);

/* " afu_id X (nlb0)": an AFU's GUID (32 hex digits), and its name if known */
void fc_afu_id(const char *afu_id);
void fc_released_ports(const struct fpga_fme_ref *ref);

/* ---- commands ---- */

extern const struct fc_cmd fc_mmio_cmds[];
extern const struct fc_cmd fc_dma_cmds[];
extern const struct fc_cmd fc_irq_cmds[];
extern const struct fc_cmd fc_sim_cmds[];
extern const struct fc_cmd fc_buf_cmds[];
extern const struct fc_cmd fc_gbs_cmds[];

int fc_cmd_list(const struct fc_cmd *cmd, int argc, char **argv);
int fc_cmd_info(const struct fc_cmd *cmd, int argc, char **argv);
int fc_cmd_ps(const struct fc_cmd *cmd, int argc, char **argv);
int fc_cmd_reset(const struct fc_cmd *cmd, int argc, char **argv);
int fc_cmd_errors(const struct fc_cmd *cmd, int argc, char **argv);
int fc_cmd_bind(const struct fc_cmd *cmd, int argc, char **argv);
int fc_cmd_perf(const struct fc_cmd *cmd, int argc, char **argv);
int fc_cmd_trace(const struct fc_cmd *cmd, int argc, char **argv);
int fc_cmd_monitor(const struct fc_cmd *cmd, int argc, char **argv);
int fc_cmd_pr(const struct fc_cmd *cmd, int argc, char **argv);
int fc_cmd_metrics(const struct fc_cmd *cmd, int argc, char **argv);
int fc_cmd_cdi(const struct fc_cmd *cmd, int argc, char **argv);

#endif /* _FPGACTL_H */
