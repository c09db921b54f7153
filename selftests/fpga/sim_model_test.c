// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's model, as far as sysfs shows it without a port
 * driver: per-port knobs and their validation, port errors and the error
 * interrupt, the card's own irq domain (vector layout, names, what the DFL
 * core hands the ports), the counter bank, and teardown with all of it
 * live.
 */
#include <limits.h>
#include <signal.h>
#include <time.h>

#include "kselftest_harness.h"
#include "sysfs_util.h"

#define SIM_BUS		"/sys/bus/fpga_sim"
#define SIM_DEV		SIM_BUS "/devices/fpga_sim%u"
#define KIRQ		"/sys/kernel/irq"
#define VECS_PER_PORT	5

static const char * const port_attrs[] = {
	"inject_error", "fail_dma", "errors", "first_error", "irqs",
	"dma_rd_bytes", "dma_wr_bytes", "dma_rd_lines", "dma_wr_lines",
	"user_irqs", "error_irqs", "resets", "dma_faults", "afu_busy_clocks",
};

static int sim_add(unsigned int id, unsigned int ports)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%u %u", id, ports);
	return sysfs_write(SIM_BUS "/new_device", buf);
}

static int sim_del(unsigned int id)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u", id);
	return sysfs_write(SIM_BUS "/del_device", buf);
}

/* Path of card @id's file @fmt (relative to the card) */
static char *sim_path(char *out, size_t size, unsigned int id,
		      const char *fmt, ...)
{
	char rel[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	n = snprintf(out, size, SIM_DEV "/", id);
	snprintf(out + n, size - n, "%s", rel);
	return out;
}

static long long port_num(unsigned int id, unsigned int port, const char *f)
{
	char path[256];

	return sysfs_read_num(sim_path(path, sizeof(path), id, "port%u/%s",
				       port, f));
}

static unsigned long long port_hex(unsigned int id, unsigned int port,
				   const char *f)
{
	char path[256], buf[64];

	if (sysfs_read(sim_path(path, sizeof(path), id, "port%u/%s", port, f),
		       buf, sizeof(buf)))
		return ~0ULL;
	return strtoull(buf, NULL, 0);
}

static int port_write(unsigned int id, unsigned int port, const char *f,
		      const char *val)
{
	char path[256];

	return sysfs_write(sim_path(path, sizeof(path), id, "port%u/%s", port,
				    f), val);
}

static long long card_cntr(unsigned int id, const char *f)
{
	char path[256];

	return sysfs_read_num(sim_path(path, sizeof(path), id, "counters/%s",
				       f));
}

static int irq_attr(const char *irq, const char *attr, char *buf, size_t size)
{
	char path[512];

	snprintf(path, sizeof(path), KIRQ "/%s/%s", irq, attr);
	return sysfs_read(path, buf, size);
}

/* Irqs of the fpga_sim chip whose name starts with "fpga_sim<id>-" */
static int count_card_irqs(unsigned int id)
{
	char prefix[32], buf[64];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(prefix, sizeof(prefix), "fpga_sim%u-", id);
	d = opendir(KIRQ);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (irq_attr(de->d_name, "chip_name", buf, sizeof(buf)) ||
		    strcmp(buf, "fpga_sim"))
			continue;
		if (!irq_attr(de->d_name, "name", buf, sizeof(buf)) &&
		    !strncmp(buf, prefix, strlen(prefix)))
			n++;
	}
	closedir(d);
	return n;
}

/* Irq number of card @id's vector named @suffix, or -1 */
static int find_card_irq(unsigned int id, const char *suffix)
{
	char want[64], buf[64];
	struct dirent *de;
	int irq = -1;
	DIR *d;

	snprintf(want, sizeof(want), "fpga_sim%u-%s", id, suffix);
	d = opendir(KIRQ);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!irq_attr(de->d_name, "name", buf, sizeof(buf)) &&
		    !strcmp(buf, want) &&
		    !irq_attr(de->d_name, "chip_name", buf, sizeof(buf)) &&
		    !strcmp(buf, "fpga_sim"))
			irq = atoi(de->d_name);
	}
	closedir(d);
	return irq;
}

FIXTURE(model) {
	unsigned int id;
};

FIXTURE_SETUP(model)
{
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim"));
	srand(time(NULL) ^ getpid());
	self->id = 2000 + rand() % 1000;
}

FIXTURE_TEARDOWN(model)
{
	for (unsigned int i = 0; i < 4; i++)
		sim_del(self->id + i);
	run_cmd("modprobe -r fpga_sim fpga_dfl");
}

TEST_F(model, port_dirs_follow_port_count)
{
	char path[256];

	for (unsigned int ports = 1; ports <= 4; ports++) {
		unsigned int id = self->id + ports - 1;

		ASSERT_EQ(0, sim_add(id, ports));
		for (unsigned int p = 0; p < 4; p++) {
			sim_path(path, sizeof(path), id, "port%u", p);
			EXPECT_EQ(p < ports, path_exists(path));
			for (size_t a = 0; a < ARRAY_SIZE(port_attrs); a++) {
				sim_path(path, sizeof(path), id, "port%u/%s",
					 p, port_attrs[a]);
				EXPECT_EQ(p < ports, path_exists(path))
					TH_LOG("%s", path);
			}
		}
		EXPECT_TRUE(path_exists(sim_path(path, sizeof(path), id,
						 "counters/clock")));
		EXPECT_TRUE(path_exists(sim_path(path, sizeof(path), id,
						 "counters/dma_faults")));
	}
}

TEST_F(model, inject_error_sets_errors_and_counts_irqs)
{
	unsigned int id = self->id;

	ASSERT_EQ(0, sim_add(id, 2));
	EXPECT_EQ(0, port_num(id, 1, "errors"));
	EXPECT_EQ(0, port_num(id, 1, "error_irqs"));

	ASSERT_EQ(0, port_write(id, 1, "inject_error", "0x4"));
	EXPECT_EQ(0x4, port_num(id, 1, "errors"));
	EXPECT_EQ(0x4, port_num(id, 1, "first_error"));
	ASSERT_EQ(0, port_write(id, 1, "inject_error", "1\n"));
	EXPECT_EQ(0x5, port_num(id, 1, "errors"));
	/* The first error stays the first */
	EXPECT_EQ(0x4, port_num(id, 1, "first_error"));

	/* One error interrupt per injection, on that port only */
	EXPECT_EQ(2, port_num(id, 1, "error_irqs"));
	EXPECT_EQ(0, port_num(id, 1, "user_irqs"));
	EXPECT_EQ(0, port_num(id, 0, "error_irqs"));
	EXPECT_EQ(0, port_num(id, 0, "errors"));
	EXPECT_EQ(2, card_cntr(id, "error_irqs"));

	ASSERT_EQ(0, port_write(id, 0, "inject_error", "0x8000000000000000"));
	EXPECT_EQ(0x8000000000000000ULL, port_hex(id, 0, "errors"));
	EXPECT_EQ(1, port_num(id, 0, "error_irqs"));
	EXPECT_EQ(3, card_cntr(id, "error_irqs"));
	/* Nothing else moved */
	EXPECT_EQ(0, card_cntr(id, "dma_faults"));
	EXPECT_EQ(0, card_cntr(id, "resets"));
	EXPECT_EQ(0, card_cntr(id, "dma_rd_bytes"));
}

TEST_F(model, inject_error_rejects_bad_input)
{
	unsigned int id = self->id;
	char path[256];

	ASSERT_EQ(0, sim_add(id, 1));
	EXPECT_EQ(-EINVAL, port_write(id, 0, "inject_error", "0"));
	EXPECT_EQ(-EINVAL, port_write(id, 0, "inject_error", "abc"));
	EXPECT_EQ(-EINVAL, port_write(id, 0, "inject_error", "-1"));
	EXPECT_EQ(-EINVAL, port_write(id, 0, "inject_error", "\n"));
	EXPECT_EQ(-EINVAL, port_write(id, 0, "inject_error", "1 2"));
	EXPECT_EQ(-ERANGE, port_write(id, 0, "inject_error",
				      "0x10000000000000000"));
	EXPECT_EQ(0, port_num(id, 0, "errors"));
	EXPECT_EQ(0, port_num(id, 0, "error_irqs"));
	EXPECT_EQ(0, card_cntr(id, "error_irqs"));

	/* Write-only and read-only */
	sim_path(path, sizeof(path), id, "port0/inject_error");
	EXPECT_NE(0, sysfs_read(path, path, sizeof(path)));
	EXPECT_EQ(-EACCES, port_write(id, 0, "errors", "0"));
	EXPECT_EQ(-EACCES, port_write(id, 0, "resets", "0"));
	EXPECT_EQ(-EACCES, port_write(id, 0, "irqs", "0"));
	EXPECT_EQ(0, port_num(id, 0, "resets"));
}

TEST_F(model, fail_dma_knob)
{
	unsigned int id = self->id;

	ASSERT_EQ(0, sim_add(id, 2));
	EXPECT_EQ(0, port_num(id, 1, "fail_dma"));
	ASSERT_EQ(0, port_write(id, 1, "fail_dma", "1"));
	EXPECT_EQ(1, port_num(id, 1, "fail_dma"));
	EXPECT_EQ(0, port_num(id, 0, "fail_dma"));
	ASSERT_EQ(0, port_write(id, 1, "fail_dma", "n\n"));
	EXPECT_EQ(0, port_num(id, 1, "fail_dma"));
	ASSERT_EQ(0, port_write(id, 1, "fail_dma", "Y"));
	EXPECT_EQ(1, port_num(id, 1, "fail_dma"));

	EXPECT_EQ(-EINVAL, port_write(id, 1, "fail_dma", "2"));
	EXPECT_EQ(-EINVAL, port_write(id, 1, "fail_dma", "maybe"));
	EXPECT_EQ(-EINVAL, port_write(id, 1, "fail_dma", "-1"));
	/* A rejected write changes nothing */
	EXPECT_EQ(1, port_num(id, 1, "fail_dma"));
	/* No NLB run happened: nothing faulted */
	EXPECT_EQ(0, card_cntr(id, "dma_faults"));
	EXPECT_EQ(0, port_num(id, 1, "errors"));
}

TEST_F(model, irq_domain_maps_every_vector)
{
	unsigned int id = self->id, ports = 3;
	char name[32], buf[64];

	ASSERT_EQ(0, count_card_irqs(id));
	ASSERT_EQ(0, sim_add(id, ports));
	EXPECT_EQ(VECS_PER_PORT * ports + 1, count_card_irqs(id));

	for (unsigned int p = 0; p < ports; p++) {
		for (unsigned int v = 0; v < VECS_PER_PORT; v++) {
			char irq[16];
			int n;

			if (!v)
				snprintf(name, sizeof(name), "p%u-err", p);
			else
				snprintf(name, sizeof(name), "p%u-uint%u", p,
					 v - 1);
			n = find_card_irq(id, name);
			ASSERT_LT(0, n) TH_LOG("no irq %s", name);
			snprintf(irq, sizeof(irq), "%d", n);
			ASSERT_EQ(0, irq_attr(irq, "hwirq", buf, sizeof(buf)));
			EXPECT_EQ(VECS_PER_PORT * p + v, atoi(buf))
				TH_LOG("%s", name);
		}
	}
	{
		char irq[16];
		int n = find_card_irq(id, "fme-err");

		ASSERT_LT(0, n);
		snprintf(irq, sizeof(irq), "%d", n);
		ASSERT_EQ(0, irq_attr(irq, "hwirq", buf, sizeof(buf)));
		EXPECT_EQ(VECS_PER_PORT * ports, atoi(buf));
	}

	ASSERT_EQ(0, sim_del(id));
	EXPECT_EQ(0, count_card_irqs(id));
}

/* What fpga_dfl parsed from PORT_ERROR_CAP and PORT_UINT_CAP */
TEST_F(model, ports_get_their_irqs_from_the_dfl)
{
	unsigned int id = self->id, ports = 4;
	char path[256], buf[128];

	ASSERT_EQ(0, sim_add(id, ports));
	for (unsigned int p = 0; p < ports; p++) {
		int irqs[8], n = 0, off = 0, used;

		ASSERT_EQ(0, sysfs_read(sim_path(path, sizeof(path), id,
						 "port%u/irqs", p),
					buf, sizeof(buf)));
		while (n < 8 && sscanf(buf + off, "%d%n", &irqs[n], &used) == 1) {
			off += used;
			n++;
		}
		ASSERT_EQ(VECS_PER_PORT, n) TH_LOG("port%u: '%s'", p, buf);
		snprintf(path, sizeof(path), "p%u-err", p);
		EXPECT_EQ(find_card_irq(id, path), irqs[0]);
		for (int k = 0; k < 4; k++) {
			snprintf(path, sizeof(path), "p%u-uint%d", p, k);
			EXPECT_EQ(find_card_irq(id, path), irqs[1 + k])
				TH_LOG("%s", path);
		}
	}
}

static long long elapsed_us(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000LL +
	       (b->tv_nsec - a->tv_nsec) / 1000;
}

TEST_F(model, clock_runs_at_250mhz)
{
	unsigned int id = self->id;
	struct timespec t0[2], t1[2];
	long long c0, c1, inner, outer;
	int i;

	ASSERT_EQ(0, sim_add(id, 1));
	/* Running once the model made its first pass */
	for (i = 0; i < 200 && card_cntr(id, "clock") <= 0; i++)
		usleep(10000);
	/*
	 * Each read is bracketed by the clock: a sysfs read takes
	 * milliseconds on the debug kernel, so the count must lie between
	 * the time from the end of the first read to the start of the
	 * second and the time from the start of the first to the end of
	 * the second.
	 */
	clock_gettime(CLOCK_MONOTONIC, &t0[0]);
	c0 = card_cntr(id, "clock");
	clock_gettime(CLOCK_MONOTONIC, &t0[1]);
	usleep(1000000);
	clock_gettime(CLOCK_MONOTONIC, &t1[0]);
	c1 = card_cntr(id, "clock");
	clock_gettime(CLOCK_MONOTONIC, &t1[1]);
	inner = elapsed_us(&t0[1], &t1[0]);
	outer = elapsed_us(&t0[0], &t1[1]);
	ASSERT_LT(0, c0);
	TH_LOG("%lld ticks in %lld..%lld us", c1 - c0, inner, outer);
	/*
	 * 250 per us, give or take the model's polling and scheduling: the
	 * register holds the count of the model's last pass, which on a
	 * busy host can be tens of ms old (100 ms, a tenth of the window:
	 * a clock 10% off fails)
	 */
	EXPECT_LE(c1 - c0, 250 * (outer + 100000));
	EXPECT_GE(c1 - c0, 250 * (inner - 100000));
}

TEST_F(model, card_counters_sum_the_ports)
{
	unsigned int id = self->id, ports = 4;
	long long sum = 0;

	ASSERT_EQ(0, sim_add(id, ports));
	for (unsigned int p = 0; p < ports; p++)
		for (unsigned int i = 0; i <= p; i++)
			ASSERT_EQ(0, port_write(id, p, "inject_error", "2"));
	for (unsigned int p = 0; p < ports; p++) {
		EXPECT_EQ(p + 1, port_num(id, p, "error_irqs"));
		sum += port_num(id, p, "error_irqs");
	}
	EXPECT_EQ(10, sum);
	EXPECT_EQ(sum, card_cntr(id, "error_irqs"));
	EXPECT_EQ(0, card_cntr(id, "user_irqs"));
}

TEST_F(model, counters_restart_with_a_new_card)
{
	unsigned int id = self->id;

	ASSERT_EQ(0, sim_add(id, 1));
	ASSERT_EQ(0, port_write(id, 0, "inject_error", "1"));
	EXPECT_EQ(1, card_cntr(id, "error_irqs"));
	ASSERT_EQ(0, sim_del(id));
	ASSERT_EQ(0, sim_add(id, 1));
	EXPECT_EQ(0, card_cntr(id, "error_irqs"));
	EXPECT_EQ(0, port_num(id, 0, "errors"));
}

/* Seconds on Debian's kernel, minutes on the debug kernel */
TEST_F_TIMEOUT(model, create_delete_many_cards_with_pending_irqs, 300)
{
	int before = count_card_irqs(self->id);

	ASSERT_EQ(0, before);
	for (int round = 0; round < 25; round++) {
		for (unsigned int i = 0; i < 4; i++) {
			ASSERT_EQ(0, sim_add(self->id + i, i + 1));
			/* Leave an error interrupt raised on every port */
			for (unsigned int p = 0; p <= i; p++)
				ASSERT_EQ(0, port_write(self->id + i, p,
							"inject_error", "1"));
		}
		for (unsigned int i = 0; i < 4; i++)
			ASSERT_EQ(0, sim_del(self->id + i));
	}
	for (unsigned int i = 0; i < 4; i++)
		EXPECT_EQ(0, count_card_irqs(self->id + i));
}

TEST_F(model, del_device_while_knobs_are_hammered)
{
	unsigned int id = self->id;

	for (int round = 0; round < 10; round++) {
		pid_t pid;
		int st;

		ASSERT_EQ(0, sim_add(id, 2));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			char path[256];
			int ret;

			sim_path(path, sizeof(path), id, "port1/inject_error");
			/* Until the card is gone: then open() fails */
			do {
				ret = sysfs_write(path, "0x2");
			} while (!ret || ret == -ENODEV);
			_exit(ret == -ENOENT ? 0 : 1);
		}
		usleep(2000 + round * 500);
		ASSERT_EQ(0, sim_del(id));
		ASSERT_EQ(pid, waitpid(pid, &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	EXPECT_EQ(0, count_card_irqs(id));
}

TEST_F(model, module_unload_with_injected_errors)
{
	ASSERT_EQ(0, sim_add(self->id, 4));
	for (unsigned int p = 0; p < 4; p++)
		ASSERT_EQ(0, port_write(self->id, p, "inject_error", "1"));
	ASSERT_EQ(0, run_cmd("modprobe -r fpga_sim"));
	EXPECT_FALSE(path_exists(SIM_BUS));
	EXPECT_EQ(0, count_card_irqs(self->id));
}

TEST_HARNESS_MAIN
