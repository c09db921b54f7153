/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The unit tests' KTAP output: a result line per check, with the
 * library's last message when it fails, and the plan and totals at the
 * end (the plan last, as KTAP allows).
 */
#ifndef _FPGA_TESTS_KTAP_H
#define _FPGA_TESTS_KTAP_H

#include <stdio.h>

#include "fpga.h"

static int test_num, test_fail;

static void check(int cond, const char *what, const char *input)
{
	test_num++;
	if (!cond)
		test_fail++;
	printf("%sok %d %s '%s'\n", cond ? "" : "not ", test_num, what, input);
	if (!cond)
		printf("# last library message: %s\n", fpga_errmsg());
}

/* The plan and the totals; the exit status */
static int ktap_done(void)
{
	printf("1..%d\n", test_num);
	printf("# %d passed, %d failed\n", test_num - test_fail, test_fail);
	return test_fail ? 1 : 0;
}

#endif /* _FPGA_TESTS_KTAP_H */
