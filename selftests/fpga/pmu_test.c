// SPDX-License-Identifier: GPL-2.0-only
/*
 * The card's perf PMU, fpga_pmu_N, through perf_event_open(2): its sysfs
 * ABI, the FME's counters/ files (the bank's registers), exact counts of known work (DMA, interrupts, resets, faults) per
 * port and per card, repeated reads, every rejected config, groups, CPU
 * hotplug, two cards, a card removed while its events count and a card
 * added again while the old one's PMU is still registered.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "perf_util.h"
#include "nlb_util.h"

FIXTURE(pmu) {
	unsigned int card;	/* fpga_sim id */
	int num;		/* card number: fpga_pmu_<num> */
	uint32_t type;
	int cpu;
	int fd;			/* port 0 */
	volatile uint64_t *afu;
	struct dma_buf dsm;
	unsigned int card2;	/* a second card, when a test adds one */
};

static int pmu_wait_exists(int num, int exists, int ms)
{
	while (pmu_exists(num) != exists && ms-- > 0)
		usleep(1000);
	return pmu_exists(num) == exists;
}

FIXTURE_SETUP(pmu)
{
	char dev[64];
	int port;

	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port && "
			     "modprobe fpga_fme"));
	self->card = sim_random_id();
	self->card2 = 0;
	ASSERT_EQ(0, sim_add(self->card, 2));
	self->num = sim_card_number(self->card);
	ASSERT_GE(self->num, 0);
	ASSERT_TRUE(pmu_wait_exists(self->num, 1, 2000));
	self->type = pmu_read_num(self->num, "type");
	ASSERT_GT(self->type, 0);
	self->cpu = pmu_read_num(self->num, "cpumask");
	ASSERT_GE(self->cpu, 0);

	port = sim_port_number(self->card);
	ASSERT_GE(port, 0);
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", port);
	self->fd = open(dev, O_RDWR);
	ASSERT_GE(self->fd, 0);
	self->afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
			 self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->afu);
	ASSERT_EQ(0, dma_buf_alloc(self->fd, 4096, &self->dsm));
}

FIXTURE_TEARDOWN(pmu)
{
	if (self->fd >= 0) {
		dma_buf_free(self->fd, &self->dsm);
		munmap((void *)self->afu, NLB_AFU_SIZE);
		close(self->fd);
	}
	if (self->card2)
		sim_del(self->card2);
	sim_del(self->card);
	run_cmd("modprobe -r fpga_fme fpga_port fpga_sim fpga_dfl");
}

/* Ring the doorbell @n times, each after the model took the last one */
static int doorbell(volatile uint64_t *afu, uint64_t bits, int n)
{
	int i, spins;

	for (i = 0; i < n; i++) {
		nlb_write(afu, NLB_DOORBELL, bits);
		for (spins = 0; nlb_read(afu, NLB_DOORBELL); spins++) {
			if (spins > 200000)
				return -ETIMEDOUT;
			usleep(10);
		}
	}
	return 0;
}

/* One loopback of @len bytes on port 0; 0 or -errno */
static int loopback(FIXTURE_DATA(pmu) *self, uint64_t len)
{
	struct dma_buf src = { 0 }, dst = { 0 };
	int ret;

	ret = dma_buf_alloc(self->fd, len, &src);
	if (ret)
		return ret;
	ret = dma_buf_alloc(self->fd, len, &dst);
	if (ret) {
		dma_buf_free(self->fd, &src);
		return ret;
	}
	memset(src.va, 0x5a, len);
	memset(self->dsm.va, 0, 4096);
	nlb_start(self->afu, self->dsm.iova, src.iova, dst.iova,
		  len / NLB_CACHE_LINE, NLB_CFG_HELLO);
	ret = nlb_wait(self->afu, self->dsm.va, 60000);
	if (!ret && memcmp(src.va, dst.va, len))
		ret = -EIO;
	dma_buf_free(self->fd, &src);
	dma_buf_free(self->fd, &dst);
	return ret;
}

TEST_F(pmu, sysfs_abi)
{
	char path[256], buf[128];
	int i;

	pmu_path(self->num, "format/event", path, sizeof(path));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("config:0-11", buf);
	pmu_path(self->num, "format/evtype", path, sizeof(path));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("config:12-15", buf);
	pmu_path(self->num, "format/portid", path, sizeof(path));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("config:16-23", buf);

	pmu_path(self->num, "events/clock", path, sizeof(path));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("event=0x00,evtype=0x00,portid=0xff", buf);
	for (i = 0; i < EV_NUM; i++) {
		char want[64], file[64];

		snprintf(file, sizeof(file), "events/%s", pmu_event_names[i]);
		pmu_path(self->num, file, path, sizeof(path));
		ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf))) {
			TH_LOG("%s missing", path);
		}
		snprintf(want, sizeof(want),
			 "event=0x%02x,evtype=0x01,portid=0xff", i);
		EXPECT_STREQ(want, buf);
	}
	/* Per port: the user gives portid */
	pmu_path(self->num, "events/port_user_irqs", path, sizeof(path));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("event=0x04,evtype=0x01,portid=?", buf);
	pmu_path(self->num, "events/port_dma_wr_bytes.unit", path, sizeof(path));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("bytes", buf);
	pmu_path(self->num, "events/dma_rd_bytes.unit", path, sizeof(path));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("bytes", buf);
	pmu_path(self->num, "events/dma_wr_bytes.scale", path, sizeof(path));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	/* Lines and interrupts have no unit */
	pmu_path(self->num, "events/dma_rd_lines.unit", path, sizeof(path));
	EXPECT_FALSE(path_exists(path));

	/* One CPU, online */
	pmu_path(self->num, "cpumask", path, sizeof(path));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_EQ(NULL, strchr(buf, ','));
	EXPECT_EQ(NULL, strchr(buf, '-'));
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 self->cpu);
	if (path_exists(path))
		EXPECT_EQ(1, sysfs_read_num(path));
}

/* Every alias opens: none is rejected by the PMU's own checks */
/* The FME's counters/ file @name (root's): the bank's register, or < 0 */
static long long fme_counter(FIXTURE_DATA(pmu) *self, const char *prefix,
			     const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-fme.%d/counters/%s%s",
		 self->num, prefix, name);
	return sysfs_read_num(path);
}

/*
 * fpga-fme.N/counters/ holds the bank's registers themselves (perf counts
 * from an event's start): the card's totals and each port's, root's only,
 * equal to what the card says it counted, and a loopback adds its bytes
 */
TEST_F(pmu, fme_counters_are_the_bank)
{
	static const char *const prefixes[] = { "", "port0_", "port1_" };
	long long before[3][EV_NUM], after;
	char path[256];
	struct stat st;
	int e, p;

	for (e = 0; e < EV_NUM; e++)
		for (p = 0; p < 3; p++) {
			snprintf(path, sizeof(path),
				 DFL_DEVICES "/fpga-fme.%d/counters/%s%s",
				 self->num, prefixes[p], pmu_event_names[e]);
			ASSERT_EQ(0, stat(path, &st)) TH_LOG("no %s", path);
			EXPECT_EQ(0400, st.st_mode & 07777) TH_LOG("%s", path);
			before[p][e] = fme_counter(self, prefixes[p], pmu_event_names[e]);
			EXPECT_EQ(sim_counter(self->card, p - 1, pmu_event_names[e]),
				  before[p][e]) TH_LOG("%s", path);
		}
	/* A two-port card: no counters of a third */
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-fme.%d/counters/port2_resets",
		 self->num);
	EXPECT_FALSE(path_exists(path));

	ASSERT_EQ(0, loopback(self, 1 << 20));
	/* The card's and port 0's, not port 1's */
	for (p = 0; p < 2; p++) {
		after = fme_counter(self, prefixes[p], "dma_rd_bytes");
		EXPECT_EQ(before[p][EV_DMA_RD_BYTES] + (1 << 20), after);
		after = fme_counter(self, prefixes[p], "dma_wr_lines");
		EXPECT_EQ(before[p][EV_DMA_WR_LINES] + 16384, after);
	}
	EXPECT_EQ(before[2][EV_DMA_RD_BYTES],
		  fme_counter(self, "port1_", "dma_rd_bytes"));
}

TEST_F(pmu, every_alias_opens)
{
	int i, fd;

	fd = perf_open(self->type, PMU_CLOCK, self->cpu, -1);
	ASSERT_GE(fd, 0);
	close(fd);
	for (i = 0; i < EV_NUM; i++) {
		fd = perf_open(self->type, PMU_BANK(i, PMU_CARD), self->cpu, -1);
		ASSERT_GE(fd, 0) {
			TH_LOG("%s: %s", pmu_event_names[i], strerror(-fd));
		}
		close(fd);
	}
}

/* 1 MiB through NLB0: exactly 1 MiB and 16384 lines each way */
TEST_F(pmu, loopback_1MiB_exact)
{
	int fd[EV_NUM][3], e, p;
	const int ports[3] = { 0, 1, PMU_CARD };

	for (e = 0; e < EV_NUM; e++)
		for (p = 0; p < 3; p++) {
			fd[e][p] = perf_open(self->type, PMU_BANK(e, ports[p]),
					     self->cpu, -1);
			ASSERT_GE(fd[e][p], 0);
		}
	ASSERT_EQ(0, loopback(self, 1 << 20));
	for (p = 0; p < 3; p += 2) {
		EXPECT_EQ(1 << 20, perf_count(fd[EV_DMA_RD_BYTES][p]));
		EXPECT_EQ(1 << 20, perf_count(fd[EV_DMA_WR_BYTES][p]));
		EXPECT_EQ(16384, perf_count(fd[EV_DMA_RD_LINES][p]));
		EXPECT_EQ(16384, perf_count(fd[EV_DMA_WR_LINES][p]));
		EXPECT_EQ(0, perf_count(fd[EV_DMA_FAULTS][p]));
	}
	/* Port 1 did nothing */
	for (e = 0; e < EV_NUM; e++)
		EXPECT_EQ(0, perf_count(fd[e][1]));
	for (e = 0; e < EV_NUM; e++)
		for (p = 0; p < 3; p++)
			close(fd[e][p]);
}

/*
 * The count of @fd once it reached @want, or what it is after @ms: the
 * model counts an interrupt after it took the doorbell, so the last ones
 * may still be on their way (a loaded debug kernel).  Counting on past
 * @want is still seen: the count is read once more at the end.
 */
static uint64_t perf_count_settled(int fd, uint64_t want, int ms)
{
	while (perf_count(fd) < want && ms-- > 0)
		usleep(1000);
	usleep(10000);
	return perf_count(fd);
}

/* N doorbells give N user interrupts on that port and the card */
TEST_F(pmu, user_irqs_exact)
{
	int p0, p1, card;

	p0 = perf_open(self->type, PMU_BANK(EV_USER_IRQS, 0), self->cpu, -1);
	p1 = perf_open(self->type, PMU_BANK(EV_USER_IRQS, 1), self->cpu, -1);
	card = perf_open(self->type, PMU_BANK(EV_USER_IRQS, PMU_CARD),
			 self->cpu, -1);
	ASSERT_GE(p0, 0);
	ASSERT_GE(p1, 0);
	ASSERT_GE(card, 0);
	ASSERT_EQ(0, doorbell(self->afu, 1, 37));
	/* One write of four bits raises four interrupts */
	ASSERT_EQ(0, doorbell(self->afu, 0xf, 1));
	EXPECT_EQ(41, perf_count_settled(p0, 41, 2000));
	EXPECT_EQ(0, perf_count(p1));
	EXPECT_EQ(41, perf_count_settled(card, 41, 2000));
	close(p0);
	close(p1);
	close(card);
}

/* N error injections on port 1 give N error interrupts there */
TEST_F(pmu, error_irqs_exact)
{
	char path[128];
	int p0, p1, i;

	p0 = perf_open(self->type, PMU_BANK(EV_ERROR_IRQS, 0), self->cpu, -1);
	p1 = perf_open(self->type, PMU_BANK(EV_ERROR_IRQS, 1), self->cpu, -1);
	ASSERT_GE(p0, 0);
	ASSERT_GE(p1, 0);
	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/port1/inject_error",
		 self->card);
	for (i = 0; i < 9; i++)
		ASSERT_EQ(0, sysfs_write(path, "0x2"));
	EXPECT_EQ(0, perf_count(p0));
	EXPECT_EQ(9, perf_count(p1));
	EXPECT_EQ(sim_counter(self->card, 1, "error_irqs"),
		  (long long)perf_count(p1));
	close(p0);
	close(p1);
}

/* N port resets give N */
TEST_F(pmu, resets_exact)
{
	long long before, saw;
	int p0, card, i, done = 0;

	p0 = perf_open(self->type, PMU_BANK(EV_RESETS, 0), self->cpu, -1);
	card = perf_open(self->type, PMU_BANK(EV_RESETS, PMU_CARD), self->cpu,
			 -1);
	ASSERT_GE(p0, 0);
	ASSERT_GE(card, 0);
	before = sim_counter(self->card, 0, "resets");
	for (i = 0; i < 6; i++)
		done += !ioctl(self->fd, DFL_FPGA_PORT_RESET, 0);
	/*
	 * A reset that timed out (a loaded emulator) may or may not have
	 * been seen by the card: its own counter says what it saw.
	 */
	saw = sim_counter(self->card, 0, "resets") - before;
	EXPECT_GE(saw, done);
	if (done == 6)
		EXPECT_EQ(6, saw);
	EXPECT_EQ(saw, (long long)perf_count(p0));
	EXPECT_EQ(saw, (long long)perf_count(card));
	close(p0);
	close(card);
}

/* A DMA to nowhere: one fault, nothing copied */
TEST_F(pmu, dma_fault_exact)
{
	uint64_t bad = 1ull << 40;	/* never mapped */
	int faults, bytes, i;

	faults = perf_open(self->type, PMU_BANK(EV_DMA_FAULTS, 0), self->cpu,
			   -1);
	bytes = perf_open(self->type, PMU_BANK(EV_DMA_RD_BYTES, 0), self->cpu,
			  -1);
	ASSERT_GE(faults, 0);
	ASSERT_GE(bytes, 0);
	memset(self->dsm.va, 0, 4096);
	nlb_start(self->afu, self->dsm.iova, bad, bad, 16, NLB_CFG_HELLO);
	for (i = 0; i < 5000 && perf_count(faults) == 0; i++)
		usleep(1000);
	EXPECT_EQ(1, perf_count(faults));
	EXPECT_EQ(0, perf_count(bytes));
	nlb_write(self->afu, NLB_CTL, NLB_CTL_HALT);
	close(faults);
	close(bytes);
}

/*
 * Reads in between do not count twice: an event read thousands of times
 * ends where one read once does, and where the model's own counter does.
 */
TEST_F(pmu, repeated_reads_no_double_count)
{
	long long before, after;
	uint64_t last = 0, v;
	int often, once, run, i;

	before = sim_counter(self->card, 0, "dma_rd_bytes");
	often = perf_open(self->type, PMU_BANK(EV_DMA_RD_BYTES, 0), self->cpu,
			  -1);
	once = perf_open(self->type, PMU_BANK(EV_DMA_RD_BYTES, 0), self->cpu,
			 -1);
	ASSERT_GE(often, 0);
	ASSERT_GE(once, 0);
	for (run = 0; run < 8; run++) {
		ASSERT_EQ(0, loopback(self, 256 << 10));
		for (i = 0; i < 500; i++) {
			v = perf_count(often);
			ASSERT_GE(v, last);	/* never goes back */
			last = v;
		}
	}
	after = sim_counter(self->card, 0, "dma_rd_bytes");
	EXPECT_EQ(8ull * (256 << 10), perf_count(often));
	EXPECT_EQ(8ull * (256 << 10), perf_count(once));
	EXPECT_EQ(after - before, (long long)perf_count(once));
	close(often);
	close(once);
}

/*
 * The card's 250 MHz clock runs, and counts what the model's clock
 * register advanced in between (the model updates it as it polls, so
 * not time itself).
 */
TEST_F(pmu, clock_counts_model_clock)
{
	long long c0, c1;
	uint64_t v;
	int fd;

	c0 = sim_counter(self->card, -1, "clock");
	fd = perf_open(self->type, PMU_CLOCK, self->cpu, -1);
	ASSERT_GE(fd, 0);
	EXPECT_TRUE(perf_count_moves(fd));
	v = perf_count(fd);
	c1 = sim_counter(self->card, -1, "clock");
	EXPECT_GT(v, 0);
	EXPECT_LE(v, (uint64_t)(c1 - c0));
	close(fd);
}

TEST_F(pmu, rejects_bad_configs)
{
	struct perf_event_attr attr = {
		.type = self->type, .size = sizeof(attr),
		.config = PMU_BANK(EV_USER_IRQS, PMU_CARD),
	};
	struct {
		uint64_t config;
		int err;
	} bad[] = {
		{ PMU_BANK(EV_NUM, PMU_CARD), EINVAL },	/* unknown event */
		{ PMU_BANK(0xfff, 0), EINVAL },
		{ PMU_EVENT(0) | PMU_EVTYPE(2) | PMU_PORTID(PMU_CARD), EINVAL },
		{ PMU_EVENT(0) | PMU_EVTYPE(0xf) | PMU_PORTID(PMU_CARD), EINVAL },
		{ PMU_EVENT(1) | PMU_EVTYPE(0) | PMU_PORTID(PMU_CARD), EINVAL },
		{ PMU_EVENT(0) | PMU_EVTYPE(0) | PMU_PORTID(0), EINVAL },
		{ PMU_BANK(0, 2), EINVAL },	/* the card has 2 ports */
		{ PMU_BANK(0, 4), EINVAL },
		{ PMU_BANK(0, 0xfe), EINVAL },
		{ PMU_BANK(0, 0) | 1ull << 24, EINVAL },	/* reserved */
		{ PMU_BANK(0, 0) | 1ull << 63, EINVAL },
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-bad[i].err, perf_open(self->type, bad[i].config,
						 self->cpu, -1)) {
			TH_LOG("config 0x%llx", (unsigned long long)bad[i].config);
		}
	}
	/* Port 1 exists */
	i = perf_open(self->type, PMU_BANK(0, 1), self->cpu, -1);
	ASSERT_GE((int)i, 0);
	close(i);

	attr.config1 = 1;
	EXPECT_EQ(-EINVAL, perf_open_attr(&attr, -1, self->cpu, -1));
	attr.config1 = 0;
	attr.config2 = 1;
	EXPECT_EQ(-EINVAL, perf_open_attr(&attr, -1, self->cpu, -1));
	attr.config2 = 0;

	/* Sampling: no overflow interrupt */
	attr.sample_period = 1000;
	EXPECT_EQ(-EOPNOTSUPP, perf_open_attr(&attr, -1, self->cpu, -1));
	attr.sample_period = 0;
	attr.freq = 1;
	attr.sample_freq = 100;
	EXPECT_EQ(-EOPNOTSUPP, perf_open_attr(&attr, -1, self->cpu, -1));
	attr.freq = 0;
	attr.sample_freq = 0;

	/* Per task, on any CPU or on one */
	EXPECT_EQ(-EINVAL, perf_open_attr(&attr, 0, -1, -1));
	EXPECT_EQ(-EINVAL, perf_open_attr(&attr, 0, self->cpu, -1));

	/* The card does not tell user from kernel */
	attr.exclude_user = 1;
	EXPECT_EQ(-EINVAL, perf_open_attr(&attr, -1, self->cpu, -1));
	attr.exclude_user = 0;
	attr.exclude_kernel = 1;
	EXPECT_EQ(-EINVAL, perf_open_attr(&attr, -1, self->cpu, -1));
	attr.exclude_kernel = 0;
	attr.exclude_hv = 1;
	EXPECT_EQ(-EINVAL, perf_open_attr(&attr, -1, self->cpu, -1));
	attr.exclude_hv = 0;
	attr.exclude_idle = 1;
	EXPECT_EQ(-EINVAL, perf_open_attr(&attr, -1, self->cpu, -1));
	attr.exclude_idle = 0;

	/* And the same attr without the bad bits is fine */
	i = perf_open_attr(&attr, -1, self->cpu, -1);
	ASSERT_GE((int)i, 0);
	close(i);
}

/* Groups: this PMU's events and software events only */
TEST_F(pmu, groups)
{
	struct perf_event_attr sw = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(sw),
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	struct perf_event_attr grp = {
		.type = self->type, .size = sizeof(grp),
		.config = PMU_BANK(EV_USER_IRQS, 0),
		.read_format = PERF_FORMAT_GROUP,
	};
	uint64_t vals[4];
	long long resets;
	int leader, a, b, swl, m, other, num2;
	uint32_t type2;

	/* A group of three of our events, read at once */
	leader = perf_open_attr(&grp, -1, self->cpu, -1);
	ASSERT_GE(leader, 0);
	a = perf_open(self->type, PMU_BANK(EV_USER_IRQS, PMU_CARD), self->cpu,
		      leader);
	b = perf_open(self->type, PMU_BANK(EV_RESETS, 0), self->cpu, leader);
	ASSERT_GE(a, 0);
	ASSERT_GE(b, 0);
	resets = sim_counter(self->card, 0, "resets");
	ASSERT_EQ(0, doorbell(self->afu, 1, 5));
	/* What the card saw, even if the reset timed out */
	ioctl(self->fd, DFL_FPGA_PORT_RESET, 0);
	resets = sim_counter(self->card, 0, "resets") - resets;
	ASSERT_EQ(sizeof(vals), read(leader, vals, sizeof(vals)));
	EXPECT_EQ(3, vals[0]);
	EXPECT_EQ(5, vals[1]);
	EXPECT_EQ(5, vals[2]);
	EXPECT_EQ(resets, (long long)vals[3]);
	EXPECT_GE(resets, 1);

	/* A software leader may have our events */
	swl = perf_open_attr(&sw, -1, self->cpu, -1);
	ASSERT_GE(swl, 0);
	m = perf_open(self->type, PMU_BANK(EV_USER_IRQS, 0), self->cpu, swl);
	EXPECT_GE(m, 0);
	if (m >= 0)
		close(m);

	/* Not another card's PMU */
	self->card2 = self->card + 1000;
	ASSERT_EQ(0, sim_add(self->card2, 1));
	num2 = sim_card_number(self->card2);
	ASSERT_GE(num2, 0);
	ASSERT_TRUE(pmu_wait_exists(num2, 1, 2000));
	type2 = pmu_read_num(num2, "type");
	other = perf_open(type2, PMU_BANK(0, 0), self->cpu, leader);
	EXPECT_EQ(-EINVAL, other);
	if (other >= 0)
		close(other);
	close(swl);
	close(a);
	close(b);
	close(leader);
}

/* An event opened on another CPU counts on the PMU's CPU */
TEST_F(pmu, any_cpu_counts_on_pmu_cpu)
{
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), cpu, fd;

	cpu = (self->cpu + 1) % ncpu;
	fd = perf_open(self->type, PMU_BANK(EV_USER_IRQS, 0), cpu, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, doorbell(self->afu, 1, 3));
	EXPECT_EQ(3, perf_count_settled(fd, 3, 2000));
	close(fd);
}

/* Two cards: two PMUs, each counting its own card */
TEST_F(pmu, two_cards)
{
	uint32_t type2;
	int num2, a, b;

	self->card2 = self->card + 1000;
	ASSERT_EQ(0, sim_add(self->card2, 1));
	num2 = sim_card_number(self->card2);
	ASSERT_GE(num2, 0);
	ASSERT_NE(self->num, num2);
	ASSERT_TRUE(pmu_wait_exists(num2, 1, 2000));
	type2 = pmu_read_num(num2, "type");
	ASSERT_NE(self->type, type2);
	a = perf_open(self->type, PMU_BANK(EV_USER_IRQS, PMU_CARD), self->cpu,
		      -1);
	b = perf_open(type2, PMU_BANK(EV_USER_IRQS, PMU_CARD),
		      pmu_read_num(num2, "cpumask"), -1);
	ASSERT_GE(a, 0);
	ASSERT_GE(b, 0);
	ASSERT_EQ(0, doorbell(self->afu, 1, 4));
	EXPECT_EQ(4, perf_count_settled(a, 4, 2000));
	EXPECT_EQ(0, perf_count(b));
	close(a);
	close(b);
}

/*
 * The PMU's CPU goes offline while it counts: the events move to another
 * CPU and go on counting; cpumask follows.
 */
TEST_F(pmu, cpu_hotplug)
{
	const char *online = "/sys/devices/system/cpu/cpu1/online";
	int num = self->num, cpu = self->cpu, fd, fd2, card2num;
	uint32_t type = self->type;

	if (!path_exists(online))
		SKIP(return, "no cpu1 to take offline");
	ASSERT_EQ(1, sysfs_read_num(online));
	/* Cards spread over the CPUs: the next card counts on cpu1 */
	if (cpu != 1) {
		self->card2 = self->card + 1000;
		ASSERT_EQ(0, sim_add(self->card2, 1));
		card2num = sim_card_number(self->card2);
		ASSERT_TRUE(pmu_wait_exists(card2num, 1, 2000));
		num = card2num;
		cpu = pmu_read_num(num, "cpumask");
		type = pmu_read_num(num, "type");
	}
	ASSERT_EQ(1, cpu) {
		TH_LOG("no card PMU on cpu1");
	}
	/* Count the clock, which always runs */
	fd = perf_open(type, PMU_CLOCK, cpu, -1);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(perf_count_moves(fd));

	ASSERT_EQ(0, sysfs_write(online, "0"));
	EXPECT_EQ(0, pmu_read_num(num, "cpumask"));
	EXPECT_TRUE(perf_count_moves(fd));	/* still counting */
	/* New events go to the new CPU */
	fd2 = perf_open(type, PMU_CLOCK, 0, -1);
	EXPECT_GE(fd2, 0);
	ASSERT_EQ(0, sysfs_write(online, "1"));
	/* It stays where it went */
	EXPECT_EQ(0, pmu_read_num(num, "cpumask"));
	EXPECT_TRUE(perf_count_moves(fd));
	if (fd2 >= 0)
		close(fd2);
	close(fd);
}

/* The port's files let go, so that the card can be removed */
static void close_port(FIXTURE_DATA(pmu) *self)
{
	dma_buf_free(self->fd, &self->dsm);
	munmap((void *)self->afu, NLB_AFU_SIZE);
	close(self->fd);
	self->fd = -1;
}

/* A clock event opens on the PMU and counts: its fd, or -errno */
static int clock_counts(FIXTURE_DATA(pmu) *self)
{
	int fd;

	fd = perf_open(self->type, PMU_CLOCK, self->cpu, -1);
	if (fd < 0)
		return fd;
	if (!perf_count_moves(fd)) {
		close(fd);
		return -EAGAIN;
	}
	return fd;
}

/* fpga_fme is in use while an event is open */
TEST_F(pmu, module_pinned_by_events)
{
	int fd;

	fd = perf_open(self->type, PMU_CLOCK, self->cpu, -1);
	ASSERT_GE(fd, 0);
	EXPECT_NE(0, run_cmd("modprobe -r fpga_fme 2>/dev/null"));
	EXPECT_TRUE(pmu_exists(self->num));
	close(fd);
}

/*
 * The card goes while perf counts: reads return the count at removal, a
 * new event is refused, and the PMU goes when the last event is closed.
 */
TEST_F(pmu, unplug_while_counting)
{
	uint64_t card_v, port_v;
	int card, port, fd;

	card = perf_open(self->type, PMU_BANK(EV_USER_IRQS, PMU_CARD),
			 self->cpu, -1);
	port = perf_open(self->type, PMU_BANK(EV_USER_IRQS, 0), self->cpu, -1);
	ASSERT_GE(card, 0);
	ASSERT_GE(port, 0);
	ASSERT_EQ(0, doorbell(self->afu, 1, 7));

	close_port(self);
	ASSERT_EQ(0, sim_del(self->card));

	card_v = perf_count(card);
	port_v = perf_count(port);
	EXPECT_EQ(7, card_v);
	EXPECT_EQ(7, port_v);
	usleep(10000);
	EXPECT_EQ(card_v, perf_count(card));
	/* Still registered, but for nothing new */
	EXPECT_TRUE(pmu_exists(self->num));
	fd = perf_open(self->type, PMU_CLOCK, self->cpu, -1);
	EXPECT_EQ(-ENODEV, fd);
	if (fd >= 0)
		close(fd);
	/* Disable and enable on a gone card: the count stays */
	EXPECT_EQ(0, ioctl(card, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0, ioctl(card, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(card_v, perf_count(card));

	close(port);
	EXPECT_TRUE(pmu_exists(self->num));
	close(card);
	EXPECT_TRUE(pmu_wait_exists(self->num, 0, 10000));

	/* A new card takes the number and gets a PMU again */
	ASSERT_EQ(0, sim_add(self->card, 1));
	ASSERT_EQ(self->num, sim_card_number(self->card));
	EXPECT_TRUE(pmu_wait_exists(self->num, 1, 2000));
}

/*
 * Removed while counting and added again (with one port instead of two)
 * before perf let go: the new card takes the PMU over, the old events
 * keep their last count and new ones count on the new card.
 */
TEST_F(pmu, readd_while_old_events_open)
{
	uint64_t old_v;
	int old, fd;

	old = perf_open(self->type, PMU_CLOCK, self->cpu, -1);
	ASSERT_GE(old, 0);
	fd = perf_open(self->type, PMU_BANK(EV_USER_IRQS, 1), self->cpu, -1);
	ASSERT_GE(fd, 0);
	close(fd);
	close_port(self);
	ASSERT_EQ(0, sim_del(self->card));
	old_v = perf_count(old);
	ASSERT_EQ(0, sim_add(self->card, 1));
	ASSERT_EQ(self->num, sim_card_number(self->card));
	ASSERT_TRUE(pmu_exists(self->num));
	EXPECT_EQ(self->type, pmu_read_num(self->num, "type"));

	fd = clock_counts(self);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(old_v, perf_count(old));
	/* The layout is the new card's: it has no port 1 */
	EXPECT_EQ(-EINVAL, perf_open(self->type, PMU_BANK(EV_USER_IRQS, 1),
				     self->cpu, -1));
	close(old);
	/* The new card's PMU stays after the old card's last event */
	usleep(200000);
	EXPECT_TRUE(pmu_exists(self->num));
	EXPECT_TRUE(perf_count_moves(fd));
	close(fd);
}

/*
 * Removed and added again at once, many times, with no event open: each
 * time a release may be under way when the card comes back.  The card
 * always has its PMU, and a release that ends late leaves it alone.
 */
TEST_F_TIMEOUT(pmu, readd_during_release, 180)
{
	int i, fd;

	close_port(self);
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, sim_del(self->card));
		ASSERT_EQ(0, sim_add(self->card, 2));
		ASSERT_EQ(self->num, sim_card_number(self->card));
		ASSERT_TRUE(pmu_wait_exists(self->num, 1, 2000));
		/* Within a grace period, or after one, every other time */
		if (i & 1) {
			fd = perf_open(self->type, PMU_CLOCK, self->cpu, -1);
			ASSERT_GE(fd, 0);
			close(fd);
		}
	}
	/* Releases under way end within seconds (RCU-tasks) */
	sleep(3);
	ASSERT_TRUE(pmu_exists(self->num));
	EXPECT_EQ(self->type, pmu_read_num(self->num, "type"));
	fd = clock_counts(self);
	ASSERT_GE(fd, 0);
	close(fd);
}

/*
 * The card comes and goes again while its PMU's release is under way, and
 * fpga_fme is unloaded at once: the release then takes two grace periods,
 * and the module must wait for both.
 */
TEST_F(pmu, unload_during_release)
{
	close_port(self);
	ASSERT_EQ(0, sim_del(self->card));
	ASSERT_EQ(0, sim_add(self->card, 2));
	ASSERT_EQ(0, sim_del(self->card));
	ASSERT_EQ(0, run_cmd("modprobe -r fpga_fme"));
	EXPECT_FALSE(pmu_exists(self->num));
	ASSERT_EQ(0, run_cmd("modprobe fpga_fme"));
	ASSERT_EQ(0, sim_add(self->card, 2));
	EXPECT_TRUE(pmu_wait_exists(sim_card_number(self->card), 1, 2000));
}

TEST_HARNESS_MAIN
