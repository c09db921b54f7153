/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals a module of the suite exports to its KUnit suite, as 6.2's
 * EXPORT_SYMBOL_IF_KUNIT() does: in the FPGA_SUITE_KUNIT namespace, and
 * only on a kernel with KUnit (never for Debian's kernel).  The test
 * modules say MODULE_IMPORT_NS("FPGA_SUITE_KUNIT").
 */
#ifndef _FPGA_KUNIT_H
#define _FPGA_KUNIT_H

#include <linux/export.h>
#include <linux/kconfig.h>

#include "fpga-compat.h"

#if IS_ENABLED(CONFIG_KUNIT)
#define EXPORT_SYMBOL_FOR_FPGA_KUNIT(sym) \
	EXPORT_SYMBOL_NS_GPL(sym, FPGA_COMPAT_NS(FPGA_SUITE_KUNIT))
#else
/* Not exported: the stub takes its argument as variadic and drops it */
#define EXPORT_SYMBOL_FOR_FPGA_KUNIT(...)
#endif

#endif /* _FPGA_KUNIT_H */
