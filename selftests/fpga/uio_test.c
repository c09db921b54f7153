// SPDX-License-Identifier: GPL-2.0-only
/*
 * uio_fpga on a simulated card: a port switched to uio_fpga is a UIO
 * device whose maps (AFU, port header, DMA buffers) agree with sysfs and
 * reach the card, whose interrupt counts, blocks, wakes and masks as UIO
 * defines, and which survives unbind, del_device and driver switches
 * while user space holds it open and mapped.
 */
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/fpga-dfl.h>

#include "kselftest_harness.h"
#include "sim_util.h"
#include "uio_util.h"
#include "nlb_util.h"

#define PORT_HDR_CTRL	0x38
#define DMA_SIZE	(1 << 20)

static sigjmp_buf sigbus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(sigbus_jmp, 1);
}

/* Does reading *@p raise SIGBUS? */
static int faults(volatile uint64_t *p)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	int ret = 0;
	uint64_t v;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(sigbus_jmp, 1) == 0) {
		v = *p;
		(void)v;
	} else {
		ret = 1;
	}
	sigaction(SIGBUS, &old, NULL);
	return ret;
}

FIXTURE(uio) {
	unsigned int card;
	int num;
	char port[32];
	char uio[32];
	char dev[48];
	char sim_port[128];
	uint64_t region_size;	/* as the port driver reports it */
	int fd;
	int card_gone;
};

static int open_uio(FIXTURE_DATA(uio) *self)
{
	if (port_uio(self->num, self->uio, sizeof(self->uio)))
		return -1;
	snprintf(self->dev, sizeof(self->dev), "/dev/%s", self->uio);
	self->fd = open(self->dev, O_RDWR);
	return self->fd < 0 ? -1 : 0;
}

FIXTURE_SETUP(uio)
{
	struct dfl_fpga_port_region_info ri = { .argsz = sizeof(ri) };
	char path[128];
	int fd;

	self->fd = -1;
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port"));
	ASSERT_EQ(0, run_cmd("modprobe uio_fpga dma_size=%d", DMA_SIZE));
	ASSERT_EQ(0, sysfs_write("/sys/module/uio_fpga/parameters/dma_size",
				 "1048576"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sim_add(self->card, 1));
	self->num = sim_port_number(self->card);
	ASSERT_GE(self->num, 0);
	snprintf(self->port, sizeof(self->port), "fpga-port.%d", self->num);
	snprintf(self->sim_port, sizeof(self->sim_port),
		 SIM_BUS "/devices/fpga_sim%u/port0", self->card);

	/* What the port driver says about region 0, before switching */
	snprintf(path, sizeof(path), "/dev/%s", self->port);
	fd = open(path, O_RDWR);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, DFL_FPGA_PORT_GET_REGION_INFO, &ri));
	self->region_size = ri.size;
	close(fd);

	ASSERT_EQ(0, port_bind(self->num, "uio_fpga"));
	ASSERT_EQ(0, open_uio(self)) {
		TH_LOG("no UIO device for %s: %s", self->port, strerror(errno));
	}
}

FIXTURE_TEARDOWN(uio)
{
	if (self->fd >= 0)
		close(self->fd);
	if (!self->card_gone)
		sim_del(self->card);
}

static volatile uint64_t *map_afu(struct __test_metadata *_metadata,
				  FIXTURE_DATA(uio) *self)
{
	void *p = uio_map(self->fd, self->uio, UIO_MAP_AFU,
			  PROT_READ | PROT_WRITE);

	EXPECT_NE(MAP_FAILED, p) {
		TH_LOG("mmap afu: %s", strerror(errno));
	}
	return p == MAP_FAILED ? NULL : p;
}

static long long sim_count(FIXTURE_DATA(uio) *self, const char *what)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/%s", self->sim_port, what);
	return sysfs_read_num(path);
}

TEST_F(uio, name_and_links)
{
	char buf[256], path[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/uio/%s/name", self->uio);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ(self->port, buf);
	snprintf(path, sizeof(path), "/sys/class/uio/%s/device", self->uio);
	n = readlink(path, buf, sizeof(buf) - 1);
	ASSERT_GT(n, 0);
	buf[n] = '\0';
	EXPECT_NE(NULL, strstr(buf, self->port));
	ASSERT_EQ(0, port_driver(self->num, buf, sizeof(buf)));
	EXPECT_STREQ("uio_fpga", buf);
	/* The port driver's node is gone; ours has the AFU's id */
	snprintf(path, sizeof(path), "/dev/%s", self->port);
	EXPECT_FALSE(path_exists(path));
	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/afu_id", self->port);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ(NLB0_AFU_ID, buf);
}

TEST_F(uio, maps_in_sysfs)
{
	static const char *const names[] = {
		"afu", "port_header", "dma0", "dma1", "dma2",
	};
	char buf[64];

	for (int i = 0; i < UIO_MAX_MAPS; i++) {
		ASSERT_EQ(0, uio_map_attr(self->uio, i, "name", buf,
					  sizeof(buf)));
		EXPECT_STREQ(names[i], buf);
		EXPECT_EQ(0, uio_map_num(self->uio, i, "offset"));
		EXPECT_EQ(0, uio_map_num(self->uio, i, "addr") & 4095);
	}
	EXPECT_EQ(self->region_size, uio_map_num(self->uio, UIO_MAP_AFU, "size"));
	EXPECT_EQ(NLB_AFU_SIZE, uio_map_num(self->uio, UIO_MAP_AFU, "size"));
	EXPECT_EQ(4096, uio_map_num(self->uio, UIO_MAP_HDR, "size"));
	for (int i = UIO_MAP_DMA0; i < UIO_MAX_MAPS; i++) {
		/* Device addresses from the card's IOMMU: [4 GiB, 128 TiB) */
		EXPECT_GE(uio_map_num(self->uio, i, "addr"), 1ULL << 32);
		EXPECT_LT(uio_map_num(self->uio, i, "addr"), 1ULL << 47);
		EXPECT_EQ(DMA_SIZE, uio_map_num(self->uio, i, "size"));
	}
	EXPECT_NE(uio_map_num(self->uio, 2, "addr"),
		  uio_map_num(self->uio, 3, "addr"));
	snprintf(buf, sizeof(buf), "/sys/class/uio/%s/maps/map5", self->uio);
	EXPECT_FALSE(path_exists(buf));
}

TEST_F(uio, mmap_offsets_and_refusals)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	for (int i = 0; i < UIO_MAX_MAPS; i++) {
		p = uio_map(self->fd, self->uio, i,
			    i == UIO_MAP_HDR ? PROT_READ : PROT_READ | PROT_WRITE);
		EXPECT_NE(MAP_FAILED, p) {
			TH_LOG("map%d: %s", i, strerror(errno));
		}
		if (p != MAP_FAILED)
			munmap(p, uio_map_num(self->uio, i, "size"));
	}
	/* Beyond the last map */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd,
				   UIO_MAX_MAPS * page));
	EXPECT_EQ(EINVAL, errno);
	/* Larger than the map */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, NLB_AFU_SIZE + page, PROT_READ,
				   MAP_SHARED, self->fd, 0));
	EXPECT_EQ(EINVAL, errno);
	/* Private copies of registers or DMA memory would not see the card */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE, self->fd, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page, PROT_READ, MAP_PRIVATE,
				   self->fd, UIO_MAP_DMA0 * page));
	EXPECT_EQ(EINVAL, errno);
	/* The port header is read-only, and stays so */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page, PROT_READ | PROT_WRITE,
				   MAP_SHARED, self->fd, UIO_MAP_HDR * page));
	EXPECT_EQ(EPERM, errno);
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd, UIO_MAP_HDR * page);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-1, mprotect(p, page, PROT_READ | PROT_WRITE));
	munmap(p, page);
	/* A part of a map, and a part of a DMA buffer */
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(1, ((volatile uint64_t *)p)[0] >> 60);
	munmap(p, page);
}

TEST_F(uio, afu_registers_through_the_map)
{
	volatile uint64_t *afu = map_afu(_metadata, self), *hdr;
	long page = sysconf(_SC_PAGESIZE);

	ASSERT_NE(NULL, afu);
	EXPECT_EQ(1, afu[0] >> 60);	/* DFH type: AFU */
	EXPECT_EQ(NLB0_AFU_GUID_L, afu[1]);
	EXPECT_EQ(NLB0_AFU_GUID_H, afu[2]);
	afu[NLB_SCRATCH / 8] = 0x1234567890abcdefULL;
	EXPECT_EQ(0x1234567890abcdefULL, afu[NLB_SCRATCH / 8]);

	hdr = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd,
		   UIO_MAP_HDR * page);
	ASSERT_NE(MAP_FAILED, hdr);
	EXPECT_EQ(4, hdr[0] >> 60);	/* FIU */
	EXPECT_EQ(1, hdr[0] & 0xfff);	/* port */
	EXPECT_EQ(0, hdr[PORT_HDR_CTRL / 8] & 0x11);	/* out of reset */
	munmap((void *)hdr, page);
	munmap((void *)afu, NLB_AFU_SIZE);
}

/* A debugger reads the map through the access op (pread /proc/self/mem) */
TEST_F(uio, debugger_access)
{
	volatile uint64_t *afu = map_afu(_metadata, self);
	uint64_t v = 0;
	int mem;

	ASSERT_NE(NULL, afu);
	mem = open("/proc/self/mem", O_RDWR);
	ASSERT_GE(mem, 0);
	EXPECT_EQ(8, pread(mem, &v, 8, (off_t)(uintptr_t)&afu[1]));
	EXPECT_EQ(NLB0_AFU_GUID_L, v);
	v = 0x5a5a;
	EXPECT_EQ(8, pwrite(mem, &v, 8, (off_t)(uintptr_t)&afu[NLB_SCRATCH / 8]));
	EXPECT_EQ(0x5a5a, afu[NLB_SCRATCH / 8]);
	close(mem);
	munmap((void *)afu, NLB_AFU_SIZE);
}

TEST_F(uio, csr_write_visible_after_rebinding_to_port)
{
	volatile uint64_t *afu = map_afu(_metadata, self);
	char path[96];
	int fd;

	ASSERT_NE(NULL, afu);
	afu[NLB_SCRATCH / 8] = 0xfeedface12345678ULL;
	munmap((void *)afu, NLB_AFU_SIZE);
	close(self->fd);
	self->fd = -1;

	ASSERT_EQ(0, port_bind(self->num, "fpga_port"));
	snprintf(path, sizeof(path), "/dev/%s", self->port);
	fd = open(path, O_RDWR);
	ASSERT_GE(fd, 0);
	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, afu);
	EXPECT_EQ(0xfeedface12345678ULL, afu[NLB_SCRATCH / 8]);
	munmap((void *)afu, NLB_AFU_SIZE);
	close(fd);
}

TEST_F(uio, reset_attribute)
{
	volatile uint64_t *afu = map_afu(_metadata, self), *hdr;
	long page = sysconf(_SC_PAGESIZE);
	long long resets = sim_count(self, "resets");
	char path[128];

	ASSERT_NE(NULL, afu);
	hdr = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd,
		   UIO_MAP_HDR * page);
	ASSERT_NE(MAP_FAILED, hdr);
	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/reset", self->port);

	/* A run in progress: reset stops the AFU (CTL reads 0 after) */
	afu[NLB_CTL / 8] = NLB_CTL_RESET_N;
	usleep(2000);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	EXPECT_EQ(0, afu[NLB_CTL / 8]);
	EXPECT_EQ(resets + 1, sim_count(self, "resets"));
	EXPECT_EQ(0, hdr[PORT_HDR_CTRL / 8] & 0x11);
	EXPECT_EQ(-EINVAL, sysfs_write(path, "0"));
	EXPECT_EQ(resets + 1, sim_count(self, "resets"));

	/* A card that does not answer: -ETIMEDOUT, and never wedged */
	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/fail_reset_ack",
		 self->card);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/reset", self->port);
	EXPECT_EQ(-ETIMEDOUT, sysfs_write(path, "1"));
	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/fail_reset_ack",
		 self->card);
	ASSERT_EQ(0, sysfs_write(path, "0"));
	EXPECT_EQ(0, hdr[PORT_HDR_CTRL / 8] & 1);
	/* and the next reset works again */
	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/reset", self->port);
	EXPECT_EQ(0, sysfs_write(path, "1"));
	EXPECT_EQ(resets + 2, sim_count(self, "resets"));
	munmap((void *)hdr, page);
	munmap((void *)afu, NLB_AFU_SIZE);
}

/*
 * One timeout for the one handshake: fpga_dfl's, which uio_fpga's and
 * fpga_port's parameters of the same name set and show; 1 us to 10 s,
 * never 0 (which would wait forever)
 */
TEST_F(uio, reset_timeout_parameter_is_validated)
{
	const char *param = "/sys/module/uio_fpga/parameters/reset_timeout_us";
	const char *core = "/sys/module/fpga_dfl/parameters/reset_timeout_us";
	const char *port = "/sys/module/fpga_port/parameters/reset_timeout_us";
	long long old = sysfs_read_num(param);
	char val[24];

	ASSERT_GT(old, 0);
	EXPECT_EQ(old, sysfs_read_num(core));
	EXPECT_EQ(-EINVAL, sysfs_write(param, "0"));
	EXPECT_EQ(-EINVAL, sysfs_write(param, "10000001"));
	EXPECT_EQ(old, sysfs_read_num(param));
	EXPECT_EQ(0, sysfs_write(param, "10000000"));
	EXPECT_EQ(10000000, sysfs_read_num(param));
	EXPECT_EQ(10000000, sysfs_read_num(core));
	EXPECT_EQ(10000000, sysfs_read_num(port));
	EXPECT_EQ(0, sysfs_write(core, "20000"));
	EXPECT_EQ(20000, sysfs_read_num(param));
	snprintf(val, sizeof(val), "%lld", old);
	EXPECT_EQ(0, sysfs_write(param, val));
}

/*
 * The last close stops the AFU and clears the DMA buffers: the next user
 * inherits neither the job nor the data.  While another file is open
 * nothing is touched: concurrent openers share all of it.
 */
TEST_F(uio, last_close_resets_and_clears_for_the_next_user)
{
	volatile uint64_t *afu = map_afu(_metadata, self);
	long long resets = sim_count(self, "resets");
	uint8_t *buf;
	size_t i;
	int other;

	ASSERT_NE(NULL, afu);
	buf = uio_map(self->fd, self->uio, UIO_MAP_DMA0, PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, buf);
	memset(buf, 0xa5, DMA_SIZE);
	afu[NLB_CTL / 8] = NLB_CTL_RESET_N;
	munmap(buf, DMA_SIZE);
	munmap((void *)afu, NLB_AFU_SIZE);

	/* Another opener keeps it all as it is */
	other = open(self->dev, O_RDWR);
	ASSERT_GE(other, 0);
	close(self->fd);
	self->fd = other;
	EXPECT_EQ(resets, sim_count(self, "resets"));
	buf = uio_map(self->fd, self->uio, UIO_MAP_DMA0, PROT_READ);
	ASSERT_NE(MAP_FAILED, buf);
	EXPECT_EQ(0xa5, buf[DMA_SIZE - 1]);
	munmap(buf, DMA_SIZE);

	/* The last one goes: the next user finds the AFU reset, no data */
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(resets + 1, sim_count(self, "resets"));
	ASSERT_EQ(0, open_uio(self));
	afu = map_afu(_metadata, self);
	ASSERT_NE(NULL, afu);
	EXPECT_EQ(0, afu[NLB_CTL / 8]);
	buf = uio_map(self->fd, self->uio, UIO_MAP_DMA0, PROT_READ);
	ASSERT_NE(MAP_FAILED, buf);
	for (i = 0; i < DMA_SIZE && !buf[i]; i++)
		;
	EXPECT_EQ(DMA_SIZE, i) {
		TH_LOG("byte %zu of the last user's buffer is still there", i);
	}
	munmap(buf, DMA_SIZE);
	munmap((void *)afu, NLB_AFU_SIZE);
}

/*
 * A card that does not stop its AFU at the last close: the next open is
 * refused (EIO) until a reset succeeds, rather than handing the buffers on
 */
TEST_F(uio, next_open_waits_for_an_afu_that_stops)
{
	long long resets = sim_count(self, "resets");
	char ack[128];

	snprintf(ack, sizeof(ack), SIM_BUS "/devices/fpga_sim%u/fail_reset_ack",
		 self->card);
	ASSERT_EQ(0, sysfs_write(ack, "1"));
	close(self->fd);
	self->fd = open(self->dev, O_RDWR);
	EXPECT_EQ(-1, self->fd);
	EXPECT_EQ(EIO, errno);
	ASSERT_EQ(0, sysfs_write(ack, "0"));
	self->fd = open(self->dev, O_RDWR);
	ASSERT_GE(self->fd, 0) {
		TH_LOG("open after the card answers again: %s", strerror(errno));
	}
	/* The failed close's reset, the refused open's, the one that worked */
	EXPECT_LE(resets + 1, sim_count(self, "resets"));
}

/*
 * An AFU that does not acknowledge the reset at unbind may still be doing
 * DMA: uio_fpga leaves it its buffers, allocated and mapped, rather than
 * free them under it, and the port takes no new user, through either
 * driver, until a reset of it succeeds: the buffers stay at their old
 * address in the port's DMA domain, where a new user's AFU would read
 * them.  After the reset that address no longer translates.
 */
TEST_F(uio, unbind_leaves_buffers_to_an_afu_that_did_not_stop)
{
	uint64_t old = uio_map_num(self->uio, UIO_MAP_DMA0, "addr");
	struct dma_buf dsm = { 0 }, dst = { 0 };
	char ack[128], path[128], dev[48];
	volatile uint64_t *afu;
	uint8_t *buf;
	int fd;

	buf = uio_map(self->fd, self->uio, UIO_MAP_DMA0, PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, buf);
	memset(buf, 0x3c, 4096);
	munmap(buf, DMA_SIZE);
	snprintf(ack, sizeof(ack), SIM_BUS "/devices/fpga_sim%u/fail_reset_ack",
		 self->card);
	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/driver/unbind",
		 self->port);
	ASSERT_EQ(0, sysfs_write(ack, "1"));
	EXPECT_EQ(0, sysfs_write(path, self->port));
	close(self->fd);
	self->fd = -1;

	/*
	 * Refused to uio_fpga's next user and to fpga_port's.  The AFU still
	 * does not acknowledge: each driver's removal resets the port, and a
	 * reset that succeeds, through either, releases the buffers.
	 */
	ASSERT_EQ(0, port_bind(self->num, "uio_fpga"));
	EXPECT_NE(0, open_uio(self));
	EXPECT_EQ(EBUSY, errno);
	if (self->fd >= 0) {
		close(self->fd);
		self->fd = -1;
	}
	ASSERT_EQ(0, port_bind(self->num, "fpga_port"));
	snprintf(dev, sizeof(dev), "/dev/%s", self->port);
	fd = open(dev, O_RDWR);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EBUSY, errno);
	if (fd >= 0)
		close(fd);

	/* Root's reset, which the AFU acknowledges now, frees them */
	ASSERT_EQ(0, sysfs_write(ack, "0"));
	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/reset", self->port);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	fd = open(dev, O_RDWR);
	ASSERT_GE(fd, 0);
	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, afu);
	ASSERT_EQ(0, dma_buf_alloc(fd, 4096, &dsm));
	ASSERT_EQ(0, dma_buf_alloc(fd, 4096, &dst));
	/*
	 * The old address reaches no old buffer: a DMA fault, or one of the
	 * new user's own buffers, which may be given that address now
	 */
	nlb_start(afu, dsm.iova, old, dst.iova, 4096 / NLB_CACHE_LINE, NLB_CFG_HELLO);
	nlb_wait(afu, dsm.va, 2000);
	EXPECT_NE(0x3c, ((uint8_t *)dst.va)[0]) {
		TH_LOG("the AFU read the old buffer at %#llx",
		       (unsigned long long)old);
	}
	nlb_write(afu, NLB_CTL, 0);
	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/errors/errors",
		 self->port);
	sysfs_write(path, "0x1");
	dma_buf_free(fd, &dst);
	dma_buf_free(fd, &dsm);
	munmap((void *)afu, NLB_AFU_SIZE);
	close(fd);
}

static int32_t read_count(int fd)
{
	int32_t n = -1;

	if (read(fd, &n, sizeof(n)) != sizeof(n))
		return -errno;
	return n;
}

static int wait_in(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLIN);
}

TEST_F(uio, irq_blocks_wakes_and_counts)
{
	volatile uint64_t *afu = map_afu(_metadata, self);
	long long raised = sim_count(self, "user_irqs");
	int32_t last = 0, n;
	int flags;

	ASSERT_NE(NULL, afu);
	/* Nothing yet: poll times out, non-blocking read says EAGAIN */
	EXPECT_FALSE(wait_in(self->fd, 100));
	flags = fcntl(self->fd, F_GETFL);
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, flags | O_NONBLOCK));
	EXPECT_EQ(-EAGAIN, read_count(self->fd));
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, flags));

	for (int i = 0; i < 5; i++) {
		/* The handler disabled the irq: user space re-enables it */
		ASSERT_EQ(0, uio_irq_control(self->fd, 1));
		afu[NLB_DOORBELL / 8] = 1;
		n = read_count(self->fd);	/* blocks until it came */
		EXPECT_GT(n, last);
		last = n;
	}
	EXPECT_EQ(raised + 5, sim_count(self, "user_irqs"));
	/* Other vectors are not this device's */
	ASSERT_EQ(0, uio_irq_control(self->fd, 1));
	afu[NLB_DOORBELL / 8] = 2;
	EXPECT_FALSE(wait_in(self->fd, 200));
	munmap((void *)afu, NLB_AFU_SIZE);
}

static void *ring_later(void *arg)
{
	volatile uint64_t *afu = arg;

	usleep(100000);
	afu[NLB_DOORBELL / 8] = 1;
	return NULL;
}

TEST_F(uio, irq_read_sleeps_until_the_interrupt)
{
	volatile uint64_t *afu = map_afu(_metadata, self);
	double t0;
	pthread_t t;

	ASSERT_NE(NULL, afu);
	ASSERT_EQ(0, uio_irq_control(self->fd, 1));
	t0 = now_ms();
	ASSERT_EQ(0, pthread_create(&t, NULL, ring_later, (void *)afu));
	EXPECT_GT(read_count(self->fd), 0);
	EXPECT_GE(now_ms() - t0, 90);
	pthread_join(t, NULL);
	munmap((void *)afu, NLB_AFU_SIZE);
}

TEST_F(uio, irq_disable_holds_it_pending)
{
	volatile uint64_t *afu = map_afu(_metadata, self);
	long long raised = sim_count(self, "user_irqs");
	int32_t before;
	int i;

	ASSERT_NE(NULL, afu);
	/* Balanced whatever is written: disable twice, enable twice */
	ASSERT_EQ(0, uio_irq_control(self->fd, 1));
	ASSERT_EQ(0, uio_irq_control(self->fd, 1));
	afu[NLB_DOORBELL / 8] = 1;
	before = read_count(self->fd);
	ASSERT_GT(before, 0);

	ASSERT_EQ(0, uio_irq_control(self->fd, 1));
	ASSERT_EQ(0, uio_irq_control(self->fd, 0));
	ASSERT_EQ(0, uio_irq_control(self->fd, 0));
	afu[NLB_DOORBELL / 8] = 1;
	/* It is raised (the model takes the doorbell when it polls) ... */
	for (i = 0; i < 500 && sim_count(self, "user_irqs") < raised + 2; i++)
		usleep(10000);
	EXPECT_EQ(raised + 2, sim_count(self, "user_irqs"));
	/* ... and held */
	EXPECT_FALSE(wait_in(self->fd, 100));
	ASSERT_EQ(0, uio_irq_control(self->fd, 1));
	EXPECT_TRUE(wait_in(self->fd, 2000));
	EXPECT_EQ(before + 1, read_count(self->fd));
	munmap((void *)afu, NLB_AFU_SIZE);
}

TEST_F(uio, bad_reads_and_writes)
{
	int32_t on = 1;
	int64_t big = 1;
	uint16_t small = 1;

	EXPECT_EQ(-1, write(self->fd, &big, sizeof(big)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, write(self->fd, &small, sizeof(small)));
	EXPECT_EQ(EINVAL, errno);
	on = 2;
	EXPECT_EQ(-1, write(self->fd, &on, sizeof(on)));
	EXPECT_EQ(EINVAL, errno);
	on = -1;
	EXPECT_EQ(-1, write(self->fd, &on, sizeof(on)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, read(self->fd, &big, sizeof(big)));
	EXPECT_EQ(EINVAL, errno);
}

/* The hello_fpga flow on the kernel's DMA buffers, completion by irq */
TEST_F(uio, dma_loopback_with_completion_irq)
{
	volatile uint64_t *afu = map_afu(_metadata, self);
	uint64_t dsm_iova, src_iova, dst_iova;
	volatile uint64_t *dsm;
	uint8_t *src, *dst;
	char path[128];

	ASSERT_NE(NULL, afu);
	dsm = uio_map(self->fd, self->uio, UIO_MAP_DMA0, PROT_READ | PROT_WRITE);
	src = uio_map(self->fd, self->uio, UIO_MAP_DMA0 + 1,
		      PROT_READ | PROT_WRITE);
	dst = uio_map(self->fd, self->uio, UIO_MAP_DMA0 + 2,
		      PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, dsm);
	ASSERT_NE(MAP_FAILED, src);
	ASSERT_NE(MAP_FAILED, dst);
	dsm_iova = uio_map_num(self->uio, UIO_MAP_DMA0, "addr");
	src_iova = uio_map_num(self->uio, UIO_MAP_DMA0 + 1, "addr");
	dst_iova = uio_map_num(self->uio, UIO_MAP_DMA0 + 2, "addr");
	for (int i = 0; i < DMA_SIZE; i++)
		src[i] = (uint8_t)(i * 7 + 3);
	memset(dst, 0, DMA_SIZE);
	memset((void *)dsm, 0, 4096);

	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/reset", self->port);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	ASSERT_EQ(0, uio_irq_control(self->fd, 1));
	nlb_start(afu, dsm_iova, src_iova, dst_iova, DMA_SIZE / NLB_CACHE_LINE,
		  NLB_CFG_HELLO | NLB_CFG_IRQ_ON_DONE);
	EXPECT_TRUE(wait_in(self->fd, 20000));
	EXPECT_GT(read_count(self->fd), 0);
	EXPECT_EQ(1, dsm[NLB_DSM_STATUS / 8] & 1);
	nlb_write(afu, NLB_CTL, NLB_CTL_HALT);
	EXPECT_EQ(0, memcmp(src, dst, DMA_SIZE));
	EXPECT_EQ(0, sim_count(self, "dma_faults"));
	munmap((void *)dsm, DMA_SIZE);
	munmap(src, DMA_SIZE);
	munmap(dst, DMA_SIZE);
	munmap((void *)afu, NLB_AFU_SIZE);
}

/* Every map of the device, mapped; faults() on each */
struct all_maps {
	volatile uint64_t *p[UIO_MAX_MAPS];
};

static void map_all(struct __test_metadata *_metadata, FIXTURE_DATA(uio) *self,
		    struct all_maps *m)
{
	for (int i = 0; i < UIO_MAX_MAPS; i++) {
		m->p[i] = uio_map(self->fd, self->uio, i, i == UIO_MAP_HDR ?
				  PROT_READ : PROT_READ | PROT_WRITE);
		ASSERT_NE(MAP_FAILED, m->p[i]);
		ASSERT_FALSE(faults(m->p[i]));
	}
}

static void expect_all_fault(struct __test_metadata *_metadata,
			     struct all_maps *m)
{
	for (int i = 0; i < UIO_MAX_MAPS; i++) {
		EXPECT_TRUE(faults(m->p[i])) {
			TH_LOG("map%d still reachable", i);
		}
		/* A page never touched before, too */
		EXPECT_TRUE(faults(m->p[i] + 4096 / 8 * (i == UIO_MAP_HDR ? 0 : 1)));
	}
}

static void unmap_all(struct all_maps *m)
{
	for (int i = 0; i < UIO_MAX_MAPS; i++)
		munmap((void *)m->p[i], i == UIO_MAP_HDR ? 4096 :
		       i == UIO_MAP_AFU ? NLB_AFU_SIZE : DMA_SIZE);
}

TEST_F(uio, unbind_with_device_open_and_mapped)
{
	struct all_maps m;
	char name[64];
	int32_t on = 1;
	pid_t pid;
	int st;

	map_all(_metadata, self, &m);
	snprintf(name, sizeof(name), "%s", self->port);
	ASSERT_EQ(0, sysfs_write(DFL_BUS "/drivers/uio_fpga/unbind", name));
	expect_all_fault(_metadata, &m);
	EXPECT_EQ(-EIO, read_count(self->fd));
	EXPECT_EQ(-1, write(self->fd, &on, sizeof(on)));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd,
				   0));
	/* A child inherits the revoked mappings: it faults too */
	pid = fork();
	if (!pid)
		_exit(faults(m.p[UIO_MAP_AFU]) ? 0 : 1);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	unmap_all(&m);
	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
}

TEST_F(uio, del_device_with_device_open_and_mapped)
{
	struct all_maps m;

	map_all(_metadata, self, &m);
	/* A loopback in flight into the DMA buffers while the card goes */
	nlb_start(m.p[UIO_MAP_AFU],
		  uio_map_num(self->uio, UIO_MAP_DMA0, "addr"),
		  uio_map_num(self->uio, UIO_MAP_DMA0 + 1, "addr"),
		  uio_map_num(self->uio, UIO_MAP_DMA0 + 2, "addr"),
		  DMA_SIZE / NLB_CACHE_LINE, NLB_CFG_HELLO);
	ASSERT_EQ(0, sim_del(self->card));
	self->card_gone = 1;
	expect_all_fault(_metadata, &m);
	EXPECT_EQ(-EIO, read_count(self->fd));
	unmap_all(&m);
	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
}

/* port <-> uio, back and forth, with the other side's mappings held */
TEST_F(uio, switch_drivers_with_mappings_held)
{
	volatile uint64_t *old_uio[3], *old_port[3];
	int old_fd[3], port_fd[3];
	char path[96];

	snprintf(path, sizeof(path), "/dev/%s", self->port);
	for (int round = 0; round < 3; round++) {
		old_uio[round] = map_afu(_metadata, self);
		ASSERT_NE(NULL, old_uio[round]);
		old_uio[round][NLB_SCRATCH / 8] = round + 100;
		old_fd[round] = self->fd;

		ASSERT_EQ(0, port_bind(self->num, "fpga_port"));
		EXPECT_TRUE(faults(old_uio[round]));
		port_fd[round] = open(path, O_RDWR);
		ASSERT_GE(port_fd[round], 0);
		old_port[round] = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE,
				       MAP_SHARED, port_fd[round], 0);
		ASSERT_NE(MAP_FAILED, old_port[round]);
		EXPECT_EQ(round + 100, old_port[round][NLB_SCRATCH / 8]);

		ASSERT_EQ(0, port_bind(self->num, "uio_fpga"));
		EXPECT_TRUE(faults(old_port[round]));
		ASSERT_EQ(0, open_uio(self));
	}
	for (int round = 0; round < 3; round++) {
		EXPECT_TRUE(faults(old_uio[round]));
		EXPECT_TRUE(faults(old_port[round]));
		munmap((void *)old_uio[round], NLB_AFU_SIZE);
		munmap((void *)old_port[round], NLB_AFU_SIZE);
		close(old_fd[round]);
		close(port_fd[round]);
	}
	/* Still a working UIO device after all that */
	volatile uint64_t *afu = map_afu(_metadata, self);

	ASSERT_NE(NULL, afu);
	EXPECT_EQ(NLB0_AFU_GUID_L, afu[1]);
	munmap((void *)afu, NLB_AFU_SIZE);
}

#define UNSAFE_DMA_PARAM	"/sys/module/fpga_dfl/parameters/allow_unsafe_dma"

/*
 * In a child that gave up root: 0 if @ro maps the AFU read-only and @rw
 * maps the AFU and a DMA buffer writable only when @unsafe (else EPERM),
 * else the step that went wrong.
 */
static int unprivileged_uio_maps(int ro, int rw, const char *uio, bool unsafe)
{
	static const int maps[] = { UIO_MAP_AFU, UIO_MAP_DMA0 };
	unsigned int i;
	void *p;

	if (setgid(65534) || setuid(65534))
		return 10;
	if (uio_map(ro, uio, UIO_MAP_AFU, PROT_READ) == MAP_FAILED)
		return 11;
	for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		p = uio_map(rw, uio, maps[i], PROT_READ | PROT_WRITE);
		if (unsafe ? p == MAP_FAILED : p != MAP_FAILED || errno != EPERM)
			return 12 + i;
		/* Read-only through it: open; if refused above, for good */
		p = uio_map(rw, uio, maps[i], PROT_READ);
		if (p == MAP_FAILED)
			return 14 + i;
		if (!unsafe && (!mprotect(p, 4096, PROT_READ | PROT_WRITE) ||
				errno != EACCES))
			return 16 + i;
	}
	return 0;
}

static int uio_maps_in_child(const char *uio, bool unsafe)
{
	char dev[48];
	int ro, rw, status;
	pid_t pid;

	snprintf(dev, sizeof(dev), "/dev/%s", uio);
	ro = open(dev, O_RDONLY);
	rw = open(dev, O_RDWR);
	pid = ro < 0 || rw < 0 ? -1 : fork();
	if (!pid)
		_exit(unprivileged_uio_maps(ro, rw, uio, unsafe));
	close(ro);
	close(rw);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Without translation the AFU's registers take physical addresses and
 * the DMA buffers are plain memory: writable maps need CAP_SYS_RAWIO
 * (or fpga_dfl.allow_unsafe_dma), read-only maps do not.
 */
TEST_F(uio, untranslated_card_maps_writable_for_root_only)
{
	unsigned int card = self->card + 1;
	char uio[32];
	int num, ret;

	ASSERT_EQ(0, sysfs_write(SIM_IOMMU_PARAM, "0"));
	ret = sim_add(card, 1);
	ASSERT_EQ(0, sysfs_write(SIM_IOMMU_PARAM, "1"));
	ASSERT_EQ(0, ret);
	num = sim_port_number(card);
	ASSERT_GE(num, 0);
	ASSERT_EQ(0, port_bind(num, "uio_fpga"));
	ASSERT_EQ(0, port_uio(num, uio, sizeof(uio)));

	EXPECT_EQ(0, uio_maps_in_child(uio, false));
	ASSERT_EQ(0, sysfs_write(UNSAFE_DMA_PARAM, "1"));
	EXPECT_EQ(0, uio_maps_in_child(uio, true));
	ASSERT_EQ(0, sysfs_write(UNSAFE_DMA_PARAM, "0"));
	/* The translated card of the fixture is open to anyone holding it */
	EXPECT_EQ(0, uio_maps_in_child(self->uio, true));
	sim_del(card);
}

TEST_F(uio, example_driver_runs)
{
	EXPECT_EQ(0, run_cmd("uio_nlb_example %s >/dev/null", self->uio));
}

/*
 * uio_fpga.afu_ids claims the NLB0 port at load and gives it back.  Four
 * module loads and unloads, each switching drivers (a port reset): more
 * than the default 30 s on the debug kernel of a busy host.
 */
TEST_F_TIMEOUT(uio, afu_ids_parameter, 120)
{
	char drv[64], path[128];

	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(0, port_bind(self->num, "fpga_port"));
	/* port_bind left fpga_port as the override: clear it */
	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/driver_override",
		 self->port);
	ASSERT_EQ(0, sysfs_write(path, "\n"));
	ASSERT_EQ(0, run_cmd("modprobe -r uio_fpga"));
	ASSERT_EQ(0, run_cmd("modprobe uio_fpga afu_ids=d8424dc4-a4a3-c413-f89e-433683f9040b"));
	ASSERT_EQ(0, port_driver(self->num, drv, sizeof(drv)));
	EXPECT_STREQ("uio_fpga", drv);
	ASSERT_EQ(0, run_cmd("modprobe -r uio_fpga"));
	ASSERT_EQ(0, port_driver(self->num, drv, sizeof(drv)));
	EXPECT_STREQ("fpga_port", drv);
	ASSERT_EQ(0, run_cmd("modprobe uio_fpga afu_ids=00000000000000000000000000000001"));
	ASSERT_EQ(0, port_driver(self->num, drv, sizeof(drv)));
	EXPECT_STREQ("fpga_port", drv);
	EXPECT_NE(0, run_cmd("modprobe -r uio_fpga && modprobe uio_fpga afu_ids=xyz 2>/dev/null"));
	run_cmd("modprobe uio_fpga");
}

TEST_HARNESS_MAIN
