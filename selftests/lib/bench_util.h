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
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>

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
 * How a figure is taken (Documentation/benchmarks.md): one warm-up round of
 * each side, discarded, then BENCH_ROUNDS rounds (default 9) whose samples
 * are all kept; a figure is their median, its spread the interquartile
 * range.  A pair, ours (A) against its baseline (B), runs in ABBA order
 * (A B, B A, A B, ...), so that neither side always runs first or always
 * after the other: a drift of the emulator, or a cache the first side
 * warms, then hits both alike.  The benchmarks pin themselves (bench_pin),
 * so both sides run on the same CPU.
 */
#define BENCH_DEFAULT_ROUNDS	9
#define BENCH_MAX_SAMPLES	99

/* Rounds per figure: $BENCH_ROUNDS (fewer for quick runs), else 9 */
static inline int bench_rounds(void)
{
	const char *env = getenv("BENCH_ROUNDS");
	int n = env ? atoi(env) : BENCH_DEFAULT_ROUNDS;

	return n < 1 ? 1 : n > BENCH_MAX_SAMPLES ? BENCH_MAX_SAMPLES : n;
}

struct bench_samples {
	int n;
	double v[BENCH_MAX_SAMPLES];
};

static inline void bench_sample(struct bench_samples *s, double v)
{
	if (s->n < BENCH_MAX_SAMPLES)
		s->v[s->n++] = v;
}

/**
 * struct bench_stat - a figure from its samples
 * @med:	the median
 * @q1, @q3:	the first and third quartiles (@q3 - @q1: the IQR)
 * @n:		how many samples (1: a figure counted once, not timed;
 *		0: none, as a missing baseline)
 */
struct bench_stat {
	double med, q1, q3;
	int n;
};

#define BENCH_NONE	((struct bench_stat){ 0, 0, 0, 0 })

/* A figure that is not sampled (a count, a share, an errno) */
static inline struct bench_stat bench_fixed(double v)
{
	return (struct bench_stat){ v, v, v, 1 };
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Quantile @p of the sorted @v[0 .. @n - 1], linear between samples */
static inline double bench_quantile(const double *v, int n, double p)
{
	double h = (n - 1) * p;
	int i = (int)h;

	return i + 1 < n ? v[i] + (h - i) * (v[i + 1] - v[i]) : v[i];
}

static inline struct bench_stat bench_stat_of(const struct bench_samples *s)
{
	double v[BENCH_MAX_SAMPLES];

	if (!s->n)
		return BENCH_NONE;
	memcpy(v, s->v, s->n * sizeof(v[0]));
	qsort(v, s->n, sizeof(v[0]), bench_cmp_double);
	return (struct bench_stat){ bench_quantile(v, s->n, 0.5),
				    bench_quantile(v, s->n, 0.25),
				    bench_quantile(v, s->n, 0.75), s->n };
}

/*
 * A figure from more samples than a struct bench_samples holds (a
 * distribution of single round trips): @v[0 .. @n - 1] is sorted in
 * place, so that bench_quantile() can then read other quantiles of it.
 */
static inline struct bench_stat bench_stat_of_array(double *v, int n)
{
	if (n <= 0)
		return BENCH_NONE;
	qsort(v, n, sizeof(v[0]), bench_cmp_double);
	return (struct bench_stat){ bench_quantile(v, n, 0.5),
				    bench_quantile(v, n, 0.25),
				    bench_quantile(v, n, 0.75), n };
}

/* @s times @k (k > 0): a time per round into a time per operation */
static inline struct bench_stat bench_scale(struct bench_stat s, double k)
{
	return (struct bench_stat){ s.med * k, s.q1 * k, s.q3 * k, s.n };
}

/* @k over @s: a time into a rate (the quartiles change places) */
static inline struct bench_stat bench_per(double k, struct bench_stat s)
{
	return (struct bench_stat){ k / s.med, k / s.q3, k / s.q1, s.n };
}

/* Relative spread of a figure: IQR over median */
static inline double bench_spread(struct bench_stat s)
{
	return s.med ? (s.q3 - s.q1) / fabs(s.med) : 0;
}

/*
 * BENCH_SLOW=<figure>:<percent>, a check of the verdicts and of STRICT=1,
 * never a figure to keep: each timed round of our side of every pair
 * named <figure> spins for <percent> of its time on top (bench only; no
 * shipped code knows it).  The share for @figure, or 0.
 */
static inline double bench_slow_share(const char *figure)
{
	const char *env = getenv("BENCH_SLOW"), *colon;

	if (!env || !figure || !(colon = strchr(env, ':')) ||
	    strlen(figure) != (size_t)(colon - env) ||
	    strncmp(env, figure, colon - env))
		return 0;
	return atof(colon + 1) / 100;
}

static inline void bench_slow_spin(double t0_ms, double share)
{
	double until = t0_ms + (bench_now_ms() - t0_ms) * (1 + share);

	while (share > 0 && bench_now_ms() < until)
		;
}

/* Whether turn @i (0, 1) of round @r (-1: the warm-up) is side A's: ABBA */
static inline bool bench_abba_a(int r, int i)
{
	return (i == 0) == (r < 0 || r % 2 == 0);
}

/*
 * Our @a_body against its baseline @b_body, in ABBA order after a warm-up
 * of each: @a and @b (struct bench_stat) get each side's ns per round, and
 * @ratio A over B of each round, paired: a drift of the host that slows
 * one round slows both its sides alike and cancels out of the ratio.
 * @figure: the name the pair is reported under (for BENCH_SLOW), or NULL.
 */
#define BENCH_PAIR_RATIO(figure, a, a_body, b, b_body, ratio) do {	\
	struct bench_samples __sa = { 0 }, __sb = { 0 }, __sr = { 0 };	\
	double __slow = bench_slow_share(figure), __ta = 0, __tb = 0;	\
	int __n = bench_rounds();					\
	for (int __r = -1; __r < __n; __r++) {				\
		for (int __i = 0; __i < 2; __i++) {			\
			bool __is_a = bench_abba_a(__r, __i);		\
			double __t0 = bench_now_ms();			\
			if (__is_a) {					\
				a_body;					\
				bench_slow_spin(__t0, __slow);		\
				__ta = (bench_now_ms() - __t0) * 1e6;	\
			} else {					\
				b_body;					\
				__tb = (bench_now_ms() - __t0) * 1e6;	\
			}						\
		}							\
		if (__r < 0)						\
			continue;					\
		bench_sample(&__sa, __ta);				\
		bench_sample(&__sb, __tb);				\
		/* A round B took no time in cannot be compared */	\
		if (__tb > 0)						\
			bench_sample(&__sr, __ta / __tb);		\
	}								\
	a = bench_stat_of(&__sa);					\
	b = bench_stat_of(&__sb);					\
	ratio = bench_stat_of(&__sr);					\
} while (0)

#define BENCH_PAIR(figure, a, a_body, b, b_body) do {			\
	struct bench_stat __unused_ratio;				\
	BENCH_PAIR_RATIO(figure, a, a_body, b, b_body, __unused_ratio);	\
	(void)__unused_ratio;						\
} while (0)

/* @body alone, after a warm-up: its ns per round (struct bench_stat) */
#define BENCH_ONE(body) ({						\
	struct bench_samples __s = { 0 };				\
	int __n = bench_rounds();					\
	for (int __r = -1; __r < __n; __r++) {				\
		double __t0 = bench_now_ms();				\
		body;							\
		if (__r >= 0)						\
			bench_sample(&__s, (bench_now_ms() - __t0) * 1e6); \
	}								\
	bench_stat_of(&__s); })

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
 * @value:	the figure (its median, quartiles and sample count)
 * @unit:	its unit
 * @baseline:	the same figure for the baseline, or BENCH_NONE
 * @baseline_name: what the baseline is
 * @ratio:	speed relative to the baseline (> 1: faster), from the medians
 * @target:	the ratio an issue asks for, or 0
 * @band:	the ratio's noise band, relative: the sum of both figures'
 *		IQR over median
 * @verdict:	"ok" (ratio >= target), "noise" (below the target, but
 *		ratio * (1 + band) reaches it), "MISS" (not even then: what
 *		STRICT=1 fails on), "-" (no target)
 */
struct bench_result {
	char name[48];
	struct bench_stat value;
	const char *unit;
	struct bench_stat baseline;
	const char *baseline_name;
	double ratio;
	double target;
	double band;
	const char *verdict;
};

#define BENCH_MAX_RESULTS	96
#define BENCH_MAX_SERIES	20
#define BENCH_MAX_POINTS	12

static struct bench_result bench_results[BENCH_MAX_RESULTS];
static int bench_nresults;

static inline const char *bench_verdict(double ratio, double band,
					double target)
{
	if (!target)
		return "-";
	if (ratio >= target)
		return "ok";
	return ratio * (1 + band) >= target ? "noise" : "MISS";
}

static inline void bench_add(const char *name, struct bench_stat value,
			     const char *unit, struct bench_stat baseline,
			     const char *baseline_name, double ratio,
			     double target)
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
	r->band = bench_spread(value) + bench_spread(baseline);
	r->verdict = bench_verdict(ratio, r->band, target);
}

/**
 * struct bench_series - how a cost grows with the size of the work
 * @name:	what was measured
 * @unit:	unit of each value (a cost per item: per port, per mapping)
 * @n_is:	what n counts
 * @n:		the sizes, ascending
 * @value:	the cost per item at each size: the median of its samples
 * @lo, @hi:	the first and third quartiles of each point's samples (both
 *		@value for a point taken once)
 * @samples:	how many samples each point is the median of
 * @npoints:	entries of @n, @value, @lo, @hi and @samples
 * @target:	largest allowed value at @target_n over value at @base_n, or 0
 * @target_n:	the size the target is judged at
 * @base_n:	the size the growth is measured from, or 0 for n[0]
 *		(bench_series_base())
 * @linear:	each point's total (value * n) also holds a fixed cost, such
 *		as a process start: fit it as a + b*n and judge the marginal
 *		cost b (bench_series_linear())
 * @marginal_target: largest allowed b of the larger half of the points
 *		over b of the smaller half, or 0
 */
struct bench_series {
	char name[48];
	const char *unit;
	const char *n_is;
	double n[BENCH_MAX_POINTS];
	double value[BENCH_MAX_POINTS];
	double lo[BENCH_MAX_POINTS];
	double hi[BENCH_MAX_POINTS];
	int samples[BENCH_MAX_POINTS];
	int npoints;
	double target;
	double target_n;
	double base_n;
	bool linear;
	double marginal_target;
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

/* A point of @s: the cost per item at size @n, with its spread */
static inline void bench_series_add_stat(struct bench_series *s, double n,
					 struct bench_stat v)
{
	int p = s->npoints;

	if (p == BENCH_MAX_POINTS)
		return;
	s->n[p] = n;
	s->value[p] = v.med;
	s->lo[p] = v.q1;
	s->hi[p] = v.q3;
	s->samples[p] = v.n;
	s->npoints++;
}

/* A point taken once */
static inline void bench_series_add(struct bench_series *s, double n,
				    double value)
{
	bench_series_add_stat(s, n, bench_fixed(value));
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

/*
 * Least squares of total = a + b*n over points [@from, @to) of @s;
 * false for fewer than two points.  The slope b is a sum of the totals
 * weighted by (n - the mean n): with each point's value anywhere between
 * its quartiles, b is least with the points below the mean n at their
 * third quartile and those above it at their first, and greatest the
 * other way round.  @bound: 0 fits the medians, -1 that least b, +1 that
 * greatest.
 */
static inline bool bench_series_fit_bound(const struct bench_series *s,
					  int from, int to, int bound,
					  double *a, double *b)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, m = to - from, mean = 0;

	for (int i = from; i < to; i++)
		mean += s->n[i] / m;
	for (int i = from; i < to; i++) {
		bool up = (s->n[i] > mean) == (bound > 0);
		double v = !bound ? s->value[i] : up ? s->hi[i] : s->lo[i];
		double y = v * s->n[i];

		sx += s->n[i];
		sy += y;
		sxx += s->n[i] * s->n[i];
		sxy += s->n[i] * y;
	}
	if (m < 2 || m * sxx - sx * sx == 0)
		return false;
	*b = (m * sxy - sx * sy) / (m * sxx - sx * sx);
	*a = (sy - *b * sx) / m;
	return true;
}

static inline bool bench_series_fit(const struct bench_series *s, int from,
				    int to, double *a, double *b)
{
	return bench_series_fit_bound(s, from, to, 0, a, b);
}

/*
 * Mark @s as a fixed cost plus a marginal one: where every point pays for
 * a process start (or perf's set-up), the cost per item falls with n
 * whatever the code does, and n^k says nothing; the marginal cost b must
 * not grow, within @marginal_target from the smaller to the larger sizes
 */
static inline void bench_series_linear(struct bench_series *s,
				       double marginal_target)
{
	s->linear = true;
	s->marginal_target = marginal_target;
}

/*
 * The marginal cost's growth: b fitted over the larger half of the
 * points (the middle one in both) over b fitted over the smaller half;
 * 0 for fewer than three points.  @bound -1: the least that ratio can be
 * with every point anywhere between its quartiles (the larger half's
 * least b over the smaller half's greatest); 0: from the medians.
 * NAN where the smaller half's b is not positive: the process starts'
 * spread hid what its ports cost, and there is nothing to grow from.
 */
static inline double bench_series_marginal_bound(const struct bench_series *s,
						 int bound)
{
	int mid = s->npoints / 2;
	double a, b_small, b_large;

	if (s->npoints < 3 ||
	    !bench_series_fit_bound(s, 0, mid + 1, -bound, &a, &b_small) ||
	    !bench_series_fit_bound(s, mid, s->npoints, bound, &a, &b_large))
		return 0;
	return b_small > 0 ? b_large / b_small : NAN;
}

static inline double bench_series_marginal_ratio(const struct bench_series *s)
{
	return bench_series_marginal_bound(s, 0);
}

/*
 * Measure the growth from size @n instead of the first point: where the
 * first points are bound by something else than the work (one process
 * on a machine of two CPUs leaves one idle), the growth that matters
 * starts from the size that fills the machine
 */
static inline void bench_series_base(struct bench_series *s, double n)
{
	s->base_n = n;
}

/* Index of the point at size @n, or @fallback */
static inline int bench_series_at(const struct bench_series *s, double n,
				  int fallback)
{
	for (int i = 0; i < s->npoints; i++)
		if (s->n[i] == n)
			return i;
	return fallback;
}

/*
 * Value at the target's size (or the last) over the base's: the growth.
 * @bound -1: the least it can be with both points anywhere between their
 * quartiles (the target's first quartile over the base's third); 0: from
 * the medians.
 */
static inline double bench_series_ratio_bound(const struct bench_series *s,
					      int bound)
{
	int at, base;
	double num, den;

	if (s->npoints < 2)
		return 0;
	at = bench_series_at(s, s->target_n, s->npoints - 1);
	base = bench_series_at(s, s->base_n, 0);
	num = bound < 0 ? s->lo[at] : s->value[at];
	den = bound < 0 ? s->hi[base] : s->value[base];
	return den > 0 ? num / den : 0;
}

static inline double bench_series_ratio(const struct bench_series *s)
{
	return bench_series_ratio_bound(s, 0);
}

/*
 * The verdict on a growth that must stay within @target: "ok", "noise"
 * (above it, but @least, what the growth can be at least given the
 * points' spread, is within it), "MISS" (not even then: what STRICT=1
 * fails on), "-" (no target)
 */
static inline const char *bench_verdict_at_most(double ratio, double least,
						double target)
{
	if (!target)
		return "-";
	if (ratio <= target)
		return "ok";
	return least <= target ? "noise" : "MISS";
}

static inline const char *bench_series_verdict(const struct bench_series *s)
{
	return bench_verdict_at_most(bench_series_ratio(s),
				     bench_series_ratio_bound(s, -1),
				     s->target);
}

/*
 * A marginal growth with no ratio of the medians (NAN) is never "ok": a
 * MISS if even the least it can be is above the target, else "noise"
 * (the run could not tell)
 */
static inline const char *
bench_series_marginal_verdict(const struct bench_series *s)
{
	double ratio = bench_series_marginal_ratio(s);
	double least = bench_series_marginal_bound(s, -1);

	if (s->marginal_target && isnan(ratio))
		return least > s->marginal_target ? "MISS" : "noise";
	return bench_verdict_at_most(ratio, isnan(least) ? 0 : least,
				     s->marginal_target);
}

static inline void bench_series_print_fit(const struct bench_series *s)
{
	double a = 0, b = 0, ratio = bench_series_marginal_ratio(s);

	bench_series_fit(s, 0, s->npoints, &a, &b);
	printf("%26s fit a + b*n: a %.4g, b %.4g (%s), marginal %.2fx (least %.2fx) from the smaller to the larger half",
	       "", a, b, s->unit, ratio, bench_series_marginal_bound(s, -1));
	if (isnan(ratio))
		printf(" (the smaller half's b is not above 0)");
	if (s->marginal_target)
		printf(", target <= %.2fx %s", s->marginal_target,
		       bench_series_marginal_verdict(s));
	printf("\n");
}

static inline void bench_series_print_table(void)
{
	for (int i = 0; i < bench_nseries; i++) {
		const struct bench_series *s = &bench_series[i];

		printf("%-26s %s by %s:", s->name, s->unit, s->n_is);
		for (int p = 0; p < s->npoints; p++) {
			printf(" %g:%.4g", s->n[p], s->value[p]);
			if (s->samples[p] > 1)
				printf("[%.4g-%.4g]", s->lo[p], s->hi[p]);
		}
		printf("\n%26s growth n^%.2f, %.2fx (least %.2fx) from %g to %g",
		       "", bench_series_exponent(s), bench_series_ratio(s),
		       bench_series_ratio_bound(s, -1),
		       s->base_n ? s->base_n : s->npoints ? s->n[0] : 0,
		       s->target_n ? s->target_n :
		       s->npoints ? s->n[s->npoints - 1] : 0);
		if (s->target)
			printf(", target <= %.2fx %s", s->target,
			       bench_series_verdict(s));
		printf("\n");
		if (s->linear)
			bench_series_print_fit(s);
	}
}

/* A number for JSON, which has no NaN: null */
static inline void bench_json_num(const char *name, double v)
{
	if (isnan(v))
		printf(", \"%s\": null", name);
	else
		printf(", \"%s\": %.4g", name, v);
}

/* "name": [v, ...] of @v[0 .. @n - 1] */
static inline void bench_json_array(const char *name, const double *v, int n)
{
	printf(", \"%s\": [", name);
	for (int p = 0; p < n; p++)
		printf("%s%.6g", p ? ", " : "", v[p]);
	printf("]");
}

static inline void bench_series_print_json(void)
{
	printf("], \"series\": [\n");
	for (int i = 0; i < bench_nseries; i++) {
		const struct bench_series *s = &bench_series[i];

		printf("  {\"name\": \"%s\", \"unit\": \"%s\", \"n_is\": \"%s\"",
		       s->name, s->unit, s->n_is);
		bench_json_array("n", s->n, s->npoints);
		bench_json_array("value", s->value, s->npoints);
		bench_json_array("q1", s->lo, s->npoints);
		bench_json_array("q3", s->hi, s->npoints);
		printf(", \"samples\": [");
		for (int p = 0; p < s->npoints; p++)
			printf("%s%d", p ? ", " : "", s->samples[p]);
		printf("], \"exponent\": %.4g, \"ratio\": %.4g, "
		       "\"ratio_least\": %.4g, \"target\": %.4g, "
		       "\"target_n\": %g, \"verdict\": \"%s\"",
		       bench_series_exponent(s), bench_series_ratio(s),
		       bench_series_ratio_bound(s, -1), s->target, s->target_n,
		       bench_series_verdict(s));
		if (s->base_n)
			printf(", \"base_n\": %g", s->base_n);
		if (s->linear) {
			double a = 0, b = 0;

			bench_series_fit(s, 0, s->npoints, &a, &b);
			printf(", \"fit_a\": %.6g, \"fit_b\": %.6g", a, b);
			bench_json_num("marginal_ratio",
				       bench_series_marginal_ratio(s));
			bench_json_num("marginal_least",
				       bench_series_marginal_bound(s, -1));
			printf(", \"marginal_target\": %.4g, "
			       "\"marginal_verdict\": \"%s\"",
			       s->marginal_target,
			       bench_series_marginal_verdict(s));
		}
		printf("}%s\n", i + 1 < bench_nseries ? "," : "");
	}
}

/* The table, then the same figures as JSON for @benchmark */
static inline void bench_print(const char *benchmark)
{
	struct utsname u;

	printf("%-33s %12s %5s %3s %-10s %12s %5s %-20s %6s %5s %6s %s\n",
	       "benchmark", "median", "IQR%", "n", "unit", "baseline", "IQR%",
	       "baseline is", "ratio", "band%", "target", "verdict");
	for (int i = 0; i < bench_nresults; i++) {
		struct bench_result *r = &bench_results[i];

		printf("%-33s %12.3f %5.1f %3d %-10s ", r->name, r->value.med,
		       100 * bench_spread(r->value), r->value.n, r->unit);
		if (r->baseline.n)
			printf("%12.3f %5.1f %-20s %6.2f %5.1f ",
			       r->baseline.med, 100 * bench_spread(r->baseline),
			       r->baseline_name, r->ratio, 100 * r->band);
		else
			printf("%12s %5s %-20s %6s %5s ", "-", "-", "-", "-",
			       "-");
		if (r->target)
			printf("%5.2fx %s\n", r->target, r->verdict);
		else
			printf("%6s -\n", "-");
	}

	bench_series_print_table();

	if (uname(&u))
		strcpy(u.release, "unknown");
	printf("BENCH-JSON-BEGIN\n{\"benchmark\": \"%s\", \"kernel\": \"%s\", "
	       "\"rounds\": %d, \"results\": [\n", benchmark, u.release,
	       bench_rounds());
	for (int i = 0; i < bench_nresults; i++) {
		struct bench_result *r = &bench_results[i];

		printf("  {\"name\": \"%s\", \"value\": %.6g, \"median\": %.6g, "
		       "\"q1\": %.6g, \"q3\": %.6g, \"n\": %d, \"unit\": \"%s\", "
		       "\"baseline\": %.6g, \"baseline_q1\": %.6g, "
		       "\"baseline_q3\": %.6g, \"baseline_n\": %d, "
		       "\"baseline_is\": \"%s\", \"ratio\": %.6g, "
		       "\"band\": %.6g, \"target\": %.6g, \"verdict\": \"%s\"}%s\n",
		       r->name, r->value.med, r->value.med, r->value.q1,
		       r->value.q3, r->value.n, r->unit, r->baseline.med,
		       r->baseline.q1, r->baseline.q3, r->baseline.n,
		       r->baseline.n ? r->baseline_name : "", r->ratio, r->band,
		       r->target, r->verdict,
		       i + 1 < bench_nresults ? "," : "");
	}
	if (bench_nseries)
		bench_series_print_json();
	printf("]}\nBENCH-JSON-END\n");
}

#endif /* _FPGA_SELFTEST_BENCH_UTIL_H */
