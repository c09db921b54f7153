// SPDX-License-Identifier: GPL-2.0-only
/*
 * LD_PRELOAD shim for fpgactl_pr_test.sh: plays the FME's
 * DFL_FPGA_FME_PORT_PR on any node, so that "fpgactl pr" runs to its end
 * with no FPGA.  It writes what it was given to $FPGA_TEST_PR_DUMP
 * ("port P size N", then the bitstream to $FPGA_TEST_PR_DUMP.bin) and
 * fails with errno $FPGA_TEST_PR_ERRNO if that is set and not 0.  Every
 * other ioctl goes to the C library's.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include <linux/fpga-dfl.h>

static void pr_shim_dump(const struct dfl_fpga_fme_port_pr *pr)
{
	const char *dump = getenv("FPGA_TEST_PR_DUMP");
	char path[4096];
	FILE *f;

	if (!dump)
		return;
	f = fopen(dump, "w");
	if (f) {
		fprintf(f, "argsz %u flags %u port %u size %u aligned %d\n",
			pr->argsz, pr->flags, pr->port_id, pr->buffer_size,
			!(pr->buffer_address % 4));
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s.bin", dump);
	f = fopen(path, "w");
	if (f) {
		fwrite((const void *)(uintptr_t)pr->buffer_address, 1,
		       pr->buffer_size, f);
		fclose(f);
	}
}

int ioctl(int fd, unsigned long request, ...)
{
	int (*real)(int, unsigned long, ...);
	const char *err;
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (request == DFL_FPGA_FME_PORT_PR) {
		pr_shim_dump(arg);
		err = getenv("FPGA_TEST_PR_ERRNO");
		if (err && atoi(err)) {
			errno = atoi(err);
			return -1;
		}
		return 0;
	}
	real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real ? real(fd, request, arg) : (errno = ENOSYS, -1);
}
