// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's AFU models, each programmed into a port through
 * DFL_FPGA_FME_PORT_PR: NLB3 (fpgadiag's read, write and trput modes)
 * and HE-LB (host_exerciser's), driven through their registers with DMA
 * buffers mapped through the port.  Their data, DSM and status, the
 * card's DMA counters, continuous runs, HE-LB's interrupt, a DMA fault
 * reported as NLB0 reports it, and NLB0 programmed back.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/fpga-dfl.h>

#include "kselftest_harness.h"
#include "sim_util.h"
#include "nlb_util.h"
#include "afu_models.h"
#include "pr_util.h"

#define LINES		256
#define BUF_SIZE	(LINES * NLB_CACHE_LINE)

FIXTURE(models) {
	unsigned int card;
	int num;
	int fme_fd;
	int fd;
	volatile uint64_t *afu;
	struct dma_buf src, dst, dsm;
};

/* Let go of the port: buffers, mapping, file */
static void unload(FIXTURE_DATA(models) *self)
{
	if (self->fd < 0)
		return;
	dma_buf_free(self->fd, &self->src);
	dma_buf_free(self->fd, &self->dst);
	dma_buf_free(self->fd, &self->dsm);
	munmap((void *)self->afu, NLB_AFU_SIZE);
	self->afu = MAP_FAILED;
	close(self->fd);
	self->fd = -1;
}

FIXTURE_SETUP(models)
{
	char path[256], dev[64];

	self->fd = -1;
	self->afu = MAP_FAILED;
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_fme && modprobe fpga_port"));
	self->card = sim_random_id();
	/* Port 1 stays idle: a run on port 0 must not hold up its handshakes */
	ASSERT_EQ(0, sim_add(self->card, 2));
	ASSERT_EQ(0, card_child(self->card, "fpga-fme.", path, sizeof(path)));
	snprintf(dev, sizeof(dev), "/dev/%s", strrchr(path, '/') + 1);
	self->num = sim_port_number(self->card);
	ASSERT_GE(self->num, 0);
	self->fme_fd = open(dev, O_RDWR);
	ASSERT_GE(self->fme_fd, 0) {
		TH_LOG("open %s: %s", dev, strerror(errno));
	}
}

FIXTURE_TEARDOWN(models)
{
	unload(self);
	if (self->fme_fd >= 0)
		close(self->fme_fd);
	sim_del(self->card);
	run_cmd("modprobe -r fpga_port fpga_fme fpga_sim fpga_dfl");
}

/* Port 0's counter @f on the card */
static long long port_cntr(FIXTURE_DATA(models) *self, const char *f)
{
	char path[256];

	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/port0/%s",
		 self->card, f);
	return sysfs_read_num(path);
}

static int port_attr(FIXTURE_DATA(models) *self, const char *f, char *buf,
		     size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/%s", self->num,
		 f);
	return sysfs_read(path, buf, size);
}

/*
 * Program @afu into port 0, check its afu_id, then open the port, map the
 * AFU and three buffers: source, destination and DSM
 */
static void load(struct __test_metadata *_metadata, FIXTURE_DATA(models) *self,
		 const char *afu, const char *afu_id)
{
	char dev[64], id[64];
	size_t len;
	uint8_t *bs = pr_bitstream(afu, FPGA_SIM_INTERFACE_ID, 64, &len);

	unload(self);
	ASSERT_NE(NULL, bs);
	ASSERT_EQ(0, pr_program(self->fme_fd, 0, bs, len));
	free(bs);
	ASSERT_EQ(0, port_attr(self, "afu_id", id, sizeof(id)));
	ASSERT_STREQ(afu_id, id);

	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", self->num);
	self->fd = open(dev, O_RDWR);
	ASSERT_GE(self->fd, 0) {
		TH_LOG("open %s: %s", dev, strerror(errno));
	}
	self->afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE,
			 MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->afu);
	/* An AFU DFH, the end of the port's list, with the GUID */
	EXPECT_EQ(1, self->afu[0] >> 60);
	EXPECT_EQ(1, (self->afu[0] >> 40) & 1);
	ASSERT_EQ(0, dma_buf_alloc(self->fd, BUF_SIZE, &self->src));
	ASSERT_EQ(0, dma_buf_alloc(self->fd, BUF_SIZE, &self->dst));
	ASSERT_EQ(0, dma_buf_alloc(self->fd, NLB_DSM_SIZE, &self->dsm));
}

static void fill(FIXTURE_DATA(models) *self)
{
	for (unsigned int i = 0; i < BUF_SIZE / 8; i++)
		((uint64_t *)self->src.va)[i] = 0x5a5a000000000000ull + i;
	memset(self->dst.va, 0, BUF_SIZE);
	memset(self->dsm.va, 0, NLB_DSM_SIZE);
}

/* The destination as the mode left it: a copy, the write pattern, or 0 */
static void check_dst(struct __test_metadata *_metadata,
		      FIXTURE_DATA(models) *self, int mode)
{
	uint64_t *d = self->dst.va;
	unsigned int i;

	if (mode == AFU_MODE_LPBK1) {
		EXPECT_EQ(0, memcmp(self->src.va, self->dst.va, BUF_SIZE));
		return;
	}
	for (i = 0; i < BUF_SIZE / 8; i++) {
		uint64_t want = mode == AFU_MODE_READ ? 0 : i / 8;

		if (d[i] != want) {
			EXPECT_EQ(want, d[i]) {
				TH_LOG("mode %d, word %u", mode, i);
			}
			break;
		}
	}
}

/* The card's DMA counters moved by @rd and @wr lines since @before */
static void check_cntrs(struct __test_metadata *_metadata,
			FIXTURE_DATA(models) *self, const long long before[4],
			uint64_t rd, uint64_t wr)
{
	EXPECT_EQ(before[0] + (long long)rd * 64, port_cntr(self, "dma_rd_bytes"));
	EXPECT_EQ(before[1] + (long long)wr * 64, port_cntr(self, "dma_wr_bytes"));
	EXPECT_EQ(before[2] + (long long)rd, port_cntr(self, "dma_rd_lines"));
	EXPECT_EQ(before[3] + (long long)wr, port_cntr(self, "dma_wr_lines"));
}

static void read_cntrs(FIXTURE_DATA(models) *self, long long c[4])
{
	c[0] = port_cntr(self, "dma_rd_bytes");
	c[1] = port_cntr(self, "dma_wr_bytes");
	c[2] = port_cntr(self, "dma_rd_lines");
	c[3] = port_cntr(self, "dma_wr_lines");
}

/* Lines read and written by a run of @mode over @lines */
static void mode_lines(int mode, uint64_t lines, uint64_t *rd, uint64_t *wr)
{
	*rd = mode == AFU_MODE_WRITE ? 0 : lines;
	*wr = mode == AFU_MODE_READ ? 0 : lines;
}

/* Start a run of NLB3 (@he 0) or HE-LB over LINES lines in CFG @cfg */
static void start(FIXTURE_DATA(models) *self, int he, uint64_t cfg)
{
	if (he)
		he_start(self->afu, self->dsm.iova, self->src.iova,
			 self->dst.iova, LINES, cfg);
	else
		nlb_start(self->afu, self->dsm.iova, self->src.iova,
			  self->dst.iova, LINES, cfg);
}

/* Wait for the DSM; the lines it says were read and written, 0 or -errno */
static int dsm_counts(FIXTURE_DATA(models) *self, int he, uint64_t *rd,
		      uint64_t *wr)
{
	volatile uint64_t *dsm = self->dsm.va;

	if (dsm_wait(dsm, he ? HE_DSM_STATUS : NLB_DSM_STATUS, 10000))
		return -ETIMEDOUT;
	*rd = he ? he_dsm_reads(dsm) : dsm[NLB_DSM_NUM_READS / 8] & 0xffffffff;
	*wr = he ? he_dsm_writes(dsm) : dsm[NLB_DSM_NUM_WRITES / 8] >> 32;
	return 0;
}

/*
 * Each of the four modes once: the lines the DSM counts, the data, the
 * card's counters; START cleared itself and nothing is pending after
 */
static void four_modes(struct __test_metadata *_metadata,
		       FIXTURE_DATA(models) *self, int he)
{
	volatile uint64_t *dsm = self->dsm.va;
	uint64_t rd, wr, want_rd, want_wr;
	long long before[4];
	int mode;

	for (mode = AFU_MODE_LPBK1; mode <= AFU_MODE_TRPUT; mode++) {
		fill(self);
		read_cntrs(self, before);
		start(self, he, AFU_CFG_MODE(mode));
		ASSERT_EQ(0, dsm_counts(self, he, &rd, &wr)) {
			TH_LOG("mode %d: no DSM", mode);
		}
		mode_lines(mode, LINES, &want_rd, &want_wr);
		EXPECT_EQ(want_rd, rd);
		EXPECT_EQ(want_wr, wr);
		/* No error; time passed */
		EXPECT_EQ(0, dsm[(he ? HE_DSM_STATUS : NLB_DSM_ERROR) / 8] >> 32);
		EXPECT_GT(dsm[(he ? HE_DSM_TICKS : NLB_DSM_CLOCKS) / 8], 0);
		EXPECT_EQ(NLB_CTL_RESET_N, nlb_read(self->afu, NLB_CTL));
		EXPECT_EQ(0, nlb_read(self->afu, NLB_STATUS1));
		check_dst(_metadata, self, mode);
		check_cntrs(_metadata, self, before, rd, wr);
		if (he) {
			EXPECT_EQ(wr << 32 >> 32 | rd << 32,
				  nlb_read(self->afu, HE_STATUS0));
			EXPECT_EQ(0, nlb_read(self->afu, HE_ERROR));
		}
	}
}

TEST_F(models, nlb3_read_write_trput_lpbk1)
{
	volatile uint64_t *dsm;

	load(_metadata, self, NLB3_ID, NLB3_AFU_ID);
	dsm = self->dsm.va;
	/* fpgadiag reads the clock of its bandwidth here */
	EXPECT_EQ(250, (nlb_read(self->afu, NLB_STATUS2) >> 32) & 0xffff);
	four_modes(_metadata, self, 0);
	/* A mode the card does not model ends at once, with an error */
	fill(self);
	start(self, 0, AFU_CFG_MODE(7));
	ASSERT_EQ(0, dsm_wait(dsm, NLB_DSM_STATUS, 10000));
	EXPECT_EQ(1, dsm[NLB_DSM_ERROR / 8] >> 32);
	EXPECT_EQ(0, dsm[NLB_DSM_NUM_READS / 8]);
}

/*
 * A continuous run of @mode, which goes on until software writes CTL =
 * @stop; then it ends as a completed one, the DSM counting every pass
 */
static void continuous(struct __test_metadata *_metadata,
		       FIXTURE_DATA(models) *self, int he, int mode,
		       uint64_t stop)
{
	volatile uint64_t *dsm = self->dsm.va;
	uint64_t rd, wr, want_rd, want_wr;
	long long before[4];

	fill(self);
	read_cntrs(self, before);
	start(self, he, AFU_CFG_MODE(mode) | AFU_CFG_CONT);
	usleep(100 * 1000);
	EXPECT_EQ(0, dsm[(he ? HE_DSM_STATUS : NLB_DSM_STATUS) / 8] & 1);
	EXPECT_EQ(NLB_CTL_RUN, nlb_read(self->afu, NLB_CTL));
	nlb_write(self->afu, NLB_CTL, stop);
	ASSERT_EQ(0, dsm_counts(self, he, &rd, &wr));
	mode_lines(mode, mode == AFU_MODE_WRITE ? wr : rd, &want_rd, &want_wr);
	EXPECT_EQ(want_rd, rd);
	EXPECT_EQ(want_wr, wr);
	EXPECT_GT(rd + wr, LINES) {
		TH_LOG("%llu lines in 100 ms", (unsigned long long)(rd + wr));
	}
	/* Whole lines, counted by the card as the DSM says */
	check_cntrs(_metadata, self, before, rd, wr);
}

TEST_F(models, nlb3_continuous_until_stop)
{
	load(_metadata, self, NLB3_ID, NLB3_AFU_ID);
	continuous(_metadata, self, 0, AFU_MODE_READ, NLB_CTL_HALT);
}

TEST_F(models, he_lb_lpbk_read_write_trput)
{
	uint64_t info;

	load(_metadata, self, HE_LB_ID, HE_LB_AFU_ID);
	/* 250 MHz, API version 1, no atomics */
	info = nlb_read(self->afu, HE_INFO0);
	EXPECT_EQ(250, info & 0xffff);
	EXPECT_EQ(1, (info >> 16) & 0xff);
	EXPECT_EQ(1, (info >> 24) & 1);
	four_modes(_metadata, self, 1);
}

TEST_F(models, he_lb_continuous_until_forced_completion)
{
	load(_metadata, self, HE_LB_ID, HE_LB_AFU_ID);
	continuous(_metadata, self, 1, AFU_MODE_TRPUT,
		   HE_CTL_RESET_N | HE_CTL_FORCE_CMPL);
}

static int bind_uint(int fd, unsigned int vector, int efd)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = vector, .count = 1 }, .fd = efd };

	return ioctl(fd, DFL_FPGA_PORT_UINT_SET_IRQ, &set) ? -errno : 0;
}

static int wait_efd(int efd, int timeout_ms)
{
	struct pollfd p = { .fd = efd, .events = POLLIN };
	uint64_t count;

	if (poll(&p, 1, timeout_ms) != 1)
		return -ETIMEDOUT;
	return read(efd, &count, 8) == 8 ? (int)count : -EIO;
}

TEST_F(models, he_lb_interrupt_at_the_end)
{
	long long irqs;
	int efd;

	load(_metadata, self, HE_LB_ID, HE_LB_AFU_ID);
	efd = eventfd(0, EFD_NONBLOCK);
	ASSERT_GE(efd, 0);
	/* host_exerciser --interrupt 2 */
	ASSERT_EQ(0, bind_uint(self->fd, 2, efd));
	fill(self);
	irqs = port_cntr(self, "user_irqs");
	nlb_write(self->afu, HE_INTERRUPT0, 2u << 16);
	he_start(self->afu, self->dsm.iova, self->src.iova, self->dst.iova,
		 LINES, AFU_CFG_MODE(AFU_MODE_LPBK1) | HE_CFG_INTR_TEST);
	EXPECT_EQ(1, wait_efd(efd, 10000));
	EXPECT_EQ(1, ((volatile uint64_t *)self->dsm.va)[0] & 1);
	EXPECT_EQ(0, memcmp(self->src.va, self->dst.va, BUF_SIZE));
	EXPECT_EQ(irqs + 1, port_cntr(self, "user_irqs"));
	/* Without INTR_TEST, none */
	fill(self);
	he_start(self->afu, self->dsm.iova, self->src.iova, self->dst.iova,
		 LINES, AFU_CFG_MODE(AFU_MODE_LPBK1));
	ASSERT_EQ(0, dsm_wait(self->dsm.va, HE_DSM_STATUS, 10000));
	EXPECT_EQ(-ETIMEDOUT, wait_efd(efd, 100));
	close(efd);
}

/*
 * A destination never mapped: PORT_ERR_DMA_FAULT, one dma_faults, no DSM,
 * nothing written where the mappings are, as for NLB0 (dma_test)
 */
static void dma_fault(struct __test_metadata *_metadata,
		      FIXTURE_DATA(models) *self, int he)
{
	volatile uint64_t *dsm;
	long long faults;
	char buf[64];

	dsm = self->dsm.va;
	fill(self);
	faults = port_cntr(self, "dma_faults");
	if (he)
		he_start(self->afu, self->dsm.iova, self->src.iova,
			 self->dst.iova + BUF_SIZE * 16, LINES,
			 AFU_CFG_MODE(AFU_MODE_TRPUT));
	else
		nlb_start(self->afu, self->dsm.iova, self->src.iova,
			  self->dst.iova + BUF_SIZE * 16, LINES,
			  AFU_CFG_MODE(AFU_MODE_WRITE));
	for (int i = 0; i < 1000 && port_cntr(self, "dma_faults") == faults; i++)
		usleep(10 * 1000);
	EXPECT_EQ(faults + 1, port_cntr(self, "dma_faults"));
	ASSERT_EQ(0, port_attr(self, "errors/errors", buf, sizeof(buf)));
	EXPECT_STREQ("0x1", buf);
	EXPECT_EQ(0, dsm[0]);
	EXPECT_EQ(0, dsm[NLB_DSM_STATUS / 8]);
	check_dst(_metadata, self, AFU_MODE_READ);
}

/* Cleared as NLB0's are */
static void clear_errors(struct __test_metadata *_metadata,
			 FIXTURE_DATA(models) *self)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/errors/errors",
		 self->num);
	ASSERT_EQ(0, sysfs_write(path, "0x1"));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("0x0", buf);
}

TEST_F(models, nlb3_dma_fault)
{
	load(_metadata, self, NLB3_ID, NLB3_AFU_ID);
	dma_fault(_metadata, self, 0);
	clear_errors(_metadata, self);
}

TEST_F(models, he_lb_dma_fault)
{
	load(_metadata, self, HE_LB_ID, HE_LB_AFU_ID);
	dma_fault(_metadata, self, 1);
	clear_errors(_metadata, self);
}

/* A soft reset aborts a continuous run: no DSM, the AFU idle after */
TEST_F(models, port_reset_aborts_a_continuous_run)
{
	volatile uint64_t *dsm;

	load(_metadata, self, HE_LB_ID, HE_LB_AFU_ID);
	dsm = self->dsm.va;
	fill(self);
	he_start(self->afu, self->dsm.iova, self->src.iova, self->dst.iova,
		 LINES, AFU_CFG_MODE(AFU_MODE_READ) | AFU_CFG_CONT);
	usleep(50 * 1000);
	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_RESET, NULL));
	EXPECT_EQ(0, nlb_read(self->afu, HE_CTL));
	EXPECT_EQ(0, nlb_read(self->afu, HE_STATUS1));
	usleep(50 * 1000);
	EXPECT_EQ(0, dsm[HE_DSM_STATUS / 8]);
}

/*
 * One model thread serves every port of the simulated card: a continuous
 * run on port 0, which any user of that port may start, must not keep
 * port 1's resets from being acknowledged within their timeout
 */
TEST_F(models, a_run_on_one_port_does_not_starve_anothers_reset)
{
	int other = sim_port_number_at(self->card, 1), i;
	char path[256];

	ASSERT_GE(other, 0);
	load(_metadata, self, HE_LB_ID, HE_LB_AFU_ID);
	fill(self);
	start(self, 1, AFU_CFG_MODE(AFU_MODE_READ) | AFU_CFG_CONT);
	usleep(50 * 1000);
	ASSERT_EQ(NLB_CTL_RUN, nlb_read(self->afu, NLB_CTL));
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/reset", other);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, sysfs_write(path, "1")) {
			TH_LOG("port 1's reset %d while port 0 runs", i);
		}
	/* The run went on meanwhile; port 0's own reset ends it */
	EXPECT_EQ(NLB_CTL_RUN, nlb_read(self->afu, NLB_CTL));
	EXPECT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_RESET, NULL));
}

/*
 * DMA left to an AFU that did not acknowledge the reset at unbind keeps
 * the port from a new user; a programming, whose reset the AFU then
 * acknowledges, releases it, and the new AFU's port opens
 */
TEST_F(models, programming_releases_abandoned_dma)
{
	char ack[128], path[256], dev[64], name[32];
	int fd;

	load(_metadata, self, HE_LB_ID, HE_LB_AFU_ID);
	snprintf(ack, sizeof(ack), SIM_BUS "/devices/fpga_sim%u/fail_reset_ack",
		 self->card);
	snprintf(name, sizeof(name), "fpga-port.%d", self->num);
	snprintf(path, sizeof(path), DFL_DEVICES "/%s/driver/unbind", name);
	ASSERT_EQ(0, sysfs_write(ack, "1"));
	EXPECT_EQ(0, sysfs_write(path, name));
	ASSERT_EQ(0, sysfs_write(ack, "0"));
	unload(self);
	ASSERT_EQ(0, sysfs_write("/sys/bus/fpga_dfl/drivers/fpga_port/bind",
				 name));
	snprintf(dev, sizeof(dev), "/dev/%s", name);
	fd = open(dev, O_RDWR);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EBUSY, errno);
	if (fd >= 0)
		close(fd);
	/* load() programs NLB0 and opens the port again */
	load(_metadata, self, NLB0_ID, NLB0_AFU_ID);
}

/* From HE-LB to NLB3 to NLB0, which loops back as ever */
TEST_F(models, nlb0_programmed_back)
{
	load(_metadata, self, HE_LB_ID, HE_LB_AFU_ID);
	load(_metadata, self, NLB3_ID, NLB3_AFU_ID);
	load(_metadata, self, NLB0_ID, NLB0_AFU_ID);
	fill(self);
	nlb_start(self->afu, self->dsm.iova, self->src.iova, self->dst.iova,
		  LINES, 0);
	ASSERT_EQ(0, nlb_wait(self->afu, self->dsm.va, 10000));
	EXPECT_EQ(0, memcmp(self->src.va, self->dst.va, BUF_SIZE));
}

TEST_HARNESS_MAIN
