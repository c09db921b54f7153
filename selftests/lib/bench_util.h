/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every benchmark of selftests/bench shares: measurements taken in
 * turns with their baseline, and one way to report them, as a table and
 * as JSON between BENCH-JSON-BEGIN and BENCH-JSON-END lines (the host
 * collects those into build/bench.json).
 */
#ifndef _FPGA_SELFTEST_BENCH_UTIL_H
#define _FPGA_SELFTEST_BENCH_UTIL_H

#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double bench_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Run the calling thread on @cpu only (the benchmarks build with _GNU_SOURCE) */
static inline void bench_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
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
#define BENCH_MAX_SERIES	16
#define BENCH_MAX_POINTS	12

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

/**
 * struct bench_series - how a cost grows with the size of the work
 * @name:	what was measured
 * @unit:	unit of each value (a cost per item: per port, per mapping)
 * @n_is:	what n counts
 * @n:		the sizes, ascending
 * @value:	the cost per item at each size
 * @npoints:	entries of @n and @value
 * @target:	largest allowed value at @target_n over value at n[0], or 0
 * @target_n:	the size the target is judged at
 */
struct bench_series {
	char name[48];
	const char *unit;
	const char *n_is;
	double n[BENCH_MAX_POINTS];
	double value[BENCH_MAX_POINTS];
	int npoints;
	double target;
	double target_n;
};

static struct bench_series bench_series[BENCH_MAX_SERIES];
static int bench_nseries;

/* A new series (or a sink that is never printed, once all are taken) */
static inline struct bench_series *bench_series_new(const char *name,
						    const char *unit,
						    const char *n_is,
						    double target,
						    double target_n)
{
	static struct bench_series overflow;
	struct bench_series *s = bench_nseries < BENCH_MAX_SERIES ?
				 &bench_series[bench_nseries++] : &overflow;

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->unit = unit;
	s->n_is = n_is;
	s->target = target;
	s->target_n = target_n;
	return s;
}

static inline void bench_series_add(struct bench_series *s, double n,
				    double value)
{
	if (s->npoints < BENCH_MAX_POINTS) {
		s->n[s->npoints] = n;
		s->value[s->npoints++] = value;
	}
}

/*
 * The fitted growth: k of value ~ n^k, least squares on log-log.  k = 0:
 * the cost per item does not grow; k = 1: it grows with n (the total as
 * n^2).  0 for fewer than two usable points.
 */
static inline double bench_series_exponent(const struct bench_series *s)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;

	for (int i = 0; i < s->npoints; i++) {
		double x, y;

		if (s->n[i] <= 0 || s->value[i] <= 0)
			continue;
		x = log(s->n[i]);
		y = log(s->value[i]);
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		m++;
	}
	if (m < 2 || m * sxx - sx * sx == 0)
		return 0;
	return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

/* Value at the target's size (or the last) over the first: the growth */
static inline double bench_series_ratio(const struct bench_series *s)
{
	int at = s->npoints - 1;

	if (s->npoints < 2 || s->value[0] <= 0)
		return 0;
	for (int i = 0; i < s->npoints; i++)
		if (s->n[i] == s->target_n)
			at = i;
	return s->value[at] / s->value[0];
}

static inline void bench_series_print_table(void)
{
	for (int i = 0; i < bench_nseries; i++) {
		const struct bench_series *s = &bench_series[i];
		double ratio = bench_series_ratio(s);

		printf("%-26s %s by %s:", s->name, s->unit, s->n_is);
		for (int p = 0; p < s->npoints; p++)
			printf(" %g:%.4g", s->n[p], s->value[p]);
		printf("\n%26s growth n^%.2f, %.2fx from %g to %g", "",
		       bench_series_exponent(s), ratio, s->npoints ? s->n[0] : 0,
		       s->target_n ? s->target_n :
		       s->npoints ? s->n[s->npoints - 1] : 0);
		if (s->target)
			printf(", target <= %.2fx%s", s->target,
			       ratio <= s->target ? "" : "  (above target)");
		printf("\n");
	}
}

static inline void bench_series_print_json(void)
{
	printf("], \"series\": [\n");
	for (int i = 0; i < bench_nseries; i++) {
		const struct bench_series *s = &bench_series[i];

		printf("  {\"name\": \"%s\", \"unit\": \"%s\", \"n_is\": \"%s\", "
		       "\"n\": [", s->name, s->unit, s->n_is);
		for (int p = 0; p < s->npoints; p++)
			printf("%s%g", p ? ", " : "", s->n[p]);
		printf("], \"value\": [");
		for (int p = 0; p < s->npoints; p++)
			printf("%s%.6g", p ? ", " : "", s->value[p]);
		printf("], \"exponent\": %.4g, \"ratio\": %.4g, "
		       "\"target\": %.4g, \"target_n\": %g}%s\n",
		       bench_series_exponent(s), bench_series_ratio(s),
		       s->target, s->target_n,
		       i + 1 < bench_nseries ? "," : "");
	}
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

	bench_series_print_table();

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
	if (bench_nseries)
		bench_series_print_json();
	printf("]}\nBENCH-JSON-END\n");
}

#endif /* _FPGA_SELFTEST_BENCH_UTIL_H */
