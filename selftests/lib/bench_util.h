/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every benchmark of selftests/bench shares: measurements taken in
 * turns with their baseline, and one way to report them, as a table and
 * as JSON between BENCH-JSON-BEGIN and BENCH-JSON-END lines (the host
 * collects those into build/bench.json).
 */
#ifndef _FPGA_SELFTEST_BENCH_UTIL_H
#define _FPGA_SELFTEST_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

static inline double bench_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/*
 * Best times, in ns, of two measurements taken in turns: the emulator
 * under the test VM has slow spells, and taking turns makes them hit both
 * sides.
 */
#define BEST_PAIR(reps, a_ns, a_body, b_ns, b_body) do {	\
	a_ns = b_ns = 1e300;					\
	for (int __r = 0; __r < (reps); __r++) {		\
		double __t0 = bench_now_ms(), __t;		\
		a_body;						\
		__t = (bench_now_ms() - __t0) * 1e6;		\
		a_ns = __t < a_ns ? __t : a_ns;			\
		__t0 = bench_now_ms();				\
		b_body;						\
		__t = (bench_now_ms() - __t0) * 1e6;		\
		b_ns = __t < b_ns ? __t : b_ns;			\
	}							\
} while (0)

/* Best of @reps timings of @body, in ns */
#define BEST_NS(reps, body) ({					\
	double __best = 1e300;					\
	for (int __r = 0; __r < (reps); __r++) {		\
		double __t0 = bench_now_ms(), __t;		\
		body;						\
		__t = (bench_now_ms() - __t0) * 1e6;		\
		__best = __t < __best ? __t : __best;		\
	}							\
	__best; })

/* 64-bit loads and stores over one page of registers (or memory) */
#define BENCH_MMIO_WORDS	512

static uint64_t bench_sink;

static inline void bench_read_loop(volatile uint64_t *p, long iters)
{
	uint64_t acc = 0;

	for (long i = 0; i < iters; i++)
		acc += p[i & (BENCH_MMIO_WORDS - 1)];
	bench_sink += acc;
}

static inline void bench_write_loop(volatile uint64_t *p, long iters)
{
	for (long i = 0; i < iters; i++)
		p[i & (BENCH_MMIO_WORDS - 1)] = i;
}

/**
 * struct bench_result - one line of a benchmark's report
 * @name:	what was measured
 * @value:	the figure
 * @unit:	its unit
 * @baseline:	the same figure for the baseline, or 0 if there is none
 * @baseline_name: what the baseline is
 * @ratio:	speed relative to the baseline (> 1: faster)
 * @target:	the ratio an issue asks for, or 0
 */
struct bench_result {
	char name[48];
	double value;
	const char *unit;
	double baseline;
	const char *baseline_name;
	double ratio;
	double target;
};

#define BENCH_MAX_RESULTS	64

static struct bench_result bench_results[BENCH_MAX_RESULTS];
static int bench_nresults;

static inline void bench_add(const char *name, double value, const char *unit,
			     double baseline, const char *baseline_name,
			     double ratio, double target)
{
	struct bench_result *r;

	if (bench_nresults == BENCH_MAX_RESULTS)
		return;
	r = &bench_results[bench_nresults++];
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->value = value;
	r->unit = unit;
	r->baseline = baseline;
	r->baseline_name = baseline_name;
	r->ratio = ratio;
	r->target = target;
}

/* The table, then the same figures as JSON for @benchmark */
static inline void bench_print(const char *benchmark)
{
	printf("%-26s %12s %-10s %12s %-20s %7s %7s\n", "benchmark", "value",
	       "unit", "baseline", "baseline is", "ratio", "target");
	for (int i = 0; i < bench_nresults; i++) {
		struct bench_result *r = &bench_results[i];

		printf("%-26s %12.3f %-10s ", r->name, r->value, r->unit);
		if (r->baseline)
			printf("%12.3f %-20s %7.2f ", r->baseline,
			       r->baseline_name, r->ratio);
		else
			printf("%12s %-20s %7s ", "-", "-", "-");
		if (r->target)
			printf("%6.2fx%s\n", r->target,
			       r->ratio >= r->target ? "" : "  (below target)");
		else
			printf("%7s\n", "-");
	}

	printf("BENCH-JSON-BEGIN\n{\"benchmark\": \"%s\", \"results\": [\n",
	       benchmark);
	for (int i = 0; i < bench_nresults; i++) {
		struct bench_result *r = &bench_results[i];

		printf("  {\"name\": \"%s\", \"value\": %.6g, \"unit\": \"%s\", "
		       "\"baseline\": %.6g, \"baseline_is\": \"%s\", "
		       "\"ratio\": %.6g, \"target\": %.6g}%s\n",
		       r->name, r->value, r->unit, r->baseline,
		       r->baseline ? r->baseline_name : "", r->ratio,
		       r->target, i + 1 < bench_nresults ? "," : "");
	}
	printf("]}\nBENCH-JSON-END\n");
}

#endif /* _FPGA_SELFTEST_BENCH_UTIL_H */
