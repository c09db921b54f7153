// SPDX-License-Identifier: GPL-2.0-only
/* A test that fails: the host must report "not ok" as a failure. */
#include "kselftest_harness.h"

TEST(passes)
{
	ASSERT_EQ(1, 1);
}

TEST(deliberately_fails)
{
	ASSERT_EQ(1, 2) {
		TH_LOG("this failure is expected by the harness self-check");
	}
}

TEST_HARNESS_MAIN
