/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * USDT probes of libfpga, provider "fpga" (perf lists them as
 * sdt_fpga:NAME once the binary is in its build-id cache).  Each one is a
 * single nop in the code plus a note in .note.stapsdt; the arguments are
 * only described there, so an untraced probe costs the nop.  The
 * semaphore-less form is used on purpose: nothing is computed just for a
 * probe.  Arguments that are constants (an MMIO width) come last: perf
 * cannot read them and skips them.  Documentation/tracing.md lists the
 * probes and their arguments.
 *
 * Built with NO_USDT=1 (make) the probes compile to nothing, for the
 * overhead benchmark's baseline.
 */
#ifndef _LIBFPGA_PROBES_H
#define _LIBFPGA_PROBES_H

#ifdef FPGA_NO_USDT
/* Never called: the arguments are type-checked, not evaluated */
static inline void fpga_probe_unused(int unused, ...)
{
	(void)unused;
}
#define FPGA_PROBE(name, ...)	\
	do { if (0) fpga_probe_unused(0, ##__VA_ARGS__); } while (0)
#else
/* STAP_PROBEV: one macro whatever the number of arguments */
#define SDT_USE_VARIADIC
#include <sys/sdt.h>
#define FPGA_PROBE(name, ...)	STAP_PROBEV(fpga, name, ##__VA_ARGS__)
#endif

#endif /* _LIBFPGA_PROBES_H */
