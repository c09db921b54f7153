// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga error reporting: the last failure's errno and message, per thread.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include <string.h>

#include "fpga.h"
#include "fpga-int.h"

static __thread char fpga_err_msg[512];
static __thread int fpga_err_num;

const char *fpga_errmsg(void)
{
	return fpga_err_num ? fpga_err_msg : "no error";
}

int fpga_errno(void)
{
	return fpga_err_num;
}

int fpga_set_error(int err, const char *fmt, ...)
{
	va_list ap;

	if (err <= 0)
		err = EIO;
	va_start(ap, fmt);
	vsnprintf(fpga_err_msg, sizeof(fpga_err_msg), fmt, ap);
	va_end(ap);
	fpga_err_num = err;
	return -err;
}

int fpga_pathf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

void fpga_strcpy(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src);

	if (!size)
		return;
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}
