// SPDX-License-Identifier: GPL-2.0-only
/*
 * peer_bench: our DFL drivers against upstream's, side by side in one boot.
 *
 * Two identical QEMU ivshmem cards (selftests/bench/pci-cards, played by
 * scripts/images/dfl-model): peer-upstream is bound to the upstream DFL
 * drivers of Debian's linux-source of the host's line, 6.1 on bookworm,
 * 6.12 on trixie (built at bench time by scripts/build/peer-modules.sh,
 * through the bench's glue dfl_peer_pci), peer-ours to fpga_dfl_pci.  The
 * same client operations run in turns through each side's port node,
 * /dev/dfl-port.N upstream and /dev/fpga-port.N ours (the same
 * <linux/fpga-dfl.h> ABI; with upstream's bus present ours makes no
 * dfl-port.N of its own):
 *
 *   region_info          DFL_FPGA_PORT_GET_REGION_INFO
 *   mmio_read64          64-bit loads through the AFU mapping
 *   port_reset           DFL_FPGA_PORT_RESET (both wait for the model's ACK)
 *   dma_map_unmap_2MiB   map + unmap of one 2 MiB huge page (and each
 *                        apart: dma_map_2MiB, dma_unmap_2MiB)
 *   dma_map_unmap_4KiB   the same of one 4 KiB page: the cost per call
 *   dma_map_1MiB_4k_*    each side's answer to 1 MiB of 4 KiB pages
 *                        (errno): without an IOMMU both need the pages
 *                        physically contiguous
 *   error_irq            port error interrupt to eventfd: the model raises
 *                        the vector when the doorbell is written
 *   pmu_read             read() of a counting clock event, fpga_pmu_N
 *                        against upstream's dfl_fmeN, on the PMU's CPU
 *   card_remove          the PCI function's driver unbound (remove)
 *   card_probe           the driver bound again (probe), until the port's
 *                        node opens and answers an ioctl
 *   modules_unload, modules_load  each side's module set for the card
 *                        out and in again (delete_module, finit_module)
 *                        while the other side's stays loaded
 *
 * The ratio is upstream's time over ours: 1.0 or more means ours is not
 * slower, the target on every shared path.
 */
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glob.h>
#include <sys/eventfd.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "pci_util.h"
#include "perf_util.h"
#include "nlb_util.h"
#include "bench_util.h"

#define PEER_DIR	"/ksft/bench/peer"
#define PCI_DRIVERS	"/sys/bus/pci/drivers"
#define HUGE_2M		(2UL << 20)
#define MAP_4K_LEN	(1UL << 20)
#define TARGET		1.0
#define MODEL_POLL_US	100

/* Upstream's modules, dependencies first (scripts/build/peer-modules.sh) */
static const char *const upstream_modules[] = {
	"fpga-mgr", "fpga-bridge", "fpga-region", "dfl", "dfl-afu", "dfl-fme",
	"dfl-peer-pci",
};

/* Ours for a PCI card, dependencies first (setup() loads them) */
static const char *const ours_modules[] = {
	"fpga_dfl", "fpga_dfl_pci", "fpga_port", "fpga_fme",
};

#define MAX_MODULES	8

struct side {
	const char *name;
	const char *driver;	/* its PCI driver */
	struct pci_card *card;
	char dev[64];		/* its port's node */
	int fd;			/* the port, read-write */
	volatile uint64_t *afu;
	uint64_t afu_size;
	int efd;		/* bound to the port error interrupt */
	int pmu_fd;
	int pmu_cpu;
};

static void die(const char *what)
{
	fprintf(stderr, "peer_bench: %s\n", what);
	exit(1);
}

/* Our modules out, upstream's in, the cards bound, ours loaded beside */
static void setup(struct pci_card *up, struct pci_card *ours)
{
	cpu_set_t cpus;

	if (run_cmd("for m in uio_fpga fpga_port fpga_fme fpga_dfl_pci fpga_sim "
		    "fpga_dfl; do [ ! -d /sys/module/$m ] || rmmod $m || exit 1; done"))
		die("cannot unload the suite's modules (upstream needs the "
		    "fpga_region class)");
	if (pci_card_find(up, "peer-upstream") || pci_card_find(ours, "peer-ours"))
		die("no peer-upstream and peer-ours cards (make bench attaches "
		    "selftests/bench/pci-cards)");
	/*
	 * Upstream waits at most 1 ms for a reset's ACK, from its probe on;
	 * the model's default pass every 1 ms misses that.  Faster while the
	 * bench runs only: it costs the host CPU the other benchmarks need.
	 */
	if (pci_model_poll_us(up->bdf, MODEL_POLL_US) ||
	    pci_model_poll_us(ours->bdf, MODEL_POLL_US))
		die("cannot reach the cards' model");
	for (size_t i = 0; i < sizeof(upstream_modules) / sizeof(*upstream_modules); i++)
		if (run_cmd("insmod " PEER_DIR "/%s.ko", upstream_modules[i]))
			die("cannot load the upstream DFL drivers (scripts/build/peer-modules.sh)");
	if (run_cmd("modprobe fpga_dfl_pci && modprobe fpga_port && "
		    "modprobe fpga_fme"))
		die("cannot load the suite's modules beside upstream's");
	/*
	 * Upstream's PMU counts on the CPU its card was probed on (the
	 * writer of drivers_probe), ours on the card number's (card 0: CPU
	 * 0): both probed from CPU 0, pmu_read compares the drivers on one
	 * CPU, not two CPUs.
	 */
	if (sched_getaffinity(0, sizeof(cpus), &cpus))
		die("sched_getaffinity");
	bench_pin(0);
	if (run_cmd("echo dfl_peer_pci > " PCI_DEVICES "/%s/driver_override && "
		    "echo %s > /sys/bus/pci/drivers_probe", up->bdf, up->bdf) ||
	    run_cmd("echo fpga_dfl_pci > " PCI_DEVICES "/%s/driver_override && "
		    "echo %s > /sys/bus/pci/drivers_probe", ours->bdf, ours->bdf))
		die("cannot bind the cards");
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		die("sched_setaffinity");
}

/*
 * The cards unbound and back to the model's own poll, upstream's modules
 * out, however far setup() came: run once the bench's process is gone, so
 * that no file or mapping of a port is open while its card unbinds.
 */
static void teardown(void)
{
	struct pci_card up, ours;

	if (!pci_card_find(&up, "peer-upstream")) {
		pci_unbind(&up);
		pci_model_poll_us(up.bdf, 0);
	}
	if (!pci_card_find(&ours, "peer-ours")) {
		pci_unbind(&ours);
		pci_model_poll_us(ours.bdf, 0);
	}
	run_cmd("for m in fpga_fme fpga_port fpga_dfl_pci fpga_dfl dfl-peer-pci "
		"dfl-fme dfl-afu dfl fpga-region fpga-bridge fpga-mgr; do "
		"[ ! -d /sys/module/$(echo $m | tr - _) ] || rmmod $m; done");
}

/* The first match of @pattern, or NULL */
static char *first_match(const char *pattern)
{
	static char path[256];
	glob_t g;

	if (glob(pattern, 0, NULL, &g))
		return NULL;
	snprintf(path, sizeof(path), "%s", g.gl_pathv[0]);
	globfree(&g);
	return path;
}

static long long read_num_at(const char *dir, const char *file)
{
	char path[320];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return sysfs_read_num(path);
}

static void side_open(struct side *s, const char *dev, const char *pmu_dir)
{
	struct dfl_fpga_port_region_info ri = {
		.argsz = sizeof(ri), .index = DFL_PORT_REGION_INDEX_AFU,
	};
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = 0, .count = 1 } };
	long long type;

	snprintf(s->dev, sizeof(s->dev), "%s", dev);
	s->fd = open(dev, O_RDWR);
	if (s->fd < 0 || ioctl(s->fd, DFL_FPGA_PORT_GET_REGION_INFO, &ri))
		die(dev);
	s->afu_size = ri.size;
	s->afu = mmap(NULL, ri.size, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
		      ri.offset);
	if (s->afu == MAP_FAILED)
		die("cannot map the AFU");
	s->efd = eventfd(0, 0);
	set.fd = s->efd;
	if (s->efd < 0 || ioctl(s->fd, DFL_FPGA_PORT_ERR_SET_IRQ, &set))
		die("cannot bind the port error interrupt");
	type = read_num_at(pmu_dir, "type");
	s->pmu_cpu = read_num_at(pmu_dir, "cpumask");
	s->pmu_fd = perf_open(type, PMU_CLOCK, s->pmu_cpu, -1);
	if (type < 0 || s->pmu_fd < 0)
		die("cannot open the PMU's clock event");
	printf("peer_bench: %s: %s, %s (CPU %d)\n", s->name, dev,
	       strrchr(pmu_dir, '/') + 1, s->pmu_cpu);
}

static void side_close(struct side *s)
{
	close(s->pmu_fd);
	munmap((void *)s->afu, s->afu_size);
	close(s->efd);
	close(s->fd);
}

/* Record one shared path: ours against upstream's, in @unit per op */
static void add_pair(const char *name, struct bench_stat ours,
		     struct bench_stat up, const char *unit)
{
	bench_add(name, ours, unit, up, "upstream dfl", up.med / ours.med,
		  TARGET);
}

static void bench_region_info(struct side *o, struct side *u)
{
	struct dfl_fpga_port_region_info ri = { .argsz = sizeof(ri) };
	const int n = 20000;
	struct bench_stat to, tu;

	BENCH_PAIR("region_info", to, {
		for (int i = 0; i < n; i++)
			if (ioctl(o->fd, DFL_FPGA_PORT_GET_REGION_INFO, &ri))
				exit(1);
	}, tu, {
		for (int i = 0; i < n; i++)
			if (ioctl(u->fd, DFL_FPGA_PORT_GET_REGION_INFO, &ri))
				exit(1);
	});
	add_pair("region_info", bench_scale(to, 1.0 / n),
		 bench_scale(tu, 1.0 / n), "ns");
}

static void bench_mmio(struct side *o, struct side *u)
{
	const long n = 1 << 20;
	struct bench_stat to, tu;

	BENCH_PAIR("mmio_read64", to, bench_read_loop(o->afu + NLB_SCRATCH / 8, n),
		   tu, bench_read_loop(u->afu + NLB_SCRATCH / 8, n));
	add_pair("mmio_read64", bench_scale(to, 1.0 / n),
		 bench_scale(tu, 1.0 / n), "ns/access");
}

/*
 * @n resets; ns per successful one.  Upstream waits at most 1 ms for the
 * ACK, which the host's model (a Python loop) can miss on a busy host: a
 * reset that timed out is counted into @timeouts, not timed, and retried.
 */
static double resets(struct side *s, int n, int *timeouts)
{
	double t = 0, t0;

	for (int i = 0; i < n; i++) {
		t0 = bench_now_ms();
		if (!ioctl(s->fd, DFL_FPGA_PORT_RESET, 0)) {
			t += bench_now_ms() - t0;
			continue;
		}
		if (errno != ETIMEDOUT || ++*timeouts > 10 * n)
			die("port reset failed");
		i--;
	}
	return t * 1e6 / n;
}

/*
 * Upstream's dfl-afu raises a port's disable_count before it waits for
 * the ACK and leaves it raised when the wait times out: from then on its
 * reset ioctl returns at once and resets nothing, until the port is
 * probed again.  The one trace of it is this line in the kernel log;
 * how many there are, or -1 if the log cannot be read.
 */
static int upstream_disable_timeouts(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	int len, count = 0;
	char *buf, *p;

	if (size <= 0)
		return -1;
	buf = malloc(size + 1);
	if (!buf)
		return -1;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (len < 0) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	for (p = buf; (p = strstr(p, "timeout, failure to disable device")); p++)
		count++;
	free(buf);
	return count;
}

static void bench_reset(struct side *o, struct side *u)
{
	int n = 20, to_ours = 0, to_up = 0, rounds = bench_rounds();
	struct bench_samples so = { 0 }, su = { 0 };
	struct bench_stat to, tu;
	int leaked;

	/*
	 * BENCH_FAULT=upstream_reset_leak (bench only, never a figure to
	 * keep): one upstream reset with the host model stopped, whose
	 * disable times out, to show the row refused as it must be
	 */
	if (getenv("BENCH_FAULT") &&
	    !strcmp(getenv("BENCH_FAULT"), "upstream_reset_leak")) {
		if (pci_model_stop(u->afu, u->afu_size, 1))
			die("the model did not stop");
		if (!ioctl(u->fd, DFL_FPGA_PORT_RESET, 0) || errno != ETIMEDOUT)
			die("upstream's reset did not time out with the model stopped");
		if (pci_model_stop(u->afu, u->afu_size, 0))
			die("the model did not resume");
	}
	/* Timed inside (a timeout is not): ABBA after a warm-up, by hand */
	for (int r = -1; r < rounds; r++)
		for (int i = 0; i < 2; i++) {
			bool a = bench_abba_a(r, i);
			double t = a ? resets(o, n, &to_ours) :
				       resets(u, n, &to_up);

			if (r >= 0)
				bench_sample(a ? &so : &su, t);
		}
	to = bench_scale(bench_stat_of(&so), 1e-3);
	tu = bench_scale(bench_stat_of(&su), 1e-3);
	leaked = upstream_disable_timeouts();
	if (leaked < 0)
		printf("peer_bench: the kernel log cannot be read: upstream's resets are taken as real\n");
	if (leaked > 0) {
		/* Not a figure of upstream's reset: reported, not judged */
		printf("peer_bench: upstream's port disable timed out (%d in the kernel log): its later resets reset nothing (disable_count, dfl-afu-main.c); port_reset not judged\n",
		       leaked);
		bench_add("port_reset", to, "us", tu, "upstream, unjudged",
			  tu.med / to.med, 0);
	} else {
		add_pair("port_reset", to, tu, "us");
	}
	printf("peer_bench: port resets that timed out: ours %d, upstream %d of %d\n",
	       to_ours, to_up, (rounds + 1) * n);
	bench_add("port_reset_timeouts_ours", bench_fixed(to_ours), "resets",
		  BENCH_NONE, "", 0, 0);
	bench_add("port_reset_timeouts_upstream", bench_fixed(to_up), "resets",
		  BENCH_NONE, "", 0, 0);
}

/* @n maps and unmaps of [@va, @va + @len); ns per map and per unmap */
static void map_unmap(struct side *s, void *va, uint64_t len, int n,
		      double *map_ns, double *unmap_ns)
{
	uint64_t iova = 0;
	double t0, t1;

	*map_ns = *unmap_ns = 0;
	for (int i = 0; i < n; i++) {
		t0 = bench_now_ms();
		if (dma_map(s->fd, va, len, 0, &iova))
			goto fail;
		t1 = bench_now_ms();
		if (dma_unmap(s->fd, iova))
			goto fail;
		*unmap_ns += bench_now_ms() - t1;
		*map_ns += t1 - t0;
	}
	*map_ns *= 1e6 / n;
	*unmap_ns *= 1e6 / n;
	return;
fail:
	fprintf(stderr, "peer_bench: %s: DMA map of %llu bytes: %s\n",
		s->name, (unsigned long long)len, strerror(errno));
	exit(1);
}

/*
 * Map + unmap of @len bytes at @va on both sides, in ABBA turns after a
 * warm-up; with @split, the map and the unmap as figures of their own too.
 */
static void bench_map_pair(struct side *o, struct side *u, void *va,
			   uint64_t len, const char *name, bool split)
{
	struct bench_samples s[2][3] = { 0 };	/* [ours, up][map+unmap, map, unmap] */
	struct bench_stat st[2][3];
	char fig[48];

	for (int r = -1; r < bench_rounds(); r++)
		for (int i = 0; i < 2; i++) {
			int side = !bench_abba_a(r, i);
			double m, un;

			map_unmap(side ? u : o, va, len, 50, &m, &un);
			if (r < 0)
				continue;
			bench_sample(&s[side][0], m + un);
			bench_sample(&s[side][1], m);
			bench_sample(&s[side][2], un);
		}
	for (int side = 0; side < 2; side++)
		for (int k = 0; k < 3; k++)
			st[side][k] = bench_scale(bench_stat_of(&s[side][k]), 1e-3);
	snprintf(fig, sizeof(fig), "dma_map_unmap_%s", name);
	add_pair(fig, st[0][0], st[1][0], "us");
	if (!split)
		return;
	snprintf(fig, sizeof(fig), "dma_map_%s", name);
	bench_add(fig, st[0][1], "us", st[1][1], "upstream dfl",
		  st[1][1].med / st[0][1].med, 0);
	snprintf(fig, sizeof(fig), "dma_unmap_%s", name);
	bench_add(fig, st[0][2], "us", st[1][2], "upstream dfl",
		  st[1][2].med / st[0][2].med, 0);
}

/* Map 1 MiB of 4 KiB pages at @va once; the answer, as an errno figure */
static void map_4k_pages(struct side *s, void *va, const char *figure)
{
	uint64_t iova = 0;
	int ret;

	ret = dma_map(s->fd, va, MAP_4K_LEN, 0, &iova);
	if (!ret)
		dma_unmap(s->fd, iova);
	printf("peer_bench: %s: DMA map of 1 MiB of 4 KiB pages: %s\n", s->name,
	       ret ? strerror(-ret) : "mapped (the pages happened to be contiguous)");
	bench_add(figure, bench_fixed(-ret), "errno", BENCH_NONE, "", 0, 0);
}

static void bench_dma(struct side *o, struct side *u)
{
	void *va;

	/* hugepages=4 on the VM's command line (scripts/vm/run-vm) */
	va = mmap(NULL, HUGE_2M, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE, -1, 0);
	if (va == MAP_FAILED)
		die("no 2 MiB huge page");
	bench_map_pair(o, u, va, HUGE_2M, "2MiB", true);
	/* One page is contiguous: upstream takes it.  The cost per call */
	bench_map_pair(o, u, va, 4096, "4KiB", true);
	munmap(va, HUGE_2M);

	/*
	 * Without an IOMMU (these cards) a device address is physical: both
	 * drivers need the pages contiguous.  Ours maps 4 KiB pages of any
	 * layout through a card's IOMMU (port_bench, on the simulated card).
	 */
	va = mmap(NULL, MAP_4K_LEN, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (va == MAP_FAILED)
		die("no memory");
	map_4k_pages(o, va, "dma_map_1MiB_4k_ours");
	map_4k_pages(u, va, "dma_map_1MiB_4k_upstream");
	munmap(va, MAP_4K_LEN);
}

/* Doorbell to eventfd: the model raises vector 0, the port error's */
static void error_irq_round_trips(struct side *s, int n)
{
	uint64_t v;

	for (int i = 0; i < n; i++) {
		s->afu[KNOB_DOORBELL(s->afu_size) / 8] = 1;
		if (read(s->efd, &v, 8) != 8)
			die("eventfd");
	}
}

static void bench_irq(struct side *o, struct side *u)
{
	const int n = 100;
	struct bench_stat to, tu;

	BENCH_PAIR("error_irq", to, error_irq_round_trips(o, n),
		   tu, error_irq_round_trips(u, n));
	add_pair("error_irq", bench_scale(to, 1 / 1e3 / n),
		 bench_scale(tu, 1 / 1e3 / n), "us");
	/* Which CPU took each side's interrupts (a wakeup across CPUs costs
	 * an IPI, which the emulator makes expensive) */
	run_cmd("grep -E 'CPU|fpga-port.*err|fpga-irq.*dfl-port' /proc/interrupts");
}

static void pmu_reads(struct side *s, int n)
{
	bench_pin(s->pmu_cpu);
	for (int i = 0; i < n; i++)
		if (perf_count(s->pmu_fd) == (uint64_t)-1)
			die("PMU read");
}

static void bench_pmu(struct side *o, struct side *u)
{
	const int n = 20000;
	struct bench_stat to, tu;

	BENCH_PAIR("pmu_read", to, pmu_reads(o, n), tu, pmu_reads(u, n));
	add_pair("pmu_read", bench_scale(to, 1.0 / n), bench_scale(tu, 1.0 / n),
		 "ns");
}

/* ---- Probe and remove, load and unload ---- */

#define PRINTK	"/proc/sys/kernel/printk"

/*
 * The console's log level set to @level; the one before, or -1.  The VM
 * boots with loglevel=7, and every line a probe or a load logs at info or
 * warning level then goes out through the emulated serial port before the
 * call returns, at a cost per character under TCG: ours logs three lines
 * per probe, upstream none.  Debian boots "quiet" (console level 4, only
 * errors reach the console); the turns run so, the ring buffer still has
 * every line.
 */
static int console_level(int level)
{
	char buf[64], val[16];	/* any int: gcc 14 checks the range */
	int old;

	if (sysfs_read(PRINTK, buf, sizeof(buf)))
		return -1;
	old = atoi(buf);
	snprintf(val, sizeof(val), "%d", level);
	return sysfs_write(PRINTK, val) ? -1 : old;
}

/* Record a figure of both sides with no target: upstream's over ours */
static void add_report(const char *name, struct bench_stat ours,
		       struct bench_stat up, const char *unit)
{
	bench_add(name, ours, unit, up, "upstream dfl", up.med / ours.med, 0);
}

/* The card's driver unbound: its remove; ns */
static double card_remove(struct side *s)
{
	char path[128];
	double t0;

	snprintf(path, sizeof(path), PCI_DRIVERS "/%s/unbind", s->driver);
	t0 = bench_now_ms();
	if (sysfs_write(path, s->card->bdf))
		die("cannot unbind a card");
	return (bench_now_ms() - t0) * 1e6;
}

/* Does @dev open, and answer an ioctl, now?  Open in *@fd if so */
static bool port_usable(const char *dev, int *fd)
{
	struct dfl_fpga_port_region_info ri = {
		.argsz = sizeof(ri), .index = DFL_PORT_REGION_INDEX_AFU,
	};

	*fd = open(dev, O_RDWR);
	if (*fd < 0)
		return false;
	if (!ioctl(*fd, DFL_FPGA_PORT_GET_REGION_INFO, &ri))
		return true;
	close(*fd);
	return false;
}

/*
 * The card's driver bound again (its probe), until the port's node opens
 * and answers: upstream's node exists before its cdev does, and either
 * side's child drivers could probe after the bind returns.  The node is
 * the one before the unbind (both number ports by ida: the same number
 * comes back).  Closed after the clock stops, as the last close resets
 * the port on both sides.  ns
 */
static double card_probe(struct side *s)
{
	char path[128];
	double t0, t;
	int fd;

	snprintf(path, sizeof(path), PCI_DRIVERS "/%s/bind", s->driver);
	t0 = bench_now_ms();
	if (sysfs_write(path, s->card->bdf))
		die("cannot bind a card");
	while (!port_usable(s->dev, &fd)) {
		if (bench_now_ms() - t0 > 10000) {
			fprintf(stderr, "peer_bench: %s: %s did not come back\n",
				s->name, s->dev);
			exit(1);
		}
		usleep(20);
	}
	t = (bench_now_ms() - t0) * 1e6;
	close(fd);
	return t;
}

/*
 * Remove and probe each side's card in ABBA turns after a warm-up; every
 * file of both ports is closed (side_close()), so remove is the plain one,
 * not a hot unplug.  From CPU 0, where setup() probed them.
 */
static void bench_probe(struct side *o, struct side *u)
{
	struct bench_samples rm[2] = { 0 }, pr[2] = { 0 };	/* [ours, up] */
	int level = console_level(4);

	bench_pin(0);
	for (int r = -1; r < bench_rounds(); r++)
		for (int i = 0; i < 2; i++) {
			int side = !bench_abba_a(r, i);
			struct side *s = side ? u : o;
			double t_rm = card_remove(s), t_pr = card_probe(s);

			if (r < 0)
				continue;
			bench_sample(&rm[side], t_rm);
			bench_sample(&pr[side], t_pr);
		}
	if (level >= 0)
		console_level(level);
	add_report("card_remove", bench_scale(bench_stat_of(&rm[0]), 1e-6),
		   bench_scale(bench_stat_of(&rm[1]), 1e-6), "ms");
	add_report("card_probe", bench_scale(bench_stat_of(&pr[0]), 1e-6),
		   bench_scale(bench_stat_of(&pr[1]), 1e-6), "ms");
}

/**
 * struct modset - one side's modules for its card
 * @n:		how many
 * @name:	each one's name as the kernel knows it (/sys/module)
 * @path:	each one's file, an uncompressed .ko
 * @load_ms, @unload_ms: each one's time in the calls, summed over the
 *		timed turns: where a set's time goes
 */
struct modset {
	int n;
	char name[MAX_MODULES][32];
	char path[MAX_MODULES][256];
	double load_ms[MAX_MODULES], unload_ms[MAX_MODULES];
};

static void modset_add(struct modset *m, const char *name, const char *path)
{
	char *c;

	snprintf(m->name[m->n], sizeof(m->name[0]), "%s", name);
	for (c = m->name[m->n]; *c; c++)
		if (*c == '-')
			*c = '_';
	snprintf(m->path[m->n], sizeof(m->path[0]), "%s", path);
	m->n++;
}

/* Where modprobe finds our module @name: into @path; 0 or -1 */
static int ours_module_path(const char *name, char *path, size_t size)
{
	char cmd[96];
	FILE *f;
	int ret = -1;

	snprintf(cmd, sizeof(cmd), "modinfo -n %s", name);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (fgets(path, size, f)) {
		path[strcspn(path, "\n")] = '\0';
		ret = 0;
	}
	if (pclose(f))
		ret = -1;
	return ret;
}

/*
 * Both module sets; false if one is a compressed file (a DKMS install on
 * a kernel that compresses), which finit_module() of this bench does not
 * take: the module rows are then left out
 */
static bool modsets_resolve(struct modset *ours, struct modset *up)
{
	char path[256];
	size_t len;

	for (size_t i = 0; i < sizeof(ours_modules) / sizeof(*ours_modules); i++) {
		if (ours_module_path(ours_modules[i], path, sizeof(path)))
			die("modinfo cannot find our modules");
		len = strlen(path);
		if (len < 3 || strcmp(path + len - 3, ".ko")) {
			printf("peer_bench: %s is compressed: no module rows\n",
			       path);
			return false;
		}
		modset_add(ours, ours_modules[i], path);
	}
	for (size_t i = 0; i < sizeof(upstream_modules) / sizeof(*upstream_modules); i++) {
		snprintf(path, sizeof(path), PEER_DIR "/%s.ko", upstream_modules[i]);
		modset_add(up, upstream_modules[i], path);
	}
	return true;
}

/* The set loaded, dependencies first; ns in finit_module() */
static double modset_load(struct modset *m)
{
	double t = 0, t0, dt;

	for (int i = 0; i < m->n; i++) {
		int fd = open(m->path[i], O_RDONLY | O_CLOEXEC), ret;

		if (fd < 0)
			die(m->path[i]);
		t0 = bench_now_ms();
		ret = syscall(SYS_finit_module, fd, "", 0);
		dt = bench_now_ms() - t0;
		t += dt;
		m->load_ms[i] += dt;
		close(fd);
		if (ret) {
			fprintf(stderr, "peer_bench: finit_module %s: %s\n",
				m->path[i], strerror(errno));
			exit(1);
		}
	}
	return t * 1e6;
}

/*
 * The set unloaded, users first; ns in delete_module().  A module still
 * held (a reference perf or a work item drops a little later) is tried
 * again after a pause that is not timed, for up to 30 s.
 */
static double modset_unload(struct modset *m)
{
	double t = 0, t0, dt;

	for (int i = m->n - 1; i >= 0; i--) {
		for (int tries = 0;; tries++) {
			int ret;

			t0 = bench_now_ms();
			ret = syscall(SYS_delete_module, m->name[i], O_NONBLOCK);
			if (!ret) {
				dt = bench_now_ms() - t0;
				t += dt;
				m->unload_ms[i] += dt;
				break;
			}
			if ((errno != EAGAIN && errno != EBUSY) || tries == 3000) {
				fprintf(stderr, "peer_bench: delete_module %s: %s\n",
					m->name[i], strerror(errno));
				exit(1);
			}
			usleep(10000);
		}
	}
	return t * 1e6;
}

/* Each module's mean load and unload time over the timed turns */
static void modset_print(const char *side, const struct modset *m)
{
	int turns = bench_rounds();

	printf("peer_bench: %s, load/unload ms per module:", side);
	for (int i = 0; i < m->n; i++)
		printf(" %s %.1f/%.1f", m->name[i], m->load_ms[i] / turns,
		       m->unload_ms[i] / turns);
	printf("\n");
}

/*
 * Each side's module set out and in again, in ABBA turns, the other
 * side's staying loaded.  That keeps setup()'s state: ours decides when
 * fpga_dfl loads whether upstream's bus and class are there (they are, so
 * it registers no class and no dfl-* names) and holds nothing of
 * upstream's, and upstream's modules use nothing of ours, so either set
 * can go and come back beside the other.  Only the order of setup()'s
 * first loads matters (upstream's class first).  The cards are unbound
 * and their driver_override cleared first: a driver that loads would
 * probe its card, and removal and probe have figures of their own.
 */
static void bench_modules(struct side *o, struct side *u)
{
	static struct modset sets[2];	/* [ours, up] */
	struct bench_samples ld[2] = { 0 }, ul[2] = { 0 };
	char path[128];
	int level;

	if (!modsets_resolve(&sets[0], &sets[1]))
		return;
	level = console_level(4);
	for (int side = 0; side < 2; side++) {
		struct side *s = side ? u : o;

		card_remove(s);
		snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver_override",
			 s->card->bdf);
		if (sysfs_write(path, "\n"))
			die("cannot clear driver_override");
	}
	for (int r = -1; r < bench_rounds(); r++)
		for (int i = 0; i < 2; i++) {
			int side = !bench_abba_a(r, i);
			double t_ul, t_ld;

			if (r == 0 && i == 0)	/* the warm-up's are not kept */
				for (int k = 0; k < 2; k++) {
					memset(sets[k].load_ms, 0, sizeof(sets[k].load_ms));
					memset(sets[k].unload_ms, 0, sizeof(sets[k].unload_ms));
				}
			t_ul = modset_unload(&sets[side]);
			t_ld = modset_load(&sets[side]);
			if (r < 0)
				continue;
			bench_sample(&ul[side], t_ul);
			bench_sample(&ld[side], t_ld);
		}
	if (level >= 0)
		console_level(level);
	for (int side = 0; side < 2; side++)
		modset_print(side ? u->name : o->name, &sets[side]);
	add_report("modules_unload", bench_scale(bench_stat_of(&ul[0]), 1e-6),
		   bench_scale(bench_stat_of(&ul[1]), 1e-6), "ms");
	add_report("modules_load", bench_scale(bench_stat_of(&ld[0]), 1e-6),
		   bench_scale(bench_stat_of(&ld[1]), 1e-6), "ms");
}

static void run(void)
{
	struct pci_card card_up, card_ours;
	struct side ours = { .name = "ours", .driver = "fpga_dfl_pci",
			     .card = &card_ours };
	struct side up = { .name = "upstream", .driver = "dfl_peer_pci",
			   .card = &card_up };
	char dev[64], pmu[128], *p;
	int num;

	setup(&card_up, &card_ours);

	p = first_match("/dev/dfl-port.*");
	if (!p)
		die("upstream made no /dev/dfl-port.N");
	snprintf(dev, sizeof(dev), "%s", p);
	p = first_match(PMU_DEVICES "/dfl_fme*");
	if (!p)
		die("upstream made no dfl_fme PMU");
	snprintf(pmu, sizeof(pmu), "%s", p);
	side_open(&up, dev, pmu);

	num = pci_child_at(&card_ours, "fpga-port.", 0);
	if (num < 0)
		die("our card has no port");
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", num);
	num = pci_child_at(&card_ours, "fpga-fme.", 0);
	if (num < 0)
		die("our card has no FME");
	snprintf(pmu, sizeof(pmu), PMU_DEVICES "/fpga_pmu_%d", num);
	side_open(&ours, dev, pmu);

	bench_region_info(&ours, &up);
	bench_mmio(&ours, &up);
	bench_reset(&ours, &up);
	bench_dma(&ours, &up);
	bench_irq(&ours, &up);
	if (ours.pmu_cpu != up.pmu_cpu)
		printf("peer_bench: the PMUs count on different CPUs: pmu_read "
		       "compares CPUs as well\n");
	bench_pmu(&ours, &up);
	side_close(&ours);
	side_close(&up);
	bench_probe(&ours, &up);
	bench_modules(&ours, &up);
	bench_print("peer");
}

/*
 * The bench runs in a child, so that whatever way it ends (die(), a
 * signal) the cards are left as make bench attached them: a model left
 * polling every 100 us would slow the benchmarks after this one.
 */
int main(void)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		run();
		exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	teardown();
	if (WIFSIGNALED(status))
		fprintf(stderr, "peer_bench: killed by signal %d\n",
			WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
