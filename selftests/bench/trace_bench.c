// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_bench: what observability costs.  The same libfpga work (MMIO
 * writes, MMIO reads, DMA map + unmap of a page, NLB0 loopbacks of
 * 256 KiB) is timed, in turns (the median of BENCH_ROUNDS each), by:
 *
 *   base      trace_bench_base: libfpga without its USDT probes
 *   usdt      trace_bench_usdt: with them, untraced (a nop each), and the
 *             kernel's fpga tracepoints disabled (static keys)
 *   tp_on     trace_bench_usdt with every fpga:* tracepoint enabled, in a
 *             private tracefs instance
 *
 * "usdt" is reported against "base" (ratio 1.0 = no cost), "tp_on"
 * against "usdt".  The instance records no command names: record-cmd
 * would hook the scheduler's own tracepoints, and every enable and
 * disable would then live-patch the scheduler on both CPUs, which under
 * QEMU's TCG, repeated each round, stalled RCU.  With it off, only our
 * modules' tracepoint sites are patched.
 *
 * The kernel tracepoints are not compiled out for "base":
 * Documentation/benchmarks.md has that comparison, made with the modules
 * built with FPGA_NO_TRACE=1.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfs_util.h"
#include "sim_util.h"
#include "bench_util.h"

#define TRACEFS		"/sys/kernel/tracing"
#define INSTANCE	TRACEFS "/instances/trace_bench"

static int port;

/* Run a helper; ns per operation, or < 0 */
static double run_helper(const char *helper, const char *work, long n)
{
	char cmd[256], out[64] = "";
	FILE *p;

	snprintf(cmd, sizeof(cmd), "./%s %d %s %ld", helper, port, work, n);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(out, sizeof(out), p))
		out[0] = '\0';
	if (pclose(p) || !out[0]) {
		fprintf(stderr, "trace_bench: '%s' failed\n", cmd);
		exit(1);
	}
	return atof(out);
}

static void tracepoints(bool on)
{
	if (sysfs_write(INSTANCE "/events/fpga/enable", on ? "1" : "0")) {
		fprintf(stderr, "trace_bench: cannot %s the fpga tracepoints\n",
			on ? "enable" : "disable");
		exit(1);
	}
}

static void bench_work(const char *work, long n, const char *unit)
{
	/* Modules built with FPGA_NO_TRACE=1: nothing to enable */
	bool tp = !access(INSTANCE "/events/fpga/enable", F_OK);
	struct bench_samples sb = { 0 }, su = { 0 }, st = { 0 };
	struct bench_stat base, usdt, tp_on;
	char name[48];

	/* The three in turns, after a warm-up; every other round reversed */
	for (int r = -1; r < bench_rounds(); r++)
		for (int i = 0; i < 3; i++) {
			int k = r % 2 ? 2 - i : i;
			double t;

			if (k == 2 && !tp)
				continue;
			if (k == 2)
				tracepoints(true);
			t = run_helper(k ? "trace_bench_usdt" : "trace_bench_base",
				       work, n);
			if (k == 2)
				tracepoints(false);
			if (r >= 0)
				bench_sample(k == 0 ? &sb : k == 1 ? &su : &st, t);
		}
	base = bench_stat_of(&sb);
	usdt = bench_stat_of(&su);
	tp_on = bench_stat_of(&st);
	snprintf(name, sizeof(name), "%s_usdt_off", work);
	bench_add(name, usdt, unit, base, "no USDT build",
		  base.med / usdt.med, 0);
	if (!tp)
		return;
	snprintf(name, sizeof(name), "%s_tp_on", work);
	bench_add(name, tp_on, unit, usdt, "tracepoints off",
		  usdt.med / tp_on.med, 0);
}

/* run_bench.sh runs us from our directory, next to the helpers */
int main(void)
{
	unsigned int card = sim_random_id();

	if (run_cmd("modprobe fpga_sim && modprobe fpga_port") ||
	    sim_add(card, 1)) {
		fprintf(stderr, "trace_bench: cannot create a simulated card\n");
		return 1;
	}
	port = sim_port_number(card);
	rmdir(INSTANCE);
	/* The instance inherits it: no scheduler hooks for command names */
	sysfs_write(TRACEFS "/options/record-cmd", "0");
	if (port < 0 || mkdir(INSTANCE, 0700)) {
		fprintf(stderr, "trace_bench: no port, or no tracefs instance\n");
		sim_del(card);
		return 1;
	}
	bench_work("mmio_write", 200000, "ns/write");
	bench_work("mmio_read", 200000, "ns/read");
	bench_work("dma_map", 2000, "ns/map+unmap");
	bench_work("loopback", 20, "ns/256KiB");
	rmdir(INSTANCE);
	sysfs_write(TRACEFS "/options/record-cmd", "1");
	sim_del(card);
	bench_print("trace_bench");
	return 0;
}
