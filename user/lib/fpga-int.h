/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libfpga internals shared by its files */
#ifndef _LIBFPGA_FPGA_INT_H
#define _LIBFPGA_FPGA_INT_H

#include <stddef.h>

/* snprintf that fails with -ENAMETOOLONG (no message) on truncation */
int fpga_pathf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Copy @src into @dst of @size, truncating */
void fpga_strcpy(char *dst, size_t size, const char *src);

#endif /* _LIBFPGA_FPGA_INT_H */
