// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl command line: dispatch through tables (exact name or unique
 * prefix), help at every level, options and number arguments checked in
 * full, and messages that say what to do next.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fpgactl.h"

void fc_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("fpgactl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int fc_check_output(const struct fc_cmd *cmd, const char *output)
{
	if (!*output)
		return fc_usage_err(cmd, "--output: empty file name");
	if (output[strlen(output) - 1] == '/')
		return fc_usage_err(cmd, "--output: '%s' is a directory, not a file",
				    output);
	return 0;
}

int fc_usage_err(const struct fc_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("fpgactl: ", stderr);
	if (cmd)
		fprintf(stderr, "%s: ", cmd->path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (cmd)
		fprintf(stderr, "Try 'fpgactl %s --help'.\n", cmd->path);
	else
		fprintf(stderr, "Try 'fpgactl help'.\n");
	return FC_USAGE;
}

int fc_lib_err(void)
{
	fc_err("%s", fpga_errmsg());
	return FC_FAIL;
}

static bool fc_is_help(const char *s)
{
	return !strcmp(s, "help") || !strcmp(s, "--help") || !strcmp(s, "-h");
}

static void fc_cmd_usage_line(FILE *f, const struct fc_cmd *c)
{
	fprintf(f, "  fpgactl %s%s%s\n", c->path, c->args ? " " : "",
		c->args ? c->args : "");
}

void fc_usage_table(FILE *f, const struct fc_cmd *cmds)
{
	for (const struct fc_cmd *c = cmds; c->name; c++) {
		if (c->sub)
			fc_usage_table(f, c->sub);
		else if (c->run)
			fc_cmd_usage_line(f, c);
	}
}

/* "fpgactl mmio read --help": usage, description, options */
static void fc_cmd_help(const struct fc_cmd *cmd)
{
	printf("Usage: fpgactl [-j] [-p] %s%s%s\n\n", cmd->path,
	       cmd->args ? " " : "", cmd->args ? cmd->args : "");
	if (cmd->help)
		printf("%s\n", cmd->help);
}

const struct fc_cmd *fc_find(const struct fc_cmd *cmds, const char *name,
			     bool *ambiguous)
{
	const struct fc_cmd *found = NULL;
	size_t len = strlen(name);

	*ambiguous = false;
	for (const struct fc_cmd *c = cmds; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	if (!len)
		return NULL;
	for (const struct fc_cmd *c = cmds; c->name; c++) {
		if (strncmp(c->name, name, len))
			continue;
		if (found) {
			*ambiguous = true;
			return NULL;
		}
		found = c;
	}
	return found;
}

/* "(info, irq)": the commands @prefix could mean */
static void fc_candidates(const struct fc_cmd *cmds, const char *prefix,
			  char *buf, size_t size)
{
	size_t len = strlen(prefix), used = 0;
	const char *sep = " (";

	buf[0] = '\0';
	for (const struct fc_cmd *c = cmds; c->name && used < size; c++) {
		if (strncmp(c->name, prefix, len))
			continue;
		used += snprintf(buf + used, size - used, "%s%s", sep, c->name);
		sep = ", ";
	}
	if (used < size)
		snprintf(buf + used, size - used, ")");
}

int fc_dispatch(const char *where, const struct fc_cmd *cmds, int argc,
		char **argv)
{
	const struct fc_cmd *c;
	char cand[128] = "";
	bool ambiguous;

	c = fc_find(cmds, argv[0], &ambiguous);
	if (!c) {
		if (ambiguous)
			fc_candidates(cmds, argv[0], cand, sizeof(cand));
		fc_err("%s%s\"%s\" is %s%s; try 'fpgactl %s%shelp'", where,
		       *where ? ": " : "", argv[0],
		       ambiguous ? "ambiguous" : "not a command", cand, where,
		       *where ? " " : "");
		return FC_USAGE;
	}
	return c->run(c, argc, argv);
}

int fc_run_object(const struct fc_cmd *cmd, int argc, char **argv)
{
	if (argc < 2) {
		fc_err("%s: missing verb", cmd->path);
		fprintf(stderr, "Usage:\n");
		fc_usage_table(stderr, cmd->sub);
		return FC_USAGE;
	}
	if (fc_is_help(argv[1])) {
		printf("Usage:\n");
		fc_usage_table(stdout, cmd->sub);
		printf("\n'fpgactl %s VERB --help' tells more.\n", cmd->path);
		return FC_OK;
	}
	return fc_dispatch(cmd->path, cmd->sub, argc - 1, argv + 1);
}

static const struct fc_opt *fc_opt_find(const struct fc_opt *opts,
					const char *arg, size_t len,
					bool is_long)
{
	for (const struct fc_opt *o = opts; o && o->name; o++) {
		if (is_long ? strlen(o->name) == len &&
			      !strncmp(o->name, arg, len)
			    : o->short_name == arg[0])
			return o;
	}
	return NULL;
}

/*
 * Option or keyword @o was given (as @how NAME), with @val or the next
 * argument as its value if it takes one
 */
static int fc_opt_take(const struct fc_cmd *cmd, const struct fc_opt *o,
		       const char *how, const char *val, int argc, char **argv,
		       int *i)
{
	if (*o->set)
		return fc_usage_err(cmd, "%s%s given twice", how, o->name);
	if (!o->value && val)
		return fc_usage_err(cmd, "%s%s takes no value", how, o->name);
	if (o->value && !val) {
		if (*i + 1 == argc)
			return fc_usage_err(cmd, "%s%s needs a value", how,
					    o->name);
		val = argv[++*i];
	}
	if (o->value)
		*o->value = val;
	*o->set = true;
	return FC_OK;
}

/* "-x" or "--name[=value]": its option in @opts, and *@val; NULL if none */
static const struct fc_opt *fc_opt_parse(const struct fc_opt *opts,
					 const char *arg, const char **val)
{
	const char *eq;
	size_t len;

	if (arg[1] != '-')	/* no bundling, no "-w64" */
		return arg[2] ? NULL : fc_opt_find(opts, arg + 1, 1, false);
	eq = strchr(arg + 2, '=');
	len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
	if (eq)
		*val = eq + 1;
	return fc_opt_find(opts, arg + 2, len, true);
}

/* Options (@opts) or keywords (@kws) among @min..@max positionals */
static int fc_parse(const struct fc_cmd *cmd, int argc, char **argv,
		    const struct fc_opt *opts, const struct fc_opt *kws,
		    int min, int max, struct fc_args *a)
{
	bool only_pos = false;
	int ret;

	a->n = 0;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL;
		const struct fc_opt *o = NULL;

		if (!only_pos && !strcmp(arg, "--")) {
			only_pos = true;
			continue;
		}
		if (!only_pos && (!strcmp(arg, "--help") || !strcmp(arg, "-h"))) {
			fc_cmd_help(cmd);
			return FC_HELP;
		}
		if (!only_pos && arg[0] == '-' && arg[1]) {
			o = fc_opt_parse(opts, arg, &val);
			if (!o)
				return fc_usage_err(cmd, "unknown option '%s'",
						    arg);
			ret = fc_opt_take(cmd, o, "option --", val, argc, argv,
					  &i);
		} else if (!only_pos &&
			   (o = fc_opt_find(kws, arg, strlen(arg), true))) {
			ret = fc_opt_take(cmd, o, "", NULL, argc, argv, &i);
		} else {
			if (a->n == FC_MAX_POS || a->n == max)
				return fc_usage_err(cmd, "unexpected argument '%s'",
						    arg);
			a->pos[a->n++] = argv[i];
			ret = FC_OK;
		}
		if (ret)
			return ret;
	}
	if (a->n < min)
		return fc_usage_err(cmd, "missing argument (usage: fpgactl %s %s)",
				    cmd->path, cmd->args ? cmd->args : "");
	return FC_OK;
}

int fc_parse_args(const struct fc_cmd *cmd, int argc, char **argv,
		  const struct fc_opt *opts, int min, int max,
		  struct fc_args *a)
{
	return fc_parse(cmd, argc, argv, opts, NULL, min, max, a);
}

int fc_parse_keywords(const struct fc_cmd *cmd, int argc, char **argv,
		      const struct fc_opt *kws, int min, int max,
		      struct fc_args *a)
{
	return fc_parse(cmd, argc, argv, NULL, kws, min, max, a);
}

int fc_parse_timed_args(const struct fc_cmd *cmd, int argc, char **argv,
			int min, int max, struct fc_args *a, uint64_t *ms,
			char ***command)
{
	const char *time_s = NULL;
	bool time_set = false;
	const struct fc_opt opts[] = {
		{ "time", 't', &time_s, &time_set },
		{ 0 }
	};
	int ret, nargs = argc;

	*command = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			if (i + 1 == argc)
				return fc_usage_err(cmd, "no command after '--'");
			*command = argv + i + 1;
			nargs = i;
			break;
		}
	}
	ret = fc_parse_args(cmd, nargs, argv, opts, min, max, a);
	if (ret)
		return ret;
	if (time_set && *command)
		return fc_usage_err(cmd, "--time and a command exclude each other");
	if (time_set)
		return fc_parse_u64(cmd, "--time", time_s, 24ULL * 3600 * 1000, ms);
	return FC_OK;
}

int fc_parse_u64(const struct fc_cmd *cmd, const char *what, const char *s,
		 uint64_t max, uint64_t *v)
{
	if (fpga_parse_u64_max(s, max, v))
		return fc_usage_err(cmd, "%s: %s", what, fpga_errmsg());
	return FC_OK;
}

int fc_parse_size(const struct fc_cmd *cmd, const char *what, const char *s,
		  uint64_t *v)
{
	if (fpga_parse_size(s, v))
		return fc_usage_err(cmd, "%s: %s", what, fpga_errmsg());
	return FC_OK;
}

int fc_port_lookup(const struct fc_cmd *cmd, const char *spec,
		   struct fpga_port_ref *ref)
{
	int ret = fpga_port_lookup(spec, ref);

	if (ret == -EINVAL)
		return fc_usage_err(cmd, "%s", fpga_errmsg());
	if (ret)
		return fc_lib_err();
	return FC_OK;
}

int fc_port_open(const struct fc_cmd *cmd, const char *spec,
		 unsigned int flags, struct fpga_port **port)
{
	struct fpga_port_ref ref;
	int ret;

	ret = fc_port_lookup(cmd, spec, &ref);
	if (ret)
		return ret;
	if (fpga_port_open(spec, flags, port))
		return fc_lib_err();
	return FC_OK;
}
