/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Allocation-failure injection for the fault selftests: failslab and
 * fail_page_alloc driven per task, and kmemleak checked after each
 * scenario.
 *
 * A sweep runs an operation with its 1st, 2nd, ... Nth fault-injection
 * point failing (/proc/thread-self/fail-nth, which counts slab and page
 * allocations alike) until the operation runs with no failure left to
 * inject.  After every step the caller's check must find the device
 * working (or cleanly absent); the last step, where nothing failed, must
 * succeed.  fail-nth only fails allocations of the calling task:
 * allocations of kernel threads and work items are reached by the
 * probability runs (make-it-fail with task-filter), again for our task
 * and its children only, so that nothing else in the VM fails.
 *
 * Without the debugfs knobs (Debian's kernel) the tests skip.
 */
#ifndef _FPGA_SELFTEST_FAULT_UTIL_H
#define _FPGA_SELFTEST_FAULT_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sysfs_util.h"

#define FAILSLAB	"/sys/kernel/debug/failslab"
#define FAIL_PAGE	"/sys/kernel/debug/fail_page_alloc"
#define KMEMLEAK	"/sys/kernel/debug/kmemleak"
#define FAIL_NTH	"/proc/thread-self/fail-nth"

/*
 * Bound on a sweep, in steps and in seconds (FAULT_SECONDS, default 45);
 * a test (a sweep, its checks and a kmemleak scan) within the harness
 * timeout.
 */
#define SWEEP_MAX_STEPS		4000
#define FAULT_TEST_TIMEOUT	300

static inline int fault_knobs_present(void)
{
	return path_exists(FAILSLAB "/probability") &&
	       path_exists(FAIL_PAGE "/probability") && path_exists(FAIL_NTH);
}

/*
 * FAULT_DRY=1: no knobs needed, each sweep runs its operation and check
 * once with nothing failing; for developing tests on Debian's kernel.
 */
static inline int fault_dry(void)
{
#ifdef FAULT_DRY_DEFAULT
	return 1;
#else
	return getenv("FAULT_DRY") != NULL;
#endif
}

static inline void fault_attr_set(const char *attr, const char *file,
				  const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", attr, file);
	sysfs_write(path, val);
}

/*
 * Both attributes quiet (probability 0, no log per failure) and able to
 * fail what a sweep must reach: sleeping allocations, order 0 pages.
 */
static inline void fault_configure(void)
{
	const char *attrs[] = { FAILSLAB, FAIL_PAGE };

	if (fault_dry())
		return;
	for (int i = 0; i < 2; i++) {
		fault_attr_set(attrs[i], "probability", "0");
		fault_attr_set(attrs[i], "interval", "1");
		fault_attr_set(attrs[i], "times", "-1");
		fault_attr_set(attrs[i], "space", "0");
		fault_attr_set(attrs[i], "verbose", "0");
		fault_attr_set(attrs[i], "task-filter", "Y");
		fault_attr_set(attrs[i], "ignore-gfp-wait", "N");
	}
	fault_attr_set(FAIL_PAGE, "ignore-gfp-highmem", "N");
	fault_attr_set(FAIL_PAGE, "min-order", "0");
}

/* Probability mode for tasks that set make-it-fail (and their children) */
static inline void fault_probability(int percent)
{
	char val[16];

	snprintf(val, sizeof(val), "%d", percent);
	fault_attr_set(FAILSLAB, "probability", val);
	fault_attr_set(FAIL_PAGE, "probability", val);
}

static inline int fault_make_it_fail(int on)
{
	if (fault_dry())
		return 0;
	return sysfs_write("/proc/self/make-it-fail", on ? "1" : "0");
}

/* --- kmemleak --------------------------------------------------------- */

static inline int kmemleak_present(void)
{
	return path_exists(KMEMLEAK);
}

/*
 * Forget what was reported before the scenario (the scenario before it
 * scanned at its end; a scan under KASAN is slow, one per scenario).
 */
static inline void kmemleak_clear(void)
{
	if (kmemleak_present())
		sysfs_write(KMEMLEAK, "clear");
}

/*
 * FAULT_LEAK_SCAN=end: no scan per scenario; the VM's closing scan (run
 * after every test, see scripts/vm/init) still fails the run on a leak,
 * without naming the scenario.  A scan under KASAN costs half a minute,
 * which CI's sample of the sweeps cannot afford nine times.
 */
static inline int kmemleak_per_scenario(void)
{
	const char *env = getenv("FAULT_LEAK_SCAN");

	return !env || strcmp(env, "end");
}

/*
 * Scan and count the unreferenced objects whose allocation backtrace
 * runs through one of the suite's modules; print them.  An object is
 * only reported once it is 5 s old, hence the wait.
 */
static inline int kmemleak_ours(void)
{
	static const char *const mods[] = {
		"[fpga_dfl]", "[fpga_sim]", "[fpga_port]", "[fpga_fme]",
		"[uio_fpga]", "[vgem_ext]",
	};
	char line[512], object[8192];
	size_t used = 0;
	int ours = 0, hit = 0;
	FILE *f;

	if (!kmemleak_present())
		return 0;
	if (!kmemleak_per_scenario()) {
		printf("# leaks: left to the closing scan (FAULT_LEAK_SCAN=end)\n");
		return 0;
	}
	sleep(6);
	sysfs_write(KMEMLEAK, "scan");
	f = fopen(KMEMLEAK, "r");
	if (!f)
		return 0;
	object[0] = '\0';
	for (;;) {
		int eof = !fgets(line, sizeof(line), f);

		/* An object ends where the next starts, or at the end */
		if (eof || !strncmp(line, "unreferenced object", 19)) {
			if (hit) {
				printf("# leak:\n%s", object);
				ours++;
			}
			used = 0;
			object[0] = '\0';
			hit = 0;
			if (eof)
				break;
		}
		for (size_t m = 0; m < sizeof(mods) / sizeof(mods[0]); m++)
			if (strstr(line, mods[m]))
				hit = 1;
		if (used + strlen(line) + 3 < sizeof(object)) {
			object[used++] = '#';
			object[used++] = ' ';
			strcpy(object + used, line);
			used += strlen(line);
		}
	}
	fclose(f);
	fflush(stdout);
	return ours;
}

/* --- sweeps ------------------------------------------------------------ */

struct sweep_result {
	int steps;		/* operations run */
	int injected;		/* steps in which a failure was injected */
	int failed;		/* ... and the operation reported an error */
	int last_ret;		/* result of the step with nothing left to fail */
	int complete;		/* reached that step within the bounds */
};

/*
 * Run @op with its @nth injection point failing; the result of @op, and
 * in *@hit whether the failure was injected (the count reached 0).
 */
static inline int fault_nth(int nth, int (*op)(void *), void *ctx, int *hit)
{
	char val[16], left[16] = "";
	int fd, ret;
	ssize_t n;

	if (fault_dry()) {
		*hit = 0;
		return op(ctx);
	}
	fd = open(FAIL_NTH, O_RDWR);
	if (fd < 0)
		return -errno;
	snprintf(val, sizeof(val), "%d", nth);
	if (write(fd, val, strlen(val)) < 0) {
		close(fd);
		return -errno;
	}
	ret = op(ctx);
	n = pread(fd, left, sizeof(left) - 1, 0);
	if (write(fd, "0", 1) < 0)
		(void)0;	/* a closed fd resets it anyway */
	close(fd);
	left[n > 0 ? n : 0] = '\0';
	*hit = atoi(left) == 0;
	return ret;
}

/*
 * The sweep: step n fails the nth injection point of @op; after each step
 * @check (run with nothing failing) must return 0: it undoes what @op did
 * and proves the device works.  Stops at the first step where nothing was
 * left to fail, or at the bounds.  0 or -1 (@check failed; it said why).
 */
static inline int fault_sweep(const char *name, int (*op)(void *),
			      int (*check)(void *, int), void *ctx,
			      struct sweep_result *r)
{
	const char *env = getenv("FAULT_SECONDS");
	double limit = env ? atof(env) : 45;
	struct timespec t0, t;
	int hit;

	memset(r, 0, sizeof(*r));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int nth = 1; nth <= SWEEP_MAX_STEPS; nth++) {
		int ret = fault_nth(nth, op, ctx, &hit);

		r->steps++;
		if (hit) {
			r->injected++;
			r->failed += ret < 0;
		}
		if (check(ctx, ret)) {
			printf("# %s: broken after failing allocation %d (op returned %d)\n",
			       name, nth, ret);
			/* a failed assertion ends the test with _exit() */
			fflush(stdout);
			return -1;
		}
		if (!hit) {
			r->last_ret = ret;
			r->complete = 1;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > limit)
			break;
	}
	printf("# %s: %d steps, %d with a failure injected, %d reported an error%s\n",
	       name, r->steps, r->injected, r->failed,
	       r->complete ? "" : " (bounded: not all injection points reached)");
	fflush(stdout);
	return 0;
}

/*
 * The common assertions on a sweep: @check held every time, failures
 * were injected at all (else injection does not work and the test
 * proves nothing), and with nothing failing the operation succeeded.
 */
#define ASSERT_SWEEP(name, op, check, ctx) do {				\
	struct sweep_result _r;						\
	ASSERT_EQ(0, fault_sweep(name, op, check, ctx, &_r));		\
	if (!fault_dry())						\
		ASSERT_LT(0, _r.injected) TH_LOG("%s: no failure was injected", name); \
	if (_r.complete)						\
		ASSERT_EQ(0, _r.last_ret) TH_LOG("%s fails with nothing injected", name); \
} while (0)

/* Test prologue: skip without the knobs, quiet them, forget old leaks */
#define FAULT_PROLOGUE() do {						\
	if (!fault_knobs_present() && !fault_dry())			\
		SKIP(return, "no failslab/fail_page_alloc/fail-nth (not the debug kernel)"); \
	fault_configure();						\
	kmemleak_clear();						\
} while (0)

#define ASSERT_NO_LEAKS() ASSERT_EQ(0, kmemleak_ours())

#endif /* _FPGA_SELFTEST_FAULT_UTIL_H */
