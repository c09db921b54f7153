// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga parsing helpers: numbers, sizes, ranges and device names, each
 * checked in full (no trailing junk, no sign, no overflow).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fpga.h"

int fpga_parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull accepts leading blanks and a sign: we do not */
	if (!s || !isdigit((unsigned char)s[0]))
		return fpga_set_error(EINVAL, "'%s' is not a number",
				      s ? s : "");
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return fpga_set_error(ERANGE, "'%s' is too large", s);
	if (*end)
		return fpga_set_error(EINVAL, "'%s' is not a number", s);
	*out = v;
	return 0;
}

int fpga_parse_u64_max(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v;
	int ret;

	ret = fpga_parse_u64(s, &v);
	if (ret)
		return ret;
	if (v > max)
		return fpga_set_error(ERANGE, "'%s' is too large (at most %llu)",
				      s, (unsigned long long)max);
	*out = v;
	return 0;
}

int fpga_parse_size(const char *s, uint64_t *out)
{
	char num[32];
	unsigned int shift = 0;
	size_t len = s ? strlen(s) : 0;
	uint64_t v;
	int ret;

	if (len && len < sizeof(num)) {
		switch (s[len - 1]) {
		case 'k': case 'K':
			shift = 10;
			break;
		case 'm': case 'M':
			shift = 20;
			break;
		case 'g': case 'G':
			shift = 30;
			break;
		}
	}
	if (!shift)
		return fpga_parse_u64(s, out);
	memcpy(num, s, len - 1);
	num[len - 1] = '\0';
	/* "0x10K" would be odd but harmless; "K" alone is not a size */
	ret = fpga_parse_u64(num, &v);
	if (ret)
		return fpga_set_error(EINVAL, "'%s' is not a size", s);
	if (v > (UINT64_MAX >> shift))
		return fpga_set_error(ERANGE, "'%s' is too large", s);
	*out = v << shift;
	return 0;
}

int fpga_parse_range(const char *s, uint64_t *off, uint64_t *len,
		     bool *has_len)
{
	const char *plus = s ? strchr(s, '+') : NULL;
	char head[32];
	int ret;

	*has_len = false;
	if (!plus)
		return fpga_parse_u64(s, off);
	if ((size_t)(plus - s) >= sizeof(head))
		return fpga_set_error(EINVAL, "'%s' is not OFFSET+LEN", s);
	memcpy(head, s, plus - s);
	head[plus - s] = '\0';
	ret = fpga_parse_u64(head, off);
	if (ret)
		return ret;
	ret = fpga_parse_size(plus + 1, len);
	if (ret)
		return ret;
	*has_len = true;
	return 0;
}

int fpga_parse_dev_name(const char *name, const char *prefix, int *id)
{
	size_t n = strlen(prefix);
	uint64_t v = 0;

	if (strncmp(name, prefix, n) || !isdigit((unsigned char)name[n]))
		return -EINVAL;
	/* decimal only: "fpga-port.010" is not a kernel name */
	if (name[n] == '0' && name[n + 1])
		return -EINVAL;
	for (const char *p = name + n; *p; p++)
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
	if (fpga_parse_u64_max(name + n, INT_MAX, &v))
		return -ERANGE;
	*id = (int)v;
	return 0;
}

int fpga_parse_port_name(const char *name, int *id)
{
	if (!fpga_parse_dev_name(name, FPGA_PORT_PREFIX, id))
		return 0;
	return fpga_parse_dev_name(name, FPGA_PORT_DFL_PREFIX, id);
}
