// SPDX-License-Identifier: GPL-2.0-only
/*
 * scale_bench: how the cost of a piece of work grows with the number of
 * things it spans.  Each figure is a series (the cost per item at several
 * sizes) with its fitted growth, n^k, and the growth between the smallest
 * and the judged size:
 *
 *   cards_create, cards_remove	simulated cards of four ports, 1 to 256
 *				cards (the FME header has four port offsets:
 *				the most a DFL card has), per port
 *   list_netlink, list_sysfs	"fpgactl list" by netlink and by sysfs alone,
 *				4 to 1024 ports, per port, and fitted as a
 *				process start plus a cost per port; run on
 *				CPU 0 with the cards' model threads on the
 *				last CPU, as a card's logic is not the host's
 *   pmu_read			read() of every card-wide counter of every
 *				card's fpga_pmu_N, per counter, on the first
 *				card's PMU CPU
 *   pmu_read_swclock		the same number of the kernel's own cpu-clock
 *				counters on that CPU, read in the same rounds
 *   pmu_read_vs_swclock	the two, round by round: ours relative to
 *				what any PMU's reads cost at that number
 *				(every read is of another event, and that
 *				working set costs any PMU)
 *   dma_map, dma_find, dma_unmap 1 to 10,000 mappings of single pages on
 *				one file, per mapping (find: DMA_UNMAP of
 *				the page after a mapping, its guard page,
 *				which the file's lookup must refuse)
 *   dma_map_direct, dma_unmap_direct the same on a card without the
 *				simulated IOMMU: the growth of the driver's
 *				own work (the other two include the
 *				simulator's IOVA tree)
 *   port_open_close, port_reset with 1 to 256 processes holding the port
 *				open in shared mode
 *   idle_model_cpu		the share of the VM's CPUs the idle cards' model
 *				threads take, per card: where the time of
 *				cards_create goes as cards pile up
 *   port_procs_*		1 to 8 processes at once on one port, each in
 *				a loop of one operation (DMA map + unmap of a
 *				page, MMIO reads, an interrupt round trip):
 *				the aggregate's time per operation
 *
 * A point is the median of its samples, shown with its quartiles where
 * it has more than one.  The points a growth is judged between have
 * BENCH_ROUNDS samples each (the list and PMU points, and the processes',
 * all of theirs), and the verdict allows for their spread: "noise" where
 * the growth is above its target but, with each point anywhere between
 * its quartiles, could be within it (bench_util.h).
 *
 * And three figures: fpgactl list of 1024 ports by netlink against sysfs,
 * "perf stat -a" over all 64 cards' counters, per counter, against the
 * same over one card's, and an NLB0 loopback while "perf stat -a" counts
 * all 64 cards' events against the same loopback without perf.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include "sim_util.h"
#include "nlb_util.h"
#include "loopback.h"
#include "perf_util.h"
#include "bench_util.h"

#define SCALE_PORTS		4	/* per card: FME_MAX_PORTS */
#define SCALE_MAX_CARDS		256
#define SCALE_MAX_MAPS		10000
#define SCALE_MAX_HOLDERS	256
#define PMU_COUNTERS		(1 + EV_NUM)	/* clock + the card-wide bank */

static const int card_sizes[] = { 1, 8, 32, 64, 128, SCALE_MAX_CARDS };
/* The fewest cards made (and removed) behind each point of cards_create */
#define CARDS_PER_POINT	8
/* The size the growth of making, removing and reading cards is judged at */
#define CARDS_JUDGED	64
static const int map_sizes[] = { 1, 10, 100, 1000, SCALE_MAX_MAPS };
static const int holder_sizes[] = { 1, 16, 64, SCALE_MAX_HOLDERS };

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static unsigned int first_id;
/* This program's file, for the loopback worker perf stat runs */
static char self_exe[256];

static void __attribute__((noreturn)) die(const char *what, int err)
{
	fprintf(stderr, "scale_bench: %s: %s\n", what, strerror(err));
	exit(1);
}

/* The next card model thread ("fpga_simN") in /proc's listing @d; 0 at the end */
static pid_t model_thread_next(DIR *d)
{
	char path[300], comm[32];
	struct dirent *de;

	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.200s/comm", de->d_name);
		if (!sysfs_read(path, comm, sizeof(comm)) &&
		    !strncmp(comm, "fpga_sim", 8) && comm[8] >= '0' &&
		    comm[8] <= '9')
			return atoi(de->d_name);
	}
	return 0;
}

/* Every card model thread onto @cpus: 0 or -errno */
static int model_threads_try_move(const cpu_set_t *cpus)
{
	DIR *d = opendir("/proc");
	int ret = 0;
	pid_t pid;

	if (!d)
		return -errno;
	while ((pid = model_thread_next(d)))
		/* A thread whose card went meanwhile is gone: ESRCH */
		if (sched_setaffinity(pid, sizeof(*cpus), cpus) &&
		    errno != ESRCH && !ret)
			ret = -errno;
	closedir(d);
	return ret;
}

/* The model threads are on one CPU: any exit must put them back */
static bool models_pinned;

static void model_threads_unpin(void)
{
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), ret;
	cpu_set_t all;

	if (!models_pinned)
		return;
	models_pinned = false;
	CPU_ZERO(&all);
	for (int cpu = 0; cpu < ncpu; cpu++)
		CPU_SET(cpu, &all);
	ret = model_threads_try_move(&all);
	if (ret)
		fprintf(stderr, "scale_bench: the card model threads stay on one CPU: %s\n",
			strerror(-ret));
}

/* Every card model thread onto @cpu alone, until model_threads_unpin() */
static void model_threads_pin(int cpu)
{
	cpu_set_t one;
	int ret;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	models_pinned = true;
	ret = model_threads_try_move(&one);
	if (ret)
		die("sched_setaffinity of a model thread", -ret);
}

static int bus_ports(void)
{
	return count_entries(DFL_DEVICES, "fpga-port.");
}

/* Cards come and go from sysfs writes; wait for the bus to show @want */
static void wait_bus_ports(int want)
{
	for (int i = 0; i < 60000; i++) {
		if (bus_ports() == want)
			return;
		usleep(500);
	}
	fprintf(stderr, "scale_bench: %d ports on the bus, not %d\n",
		bus_ports(), want);
	exit(1);
}

/* Make (or remove) cards first_id .. first_id + n - 1; ns until all seen */
static double cards_change(int n, int ports_before, bool add)
{
	double t0 = bench_now_ms();
	int ret;

	for (int i = 0; i < n; i++) {
		ret = add ? sim_add(first_id + i, SCALE_PORTS) :
			    sim_del(first_id + i);
		if (ret)
			die(add ? "new_device" : "del_device", -ret);
	}
	wait_bus_ports(ports_before + (add ? n * SCALE_PORTS : 0));
	return (bench_now_ms() - t0) * 1e6;
}

/*
 * fork() with the child's stdout a pipe: 0 in the child; in the parent
 * the child's pid, and @out the pipe's end to read
 */
static pid_t fork_piped(int *out)
{
	int pfd[2];
	pid_t pid;

	if (pipe(pfd))
		die("pipe", errno);
	pid = fork();
	if (pid < 0)
		die("fork", errno);
	if (!pid) {
		dup2(pfd[1], STDOUT_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		return 0;
	}
	close(pfd[1]);
	*out = pfd[0];
	return pid;
}

/*
 * "fpgactl list", by netlink or (FPGA_NO_NETLINK) by sysfs alone; the
 * lines it printed.  Exits unless fpgactl succeeded.
 */
static int fpgactl_list(bool netlink)
{
	int fd, lines = 0, st;
	char buf[4096];
	ssize_t r;
	pid_t pid;

	pid = fork_piped(&fd);
	if (!pid) {
		if (!netlink)
			setenv("FPGA_NO_NETLINK", "1", 1);
		execlp("fpgactl", "fpgactl", "list", (char *)NULL);
		_exit(127);
	}
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < r; i++)
			lines += buf[i] == '\n';
	close(fd);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "scale_bench: fpgactl list failed\n");
		exit(1);
	}
	return lines;
}

static struct bench_series *list_nl, *list_sysfs;

/*
 * Both ways of listing, in turns; each must show every port.  On a host
 * the cards' logic runs on the cards: here their model threads, idle but
 * polling, would take turns on the CPU fpgactl runs on, and more of them
 * the more cards there are (benchmarks.md, "list_sysfs").  So fpgactl
 * runs on CPU 0 and the models on the last CPU meanwhile.
 */
static void bench_list(int ports)
{
	int by_nl = 0, by_sysfs = 0, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct bench_stat nl, sysfs;
	cpu_set_t self;

	if (ncpu < 2 || sched_getaffinity(0, sizeof(self), &self))
		die("two CPUs for the list series", ncpu < 2 ? ENODEV : errno);
	model_threads_pin(ncpu - 1);
	bench_pin(0);
	BENCH_PAIR("list_netlink", nl, by_nl = fpgactl_list(true),
		   sysfs, by_sysfs = fpgactl_list(false));
	if (sched_setaffinity(0, sizeof(self), &self))
		die("sched_setaffinity", errno);
	model_threads_unpin();
	/* A line per FME and per port */
	if (by_nl != by_sysfs || by_nl < ports + ports / SCALE_PORTS) {
		fprintf(stderr, "scale_bench: fpgactl list: %d lines by netlink, %d by sysfs, for %d ports\n",
			by_nl, by_sysfs, ports);
		exit(1);
	}
	bench_series_add_stat(list_nl, ports, bench_scale(nl, 1e-3 / ports));
	bench_series_add_stat(list_sysfs, ports,
			      bench_scale(sysfs, 1e-3 / ports));
	if (ports == SCALE_MAX_CARDS * SCALE_PORTS) {
		char name[48];

		snprintf(name, sizeof(name), "list_netlink_%dports", ports);
		bench_add(name, bench_scale(nl, 1e-6), "ms",
			  bench_scale(sysfs, 1e-6), "sysfs (fpgactl)",
			  sysfs.med / nl.med, 0);
	}
}

/* Open every card-wide counter of cards 0 .. n - 1 into @fds */
static int pmu_open_all(int n, int *fds)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		int card = sim_card_number(first_id + i);
		long long type = pmu_read_num(card, "type");
		long long cpu = pmu_read_num(card, "cpumask");

		if (card < 0 || type < 0 || cpu < 0)
			die("fpga_pmu_N of a card", ENOENT);
		for (int e = -1; e < EV_NUM; e++) {
			uint64_t config = e < 0 ? PMU_CLOCK : PMU_BANK(e, PMU_CARD);

			fds[k] = perf_open(type, config, cpu, -1);
			if (fds[k] < 0)
				die("perf_event_open", -fds[k]);
			k++;
		}
	}
	return k;
}

static struct bench_series *pmu_read, *pmu_read_sw, *pmu_read_vs_sw;

/* One read() of each of @fds[0 .. @n - 1] */
static void pmu_read_each(const int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if (perf_count(fds[i]) == (uint64_t)-1)
			die("read of a counter", errno);
}

/*
 * The cards' counters against as many of the kernel's cpu-clock counters,
 * in the same rounds.  Each read is of another event, so the reads touch
 * n events, files and contexts: a working set that costs any PMU more as
 * it grows (under TCG, in the emulator's software TLB).  The ratio of the
 * two is what the driver adds to that.
 */
static void bench_pmu(int cards)
{
	static int fds[CARDS_JUDGED * PMU_COUNTERS], sw[CARDS_JUDGED * PMU_COUNTERS];
	struct bench_stat t, t_sw, ratio;
	cpu_set_t cpus;
	int n, cpu;

	if (cards > CARDS_JUDGED)
		return;
	n = pmu_open_all(cards, fds);
	/*
	 * cpu-clock is read on its CPU (from another, through an IPI); ours
	 * on any CPU of the package (PERF_EV_CAP_READ_ACTIVE_PKG)
	 */
	cpu = pmu_read_num(sim_card_number(first_id), "cpumask");
	if (cpu < 0)
		die("the first card's PMU cpumask", ENOENT);
	if (sched_getaffinity(0, sizeof(cpus), &cpus))
		die("sched_getaffinity", errno);
	bench_pin(cpu);
	for (int i = 0; i < n; i++) {
		sw[i] = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
				  cpu, -1);
		if (sw[i] < 0)
			die("perf_event_open of cpu-clock", -sw[i]);
	}
	BENCH_PAIR_RATIO(NULL, t, pmu_read_each(fds, n),
			 t_sw, pmu_read_each(sw, n), ratio);
	bench_series_add_stat(pmu_read, n, bench_scale(t, 1.0 / n));
	bench_series_add_stat(pmu_read_sw, n, bench_scale(t_sw, 1.0 / n));
	bench_series_add_stat(pmu_read_vs_sw, n, ratio);
	for (int i = 0; i < n; i++) {
		close(fds[i]);
		close(sw[i]);
	}
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		die("sched_setaffinity", errno);
}

/* Every card-wide event of cards 0 .. @cards - 1, for perf's -e; malloc'd */
static char *pmu_event_list(int cards)
{
	size_t len = (size_t)cards * PMU_COUNTERS * 48, off = 0;
	char *events = malloc(len);

	if (!events)
		die("malloc", ENOMEM);
	for (int i = 0; i < cards; i++) {
		int card = sim_card_number(first_id + i);

		off += snprintf(events + off, len - off, "%sfpga_pmu_%d/clock/",
				off ? "," : "", card);
		for (int e = 0; e < EV_NUM; e++)
			off += snprintf(events + off, len - off,
					",fpga_pmu_%d/%s/", card,
					pmu_event_names[e]);
	}
	return events;
}

/* Did perf stat's output @file count @counters counters, none missing? */
static void perf_stat_check(const char *file, int counters)
{
	if (run_cmd("[ $(grep -c fpga_pmu_ %s) -eq %d ] && ! grep -q 'not ' %s",
		    file, counters, file)) {
		fprintf(stderr, "scale_bench: perf stat did not count every counter\n");
		exit(1);
	}
}

/* perf stat -a over the counters of @cards cards; ns */
static double perf_stat_cards(int cards)
{
	char *events = pmu_event_list(cards), *cmd;
	double t0;
	int ret;

	if (asprintf(&cmd, "perf stat -a -x';' -o /tmp/scale_stat -e '%s' -- true >/dev/null 2>&1",
		     events) < 0)
		die("asprintf", ENOMEM);
	t0 = bench_now_ms();
	ret = system(cmd);
	t0 = (bench_now_ms() - t0) * 1e6;
	free(cmd);
	free(events);
	if (ret) {
		fprintf(stderr, "scale_bench: perf stat over %d cards failed\n",
			cards);
		exit(1);
	}
	/* Every counter counted: one line each, none "<not counted>" */
	perf_stat_check("/tmp/scale_stat", cards * PMU_COUNTERS);
	return t0;
}

static void bench_perf_stat(void)
{
	struct bench_stat one, all;

	BENCH_PAIR("perf_stat_64cards", all, perf_stat_cards(64),
		   one, perf_stat_cards(1));
	/*
	 * Per counter, perf's own start and exit included: over 64 cards
	 * against over one (a difference of the two is lost in the noise of
	 * perf's start, tens of milliseconds here)
	 */
	all = bench_scale(all, 1 / 1e3 / (64 * PMU_COUNTERS));
	one = bench_scale(one, 1 / 1e3 / PMU_COUNTERS);
	bench_add("perf_stat_64cards", all, "us/counter", one,
		  "perf stat, 1 card", one.med / all.med, 0);
}

/*
 * ---- A loopback while perf stat -a counts every card ----
 *
 * The loopback runs in a worker process, this program run again as
 * "scale_bench --loopback DEV MEMFD", so that perf stat can count around
 * it as a user would run it ("perf stat -a -e ... -- app"); the worker
 * times its own copies, so neither perf's start (opening 576 events) nor
 * its report is in the figure.  Its buffers are one memfd the bench fills
 * once: every worker copies the same physical pages, whose layout decides
 * an emulated copy's speed (port_bench's dma_loopback_dst_shifted).
 */
#define LOOPBACK_LEN	(16ULL << 20)
#define LOOPBACK_COUNT	4
#define LOOPBACK_STAT	"/tmp/scale_dma_stat"

/* Map [@off, @off + @len) of @memfd for the port @fd into @b */
static void worker_buf(int fd, int memfd, uint64_t off, uint64_t len,
		       struct dma_buf *b)
{
	int ret;

	b->len = len;
	b->va = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, off);
	if (b->va == MAP_FAILED)
		die("mmap of the memfd", errno);
	ret = dma_map(fd, b->va, len, 0, &b->iova);
	if (ret)
		die("DMA_MAP of the memfd", -ret);
}

/*
 * Wait until the worker's parent sleeps.  perf stat starts its workload
 * first and enables its counters after, an ioctl each (576, each a call
 * on its PMU's CPU), then sleeps in wait4(): until then perf competes
 * with the copies for the two CPUs, and the figure would be perf's start,
 * not what counting costs.  Alone, the parent is the bench, asleep in
 * read() of the worker's pipe: the same wait, for both sides.
 */
static void wait_parent_asleep(void)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", getppid());
	for (int i = 0; i < 60000; i++) {
		/* "pid (comm) S ...": the state follows the last ')' */
		p = sysfs_read(path, buf, sizeof(buf)) ? NULL : strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			return;
		usleep(500);
	}
	die("the loopback worker's parent never slept", ETIMEDOUT);
}

/*
 * The worker: once its parent sleeps, one loopback to warm up, then
 * LOOPBACK_COUNT timed; prints their ns.  Its file, mappings and
 * interrupt go with it.
 */
static int loopback_worker(const char *dev, int memfd)
{
	struct dma_buf src, dst, dsm;
	volatile uint64_t *afu;
	int fd, efd;
	double t0;

	fd = open(dev, O_RDWR);
	if (fd < 0)
		die(dev, errno);
	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	efd = eventfd(0, 0);
	if (afu == MAP_FAILED || efd < 0 || loopback_bind_irq(fd, efd))
		die("the loopback worker's port", errno);
	worker_buf(fd, memfd, 0, LOOPBACK_LEN, &src);
	worker_buf(fd, memfd, LOOPBACK_LEN, LOOPBACK_LEN, &dst);
	worker_buf(fd, memfd, 2 * LOOPBACK_LEN, 4096, &dsm);
	wait_parent_asleep();
	loopback(afu, efd, &dsm, src.iova, dst.iova, LOOPBACK_LEN);
	t0 = bench_now_ms();
	for (int i = 0; i < LOOPBACK_COUNT; i++)
		loopback(afu, efd, &dsm, src.iova, dst.iova, LOOPBACK_LEN);
	printf("%.0f\n", (bench_now_ms() - t0) * 1e6);
	return 0;
}

/*
 * Run the worker on @dev, under "perf stat -a -e @events" or (@events
 * NULL) alone; the ns it timed
 */
static double loopback_run(const char *dev, int memfd, const char *events)
{
	char fdstr[16], out[64] = "";
	int fd, st;
	ssize_t n;
	pid_t pid;

	snprintf(fdstr, sizeof(fdstr), "%d", memfd);
	pid = fork_piped(&fd);
	if (!pid) {
		if (events)
			execlp("perf", "perf", "stat", "-a", "-x;", "-o",
			       LOOPBACK_STAT, "-e", events, "--", self_exe,
			       "--loopback", dev, fdstr, (char *)NULL);
		else
			execl(self_exe, self_exe, "--loopback", dev, fdstr,
			      (char *)NULL);
		_exit(127);
	}
	n = read(fd, out, sizeof(out) - 1);
	close(fd);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) || n <= 0) {
		fprintf(stderr, "scale_bench: the loopback worker%s failed\n",
			events ? " under perf stat" : "");
		exit(1);
	}
	return strtod(out, NULL);
}

/*
 * What perf counted of card @card's source reads in the last run: every
 * loopback (the warm-up too) must be in it, or perf did not count while
 * the DMA ran
 */
static void perf_dma_check(int card)
{
	unsigned long long want = (LOOPBACK_COUNT + 1) * LOOPBACK_LEN, got = 0;
	char line[512], name[64];
	FILE *f = fopen(LOOPBACK_STAT, "r");

	if (!f)
		die(LOOPBACK_STAT, errno);
	snprintf(name, sizeof(name), "fpga_pmu_%d/dma_rd_bytes/", card);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, name))
			got = strtoull(line, NULL, 10);
	fclose(f);
	if (got < want) {
		fprintf(stderr, "scale_bench: perf counted %llu bytes read by the loopback's card, not %llu\n",
			got, want);
		exit(1);
	}
}

/*
 * The loopback on port 0 of the first card with perf stat -a counting
 * every card-wide event of all 64 cards (576 counters), against the same
 * loopback without perf, in turns
 */
static void bench_perf_dma(void)
{
	char *events = pmu_event_list(64), dev[64];
	uint64_t bytes = LOOPBACK_COUNT * LOOPBACK_LEN;
	struct bench_samples sw = { 0 }, so = { 0 };
	struct bench_stat with, without;
	int memfd;
	void *p;

	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", sim_port_number(first_id));
	memfd = memfd_create("scale_loopback", 0);
	if (memfd < 0 || ftruncate(memfd, 2 * LOOPBACK_LEN + 4096))
		die("memfd", errno);
	p = mmap(NULL, LOOPBACK_LEN, PROT_WRITE, MAP_SHARED, memfd, 0);
	if (p == MAP_FAILED)
		die("mmap of the memfd", errno);
	memset(p, 0xa5, LOOPBACK_LEN);
	munmap(p, LOOPBACK_LEN);

	/* Timed by the worker, not here: ABBA after a warm-up, by hand */
	for (int r = -1; r < bench_rounds(); r++)
		for (int i = 0; i < 2; i++) {
			bool a = bench_abba_a(r, i);
			double t = loopback_run(dev, memfd, a ? events : NULL);

			if (a) {
				perf_stat_check(LOOPBACK_STAT, 64 * PMU_COUNTERS);
				perf_dma_check(sim_card_number(first_id));
			}
			if (r >= 0)
				bench_sample(a ? &sw : &so, t);
		}
	with = bench_stat_of(&sw);
	without = bench_stat_of(&so);
	bench_add("perf_stat_dma_64cards", bench_per(bytes, with), "GB/s",
		  bench_per(bytes, without), "loopback without perf",
		  without.med / with.med, 0.9);
	free(events);
	close(memfd);
}

/*
 * CPU time, in ns, of the cards' model threads ("fpga_simN", each polling
 * its card every 100-200 us while idle): schedstat's exact run time, not
 * the tick-sampled utime/stime a thread that runs for microseconds at a
 * time escapes.
 */
static double model_threads_ns(void)
{
	char path[64], buf[256];
	double ns = 0;
	DIR *d = opendir("/proc");
	pid_t pid;

	if (!d)
		die("/proc", errno);
	while ((pid = model_thread_next(d))) {
		snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
		if (!sysfs_read(path, buf, sizeof(buf)))
			ns += strtod(buf, NULL);
	}
	closedir(d);
	return ns;
}

/* The share of the VM's CPUs (%) the model threads took over @ms of sleep */
static double model_cpu_share(int ms)
{
	double t0 = bench_now_ms(), ns0 = model_threads_ns();

	usleep(ms * 1000);
	return (model_threads_ns() - ns0) / 1e6 / (bench_now_ms() - t0) /
	       sysconf(_SC_NPROCESSORS_ONLN) * 100;
}

/* What is measured while @n cards of @ports ports in all are there */
static void bench_with_cards(int n, int ports, struct bench_series *idle)
{
	double share = model_cpu_share(1000);

	bench_series_add(idle, n, share / n);
	if (n == CARDS_JUDGED)
		bench_add("idle_model_cpu_64cards", bench_fixed(share), "%CPU",
			  BENCH_NONE, "", 0, 0);
	bench_list(ports);
	bench_pmu(n);
	if (n == CARDS_JUDGED) {
		bench_perf_stat();
		bench_perf_dma();
	}
}

static void bench_cards(void)
{
	struct bench_series *create, *remove, *idle;
	int before = bus_ports();

	create = bench_series_new("cards_create", "ms/port", "cards", 1.5,
				  CARDS_JUDGED);
	remove = bench_series_new("cards_remove", "ms/port", "cards", 1.5,
				  CARDS_JUDGED);
	list_nl = bench_series_new("list_netlink", "us/port", "ports", 0, 0);
	list_sysfs = bench_series_new("list_sysfs", "us/port", "ports", 0, 0);
	/* Every point starts fpgactl: judge what each port adds */
	bench_series_linear(list_nl, 1.5);
	bench_series_linear(list_sysfs, 1.5);
	/* Issue 43: a read costs the same however many cards count */
	pmu_read = bench_series_new("pmu_read", "ns/counter", "counters", 1.5,
				    CARDS_JUDGED * PMU_COUNTERS);
	pmu_read_sw = bench_series_new("pmu_read_swclock", "ns/counter",
				       "counters", 0, 0);
	pmu_read_vs_sw = bench_series_new("pmu_read_vs_swclock", "x",
					  "counters", 1.5,
					  CARDS_JUDGED * PMU_COUNTERS);
	idle = bench_series_new("idle_model_cpu", "%CPU/card", "cards", 0, 0);

	/* Warm up: the first card pays for what is loaded and cached */
	cards_change(1, before, true);
	cards_change(1, before, false);
	for (size_t s = 0; s < ARRAY_SIZE(card_sizes); s++) {
		int n = card_sizes[s], ports = n * SCALE_PORTS, per, samples;
		struct bench_samples add = { 0 }, del = { 0 };

		/*
		 * A sample: below CARDS_PER_POINT cards, the cards are made and
		 * removed until that many were.  The two sizes the growth is
		 * judged between get BENCH_ROUNDS samples, the others one.
		 */
		per = n < CARDS_PER_POINT ? CARDS_PER_POINT / n : 1;
		samples = n == card_sizes[0] || n == CARDS_JUDGED ?
			  bench_rounds() : 1;
		for (int i = 0; i < samples; i++) {
			double t_add = 0, t_del = 0;

			for (int r = 0; r < per; r++) {
				t_add += cards_change(n, before, true);
				/* The last making stays while the rest is measured */
				if (i == samples - 1 && r == per - 1)
					bench_with_cards(n, ports, idle);
				t_del += cards_change(n, before, false);
			}
			bench_sample(&add, t_add / 1e6 / ports / per);
			bench_sample(&del, t_del / 1e6 / ports / per);
		}
		bench_series_add_stat(create, n, bench_stat_of(&add));
		bench_series_add_stat(remove, n, bench_stat_of(&del));
	}
}

/* A port of a new one-port card, opened; its card id into @id */
static int port_open_new(unsigned int id)
{
	char dev[64];
	int fd;

	if (sim_add(id, 1))
		die("new_device", EIO);
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", sim_port_number(id));
	fd = open(dev, O_RDWR);
	if (fd < 0)
		die(dev, errno);
	return fd;
}

/*
 * What reading the clock on both sides of a stretch of work adds to its
 * time, in ms: the median of 1,000 empty intervals (a mean would carry a
 * host's hiccup into every cycle it is taken off).  Under TCG a clock
 * read is microseconds (the emulated HPET), and at one mapping a cycle
 * each call has its own pair of reads.
 */
static double clock_pair_ms(void)
{
	static double t[1000];
	double t0;

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		t0 = bench_now_ms();
		t[i] = bench_now_ms() - t0;
	}
	return bench_stat_of_array(t, ARRAY_SIZE(t)).med;
}

/*
 * One round at @n mappings: SCALE_MAX_MAPS calls of map, of find (unless
 * @find is NULL) and of unmap, n at a time; the time of each in ms, less
 * what its clock reads took
 */
static void dma_round(int fd, char *va, int n, double *map, double *find,
		      double *unmap)
{
	static uint64_t iova[SCALE_MAX_MAPS];
	int ret, cycles = SCALE_MAX_MAPS / n;
	double t0, clock = clock_pair_ms() * cycles;

	*map = *unmap = -clock;
	if (find)
		*find = -clock;
	for (int c = 0; c < cycles; c++) {
		t0 = bench_now_ms();
		for (int i = 0; i < n; i++) {
			ret = dma_map(fd, va + (size_t)i * 4096, 4096, 0,
				      &iova[i]);
			if (ret)
				die("DMA_MAP", -ret);
		}
		*map += bench_now_ms() - t0;
		if (find) {
			t0 = bench_now_ms();
			for (int i = 0; i < n; i++)
				if (dma_unmap(fd, iova[i] + 4096) != -EINVAL)
					die("DMA_UNMAP of a guard page", EINVAL);
			*find += bench_now_ms() - t0;
		}
		t0 = bench_now_ms();
		for (int i = 0; i < n; i++) {
			ret = dma_unmap(fd, iova[i]);
			if (ret)
				die("DMA_UNMAP", -ret);
		}
		*unmap += bench_now_ms() - t0;
	}
	if (*map <= 0 || *unmap <= 0 || (find && *find <= 0))
		die("DMA series: the clock reads took longer than the work", ERANGE);
}

/*
 * The mapping series on @fd, their names ending in @suffix.  A card
 * without an IOMMU has no guard pages: the page after a mapping may be
 * the next one's (@guarded false: no find).  The smallest and the largest
 * size, which the growth is judged between, get BENCH_ROUNDS samples.
 */
static void bench_dma(int fd, const char *suffix, bool guarded, double target)
{
	struct bench_series *map, *find = NULL, *unmap;
	size_t len = (size_t)SCALE_MAX_MAPS * 4096;
	char name[48];
	char *va;

	snprintf(name, sizeof(name), "dma_map%s", suffix);
	map = bench_series_new(name, "us/mapping", "mappings", target, 0);
	if (guarded) {
		snprintf(name, sizeof(name), "dma_find%s", suffix);
		/* The lookup is the driver's alone, with or without an IOMMU */
		find = bench_series_new(name, "us/mapping", "mappings", 2, 0);
	}
	snprintf(name, sizeof(name), "dma_unmap%s", suffix);
	unmap = bench_series_new(name, "us/mapping", "mappings", target, 0);
	va = mmap(NULL, len, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (va == MAP_FAILED)
		die("mmap", errno);

	for (size_t s = 0; s < ARRAY_SIZE(map_sizes); s++) {
		int n = map_sizes[s], samples;
		struct bench_samples sm = { 0 }, sf = { 0 }, su = { 0 };
		double tm, tf, tu, us = 1e3 / SCALE_MAX_MAPS;

		samples = s == 0 || n == SCALE_MAX_MAPS ? bench_rounds() : 1;
		for (int i = 0; i < samples; i++) {
			dma_round(fd, va, n, &tm, guarded ? &tf : NULL, &tu);
			bench_sample(&sm, tm * us);
			if (guarded)
				bench_sample(&sf, tf * us);
			bench_sample(&su, tu * us);
		}
		bench_series_add_stat(map, n, bench_stat_of(&sm));
		if (find)
			bench_series_add_stat(find, n, bench_stat_of(&sf));
		bench_series_add_stat(unmap, n, bench_stat_of(&su));
	}
	munmap(va, len);
}


/*
 * The DMA series on a card without the simulated IOMMU, as on a host
 * without one: the driver lets only CAP_SYS_RAWIO drive such a card's
 * DMA, which the benchmark, root, has
 */
static void bench_dma_direct(unsigned int id)
{
	char dev[64], iommu[8];
	int fd, ret;

	if (sysfs_read(SIM_IOMMU_PARAM, iommu, sizeof(iommu)) ||
	    sysfs_write(SIM_IOMMU_PARAM, "0"))
		die(SIM_IOMMU_PARAM, EIO);
	ret = sim_add(id, 1);
	/* Only this card: the parameter goes back before anything else */
	if (sysfs_write(SIM_IOMMU_PARAM, iommu) || ret)
		die("a card without the IOMMU", EIO);
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", sim_port_number(id));
	fd = open(dev, O_RDWR);
	if (fd < 0)
		die(dev, errno);
	bench_dma(fd, "_direct", false, 2);
	close(fd);
	sim_del(id);
}

/* Processes holding @dev open until @quit_fd reads end of file */
static void hold_port(const char *dev, int ready_fd, int quit_fd)
{
	int fd = open(dev, O_RDWR);
	char c = fd < 0 ? 'e' : 'k';

	if (write(ready_fd, &c, 1) != 1 || fd < 0)
		_exit(1);
	while (read(quit_fd, &c, 1) > 0)
		;
	_exit(0);
}

static void bench_holders(unsigned int id)
{
	struct bench_series *oc, *reset;
	static pid_t pids[SCALE_MAX_HOLDERS];
	int ready[2], quit[2], held = 0, fd;
	char dev[64];

	oc = bench_series_new("port_open_close", "us", "holders", 0, 0);
	reset = bench_series_new("port_reset", "us", "holders", 0, 0);
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", sim_port_number(id));
	if (pipe(ready) || pipe(quit))
		die("pipe", errno);

	for (size_t s = 0; s < ARRAY_SIZE(holder_sizes); s++) {
		int want = holder_sizes[s];
		struct bench_stat t;

		for (; held < want; held++) {
			char c;

			pids[held] = fork();
			if (pids[held] < 0)
				die("fork", errno);
			if (!pids[held]) {
				close(ready[0]);
				close(quit[1]);
				hold_port(dev, ready[1], quit[0]);
			}
			if (read(ready[0], &c, 1) != 1 || c != 'k')
				die("a holder's open", EIO);
		}
		t = BENCH_ONE({
			for (int i = 0; i < 200; i++) {
				fd = open(dev, O_RDWR);
				if (fd < 0)
					die(dev, errno);
				close(fd);
			}
		});
		bench_series_add_stat(oc, want, bench_scale(t, 1.0 / 200 / 1e3));
		fd = open(dev, O_RDWR);
		if (fd < 0)
			die(dev, errno);
		t = BENCH_ONE({
			for (int i = 0; i < 20; i++)
				if (ioctl(fd, DFL_FPGA_PORT_RESET, 0))
					die("DFL_FPGA_PORT_RESET", errno);
		});
		close(fd);
		bench_series_add_stat(reset, want, bench_scale(t, 1.0 / 20 / 1e3));
	}
	close(quit[1]);
	for (int i = 0; i < held; i++)
		waitpid(pids[i], NULL, 0);
	close(quit[0]);
	close(ready[0]);
	close(ready[1]);
}

/*
 * ---- Several processes on one port ----
 *
 * 1 to 8 processes, each with its own file on the same port, run one
 * operation in a loop at the same time; the figure is the aggregate's
 * time per operation (the wall time from the first start to the last
 * finish, over all the operations).  The operations, one series each:
 *
 *   dma   DFL_FPGA_PORT_DMA_MAP + UNMAP of a page of the process's own
 *   mmio  64-bit reads through the process's own AFU mapping
 *   irq   a round trip: ring NLB0's doorbell for user interrupt k, wait on
 *         the eventfd bound to it.  The port has four user interrupts, so
 *         at most four processes (one each); the doorbell register is
 *         shared, so it is rung with an atomic OR, which the simulated
 *         card's register file (memory) takes and the model clears with a
 *         compare-and-exchange: no ring is lost
 */
#define PROCS_MAX	8
#define PROCS_DMA_OPS	300
#define PROCS_MMIO_OPS	(1L << 20)
#define PROCS_IRQ_OPS	100

static const int procs_sizes[] = { 1, 2, 4, PROCS_MAX };

enum procs_op { OP_DMA = 'd', OP_MMIO = 'm', OP_IRQ = 'i' };

/* A process on the port: its command pipe (write end) */
struct procs_worker {
	pid_t pid;
	int go;
};

static int procs_loop(int fd, volatile uint64_t *afu, char *page, int efd,
		      int idx, char op)
{
	uint64_t iova = 0, v;

	switch (op) {
	case OP_DMA:
		for (int i = 0; i < PROCS_DMA_OPS; i++)
			if (dma_map(fd, page, 4096, 0, &iova) ||
			    dma_unmap(fd, iova))
				return -1;
		return 0;
	case OP_MMIO:
		bench_read_loop(afu + NLB_SCRATCH / 8, PROCS_MMIO_OPS);
		return 0;
	case OP_IRQ:
		for (int i = 0; i < PROCS_IRQ_OPS; i++) {
			__atomic_fetch_or(&afu[NLB_DOORBELL / 8], 1ULL << idx,
					  __ATOMIC_SEQ_CST);
			if (efd < 0 || read(efd, &v, 8) != 8)
				return -1;
		}
		return 0;
	}
	return -1;
}

/*
 * Worker @idx: opens @dev, maps the AFU and a page, binds user interrupt
 * @idx if the port has it (@nvec), says 'k' on @done; then runs each
 * command read from @go and says 'k' (or 'e') on @done, until end of file
 */
static void __attribute__((noreturn)) procs_worker(const char *dev, int idx,
						   int nvec, int go, int done)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = idx, .count = 1 }, .fd = -1 };
	volatile uint64_t *afu = MAP_FAILED;
	char *page, c, ok = 'e';
	int fd;

	fd = open(dev, O_RDWR);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (fd >= 0)
		afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED, fd, 0);
	if (idx < nvec) {
		set.fd = eventfd(0, 0);
		if (set.fd < 0 || ioctl(fd, DFL_FPGA_PORT_UINT_SET_IRQ, &set))
			afu = MAP_FAILED;
	}
	if (fd >= 0 && page != MAP_FAILED && afu != MAP_FAILED)
		ok = 'k';
	if (write(done, &ok, 1) != 1 || ok != 'k')
		_exit(1);
	while (read(go, &c, 1) == 1) {
		ok = procs_loop(fd, afu, page, set.fd, idx, c) ? 'e' : 'k';
		if (write(done, &ok, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

/* Wait for @n answers on @done; exits on an error */
static void procs_wait(int done, int n)
{
	char c;

	for (int i = 0; i < n; i++)
		if (read(done, &c, 1) != 1 || c != 'k') {
			fprintf(stderr, "scale_bench: a process on the port failed\n");
			exit(1);
		}
}

/* @op on the first @n workers at once; ns from the first go to the last */
static double procs_round(struct procs_worker *w, int n, int done, char op)
{
	double t0 = bench_now_ms();

	for (int i = 0; i < n; i++)
		if (write(w[i].go, &op, 1) != 1)
			die("a worker's pipe", errno);
	procs_wait(done, n);
	return (bench_now_ms() - t0) * 1e6;
}

/* One point of @s: @op by @n workers, per operation of the aggregate */
static void procs_point(struct bench_series *s, struct procs_worker *w,
			int n, int done, char op, long ops, double unit)
{
	struct bench_stat t = BENCH_ONE(procs_round(w, n, done, op));

	bench_series_add_stat(s, n, bench_scale(t, unit / ((double)ops * n)));
}

/*
 * Worker @idx of @w, started; it closes the command pipes of the workers
 * before it, so that each sees end of file when the bench closes its own
 */
static struct procs_worker procs_start(const char *dev,
				       const struct procs_worker *w, int idx,
				       int nvec, int done[2])
{
	struct procs_worker nw;
	int go[2];

	if (pipe(go))
		die("pipe", errno);
	nw.pid = fork();
	if (nw.pid < 0)
		die("fork", errno);
	if (!nw.pid) {
		for (int i = 0; i < idx; i++)
			close(w[i].go);
		close(go[1]);
		close(done[0]);
		procs_worker(dev, idx, nvec, go[0], done[1]);
	}
	close(go[0]);
	nw.go = go[1];
	procs_wait(done[0], 1);
	return nw;
}

static void bench_port_procs(unsigned int id)
{
	struct bench_series *dma, *mmio, *irq;
	struct procs_worker w[PROCS_MAX];
	int done[2], started = 0, nvec = 0, fd;
	char dev[64];

	/*
	 * Two vCPUs: one process leaves one idle, two fill both, and from
	 * two to eight only switches and the port's shared state (the
	 * card's IOMMU domain, the memlock budget of one user) can add to
	 * each operation: at most 1.5x from two to eight
	 */
	dma = bench_series_new("port_procs_dma_map_unmap", "us/op", "processes",
			       1.5, PROCS_MAX);
	mmio = bench_series_new("port_procs_mmio_read", "ns/op", "processes",
				1.5, PROCS_MAX);
	irq = bench_series_new("port_procs_irq_roundtrip", "us/op", "processes",
			       0, 0);
	bench_series_base(dma, 2);
	bench_series_base(mmio, 2);
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", sim_port_number(id));
	fd = open(dev, O_RDWR);
	if (fd < 0 || ioctl(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM, &nvec))
		die(dev, errno);
	close(fd);
	if (pipe(done))
		die("pipe", errno);

	for (size_t s = 0; s < ARRAY_SIZE(procs_sizes); s++) {
		int n = procs_sizes[s];

		for (; started < n; started++)
			w[started] = procs_start(dev, w, started, nvec, done);
		procs_point(dma, w, n, done[0], OP_DMA, PROCS_DMA_OPS, 1e-3);
		procs_point(mmio, w, n, done[0], OP_MMIO, PROCS_MMIO_OPS, 1);
		if (n <= nvec)
			procs_point(irq, w, n, done[0], OP_IRQ, PROCS_IRQ_OPS,
				    1e-3);
	}
	for (int i = 0; i < started; i++) {
		close(w[i].go);
		waitpid(w[i].pid, NULL, 0);
	}
	close(done[0]);
	close(done[1]);
}

int main(int argc, char **argv)
{
	unsigned int port_card;
	struct rlimit files;
	int fd;

	if (argc == 4 && !strcmp(argv[1], "--loopback"))
		return loopback_worker(argv[2], atoi(argv[3]));
	if (readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1) < 0)
		die("/proc/self/exe", errno);
	/* A series that dies midway leaves the VM as it found it */
	if (atexit(model_threads_unpin))
		die("atexit", ENOMEM);
	first_id = sim_random_id() * 1000;
	/* A PMU point holds both sides' counters open: 2 x 640 files */
	if (getrlimit(RLIMIT_NOFILE, &files))
		die("getrlimit", errno);
	if (files.rlim_cur < 4096) {
		files.rlim_cur = 4096;
		if (files.rlim_max < files.rlim_cur)
			files.rlim_max = files.rlim_cur;
		if (setrlimit(RLIMIT_NOFILE, &files))
			die("setrlimit", errno);
	}
	port_card = first_id + SCALE_MAX_CARDS;
	if (run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme")) {
		fprintf(stderr, "scale_bench: cannot load the modules\n");
		return 1;
	}
	bench_cards();
	fd = port_open_new(port_card);
	/* Through the simulated IOMMU: its IOVA tree grows too (reported) */
	bench_dma(fd, "", true, 0);
	close(fd);
	bench_dma_direct(port_card + 1);
	bench_holders(port_card);
	bench_port_procs(port_card);
	sim_del(port_card);
	bench_print("scale");
	return 0;
}
