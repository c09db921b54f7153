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
 *				process start plus a cost per port
 *   pmu_read			read() of every card-wide counter of every
 *				card's fpga_pmu_N, per counter
 *   dma_map, dma_find, dma_unmap 1 to 10,000 mappings of single pages on
 *				one file, per mapping (find: DMA_UNMAP of
 *				the page after a mapping, its guard page,
 *				which the file's lookup must refuse)
 *   port_open_close, port_reset with 1 to 256 processes holding the port
 *				open in shared mode
 *   idle_model_cpu		the share of the VM's CPUs the idle cards' model
 *				threads take, per card: where the time of
 *				cards_create goes as cards pile up
 *
 * and two figures: fpgactl list of 1024 ports by netlink against sysfs, and
 * "perf stat -a" over all 64 cards' counters, per counter, against the
 * same over one card's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include "sim_util.h"
#include "nlb_util.h"
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
static const int map_sizes[] = { 1, 10, 100, 1000, SCALE_MAX_MAPS };
static const int holder_sizes[] = { 1, 16, 64, SCALE_MAX_HOLDERS };

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static unsigned int first_id;

static void __attribute__((noreturn)) die(const char *what, int err)
{
	fprintf(stderr, "scale_bench: %s: %s\n", what, strerror(err));
	exit(1);
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
 * "fpgactl list", by netlink or (FPGA_NO_NETLINK) by sysfs alone; the
 * lines it printed.  Exits unless fpgactl succeeded.
 */
static int fpgactl_list(bool netlink)
{
	int pfd[2], lines = 0, st;
	char buf[4096];
	ssize_t r;
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
		if (!netlink)
			setenv("FPGA_NO_NETLINK", "1", 1);
		execlp("fpgactl", "fpgactl", "list", (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	while ((r = read(pfd[0], buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < r; i++)
			lines += buf[i] == '\n';
	close(pfd[0]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "scale_bench: fpgactl list failed\n");
		exit(1);
	}
	return lines;
}

static struct bench_series *list_nl, *list_sysfs;

/* Both ways of listing, in turns; each must show every port */
static void bench_list(int ports)
{
	int by_nl = 0, by_sysfs = 0;
	struct bench_stat nl, sysfs;

	BENCH_PAIR("list_netlink", nl, by_nl = fpgactl_list(true),
		   sysfs, by_sysfs = fpgactl_list(false));
	/* A line per FME and per port */
	if (by_nl != by_sysfs || by_nl < ports + ports / SCALE_PORTS) {
		fprintf(stderr, "scale_bench: fpgactl list: %d lines by netlink, %d by sysfs, for %d ports\n",
			by_nl, by_sysfs, ports);
		exit(1);
	}
	bench_series_add(list_nl, ports, nl.med / 1e3 / ports);
	bench_series_add(list_sysfs, ports, sysfs.med / 1e3 / ports);
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

static struct bench_series *pmu_read;

static void bench_pmu(int cards)
{
	int fds[64 * PMU_COUNTERS], n;
	struct bench_stat t;

	if (cards > 64)
		return;
	n = pmu_open_all(cards, fds);
	t = BENCH_ONE({
		for (int i = 0; i < n; i++)
			if (perf_count(fds[i]) == (uint64_t)-1)
				die("read of a counter", errno);
	});
	bench_series_add(pmu_read, n, t.med / n);
	for (int i = 0; i < n; i++)
		close(fds[i]);
}

/* perf stat -a over the counters of @cards cards; ns */
static double perf_stat_cards(int cards)
{
	size_t len = 64 * PMU_COUNTERS * 48, off = 0;
	char *events = malloc(len), *cmd;
	double t0;
	int ret;

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
	if (run_cmd("[ $(grep -c fpga_pmu_ /tmp/scale_stat) -eq %d ] && ! grep -q 'not ' /tmp/scale_stat",
		    cards * PMU_COUNTERS)) {
		fprintf(stderr, "scale_bench: perf stat did not count every counter\n");
		exit(1);
	}
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
 * CPU time, in ns, of the cards' model threads ("fpga_simN", each polling
 * its card every 100-200 us while idle): schedstat's exact run time, not
 * the tick-sampled utime/stime a thread that runs for microseconds at a
 * time escapes.
 */
static double model_threads_ns(void)
{
	char path[300], buf[256];
	double ns = 0;
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d)
		die("/proc", errno);
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.200s/comm", de->d_name);
		if (sysfs_read(path, buf, sizeof(buf)) ||
		    strncmp(buf, "fpga_sim", 8) || buf[8] < '0' || buf[8] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.200s/schedstat", de->d_name);
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

static void bench_cards(void)
{
	struct bench_series *create, *remove, *idle;
	int before = bus_ports();

	create = bench_series_new("cards_create", "ms/port", "cards", 1.5, 64);
	remove = bench_series_new("cards_remove", "ms/port", "cards", 1.5, 64);
	list_nl = bench_series_new("list_netlink", "us/port", "ports", 0, 0);
	list_sysfs = bench_series_new("list_sysfs", "us/port", "ports", 0, 0);
	/* Every point starts fpgactl: judge what each port adds */
	bench_series_linear(list_nl, 1.5);
	bench_series_linear(list_sysfs, 1.5);
	/* Issue 43: a read costs the same however many cards count */
	pmu_read = bench_series_new("pmu_read", "ns/counter", "counters", 1.5,
				    64 * PMU_COUNTERS);
	idle = bench_series_new("idle_model_cpu", "%CPU/card", "cards", 0, 0);

	/* Warm up: the first card pays for what is loaded and cached */
	cards_change(1, before, true);
	cards_change(1, before, false);
	for (size_t s = 0; s < ARRAY_SIZE(card_sizes); s++) {
		int n = card_sizes[s], ports = n * SCALE_PORTS, rounds;
		double add, del, share;

		/*
		 * Below CARDS_PER_POINT cards, the cards are made and removed
		 * again until that many were: one card's time is one sample
		 */
		rounds = n < CARDS_PER_POINT ? CARDS_PER_POINT / n : 1;
		add = del = 0;
		for (int r = 1; r < rounds; r++) {
			add += cards_change(n, before, true);
			del += cards_change(n, before, false);
		}
		add += cards_change(n, before, true);
		share = model_cpu_share(1000);
		bench_series_add(idle, n, share / n);
		if (n == 64)
			bench_add("idle_model_cpu_64cards", bench_fixed(share),
				  "%CPU", BENCH_NONE, "", 0, 0);
		bench_list(ports);
		bench_pmu(n);
		if (n == 64)
			bench_perf_stat();
		del += cards_change(n, before, false);
		bench_series_add(create, n, add / 1e6 / ports / rounds);
		bench_series_add(remove, n, del / 1e6 / ports / rounds);
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

static void bench_dma(int fd)
{
	struct bench_series *map, *find, *unmap;
	static uint64_t iova[SCALE_MAX_MAPS];
	size_t len = (size_t)SCALE_MAX_MAPS * 4096;
	char *va;

	map = bench_series_new("dma_map", "us/mapping", "mappings", 2, 0);
	find = bench_series_new("dma_find", "us/mapping", "mappings", 2, 0);
	unmap = bench_series_new("dma_unmap", "us/mapping", "mappings", 2, 0);
	va = mmap(NULL, len, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (va == MAP_FAILED)
		die("mmap", errno);

	for (size_t s = 0; s < ARRAY_SIZE(map_sizes); s++) {
		int n = map_sizes[s], cycles = SCALE_MAX_MAPS / n, ret;
		double tm = 0, tf = 0, tu = 0, t0;

		/* The same number of calls at every size: n at a time */
		for (int c = 0; c < cycles; c++) {
			t0 = bench_now_ms();
			for (int i = 0; i < n; i++) {
				ret = dma_map(fd, va + (size_t)i * 4096, 4096, 0,
					      &iova[i]);
				if (ret)
					die("DMA_MAP", -ret);
			}
			tm += bench_now_ms() - t0;
			t0 = bench_now_ms();
			for (int i = 0; i < n; i++)
				if (dma_unmap(fd, iova[i] + 4096) != -EINVAL)
					die("DMA_UNMAP of a guard page", EINVAL);
			tf += bench_now_ms() - t0;
			t0 = bench_now_ms();
			for (int i = 0; i < n; i++) {
				ret = dma_unmap(fd, iova[i]);
				if (ret)
					die("DMA_UNMAP", -ret);
			}
			tu += bench_now_ms() - t0;
		}
		bench_series_add(map, n, tm * 1e3 / SCALE_MAX_MAPS);
		bench_series_add(find, n, tf * 1e3 / SCALE_MAX_MAPS);
		bench_series_add(unmap, n, tu * 1e3 / SCALE_MAX_MAPS);
	}
	munmap(va, len);
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
		bench_series_add(oc, want, t.med / 200 / 1e3);
		fd = open(dev, O_RDWR);
		if (fd < 0)
			die(dev, errno);
		t = BENCH_ONE({
			for (int i = 0; i < 20; i++)
				if (ioctl(fd, DFL_FPGA_PORT_RESET, 0))
					die("DFL_FPGA_PORT_RESET", errno);
		});
		close(fd);
		bench_series_add(reset, want, t.med / 20 / 1e3);
	}
	close(quit[1]);
	for (int i = 0; i < held; i++)
		waitpid(pids[i], NULL, 0);
	close(quit[0]);
	close(ready[0]);
	close(ready[1]);
}

int main(void)
{
	unsigned int port_card;
	int fd;

	first_id = sim_random_id() * 1000;
	port_card = first_id + SCALE_MAX_CARDS;
	if (run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme")) {
		fprintf(stderr, "scale_bench: cannot load the modules\n");
		return 1;
	}
	bench_cards();
	fd = port_open_new(port_card);
	bench_dma(fd);
	close(fd);
	bench_holders(port_card);
	sim_del(port_card);
	bench_print("scale");
	return 0;
}
