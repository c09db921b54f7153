// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl output: every field goes through one call that prints it as
 * text (when it has a format) or adds it to the JSON document (json-c),
 * so that the two modes cannot drift apart.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include <json.h>

#include "fpgactl.h"

#define FC_OUT_DEPTH	8

static struct json_object *fc_root;
static struct json_object *fc_stack[FC_OUT_DEPTH];
static int fc_depth;

void fc_out_begin(void)
{
	fc_root = NULL;
	fc_depth = 0;
}

/* Add @val under @key to the innermost container (or make it the root) */
static void fc_json_add(const char *key, struct json_object *val)
{
	struct json_object *top;

	if (!fc_depth) {
		if (fc_root)	/* a second root: keep the first */
			json_object_put(val);
		else
			fc_root = val;
		return;
	}
	top = fc_stack[fc_depth - 1];
	if (json_object_is_type(top, json_type_array))
		json_object_array_add(top, val);
	else
		json_object_object_add(top, key ? key : "", val);
}

static void fc_json_push(const char *key, struct json_object *c)
{
	if (fc_depth == FC_OUT_DEPTH) {	/* a bug in a command */
		json_object_put(c);
		return;
	}
	fc_json_add(key, c);
	fc_stack[fc_depth++] = c;
}

void fc_obj_open(const char *key)
{
	if (fc_json)
		fc_json_push(key, json_object_new_object());
}

void fc_arr_open(const char *key)
{
	if (fc_json)
		fc_json_push(key, json_object_new_array());
}

void fc_obj_close(void)
{
	if (fc_json && fc_depth)
		fc_depth--;
}

void fc_arr_close(void)
{
	fc_obj_close();
}

int fc_out_end(void)
{
	int flags = fc_pretty ? JSON_C_TO_STRING_PRETTY |
				JSON_C_TO_STRING_SPACED :
				JSON_C_TO_STRING_PLAIN;
	int ret = 0;

	if (!fc_json)
		return fflush(stdout) ? FC_FAIL : FC_OK;
	if (fc_root) {
		json_c_set_serialization_double_format("%.6g",
						       JSON_C_OPTION_THREAD);
		if (printf("%s\n", json_object_to_json_string_ext(fc_root,
								   flags)) < 0)
			ret = FC_FAIL;
		json_object_put(fc_root);
	}
	fc_root = NULL;
	fc_depth = 0;
	if (fflush(stdout))
		ret = FC_FAIL;
	return ret;
}

void fc_str(const char *key, const char *fmt, const char *val)
{
	if (fc_json)
		fc_json_add(key, val ? json_object_new_string(val) : NULL);
	else if (fmt)
		printf(fmt, val ? val : "");
}

void fc_u64(const char *key, const char *fmt, uint64_t val)
{
	if (fc_json)
		fc_json_add(key, json_object_new_uint64(val));
	else if (fmt)
		printf(fmt, val);
}

void fc_int(const char *key, const char *fmt, int64_t val)
{
	if (fc_json)
		fc_json_add(key, json_object_new_int64(val));
	else if (fmt)
		printf(fmt, val);
}

void fc_hex(const char *key, const char *fmt, uint64_t val)
{
	char buf[24];

	if (fc_json) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, val);
		fc_json_add(key, json_object_new_string(buf));
	} else if (fmt) {
		printf(fmt, val);
	}
}

void fc_bool(const char *key, const char *fmt, bool val)
{
	if (fc_json)
		fc_json_add(key, json_object_new_boolean(val));
	else if (fmt)
		printf(fmt, val ? "yes" : "no");
}

void fc_double(const char *key, const char *fmt, double val)
{
	if (fc_json)
		fc_json_add(key, json_object_new_double(val));
	else if (fmt)
		printf(fmt, val);
}

void fc_text(const char *fmt, ...)
{
	va_list ap;

	if (fc_json)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}
