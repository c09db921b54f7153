// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_bench: the cost of reading a card counter through its perf PMU
 * (read() on the event's fd), against a software event
 * (PERF_COUNT_SW_CPU_CLOCK) read the same way, in the same guest, in
 * turns (BENCH_PAIR):
 *
 *   pmu_read_local     the reader runs on the PMU's CPU (cpumask)
 *   pmu_read_remote    the reader runs on another CPU: perf sends the
 *                      software event's read to its CPU (an IPI); the
 *                      card's is read where the reader runs
 *   pmu_read_remote_vs_local  the two card reads: target <= 2x
 *   pmu_read_group     one read of a group of the 9 card counters, per
 *                      counter, against 9 single reads
 *
 * Prints a table, and the same figures as JSON between BENCH-JSON-BEGIN
 * and BENCH-JSON-END lines (the host stores them in build/bench.json).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_util.h"
#include "nlb_util.h"
#include "bench_util.h"

#define READS	20000

static uint64_t sink;

static void read_loop(int fd, size_t size, long n)
{
	uint64_t buf[16];

	for (long i = 0; i < n; i++) {
		if (read(fd, buf, size) != (ssize_t)size) {
			perror("read");
			exit(1);
		}
		sink += buf[0];
	}
}

/* The card counter's read from @cpu; its ns per read */
static struct bench_stat bench_read(const char *name, int fpga, int sw,
				    int cpu)
{
	struct bench_stat t_fpga, t_sw;

	bench_pin(cpu);
	BENCH_PAIR(name, t_fpga, read_loop(fpga, 8, READS),
		   t_sw, read_loop(sw, 8, READS));
	t_fpga = bench_scale(t_fpga, 1.0 / READS);
	bench_add(name, t_fpga, "ns/read", bench_scale(t_sw, 1.0 / READS),
		  "sw cpu-clock read", t_sw.med * (1.0 / READS) / t_fpga.med,
		  0);
	return t_fpga;
}

int main(void)
{
	struct perf_event_attr sw_attr = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(sw_attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	unsigned int card = sim_random_id();
	int num, cpu, ncpu, fpga, sw, leader, fds[EV_NUM];
	struct bench_stat t_grp, t_single, t_local, t_remote;
	uint32_t type;

	if (run_cmd("modprobe fpga_sim && modprobe fpga_fme") ||
	    sim_add(card, 1)) {
		fprintf(stderr, "pmu_bench: cannot create a simulated card\n");
		return 1;
	}
	num = sim_card_number(card);
	type = pmu_read_num(num, "type");
	cpu = pmu_read_num(num, "cpumask");
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (num < 0 || (int)type <= 0 || cpu < 0) {
		fprintf(stderr, "pmu_bench: no fpga_pmu for card %d\n", num);
		return 1;
	}

	fpga = perf_open(type, PMU_BANK(EV_DMA_RD_BYTES, PMU_CARD), cpu, -1);
	sw = perf_open_attr(&sw_attr, -1, cpu, -1);
	if (fpga < 0 || sw < 0) {
		fprintf(stderr, "pmu_bench: perf_event_open: %s\n",
			strerror(-(fpga < 0 ? fpga : sw)));
		return 1;
	}
	t_local = bench_read("pmu_read_local", fpga, sw, cpu);
	if (ncpu > 1) {
		t_remote = bench_read("pmu_read_remote", fpga, sw,
				      (cpu + 1) % ncpu);
		/* One after the other, not in turns: the noise bands say so */
		bench_add("pmu_read_remote_vs_local", t_remote, "ns/read",
			  t_local, "pmu read on its CPU",
			  t_local.med / t_remote.med, 1 / 2.0);
	}

	/* A group of every card counter: one read for all of them */
	bench_pin(cpu);
	leader = -1;
	for (int e = 0; e < EV_NUM; e++) {
		struct perf_event_attr attr = {
			.type = type, .size = sizeof(attr),
			.config = PMU_BANK(e, PMU_CARD),
			.read_format = PERF_FORMAT_GROUP,
		};

		fds[e] = perf_open_attr(&attr, -1, cpu, leader);
		if (fds[e] < 0) {
			fprintf(stderr, "pmu_bench: group: %s\n",
				strerror(-fds[e]));
			return 1;
		}
		if (e == 0)
			leader = fds[0];
	}
	BENCH_PAIR("pmu_read_group", t_grp,
		   read_loop(leader, (EV_NUM + 1) * 8, READS / 4),
		   t_single, for (int e = 0; e < EV_NUM; e++)
				read_loop(sw, 8, READS / 4 / EV_NUM));
	/* Per counter: a group read against one single read each */
	t_grp = bench_scale(t_grp, 1.0 / ((READS / 4) * EV_NUM));
	t_single = bench_scale(t_single, 1.0 / (READS / 4 / EV_NUM * EV_NUM));
	bench_add("pmu_read_group", t_grp, "ns/counter", t_single,
		  "sw cpu-clock read", t_single.med / t_grp.med, 0);

	for (int e = EV_NUM - 1; e >= 0; e--)
		close(fds[e]);
	close(fpga);
	close(sw);
	sim_del(card);
	run_cmd("modprobe -r fpga_fme fpga_sim fpga_dfl");
	bench_print("pmu");
	return 0;
}
