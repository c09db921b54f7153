// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA through /dev/fpga-port.N on a simulated card: map/unmap validation,
 * per-file ownership, RLIMIT_MEMLOCK accounting, the NLB0 loopback
 * verified byte for byte from 64 B to over 1 GiB of 4 KiB pages, DMA to an
 * unmapped address, user and error interrupts through eventfds, and
 * unplug with DMA mapped and eventfds bound.
 */
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>

#include "kselftest_harness.h"
#include "sim_util.h"
#include "nlb_util.h"

FIXTURE(dma) {
	unsigned int card;
	char dev[64];
	char sysfs[128];
	int fd;
	volatile uint64_t *afu;
	struct dma_buf dsm;
};

FIXTURE_SETUP(dma)
{
	int num;

	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sim_add(self->card, 1));
	num = sim_port_number(self->card);
	ASSERT_GE(num, 0);
	snprintf(self->dev, sizeof(self->dev), "/dev/fpga-port.%d", num);
	snprintf(self->sysfs, sizeof(self->sysfs), DFL_DEVICES "/fpga-port.%d",
		 num);
	self->fd = open(self->dev, O_RDWR);
	ASSERT_GE(self->fd, 0);
	self->afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
			 self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->afu);
	ASSERT_EQ(0, dma_buf_alloc(self->fd, 4096, &self->dsm));
}

FIXTURE_TEARDOWN(dma)
{
	if (self->fd >= 0) {
		munmap((void *)self->afu, NLB_AFU_SIZE);
		close(self->fd);
	}
	sim_del(self->card);
	run_cmd("modprobe -r fpga_port fpga_sim fpga_dfl");
}

/* VmLck of this process, in kB */
static long vm_locked_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f;

	f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * Map two buffers of @map_len bytes, copy the @len bytes at @ofs of one to
 * the other with the AFU and check that every byte arrived and that nothing
 * was written around them (the buffers are fresh, so zero).
 */
static void loopback_window(struct __test_metadata *_metadata,
			    FIXTURE_DATA(dma) *self, uint64_t map_len,
			    uint64_t ofs, uint64_t len)
{
	uint64_t lines = (len + NLB_LINE - 1) / NLB_LINE, i, end;
	struct dma_buf src = { 0 }, dst = { 0 };
	uint8_t *s, *d;

	ASSERT_EQ(0, dma_buf_alloc(self->fd, map_len, &src)) {
		TH_LOG("cannot map %llu bytes", (unsigned long long)map_len);
	}
	ASSERT_EQ(0, dma_buf_alloc(self->fd, map_len, &dst));
	s = (uint8_t *)src.va + ofs;
	d = (uint8_t *)dst.va + ofs;
	for (i = 0; i < len; i++)
		s[i] = (uint8_t)(i * 7 + (i >> 12) + 1);
	memset(self->dsm.va, 0, 4096);

	nlb_start(self->afu, self->dsm.iova, src.iova + ofs, dst.iova + ofs,
		  lines, NLB_CFG_HELLO);
	ASSERT_EQ(0, nlb_wait(self->afu, self->dsm.va, 60000));
	EXPECT_EQ(0, memcmp(s, d, len)) {
		for (i = 0; i < len && s[i] == d[i]; i++)
			;
		TH_LOG("first difference at byte %llu of %llu",
		       (unsigned long long)i, (unsigned long long)len);
	}
	/* Nothing was written in the page before or the 1 MiB after */
	for (i = ofs < 4096 ? 0 : ofs - 4096; i < ofs; i++)
		if (((uint8_t *)dst.va)[i])
			break;
	EXPECT_EQ(ofs, i);
	end = ofs + lines * NLB_LINE;
	for (i = end; i < dst.len && i < end + (1 << 20); i++)
		if (((uint8_t *)dst.va)[i])
			break;
	EXPECT_EQ(dst.len < end + (1 << 20) ? dst.len : end + (1 << 20), i);
	dma_buf_free(self->fd, &src);
	dma_buf_free(self->fd, &dst);
}

static void loopback(struct __test_metadata *_metadata,
		     FIXTURE_DATA(dma) *self, uint64_t len)
{
	loopback_window(_metadata, self, len, 0, len);
}

TEST_F(dma, loopback_64B)	{ loopback(_metadata, self, 64); }
TEST_F(dma, loopback_4KiB)	{ loopback(_metadata, self, 4096); }
TEST_F(dma, loopback_1MiB)	{ loopback(_metadata, self, 1 << 20); }
TEST_F(dma, loopback_64MiB)	{ loopback(_metadata, self, 64 << 20); }

/*
 * Over 1 GiB of ordinary 4 KiB pages, one contiguous device range: the
 * AFU copies the 2 MiB across the 1 GiB mark up to the range's last byte
 * (copying all of it tested the emulator, not the mapping).
 */
TEST_F_TIMEOUT(dma, loopback_over_1GiB, 300)
{
	loopback_window(_metadata, self, (1ull << 30) + (1 << 20),
			(1ull << 30) - (1 << 20), 2 << 20);
}

TEST_F(dma, map_rejects_bad_arguments)
{
	struct dfl_fpga_port_dma_map m = { .argsz = sizeof(m) };
	struct sysinfo si;
	uint64_t iova = 0, other = 0;
	uint8_t *buf;

	buf = mmap(NULL, 8 * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);

	EXPECT_EQ(-EINVAL, dma_map(self->fd, buf, 0, 0, &iova));
	EXPECT_EQ(-EINVAL, dma_map(self->fd, buf + 1, 4096, 0, &iova));
	EXPECT_EQ(-EINVAL, dma_map(self->fd, buf, 100, 0, &iova));
	EXPECT_EQ(-EINVAL, dma_map(self->fd, buf, 4096, 4, &iova));
	EXPECT_EQ(-EINVAL, dma_map(self->fd, (void *)(uintptr_t)-4096ull,
				   8192, 0, &iova));
	/* Past the end of any user address space (47 or 56 bits) */
	EXPECT_EQ(-EINVAL, dma_map(self->fd, (void *)0xfffffffffff000ull,
				   8192, 0, &iova));
	/*
	 * More than the memory of the machine, inside the address space
	 * (47 bits without 5-level paging, as on the debug kernel)
	 */
	ASSERT_EQ(0, sysinfo(&si));
	EXPECT_EQ(-ENOMEM, dma_map(self->fd, buf,
				   ((__u64)si.totalram * si.mem_unit * 2) & ~4095ull,
				   0, &iova));
	/* Memory that is not there */
	munmap(buf + 4 * 4096, 4096);
	EXPECT_EQ(-EFAULT, dma_map(self->fd, buf, 8 * 4096, 0, &iova));

	m.argsz = 8;
	m.user_addr = (uintptr_t)buf;
	m.length = 4096;
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_DMA_MAP, &m));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_DMA_MAP, NULL));
	EXPECT_EQ(EFAULT, errno);

	/* Direction flags of OFS are accepted */
	ASSERT_EQ(0, dma_map(self->fd, buf, 4096, 1, &iova));
	EXPECT_EQ(0, dma_unmap(self->fd, iova));
	ASSERT_EQ(0, dma_map(self->fd, buf, 4096, 2, &iova));
	EXPECT_EQ(0, dma_unmap(self->fd, iova));
	ASSERT_EQ(0, dma_map(self->fd, buf, 4096, 3, &iova));
	EXPECT_EQ(0, dma_unmap(self->fd, iova));

	/* Overlaps with a mapped buffer */
	ASSERT_EQ(0, dma_map(self->fd, buf, 2 * 4096, 0, &iova));
	EXPECT_EQ(-EEXIST, dma_map(self->fd, buf + 4096, 4096, 0, &other));
	EXPECT_EQ(-EEXIST, dma_map(self->fd, buf, 4096, 0, &other));
	EXPECT_EQ(0, dma_unmap(self->fd, iova));
	munmap(buf, 8 * 4096);
}

TEST_F(dma, unmap_rejects_bad_arguments)
{
	struct dfl_fpga_port_dma_unmap u = { .argsz = sizeof(u) };

	u.iova = self->dsm.iova + 4096;
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_DMA_UNMAP, &u));
	EXPECT_EQ(EINVAL, errno);
	u.iova = self->dsm.iova;
	u.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_DMA_UNMAP, &u));
	EXPECT_EQ(EINVAL, errno);
	u.flags = 0;
	u.argsz = 4;
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_DMA_UNMAP, &u));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, dma_unmap(self->fd, self->dsm.iova));
	/* Twice: gone */
	EXPECT_EQ(-EINVAL, dma_unmap(self->fd, self->dsm.iova));
	self->dsm.iova = 0;
}

TEST_F(dma, mappings_belong_to_their_file)
{
	struct dma_buf b = { 0 };
	long before;
	int fd2;

	fd2 = open(self->dev, O_RDWR);
	ASSERT_GE(fd2, 0);
	before = vm_locked_kb();
	ASSERT_EQ(0, dma_buf_alloc(fd2, 64 * 4096, &b));
	EXPECT_EQ(before + 256, vm_locked_kb());
	/* Another opener cannot unmap it */
	EXPECT_EQ(-EINVAL, dma_unmap(self->fd, b.iova));
	/* Closing the owner unmaps it and uncharges the pinned pages */
	close(fd2);
	EXPECT_EQ(before, vm_locked_kb());
	munmap(b.va, b.len);
}

TEST_F(dma, memlock_limit_applies)
{
	struct rlimit rl = { .rlim_cur = 64 * 1024, .rlim_max = 64 * 1024 };
	pid_t pid;
	int status;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		uint64_t iova = 0;
		uint8_t *buf;

		/* An unprivileged process has no CAP_IPC_LOCK */
		if (setrlimit(RLIMIT_MEMLOCK, &rl) || setgid(65534) ||
		    setuid(65534))
			_exit(10);
		buf = mmap(NULL, 32 * 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (buf == MAP_FAILED)
			_exit(11);
		if (dma_map(self->fd, buf, 32 * 4096, 0, &iova) != -ENOMEM)
			_exit(12);
		if (dma_map(self->fd, buf, 8 * 4096, 0, &iova))
			_exit(13);
		if (vm_locked_kb() != 32)
			_exit(14);
		if (dma_unmap(self->fd, iova) || vm_locked_kb() != 0)
			_exit(15);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

static int bind_irq(int fd, unsigned long cmd, unsigned int vector, int efd)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = vector, .count = 1 }, .fd = efd };

	return ioctl(fd, cmd, &set) ? -errno : 0;
}

static int wait_efd(int efd, int timeout_ms, uint64_t *count)
{
	struct pollfd p = { .fd = efd, .events = POLLIN };

	if (poll(&p, 1, timeout_ms) != 1)
		return -ETIMEDOUT;
	return read(efd, count, 8) == 8 ? 0 : -EIO;
}

TEST_F(dma, user_interrupts_to_eventfd)
{
	uint64_t count = 0;
	uint32_t n = 0;
	int efd, v;

	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM, &n));
	ASSERT_EQ(4, n);
	for (v = 0; v < 4; v++) {
		efd = eventfd(0, EFD_NONBLOCK);
		ASSERT_GE(efd, 0);
		ASSERT_EQ(0, bind_irq(self->fd, DFL_FPGA_PORT_UINT_SET_IRQ, v,
				      efd));
		/* Nothing before the doorbell */
		EXPECT_EQ(-ETIMEDOUT, wait_efd(efd, 50, &count));
		nlb_write(self->afu, NLB_DOORBELL, 1ull << v);
		EXPECT_EQ(0, wait_efd(efd, 5000, &count));
		EXPECT_EQ(1, count);
		ASSERT_EQ(0, bind_irq(self->fd, DFL_FPGA_PORT_UINT_SET_IRQ, v,
				      -1));
		close(efd);
	}
}

TEST_F(dma, completion_interrupt)
{
	struct dma_buf src = { 0 }, dst = { 0 };
	uint64_t count = 0;
	int efd;

	efd = eventfd(0, EFD_NONBLOCK);
	ASSERT_GE(efd, 0);
	ASSERT_EQ(0, bind_irq(self->fd, DFL_FPGA_PORT_UINT_SET_IRQ, 0, efd));
	ASSERT_EQ(0, dma_buf_alloc(self->fd, 4096, &src));
	ASSERT_EQ(0, dma_buf_alloc(self->fd, 4096, &dst));
	memset(src.va, 0x5a, 4096);
	nlb_start(self->afu, self->dsm.iova, src.iova, dst.iova, 64,
		  NLB_CFG_HELLO | NLB_CFG_IRQ_ON_DONE);
	ASSERT_EQ(0, wait_efd(efd, 5000, &count));
	EXPECT_EQ(1, count);
	EXPECT_EQ(1, ((volatile uint64_t *)self->dsm.va)[NLB_DSM_STATUS / 8] & 1);
	EXPECT_EQ(0, memcmp(src.va, dst.va, 4096));
	close(efd);
}

TEST_F(dma, dma_to_unmapped_address_is_an_error)
{
	struct dma_buf src = { 0 }, canary = { 0 };
	char path[256], buf[64];
	uint64_t count = 0;
	uint32_t n = 0;
	int efd;

	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_ERR_GET_IRQ_NUM, &n));
	ASSERT_EQ(1, n);
	efd = eventfd(0, EFD_NONBLOCK);
	ASSERT_GE(efd, 0);
	ASSERT_EQ(0, bind_irq(self->fd, DFL_FPGA_PORT_ERR_SET_IRQ, 0, efd));

	ASSERT_EQ(0, dma_buf_alloc(self->fd, 4096, &src));
	ASSERT_EQ(0, dma_buf_alloc(self->fd, 4096, &canary));
	memset(src.va, 0x11, 4096);
	memset(canary.va, 0xcc, 4096);
	/* The page after the canary was never mapped for the device */
	nlb_start(self->afu, self->dsm.iova, src.iova, canary.iova + 4096 * 16,
		  64, NLB_CFG_HELLO);
	ASSERT_EQ(0, wait_efd(efd, 5000, &count));
	EXPECT_EQ(1, count);
	snprintf(path, sizeof(path), "%s/errors/errors", self->sysfs);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("0x1", buf);
	snprintf(path, sizeof(path), "%s/errors/first_error", self->sysfs);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("0x1", buf);
	/* Nothing was written anywhere */
	for (int i = 0; i < 4096; i++)
		if (((uint8_t *)canary.va)[i] != 0xcc) {
			EXPECT_EQ(0xcc, ((uint8_t *)canary.va)[i]);
			break;
		}
	EXPECT_EQ(0, ((volatile uint64_t *)self->dsm.va)[NLB_DSM_STATUS / 8] & 1);

	/* Clearing: a wrong value is refused, the right one clears */
	snprintf(path, sizeof(path), "%s/errors/errors", self->sysfs);
	EXPECT_EQ(-EINVAL, sysfs_write(path, "0x2"));
	ASSERT_EQ(0, sysfs_write(path, "0x1"));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("0x0", buf);
	/* The port works again */
	close(efd);
}

TEST_F(dma, unplug_with_dma_mapped_and_eventfds_bound)
{
	struct dma_buf b = { 0 };
	long before;
	int efd;

	efd = eventfd(0, EFD_NONBLOCK);
	ASSERT_GE(efd, 0);
	ASSERT_EQ(0, bind_irq(self->fd, DFL_FPGA_PORT_UINT_SET_IRQ, 0, efd));
	ASSERT_EQ(0, bind_irq(self->fd, DFL_FPGA_PORT_ERR_SET_IRQ, 0, efd));
	before = vm_locked_kb();
	ASSERT_EQ(0, dma_buf_alloc(self->fd, 256 * 4096, &b));
	EXPECT_EQ(before + 1024, vm_locked_kb());

	ASSERT_EQ(0, sim_del(self->card));
	/* The pinned pages are released at unplug, not at close */
	EXPECT_EQ(before - 4, vm_locked_kb());
	EXPECT_EQ(-ENODEV, dma_unmap(self->fd, b.iova));
	EXPECT_EQ(-ENODEV, dma_map(self->fd, b.va, 4096, 0, &b.iova));
	munmap((void *)self->afu, NLB_AFU_SIZE);
	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
	munmap(b.va, b.len);
	close(efd);
}

TEST_HARNESS_MAIN
