// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA through /dev/fpga-port.N on a simulated card: map/unmap validation,
 * per-file ownership, RLIMIT_MEMLOCK accounting, the NLB0 loopback
 * verified byte for byte from 64 B to over 1 GiB of 4 KiB pages, DMA to an
 * unmapped address, user and error interrupts through eventfds, and
 * unplug with DMA mapped and eventfds bound, what each file's fdinfo
 * says it uses.  A card made without an
 * IOMMU: physical bus addresses, and DMA and the AFU's registers refused
 * to a process without CAP_SYS_RAWIO unless fpga_dfl allows unsafe DMA.
 */
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/mount.h>
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

/* VmPin of this process (pages pinned for DMA), in kB */
static long vm_pinned_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f;

	f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
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
	uint64_t lines = (len + NLB_CACHE_LINE - 1) / NLB_CACHE_LINE, i, end;
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
	end = ofs + lines * NLB_CACHE_LINE;
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
	before = vm_pinned_kb();
	ASSERT_EQ(0, dma_buf_alloc(fd2, 64 * 4096, &b));
	EXPECT_EQ(before + 256, vm_pinned_kb());
	/* Another opener cannot unmap it */
	EXPECT_EQ(-EINVAL, dma_unmap(self->fd, b.iova));
	/*
	 * Closing the owner while another file holds the port: the AFU may
	 * still use the buffer, so it stays until the port is reset, which
	 * unmaps it and uncharges the pinned pages
	 */
	close(fd2);
	EXPECT_EQ(before + 256, vm_pinned_kb());
	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_RESET, 0));
	EXPECT_EQ(before, vm_pinned_kb());
	munmap(b.va, b.len);
}

/*
 * RLIMIT_MEMLOCK is a budget of the user's, as for io_uring: a process
 * forked from one that has pinned memory shares what is left of it.
 */
TEST_F(dma, memlock_limit_applies_per_user)
{
	struct rlimit rl = { .rlim_cur = 64 * 1024, .rlim_max = 64 * 1024 };
	pid_t pid;
	int status;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		uint64_t iova = 0, iova2 = 0;
		uint8_t *buf;
		pid_t child;

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
		if (vm_pinned_kb() != 32)
			_exit(14);
		child = fork();
		if (child < 0)
			_exit(15);
		if (!child) {
			uint8_t *mine;

			mine = mmap(NULL, 12 * 4096, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
				    -1, 0);
			if (mine == MAP_FAILED)
				_exit(1);
			/* 32 KiB of the user's 64 are pinned already */
			if (dma_map(self->fd, mine, 12 * 4096, 0,
				    &iova2) != -ENOMEM)
				_exit(2);
			if (dma_map(self->fd, mine, 8 * 4096, 0, &iova2))
				_exit(3);
			if (vm_pinned_kb() != 32 || dma_unmap(self->fd, iova2))
				_exit(4);
			_exit(0);
		}
		if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
			_exit(16);
		if (WEXITSTATUS(status))
			_exit(20 + WEXITSTATUS(status));
		if (dma_unmap(self->fd, iova) || vm_pinned_kb() != 0)
			_exit(17);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) {
		TH_LOG("step %d failed (2x: in the forked child)",
		       WEXITSTATUS(status));
	}
}

#define CGROUP_ROOT	"/sys/fs/cgroup"

/*
 * A fresh memory cgroup into @dir (cgroup2 mounted and its memory
 * controller enabled if they are not): 0, or -errno
 */
static int memcg_make(char *dir, size_t size, const char *name)
{
	char buf[256];

	/* No cgroups at all (the debug tier's kernel): nothing to test */
	if (!path_exists(CGROUP_ROOT "/cgroup.controllers") &&
	    mount("cgroup2", CGROUP_ROOT, "cgroup2", 0, NULL))
		return errno == ENOENT || errno == ENODEV ? -EOPNOTSUPP : -errno;
	if (sysfs_read(CGROUP_ROOT "/cgroup.controllers", buf, sizeof(buf)) ||
	    !strstr(buf, "memory"))
		return -EOPNOTSUPP;
	if (sysfs_read(CGROUP_ROOT "/cgroup.subtree_control", buf, sizeof(buf)) ||
	    !strstr(buf, "memory"))
		sysfs_write(CGROUP_ROOT "/cgroup.subtree_control", "+memory");
	snprintf(dir, size, CGROUP_ROOT "/%s.%d", name, getpid());
	if (mkdir(dir, 0755))
		return -errno;
	return 0;
}

/* memory.peak of cgroup @dir, or -1 */
static long long memcg_peak(const char *dir)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/memory.peak", dir);
	return sysfs_read_num(path);
}

/*
 * In memory cgroup @dir, maybe as nobody with a 64 KiB RLIMIT_MEMLOCK:
 * map 1 GiB of address space that has no pages (PROT_NONE), which fails
 * in the pin at the latest.  Exits with 0 if the map failed with @want.
 */
static int map_hole_in(const char *dir, int fd, bool nobody, int want)
{
	struct rlimit rl = { .rlim_cur = 64 * 1024, .rlim_max = 64 * 1024 };
	uint64_t iova = 0, len = 1ULL << 30;
	char path[256], pid[16];
	void *hole;

	hole = mmap(NULL, len, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (hole == MAP_FAILED)
		return 10;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (sysfs_write(path, pid))
		return 11;
	if (nobody && (setrlimit(RLIMIT_MEMLOCK, &rl) || setgid(65534) ||
		       setuid(65534)))
		return 12;
	return dma_map(fd, hole, len, 0, &iova) == want ? 0 : 13;
}

/*
 * The page array of a mapping (8 bytes a page: 2 MiB for 1 GiB) is the
 * mapper's memory cgroup's to pay, and is allocated only once the
 * RLIMIT_MEMLOCK budget was checked: a request past the budget costs
 * nothing.
 */
TEST_F(dma, page_array_is_charged_after_the_budget)
{
	const long long array = (1LL << 30) / 4096 * 8;
	char dir[128];
	int status, ret;
	pid_t pid;

	ret = memcg_make(dir, sizeof(dir), "dma_test");
	if (ret == -EOPNOTSUPP)
		SKIP(return, "no cgroup2 memory controller in this kernel");
	ASSERT_EQ(0, ret);

	/* Root: no budget; the pin fails, after the array was charged */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		_exit(map_hole_in(dir, self->fd, false, -EFAULT));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
		TH_LOG("root: step %d", WEXITSTATUS(status));
	}
	EXPECT_GE(memcg_peak(dir), array) {
		TH_LOG("peak %lld bytes: the page array was not charged",
		       memcg_peak(dir));
	}
	EXPECT_EQ(0, rmdir(dir));

	/* Past the budget: ENOMEM, and no array was allocated */
	ASSERT_EQ(0, memcg_make(dir, sizeof(dir), "dma_test_nobody"));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		_exit(map_hole_in(dir, self->fd, true, -ENOMEM));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
		TH_LOG("nobody: step %d", WEXITSTATUS(status));
	}
	EXPECT_LT(memcg_peak(dir), array / 2);
	EXPECT_EQ(0, rmdir(dir));
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
	before = vm_pinned_kb();
	ASSERT_EQ(0, dma_buf_alloc(self->fd, 256 * 4096, &b));
	EXPECT_EQ(before + 1024, vm_pinned_kb());

	ASSERT_EQ(0, sim_del(self->card));
	/* The pinned pages are released at unplug, not at close */
	EXPECT_EQ(before - 4, vm_pinned_kb());
	EXPECT_EQ(-ENODEV, dma_unmap(self->fd, b.iova));
	EXPECT_EQ(-ENODEV, dma_map(self->fd, b.va, 4096, 0, &b.iova));
	munmap((void *)self->afu, NLB_AFU_SIZE);
	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
	munmap(b.va, b.len);
	close(efd);
}

/*
 * A file closed while the AFU still copies into its buffers: they stay
 * mapped and pinned until the port is reset, so a mapping made at once
 * through another file gets fresh addresses and none of the copy.
 */
TEST_F_TIMEOUT(dma, closed_files_buffers_wait_for_a_reset, 120)
{
	struct dma_buf src = { 0 }, dst = { 0 }, dsm = { 0 }, fresh = { 0 };
	uint64_t len = 64 << 20, i;
	long before;
	int a;

	a = open(self->dev, O_RDWR);
	ASSERT_GE(a, 0);
	before = vm_pinned_kb();
	/* dst first: the lowest free IOVA, which a new mapping would get */
	ASSERT_EQ(0, dma_buf_alloc(a, len, &dst));
	ASSERT_EQ(0, dma_buf_alloc(a, len, &src));
	ASSERT_EQ(0, dma_buf_alloc(a, 4096, &dsm));
	memset(src.va, 0x5a, len);
	nlb_start(self->afu, dsm.iova, src.iova, dst.iova, len / NLB_CACHE_LINE,
		  NLB_CFG_HELLO);
	close(a);
	/* Still mapped and charged: the AFU may be using them */
	EXPECT_EQ(before + (long)((2 * len + 4096) >> 10), vm_pinned_kb());

	ASSERT_EQ(0, dma_buf_alloc(self->fd, len, &fresh));
	EXPECT_NE(dst.iova, fresh.iova);
	/* The AFU finished its job into the closed file's buffers */
	EXPECT_EQ(0, nlb_wait(self->afu, dsm.va, 60000));
	EXPECT_EQ(0, memcmp(src.va, dst.va, len));
	for (i = 0; i < len / 8; i++)
		if (((uint64_t *)fresh.va)[i])
			break;
	EXPECT_EQ(len / 8, i) {
		TH_LOG("the closed file's copy landed in a new mapping at byte %llu",
		       (unsigned long long)i * 8);
	}

	/* The reset releases them */
	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_RESET, 0));
	EXPECT_EQ(before + (long)(len >> 10), vm_pinned_kb());
	dma_buf_free(self->fd, &fresh);
	munmap(src.va, src.len);
	munmap(dst.va, dst.len);
	munmap(dsm.va, dsm.len);
}

/*
 * An AFU that does not acknowledge the reset when the port goes away may
 * still be doing DMA: the buffers stay pinned and mapped for it (VmPin
 * does not drop) rather than go back to the allocator under it.
 */
TEST_F(dma, unbind_leaves_dma_to_an_afu_that_did_not_stop)
{
	char ack[128], unbind[192], name[32];
	struct dma_buf b = { 0 };
	long before;

	ASSERT_EQ(0, dma_buf_alloc(self->fd, 64 * 1024, &b));
	before = vm_pinned_kb();
	ASSERT_GE(before, 64);
	snprintf(ack, sizeof(ack), SIM_BUS "/devices/fpga_sim%u/fail_reset_ack",
		 self->card);
	snprintf(unbind, sizeof(unbind), "%s/driver/unbind", self->sysfs);
	snprintf(name, sizeof(name), "%s", strrchr(self->sysfs, '/') + 1);
	ASSERT_EQ(0, sysfs_write(ack, "1"));
	EXPECT_EQ(0, sysfs_write(unbind, name));
	EXPECT_EQ(0, sysfs_write(ack, "0"));
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_RESET, 0));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(before, vm_pinned_kb());
	/* Closing the file gives nothing back either */
	munmap((void *)self->afu, NLB_AFU_SIZE);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(before, vm_pinned_kb());
	munmap(b.va, b.len);
}

/*
 * A new user's AFU copies the page at @iova of the port's DMA domain into
 * a buffer of its own, through @fd; 0 if it arrived equal to @want, else
 * -EIO (not copied: a DMA fault) or -EEXIST (copied, but different)
 */
static int copy_from_iova(int fd, uint64_t iova, const void *want)
{
	struct dma_buf dst = { 0 }, dsm = { 0 };
	volatile uint64_t *afu;
	int ret = -EIO;

	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		   fd, 0);
	if (afu == MAP_FAILED)
		return -errno;
	if (dma_buf_alloc(fd, 4096, &dst) || dma_buf_alloc(fd, 4096, &dsm))
		goto out;
	nlb_start(afu, dsm.iova, iova, dst.iova, 4096 / NLB_CACHE_LINE,
		  NLB_CFG_HELLO);
	if (!nlb_wait(afu, dsm.va, 2000))
		ret = memcmp(dst.va, want, 4096) ? -EEXIST : 0;
	nlb_write(afu, NLB_CTL, 0);
	dma_buf_free(fd, &dsm);
	dma_buf_free(fd, &dst);
out:
	munmap((void *)afu, NLB_AFU_SIZE);
	return ret;
}

/*
 * The mappings an AFU that did not stop was left stay in the port's DMA
 * domain, which outlives the driver: the port takes no new user until a
 * reset of it succeeds, which releases them (VmPin drops).  Without that,
 * the next user's AFU read the last user's page at its old address.
 */
TEST_F(dma, abandoned_mappings_keep_new_users_out)
{
	char ack[128], path[192], name[32], secret[4096];
	struct dma_buf b = { 0 };
	long before;
	int fd, ret;

	memset(secret, 0x5e, sizeof(secret));
	ASSERT_EQ(0, dma_buf_alloc(self->fd, 4096, &b));
	memcpy(b.va, secret, sizeof(secret));
	before = vm_pinned_kb();
	snprintf(ack, sizeof(ack), SIM_BUS "/devices/fpga_sim%u/fail_reset_ack",
		 self->card);
	snprintf(name, sizeof(name), "%s", strrchr(self->sysfs, '/') + 1);
	ASSERT_EQ(0, sysfs_write(ack, "1"));
	EXPECT_EQ(0, sysfs_write("/sys/bus/fpga_dfl/drivers/fpga_port/unbind",
				 name));
	/* The card answers again, but nothing has reset the port since */
	EXPECT_EQ(0, sysfs_write(ack, "0"));
	munmap((void *)self->afu, NLB_AFU_SIZE);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(before, vm_pinned_kb());
	ASSERT_EQ(0, sysfs_write("/sys/bus/fpga_dfl/drivers/fpga_port/bind",
				 name));

	fd = open(self->dev, O_RDWR);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EBUSY, errno);
	if (fd >= 0) {
		ret = copy_from_iova(fd, b.iova, secret);
		EXPECT_NE(0, ret) {
			TH_LOG("the new user's AFU read the last user's page at iova %#llx",
			       (unsigned long long)b.iova);
		}
		close(fd);
	}

	/* Root clears it: a reset the AFU acknowledges releases them */
	snprintf(path, sizeof(path), "%s/reset", self->sysfs);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	EXPECT_EQ(before - 8, vm_pinned_kb());
	fd = open(self->dev, O_RDWR);
	ASSERT_GE(fd, 0) {
		TH_LOG("open after the reset: %s", strerror(errno));
	}
	/*
	 * The old address no longer reaches the page: a DMA fault, or one of
	 * the new user's own buffers, which may be given that address now
	 */
	EXPECT_NE(0, copy_from_iova(fd, b.iova, secret));
	snprintf(path, sizeof(path), "%s/errors/errors", self->sysfs);
	sysfs_write(path, "0x1");
	close(fd);
	munmap(b.va, b.len);
}

/*
 * The last close could not stop the AFU: its mappings wait for a reset,
 * and the port takes no new user before (an open retries the reset)
 */
TEST_F(dma, last_close_that_did_not_stop_the_afu_keeps_new_users_out)
{
	char ack[128];
	long before;
	int fd;

	before = vm_pinned_kb();
	ASSERT_GE(before, 4);
	snprintf(ack, sizeof(ack), SIM_BUS "/devices/fpga_sim%u/fail_reset_ack",
		 self->card);
	ASSERT_EQ(0, sysfs_write(ack, "1"));
	munmap((void *)self->afu, NLB_AFU_SIZE);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(before, vm_pinned_kb());
	fd = open(self->dev, O_RDWR);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EBUSY, errno);
	if (fd >= 0)
		close(fd);
	/* The card answers again: the open's reset releases them */
	ASSERT_EQ(0, sysfs_write(ack, "0"));
	fd = open(self->dev, O_RDWR);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(before - 4, vm_pinned_kb());
	close(fd);
}

TEST_F(dma, isolation_is_per_port_behind_the_sim_iommu)
{
	char path[192], buf[32];

	snprintf(path, sizeof(path), "%s/dma_isolation", self->sysfs);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("port", buf);
}

/*
 * Each port of the simulated card has its own IOMMU domain: port 1's AFU
 * pointed at a buffer mapped through port 0 faults (port error, error
 * interrupt) and copies nothing.
 */
TEST(port_cannot_reach_another_ports_buffers)
{
	struct dma_buf pad = { 0 }, secret = { 0 }, dsm = { 0 }, dst = { 0 };
	unsigned int card = sim_random_id();
	char path[192], buf[64];
	volatile uint64_t *afu1;
	int fd[2], efd, p, num;
	uint64_t count = 0;

	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port"));
	ASSERT_EQ(0, sim_add(card, 2));
	for (p = 0; p < 2; p++) {
		num = sim_port_number_at(card, p);
		ASSERT_GE(num, 0);
		snprintf(path, sizeof(path), "/dev/fpga-port.%d", num);
		fd[p] = open(path, O_RDWR);
		ASSERT_GE(fd[p], 0);
	}
	/* Port 0: the secret above a 1 MiB pad, where port 1 maps nothing */
	ASSERT_EQ(0, dma_buf_alloc(fd[0], 1 << 20, &pad));
	ASSERT_EQ(0, dma_buf_alloc(fd[0], 4096, &secret));
	memset(secret.va, 0x5e, 4096);
	/*
	 * Port 1: its DSM and a destination, low in its own IOVA space, so
	 * the secret's address is unmapped there (in one space for the card
	 * it would be the secret)
	 */
	ASSERT_EQ(0, dma_buf_alloc(fd[1], 4096, &dsm));
	ASSERT_EQ(0, dma_buf_alloc(fd[1], 4096, &dst));
	efd = eventfd(0, EFD_NONBLOCK);
	ASSERT_GE(efd, 0);
	ASSERT_EQ(0, bind_irq(fd[1], DFL_FPGA_PORT_ERR_SET_IRQ, 0, efd));
	afu1 = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd[1], 0);
	ASSERT_NE(MAP_FAILED, afu1);

	nlb_start(afu1, dsm.iova, secret.iova, dst.iova, 4096 / NLB_CACHE_LINE,
		  NLB_CFG_HELLO);
	EXPECT_EQ(0, wait_efd(efd, 5000, &count));
	num = sim_port_number_at(card, 1);
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/errors/errors",
		 num);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("0x1", buf);
	for (p = 0; p < 4096 && !((uint8_t *)dst.va)[p]; p++)
		;
	EXPECT_EQ(4096, p) {
		TH_LOG("port 1 copied port 0's buffer");
	}
	EXPECT_EQ(0, ((volatile uint64_t *)dsm.va)[NLB_DSM_STATUS / 8] & 1);

	munmap((void *)afu1, NLB_AFU_SIZE);
	close(efd);
	close(fd[1]);
	close(fd[0]);
	munmap(pad.va, pad.len);
	munmap(secret.va, secret.len);
	munmap(dsm.va, dsm.len);
	munmap(dst.va, dst.len);
	sim_del(card);
	run_cmd("modprobe -r fpga_port fpga_sim fpga_dfl");
}

/* A number of the fdinfo of @fd ("64 KiB" reads as 64), -1 without it */
static long long fdinfo_num(int fd, const char *key)
{
	char val[64];

	if (fdinfo_get(fd, key, val, sizeof(val)))
		return -1;
	return strtoll(val, NULL, 10);
}

/*
 * /proc/PID/fdinfo/FD tells what the file uses: its port, a client id,
 * the memory its DMA mappings pin, the interrupts its eventfds got and
 * the resets it made; each follows what the file does
 */
TEST_F(dma, fdinfo_counts_what_the_file_uses)
{
	struct dma_buf big = { 0 };
	char val[64];
	uint64_t count;
	int efd, i;

	ASSERT_EQ(0, fdinfo_get(self->fd, "fpga-driver", val, sizeof(val)));
	EXPECT_STREQ("fpga_port", val);
	ASSERT_EQ(0, fdinfo_get(self->fd, "fpga-port", val, sizeof(val)));
	EXPECT_STREQ(self->dev + strlen("/dev/"), val);
	EXPECT_GT(fdinfo_num(self->fd, "fpga-client-id"), 0);
	ASSERT_EQ(0, fdinfo_get(self->fd, "fpga-memory-pinned", val,
				sizeof(val)));
	EXPECT_STREQ("4 KiB", val);	/* the fixture's DSM */
	EXPECT_EQ(4, fdinfo_num(self->fd, "fpga-memory-mapped"));
	EXPECT_EQ(0, fdinfo_num(self->fd, "fpga-interrupts"));
	EXPECT_EQ(0, fdinfo_num(self->fd, "fpga-resets"));

	ASSERT_EQ(0, dma_buf_alloc(self->fd, 64 << 10, &big));
	EXPECT_EQ(68, fdinfo_num(self->fd, "fpga-memory-pinned"));
	EXPECT_EQ(68, fdinfo_num(self->fd, "fpga-memory-mapped"));

	efd = eventfd(0, EFD_NONBLOCK);
	ASSERT_GE(efd, 0);
	ASSERT_EQ(0, bind_irq(self->fd, DFL_FPGA_PORT_UINT_SET_IRQ, 1, efd));
	for (i = 0; i < 3; i++) {
		nlb_write(self->afu, NLB_DOORBELL, 1ull << 1);
		ASSERT_EQ(0, wait_efd(efd, 5000, &count));
	}
	EXPECT_EQ(3, fdinfo_num(self->fd, "fpga-interrupts"));

	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_RESET, 0));
	EXPECT_EQ(1, fdinfo_num(self->fd, "fpga-resets"));
	/* A refused reset is not one */
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_RESET, 1));
	EXPECT_EQ(1, fdinfo_num(self->fd, "fpga-resets"));

	dma_buf_free(self->fd, &big);
	EXPECT_EQ(4, fdinfo_num(self->fd, "fpga-memory-pinned"));
	close(efd);
}

/* fpga_sim's counter clock, which its NLB0 counts a run's DSM clocks in */
#define SIM_CLOCK_MHZ	250

/*
 * fpga-engine-afu: the AFU's busy time, from the card's per-port busy
 * counter, since the file was opened.  The simulated card counts a run
 * when it ends, with the clocks the DSM reports; a file opened later sees
 * only the runs after its open, started by whichever file.
 */
TEST_F(dma, fdinfo_engine_afu_is_the_afus_busy_time)
{
	long long first, second, later;
	uint64_t clocks;
	char val[64];
	int other;

	ASSERT_EQ(0, fdinfo_get(self->fd, "fpga-engine-afu", val,
				sizeof(val))) {
		TH_LOG("the simulated card counts afu_busy_clocks");
	}
	EXPECT_STREQ("0 ns", val);

	loopback(_metadata, self, 1 << 20);
	first = fdinfo_num(self->fd, "fpga-engine-afu");
	EXPECT_GT(first, 0);
	loopback(_metadata, self, 1 << 20);
	second = fdinfo_num(self->fd, "fpga-engine-afu");
	EXPECT_GT(second, first);

	/* A file opened now: the next run only, started through another */
	other = open(self->dev, O_RDWR);
	ASSERT_GE(other, 0);
	EXPECT_EQ(0, fdinfo_num(other, "fpga-engine-afu"));
	loopback(_metadata, self, 4096);
	clocks = ((volatile uint64_t *)self->dsm.va)[NLB_DSM_CLOCKS / 8];
	later = fdinfo_num(other, "fpga-engine-afu");
	EXPECT_EQ((long long)(clocks * 1000 / SIM_CLOCK_MHZ), later);
	EXPECT_EQ(second + later, fdinfo_num(self->fd, "fpga-engine-afu"));
	close(other);
}

/*
 * Each file counts for itself, whichever node opened it; a file that
 * bound eventfds and closed leaves them bound (upstream's semantics) and
 * counted for nobody, and interrupts keep arriving safely
 */
TEST_F(dma, fdinfo_is_per_file)
{
	char upstream[64], val[64];
	uint64_t count;
	int other, efd;

	snprintf(upstream, sizeof(upstream), "/dev/dfl-port.%s",
		 self->dev + strlen("/dev/fpga-port."));
	other = open(upstream, O_RDWR);
	ASSERT_GE(other, 0);
	ASSERT_EQ(0, fdinfo_get(other, "fpga-port", val, sizeof(val)));
	EXPECT_STREQ(self->dev + strlen("/dev/"), val);
	EXPECT_NE(fdinfo_num(self->fd, "fpga-client-id"),
		  fdinfo_num(other, "fpga-client-id"));
	EXPECT_EQ(0, fdinfo_num(other, "fpga-memory-pinned"));

	efd = eventfd(0, EFD_NONBLOCK);
	ASSERT_GE(efd, 0);
	ASSERT_EQ(0, bind_irq(other, DFL_FPGA_PORT_UINT_SET_IRQ, 2, efd));
	nlb_write(self->afu, NLB_DOORBELL, 1ull << 2);
	ASSERT_EQ(0, wait_efd(efd, 5000, &count));
	EXPECT_EQ(1, fdinfo_num(other, "fpga-interrupts"));
	EXPECT_EQ(0, fdinfo_num(self->fd, "fpga-interrupts"));
	ASSERT_EQ(0, ioctl(other, DFL_FPGA_PORT_RESET, 0));
	EXPECT_EQ(0, fdinfo_num(self->fd, "fpga-resets"));

	close(other);
	nlb_write(self->afu, NLB_DOORBELL, 1ull << 2);
	EXPECT_EQ(0, wait_efd(efd, 5000, &count));
	EXPECT_EQ(0, fdinfo_num(self->fd, "fpga-interrupts"));
	close(efd);
}

#define UNSAFE_DMA_PARAM	"/sys/module/fpga_dfl/parameters/allow_unsafe_dma"
#define TAINT_USER_BIT		(1 << 6)

/* A card made with fpga_sim's iommu parameter off: no translation */
FIXTURE(dma_untranslated) {
	unsigned int card;
	char sysfs[128];
	int fd;
	volatile uint64_t *afu;
};

FIXTURE_SETUP(dma_untranslated)
{
	char dev[64];
	int num, ret;

	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sysfs_write(SIM_IOMMU_PARAM, "0"));
	ret = sim_add(self->card, 1);
	/* Only this card: the parameter goes back before anything else */
	ASSERT_EQ(0, sysfs_write(SIM_IOMMU_PARAM, "1"));
	ASSERT_EQ(0, ret);
	num = sim_port_number(self->card);
	ASSERT_GE(num, 0);
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", num);
	snprintf(self->sysfs, sizeof(self->sysfs), DFL_DEVICES "/fpga-port.%d",
		 num);
	self->fd = open(dev, O_RDWR);
	ASSERT_GE(self->fd, 0);
	self->afu = MAP_FAILED;
}

FIXTURE_TEARDOWN(dma_untranslated)
{
	sysfs_write(UNSAFE_DMA_PARAM, "0");
	if (self->afu != MAP_FAILED)
		munmap((void *)self->afu, NLB_AFU_SIZE);
	if (self->fd >= 0)
		close(self->fd);
	sim_del(self->card);
	run_cmd("modprobe -r fpga_port fpga_sim fpga_dfl");
}

/* Physical address of the byte at @va of this process, or 0 */
static uint64_t phys_addr(void *va)
{
	uint64_t entry = 0, page = sysconf(_SC_PAGESIZE);
	off_t ofs = (uintptr_t)va / page * sizeof(entry);
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		return 0;
	if (pread(fd, &entry, sizeof(entry), ofs) != sizeof(entry))
		entry = 0;
	close(fd);
	/* Bit 63: present; bits 0-54: the page frame (root only) */
	if (!(entry >> 63) || !(entry & ((1ull << 55) - 1)))
		return 0;
	return (entry & ((1ull << 55) - 1)) * page + (uintptr_t)va % page;
}

TEST_F(dma_untranslated, isolation_is_none)
{
	char path[192], buf[32];

	snprintf(path, sizeof(path), "%s/dma_isolation", self->sysfs);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("none", buf);
}

/* Root maps: the card is handed physical addresses, and DMA works */
TEST_F(dma_untranslated, root_gets_physical_addresses)
{
	struct dma_buf dsm = { 0 }, src = { 0 }, dst = { 0 };
	unsigned int i;

	self->afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE,
			 MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->afu);
	ASSERT_EQ(0, dma_buf_alloc(self->fd, 4096, &dsm));
	ASSERT_EQ(0, dma_buf_alloc(self->fd, 4096, &src));
	ASSERT_EQ(0, dma_buf_alloc(self->fd, 4096, &dst));
	EXPECT_EQ(phys_addr(src.va), src.iova);
	EXPECT_EQ(phys_addr(dst.va), dst.iova);
	EXPECT_NE(0, src.iova);

	for (i = 0; i < 4096; i++)
		((uint8_t *)src.va)[i] = (uint8_t)(i * 13 + 5);
	nlb_start(self->afu, dsm.iova, src.iova, dst.iova, 4096 / NLB_CACHE_LINE,
		  NLB_CFG_HELLO);
	ASSERT_EQ(0, nlb_wait(self->afu, dsm.va, 10000));
	EXPECT_EQ(0, memcmp(src.va, dst.va, 4096));
	dma_buf_free(self->fd, &src);
	dma_buf_free(self->fd, &dst);
	dma_buf_free(self->fd, &dsm);
}

/*
 * In a child that gave up root (and with it CAP_SYS_RAWIO), on the file
 * root opened: 0 if DMA map and AFU mmap fail with EPERM, or, with
 * @unsafe, succeed; else the step that went wrong.
 */
static int unprivileged_dma(int fd, bool unsafe)
{
	uint64_t iova = 0;
	void *buf, *afu;
	int ret;

	if (setgid(65534) || setuid(65534))
		return 10;
	buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED)
		return 11;
	ret = dma_map(fd, buf, 4096, 0, &iova);
	if (ret != (unsafe ? 0 : -EPERM))
		return 12;
	if (unsafe && dma_unmap(fd, iova))
		return 13;
	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   0);
	if (unsafe ? afu == MAP_FAILED : afu != MAP_FAILED || errno != EPERM)
		return 14;
	if (afu != MAP_FAILED)
		munmap(afu, NLB_AFU_SIZE);
	/* Read-only through the same file: open; if refused above, for good */
	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (afu == MAP_FAILED)
		return 15;
	if (!unsafe && (!mprotect(afu, NLB_AFU_SIZE, PROT_READ | PROT_WRITE) ||
			errno != EACCES))
		return 16;
	munmap(afu, NLB_AFU_SIZE);
	return 0;
}

static int in_child(int (*fn)(int fd, bool unsafe), int fd, bool unsafe)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid)
		_exit(fn(fd, unsafe));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Map and unmap one page through @fd: 0, or the step that failed */
static int map_one_page(int fd)
{
	uint64_t iova = 0;
	int ret = 0;
	void *buf;

	buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	if (dma_map(fd, buf, 4096, 0, &iova))
		ret = 2;
	else if (dma_unmap(fd, iova))
		ret = 3;
	munmap(buf, 4096);
	return ret;
}

TEST_F(dma_untranslated, unprivileged_is_refused)
{
	/*
	 * Root maps through the file first: what the file then remembers
	 * (root's credentials, dfl-dma.c) must not let the child through
	 */
	ASSERT_EQ(0, map_one_page(self->fd));
	EXPECT_EQ(0, in_child(unprivileged_dma, self->fd, false));
	/* And root, after the child's refusal, is still allowed */
	EXPECT_EQ(0, map_one_page(self->fd));
}

TEST_F(dma_untranslated, allow_unsafe_dma_allows_and_taints)
{
	long long tainted;

	ASSERT_EQ(0, sysfs_write(UNSAFE_DMA_PARAM, "1"));
	EXPECT_EQ(0, in_child(unprivileged_dma, self->fd, true));
	ASSERT_EQ(0, sysfs_write(UNSAFE_DMA_PARAM, "0"));
	tainted = sysfs_read_num("/proc/sys/kernel/tainted");
	EXPECT_TRUE(tainted >= 0 && (tainted & TAINT_USER_BIT));
	/* Off again: refused again */
	EXPECT_EQ(0, in_child(unprivileged_dma, self->fd, false));
}

/* The translated card next to it is not affected */
TEST_F(dma_untranslated, translated_cards_stay_open_to_users)
{
	unsigned int other = self->card + 1;
	char dev[64];
	int num, fd;

	ASSERT_EQ(0, sim_add(other, 1));
	num = sim_port_number(other);
	ASSERT_GE(num, 0);
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", num);
	fd = open(dev, O_RDWR);
	ASSERT_GE(fd, 0);
	/* Map and mmap succeed for anyone holding the file */
	EXPECT_EQ(0, in_child(unprivileged_dma, fd, true));
	close(fd);
	sim_del(other);
}

TEST_HARNESS_MAIN
