// SPDX-License-Identifier: GPL-2.0-only
/*
 * /dev/fpga-port.N on a simulated card: the ioctls of the system's
 * <linux/fpga-dfl.h> (this program is built against it, unchanged), the
 * AFU region's mmap, reset with its timeout path, the port's sysfs, and
 * hot-unplug with files open and registers mapped, or with an ioctl stuck
 * on a user page that never arrives.
 */
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/fpga-dfl.h>
#include <linux/fpga-suite.h>
#include <linux/userfaultfd.h>

#include "kselftest_harness.h"
#include "sim_util.h"
#include "nlb_util.h"
#include "vgem_util.h"

#define AFU_SIZE	(256 * 1024)

FIXTURE(port) {
	unsigned int card;
	int num;
	char dev[64];
	char sysfs[128];
	int fd;
};

FIXTURE_SETUP(port)
{
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sim_add(self->card, 2));
	self->num = sim_port_number(self->card);
	ASSERT_GE(self->num, 0);
	snprintf(self->dev, sizeof(self->dev), "/dev/fpga-port.%d", self->num);
	snprintf(self->sysfs, sizeof(self->sysfs), DFL_DEVICES "/fpga-port.%d",
		 self->num);
	self->fd = open(self->dev, O_RDWR);
	ASSERT_GE(self->fd, 0) {
		TH_LOG("open %s: %s", self->dev, strerror(errno));
	}
}

FIXTURE_TEARDOWN(port)
{
	char path[256];

	if (self->fd >= 0)
		close(self->fd);
	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/fail_reset_ack",
		 self->card);
	sysfs_write(path, "0");
	sim_del(self->card);
	run_cmd("modprobe -r fpga_port fpga_sim fpga_dfl");
}

TEST_F(port, api_version_and_extensions)
{
	EXPECT_EQ(DFL_FPGA_API_VERSION, ioctl(self->fd, DFL_FPGA_GET_API_VERSION));
	EXPECT_EQ(0, ioctl(self->fd, DFL_FPGA_CHECK_EXTENSION, 0));
	EXPECT_EQ(0, ioctl(self->fd, DFL_FPGA_CHECK_EXTENSION, 12345));
	/* Unknown commands get -EINVAL, as upstream */
	EXPECT_EQ(-1, ioctl(self->fd, _IO(DFL_FPGA_MAGIC, 0x7f), 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(port, get_info)
{
	struct dfl_fpga_port_info info = { .argsz = sizeof(info) };

	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_GET_INFO, &info));
	EXPECT_EQ(1, info.num_regions);
	EXPECT_EQ(0, info.num_umsgs);
	EXPECT_EQ(0, info.flags);

	info.argsz = sizeof(info) - 1;
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_GET_INFO, &info));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_GET_INFO, NULL));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(port, region_info)
{
	struct dfl_fpga_port_region_info r = {
		.argsz = sizeof(r), .index = DFL_PORT_REGION_INDEX_AFU,
	};

	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_GET_REGION_INFO, &r));
	EXPECT_EQ(DFL_PORT_REGION_READ | DFL_PORT_REGION_WRITE |
		  DFL_PORT_REGION_MMAP, r.flags);
	EXPECT_EQ(AFU_SIZE, r.size);
	EXPECT_EQ(0, r.offset);

	r.index = DFL_PORT_REGION_INDEX_STP;
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_GET_REGION_INFO, &r));
	EXPECT_EQ(EINVAL, errno);
	r.index = DFL_PORT_REGION_INDEX_AFU;
	r.padding = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_GET_REGION_INFO, &r));
	EXPECT_EQ(EINVAL, errno);
	r.padding = 0;
	r.argsz = 8;
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_GET_REGION_INFO, &r));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(port, mmap_reads_afu_header_and_writes_registers)
{
	volatile uint64_t *afu;
	char path[256], guid[64];

	afu = mmap(NULL, AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		   self->fd, 0);
	ASSERT_NE(MAP_FAILED, afu);
	/* DFH type 1 = AFU; GUID_H:GUID_L = afu_id in sysfs */
	EXPECT_EQ(1, afu[0] >> 60);
	snprintf(path, sizeof(path), "%s/afu_id", self->sysfs);
	ASSERT_EQ(0, sysfs_read(path, guid, sizeof(guid)));
	EXPECT_STREQ(NLB0_AFU_ID, guid);
	snprintf(path, sizeof(path), "%016llx%016llx",
		 (unsigned long long)afu[2], (unsigned long long)afu[1]);
	EXPECT_STREQ(guid, path);

	/* A CSR written through the mapping reads back, also after remap */
	afu[NLB_DSM_BASEL / 8] = 0x1234000;
	EXPECT_EQ(0x1234000, afu[NLB_DSM_BASEL / 8]);
	ASSERT_EQ(0, munmap((void *)afu, AFU_SIZE));
	afu = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, afu);
	EXPECT_EQ(0x1234000, afu[NLB_DSM_BASEL / 8]);
	munmap((void *)afu, 4096);
}

TEST_F(port, mmap_bounds_and_private)
{
	void *p;

	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, AFU_SIZE + 4096, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, AFU_SIZE);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, 8192, PROT_READ, MAP_SHARED, self->fd, AFU_SIZE - 4096);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	/* The last page is fine */
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, AFU_SIZE - 4096);
	ASSERT_NE(MAP_FAILED, p);
	munmap(p, 4096);
}

TEST_F(port, debugger_access_through_proc_mem)
{
	volatile uint64_t *afu;
	char path[64];
	uint64_t v = 0;
	int mem;

	afu = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, afu);
	afu[NLB_DSM_BASEL / 8] = 0xabcd000;
	snprintf(path, sizeof(path), "/proc/%d/mem", getpid());
	mem = open(path, O_RDWR);
	ASSERT_GE(mem, 0);
	ASSERT_EQ(8, pread(mem, &v, 8, (off_t)(uintptr_t)&afu[NLB_DSM_BASEL / 8]));
	EXPECT_EQ(0xabcd000, v);
	v = 0x5555000;
	ASSERT_EQ(8, pwrite(mem, &v, 8, (off_t)(uintptr_t)&afu[NLB_DSM_BASEL / 8]));
	EXPECT_EQ(0x5555000, afu[NLB_DSM_BASEL / 8]);
	close(mem);
	munmap((void *)afu, 4096);
}

/* Without the udev rule the node is root's alone */
TEST_F(port, node_is_root_only_by_default)
{
	struct stat st;

	ASSERT_EQ(0, stat(self->dev, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0600, st.st_mode & 0777);
	EXPECT_EQ(0, st.st_uid);
	EXPECT_EQ(0, st.st_gid);
}

TEST_F(port, exclusive_open)
{
	int fd2;

	/* Shared by default */
	fd2 = open(self->dev, O_RDWR);
	ASSERT_GE(fd2, 0);
	close(fd2);
	/* O_EXCL while others hold it: EBUSY */
	EXPECT_EQ(-1, open(self->dev, O_RDWR | O_EXCL));
	EXPECT_EQ(EBUSY, errno);
	close(self->fd);
	self->fd = open(self->dev, O_RDWR | O_EXCL);
	ASSERT_GE(self->fd, 0);
	EXPECT_EQ(-1, open(self->dev, O_RDWR));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-1, open(self->dev, O_RDWR | O_EXCL));
	EXPECT_EQ(EBUSY, errno);
}

/*
 * A reader cannot hold the port exclusively (EPERM), whoever holds it or
 * not, under either name; so it never keeps a writer out
 */
TEST_F(port, exclusive_open_is_a_writers)
{
	char dfl[64];
	int fd2;

	snprintf(dfl, sizeof(dfl), "/dev/dfl-port.%d", self->num);
	EXPECT_EQ(-1, open(self->dev, O_RDONLY | O_EXCL));
	EXPECT_EQ(EPERM, errno);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(-1, open(self->dev, O_RDONLY | O_EXCL));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(-1, open(dfl, O_RDONLY | O_EXCL));
	EXPECT_EQ(EPERM, errno);
	/* Nobody holds it: a writer gets it to itself */
	self->fd = open(self->dev, O_RDWR | O_EXCL);
	ASSERT_GE(self->fd, 0) TH_LOG("%s", strerror(errno));
	/* And a reader, as ever, waits for it to let go */
	fd2 = open(self->dev, O_RDONLY);
	EXPECT_EQ(-1, fd2);
	EXPECT_EQ(EBUSY, errno);
	if (fd2 >= 0)
		close(fd2);
}

/*
 * /dev/dfl-port.N, the upstream name, is the same port: its O_EXCL holder
 * keeps fpga-port.N out and the other way round, and it answers ioctls
 */
TEST_F(port, upstream_node_is_the_same_port)
{
	struct dfl_fpga_port_info info = { .argsz = sizeof(info) };
	char dfl[64];
	int fd2;

	snprintf(dfl, sizeof(dfl), "/dev/dfl-port.%d", self->num);
	/* Shared with the file the fixture holds on fpga-port.N */
	fd2 = open(dfl, O_RDWR);
	ASSERT_GE(fd2, 0) {
		TH_LOG("open %s: %s", dfl, strerror(errno));
	}
	EXPECT_EQ(0, ioctl(fd2, DFL_FPGA_PORT_GET_INFO, &info));
	EXPECT_EQ(1, info.num_regions);
	close(fd2);
	EXPECT_EQ(-1, open(dfl, O_RDWR | O_EXCL));
	EXPECT_EQ(EBUSY, errno);

	close(self->fd);
	self->fd = open(dfl, O_RDWR | O_EXCL);
	ASSERT_GE(self->fd, 0);
	EXPECT_EQ(-1, open(self->dev, O_RDWR));
	EXPECT_EQ(EBUSY, errno);
}

TEST_F(port, reset_ioctl_and_sysfs)
{
	volatile uint64_t *afu;
	char path[256];

	afu = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, afu);
	EXPECT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_RESET, 0));
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_RESET, 1));
	EXPECT_EQ(EINVAL, errno);

	snprintf(path, sizeof(path), "%s/reset", self->sysfs);
	EXPECT_EQ(0, sysfs_write(path, "1"));
	EXPECT_EQ(-EINVAL, sysfs_write(path, "0"));
	EXPECT_EQ(-EINVAL, sysfs_write(path, "x"));
	/* The AFU is usable after reset */
	EXPECT_EQ(1, afu[0] >> 60);
	munmap((void *)afu, 4096);
}

TEST_F(port, reset_timeout_is_bounded)
{
	struct timespec t0, t1;
	char path[256];
	double ms;

	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/fail_reset_ack",
		 self->card);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_RESET, 0));
	EXPECT_EQ(ETIMEDOUT, errno);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	EXPECT_LT(ms, 5000);
	snprintf(path, sizeof(path), "%s/reset", self->sysfs);
	EXPECT_EQ(-ETIMEDOUT, sysfs_write(path, "1"));

	/* The port works again once the card answers */
	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/fail_reset_ack",
		 self->card);
	ASSERT_EQ(0, sysfs_write(path, "0"));
	EXPECT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_RESET, 0));
}

/*
 * The reset waits under the port's lock: 0 (which would mean waiting
 * forever) and more than 10 s are refused, at load and later
 */
TEST_F(port, reset_timeout_parameter_is_validated)
{
	static const char *const bad[] = { "0", "10000001", "-1", "x" };
	const char *param = "/sys/module/fpga_port/parameters/reset_timeout_us";
	/* 100000 by default; the debug tier boots with more */
	long long old = sysfs_read_num(param);
	unsigned int i;
	char val[24];

	ASSERT_GT(old, 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, sysfs_write(param, bad[i])) {
			TH_LOG("reset_timeout_us=%s was taken", bad[i]);
		}
		EXPECT_EQ(old, sysfs_read_num(param));
	}
	/* Past what the parameter holds: refused by the parser */
	EXPECT_EQ(-ERANGE, sysfs_write(param, "4294967296"));
	EXPECT_EQ(0, sysfs_write(param, "10000000"));
	EXPECT_EQ(10000000, sysfs_read_num(param));
	EXPECT_EQ(0, sysfs_write(param, "1"));
	snprintf(val, sizeof(val), "%lld", old);
	EXPECT_EQ(0, sysfs_write(param, val));

	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(0, run_cmd("modprobe -r fpga_port"));
	EXPECT_NE(0, run_cmd("modprobe fpga_port reset_timeout_us=0 2>/dev/null"));
	EXPECT_FALSE(path_exists(param));
	ASSERT_EQ(0, run_cmd("modprobe fpga_port"));
	EXPECT_EQ(old, sysfs_read_num(param));
}

TEST_F(port, sysfs_attributes)
{
	char path[256], buf[128];

	/* The card's two ports are ports 0 and 1 of their card */
	int a = sim_port_number_at(self->card, 0);
	int b = sim_port_number_at(self->card, 1);

	ASSERT_GE(a, 0);
	ASSERT_GE(b, 0);
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/id", a);
	snprintf(buf, sizeof(buf), DFL_DEVICES "/fpga-port.%d/id", b);
	EXPECT_EQ(1, sysfs_read_num(path) + sysfs_read_num(buf));
	EXPECT_NE(sysfs_read_num(path), sysfs_read_num(buf));
	snprintf(path, sizeof(path), "%s/power_state", self->sysfs);
	EXPECT_EQ(0, sysfs_read_num(path));
	snprintf(path, sizeof(path), "%s/regions/0/size", self->sysfs);
	EXPECT_EQ(AFU_SIZE, sysfs_read_num(path));
	snprintf(path, sizeof(path), "%s/regions/0/offset", self->sysfs);
	EXPECT_EQ(0, sysfs_read_num(path));
	snprintf(path, sizeof(path), "%s/regions/0/index", self->sysfs);
	EXPECT_EQ(0, sysfs_read_num(path));
	snprintf(path, sizeof(path), "%s/regions/0/flags", self->sysfs);
	EXPECT_EQ(7, sysfs_read_num(path));
	snprintf(path, sizeof(path), "%s/errors/errors", self->sysfs);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("0x0", buf);
	/* Writing a value that is not the current one is refused */
	EXPECT_EQ(-EINVAL, sysfs_write(path, "0x5"));
	EXPECT_EQ(-EINVAL, sysfs_write(path, "zz"));
	EXPECT_EQ(0, sysfs_write(path, "0"));
	snprintf(path, sizeof(path), "%s/driver", self->sysfs);
	EXPECT_TRUE(path_exists(path));
	/* The char device's class entry */
	snprintf(path, sizeof(path), "/sys/class/fpga_port/fpga-port.%d/dev",
		 self->num);
	EXPECT_TRUE(path_exists(path));
}

TEST_F(port, irq_ioctls)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = 0, .count = 1 }, .fd = -1 };
	uint32_t n = 1234;

	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_ERR_GET_IRQ_NUM, &n));
	EXPECT_NE(1234, n);
	if (n == 0) {
		EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_ERR_SET_IRQ, &set));
		EXPECT_EQ(ENOENT, errno);
	} else {
		/* count 0, past the end, bad fd */
		set.s.count = 0;
		EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_ERR_SET_IRQ, &set));
		EXPECT_EQ(EINVAL, errno);
		set.s.count = 1;
		set.s.start = n;
		EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_ERR_SET_IRQ, &set));
		EXPECT_EQ(EINVAL, errno);
		set.s.start = 0;
		set.fd = 0;	/* stdin is not an eventfd */
		EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_ERR_SET_IRQ, &set));
		EXPECT_EQ(EINVAL, errno);
		set.fd = -1;
		EXPECT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_ERR_SET_IRQ, &set));
	}
	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM, &n));
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM, NULL));
	EXPECT_EQ(EFAULT, errno);
}

/*
 * A file opened read-only may look (info, regions, interrupt counts, a
 * read-only mapping) but change nothing: no reset, no DMA, no interrupt
 * bindings.  Arguments are valid, so only the mode refuses them.
 */
TEST_F(port, read_only_file_changes_nothing)
{
	struct dfl_fpga_port_info info = { .argsz = sizeof(info) };
	struct dfl_fpga_port_dma_map map = { .argsz = sizeof(map) };
	struct dfl_fpga_port_dma_unmap unmap = { .argsz = sizeof(unmap) };
	struct fpga_port_dmabuf_map dmabuf = { .argsz = sizeof(dmabuf) };
	struct fpga_port_dmabuf_fence fence = { .argsz = sizeof(fence) };
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = 0, .count = 1 }, .fd = -1 };
	uint32_t n = 0;
	void *buf, *afu;
	int ro;

	buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	ro = open(self->dev, O_RDONLY);
	ASSERT_GE(ro, 0);
	EXPECT_EQ(DFL_FPGA_API_VERSION, ioctl(ro, DFL_FPGA_GET_API_VERSION));
	EXPECT_EQ(0, ioctl(ro, DFL_FPGA_PORT_GET_INFO, &info));
	EXPECT_EQ(0, ioctl(ro, DFL_FPGA_PORT_UINT_GET_IRQ_NUM, &n));
	afu = mmap(NULL, 4096, PROT_READ, MAP_SHARED, ro, 0);
	EXPECT_NE(MAP_FAILED, afu);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				   MAP_SHARED, ro, 0));

	EXPECT_EQ(-1, ioctl(ro, DFL_FPGA_PORT_RESET, 0));
	EXPECT_EQ(EBADF, errno);
	map.user_addr = (uintptr_t)buf;
	map.length = 4096;
	EXPECT_EQ(-1, ioctl(ro, DFL_FPGA_PORT_DMA_MAP, &map));
	EXPECT_EQ(EBADF, errno);
	/* A mapping of the writable file cannot be undone through this one */
	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_DMA_MAP, &map));
	unmap.iova = map.iova;
	EXPECT_EQ(-1, ioctl(ro, DFL_FPGA_PORT_DMA_UNMAP, &unmap));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(0, ioctl(self->fd, DFL_FPGA_PORT_DMA_UNMAP, &unmap));
	dmabuf.fd = ro;
	EXPECT_EQ(-1, ioctl(ro, FPGA_PORT_DMABUF_MAP, &dmabuf));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-1, ioctl(ro, FPGA_PORT_DMABUF_FENCE, &fence));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-1, ioctl(ro, DFL_FPGA_PORT_ERR_SET_IRQ, &set));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-1, ioctl(ro, DFL_FPGA_PORT_UINT_SET_IRQ, &set));
	EXPECT_EQ(EBADF, errno);

	if (afu != MAP_FAILED)
		munmap(afu, 4096);
	close(ro);
	munmap(buf, 4096);
}

static sigjmp_buf sigbus_jmp;

static void on_sigbus(int sig)
{
	siglongjmp(sigbus_jmp, sig);
}

TEST_F(port, unplug_with_file_open_and_mapped)
{
	struct dfl_fpga_port_info info = { .argsz = sizeof(info) };
	volatile uint64_t *afu;
	struct sigaction sa = { .sa_handler = on_sigbus };
	volatile int faulted = 0;
	uint64_t v;

	afu = mmap(NULL, AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		   self->fd, 0);
	ASSERT_NE(MAP_FAILED, afu);
	EXPECT_EQ(1, afu[0] >> 60);

	ASSERT_EQ(0, sim_del(self->card));
	EXPECT_FALSE(path_exists(self->dev));

	/* Calls on the open file fail cleanly */
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_GET_INFO, &info));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_RESET, 0));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED,
				   self->fd, 0));
	EXPECT_EQ(ENODEV, errno);

	/* The old mapping is revoked: access raises SIGBUS */
	ASSERT_EQ(0, sigaction(SIGBUS, &sa, NULL));
	if (sigsetjmp(sigbus_jmp, 1) == 0) {
		v = afu[0];
		(void)v;
	} else {
		faulted = 1;
	}
	EXPECT_TRUE(faulted);
	signal(SIGBUS, SIG_DFL);
	munmap((void *)afu, AFU_SIZE);
	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
}

TEST_F(port, unbind_and_rebind_driver)
{
	char path[256], name[64];

	snprintf(name, sizeof(name), "fpga-port.%d", self->num);
	ASSERT_EQ(0, sysfs_write("/sys/bus/fpga_dfl/drivers/fpga_port/unbind",
				 name));
	EXPECT_FALSE(path_exists(self->dev));
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_GET_API_VERSION));
	EXPECT_EQ(ENODEV, errno);
	snprintf(path, sizeof(path), "%s/afu_id", self->sysfs);
	EXPECT_FALSE(path_exists(path));
	ASSERT_EQ(0, sysfs_write("/sys/bus/fpga_dfl/drivers/fpga_port/bind",
				 name));
	close(self->fd);
	self->fd = open(self->dev, O_RDWR);
	ASSERT_GE(self->fd, 0);
	EXPECT_EQ(0, ioctl(self->fd, DFL_FPGA_GET_API_VERSION));
}

TEST_F(port, module_unload_refused_while_open)
{
	/* The open file holds the module */
	EXPECT_NE(0, run_cmd("rmmod fpga_port 2>/dev/null"));
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0, run_cmd("rmmod fpga_port"));
	EXPECT_FALSE(path_exists(self->dev));
}

/*
 * An ioctl stuck on user memory that never arrives (userfaultfd here; a
 * FUSE daemon that never answers does the same) must not hold up the
 * port's removal: the card is deleted while DMA_MAP waits for its
 * argument, or for the buffer it pins, and the ioctl then fails with
 * ENODEV.
 */
struct stuck_ioctl {
	int fd;
	struct dfl_fpga_port_dma_map *map;
	int ret;
	unsigned int card;
	volatile int deleted;
};

static void *stuck_ioctl_thread(void *p)
{
	struct stuck_ioctl *s = p;

	s->ret = ioctl(s->fd, DFL_FPGA_PORT_DMA_MAP, s->map) ? -errno : 0;
	return NULL;
}

static void *sim_del_thread(void *p)
{
	struct stuck_ioctl *s = p;

	sim_del(s->card);
	s->deleted = 1;
	return NULL;
}

static void unplug_under_stuck_fault(struct __test_metadata *_metadata,
				     bool stuck_args)
{
	struct dfl_fpga_port_dma_map good = { .argsz = sizeof(good),
					      .length = 4096 };
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct stuck_ioctl s = { .card = sim_random_id() };
	long page = sysconf(_SC_PAGESIZE);
	struct pollfd pfd = { .events = POLLIN };
	pthread_t ioctl_thread, del_thread;
	struct uffd_msg msg;
	char path[64], *region, *buf;
	int uffd, i;

	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port"));
	ASSERT_EQ(0, sim_add(s.card, 1));
	snprintf(path, sizeof(path), "/dev/fpga-port.%d",
		 sim_port_number(s.card));
	s.fd = open(path, O_RDWR);
	ASSERT_GE(s.fd, 0);
	buf = mmap(NULL, page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);

	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0 && errno == ENOSYS) {
		/* The debug tier's kernel is built without it */
		close(s.fd);
		sim_del(s.card);
		run_cmd("modprobe -r fpga_port fpga_sim fpga_dfl");
		SKIP(return, "no userfaultfd in this kernel");
	}
	ASSERT_GE(uffd, 0);
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_API, &api));
	region = mmap(NULL, page, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, region);
	reg.range.start = (uintptr_t)region;
	reg.range.len = page;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_REGISTER, &reg));

	good.user_addr = (uintptr_t)(stuck_args ? buf : region);
	s.map = stuck_args ? (void *)region : &good;
	ASSERT_EQ(0, pthread_create(&ioctl_thread, NULL, stuck_ioctl_thread, &s));
	pfd.fd = uffd;
	if (!stuck_args && poll(&pfd, 1, 5000) == 0) {
		/*
		 * 6.1 refuses a long-term pin of a userfaultfd page at once
		 * (no retry allowed): nothing waits
		 */
		pthread_join(ioctl_thread, NULL);
		EXPECT_EQ(-EFAULT, s.ret);
		close(s.fd);
		sim_del(s.card);
		run_cmd("modprobe -r fpga_port fpga_sim fpga_dfl");
		SKIP(return, "this kernel does not wait on userfaultfd pages for long-term pins");
	}
	/* The ioctl is now waiting for the page */
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	ASSERT_EQ((ssize_t)sizeof(msg), read(uffd, &msg, sizeof(msg)));
	EXPECT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);

	ASSERT_EQ(0, pthread_create(&del_thread, NULL, sim_del_thread, &s));
	for (i = 0; i < 200 && !s.deleted; i++)
		usleep(50000);
	EXPECT_TRUE(s.deleted) {
		TH_LOG("the card's removal waits for a user page fault");
	}

	/* Let the page arrive: what the ioctl reads is a valid request */
	if (stuck_args) {
		struct uffdio_copy copy = {
			.dst = (uintptr_t)region, .src = (uintptr_t)buf,
			.len = page,
		};

		memcpy(buf, &good, sizeof(good));
		good.user_addr = (uintptr_t)buf;
		memcpy(buf, &good, sizeof(good));
		ASSERT_EQ(0, ioctl(uffd, UFFDIO_COPY, &copy));
	} else {
		struct uffdio_zeropage zero = {
			.range = { .start = (uintptr_t)region, .len = page },
		};

		ASSERT_EQ(0, ioctl(uffd, UFFDIO_ZEROPAGE, &zero));
	}
	pthread_join(ioctl_thread, NULL);
	pthread_join(del_thread, NULL);
	EXPECT_EQ(-ENODEV, s.ret);

	close(s.fd);
	close(uffd);
	munmap(region, page);
	munmap(buf, page);
	run_cmd("modprobe -r fpga_port fpga_sim fpga_dfl");
}

TEST(unplug_not_held_by_a_stuck_argument)
{
	unplug_under_stuck_fault(_metadata, true);
}

TEST(unplug_not_held_by_a_stuck_dma_buffer)
{
	unplug_under_stuck_fault(_metadata, false);
}

/* Shmem in use, in kB (/proc/meminfo), or -1 */
static long shmem_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f;

	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Shmem: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

struct dmabuf_ioctl {
	int fd;
	int dmabuf;
	int ret;
	volatile int done;
};

static void *dmabuf_map_thread(void *p)
{
	struct dmabuf_ioctl *s = p;
	uint64_t iova, len;

	s->ret = port_dmabuf_map(s->fd, s->dmabuf, 0, &iova, &len);
	s->done = 1;
	return NULL;
}

#define BIG_BO		(1LL << 30)

/*
 * Attaching a dma-buf pins its pages, and vgem_ext faults in the whole
 * buffer then: that happens before the unplug section, so a card removed
 * meanwhile goes at once.  The card's DMA device, and the module holding
 * its release, stay held until the attach is done.
 */
FIXTURE(unplug) {
	struct dmabuf_ioctl s;
	struct drm_vgem_ext_bo_create bo;
	unsigned int card;
	pthread_t thread;
	int drm;
};

FIXTURE_SETUP(unplug)
{
	char path[64];

	self->s.fd = -1;
	self->s.dmabuf = -1;
	self->drm = -1;
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe vgem_ext"));
	self->drm = drm_open_driver("vgem_ext", "renderD");
	ASSERT_GE(self->drm, 0);
	ASSERT_EQ(0, vgem_ext_create(self->drm, BIG_BO, 0, &self->bo));
	self->s.dmabuf = prime_export(self->drm, self->bo.handle);
	ASSERT_GE(self->s.dmabuf, 0);
	self->card = sim_random_id();
	ASSERT_EQ(0, sim_add(self->card, 1));
	snprintf(path, sizeof(path), "/dev/fpga-port.%d",
		 sim_port_number(self->card));
	self->s.fd = open(path, O_RDWR);
	ASSERT_GE(self->s.fd, 0);
}

FIXTURE_TEARDOWN(unplug)
{
	if (self->s.fd >= 0)
		close(self->s.fd);
	if (self->s.dmabuf >= 0)
		close(self->s.dmabuf);
	if (self->drm >= 0) {
		gem_close(self->drm, self->bo.handle);
		close(self->drm);
	}
	run_cmd("modprobe -r fpga_port fpga_sim fpga_dfl vgem_ext");
}

/* Map the big buffer in a thread; true once its attach is under way */
static bool unplug_start_map(FIXTURE_DATA(unplug) *self)
{
	long base = shmem_kb();
	int i;

	if (pthread_create(&self->thread, NULL, dmabuf_map_thread, &self->s))
		return false;
	/* Until the attach is faulting in the buffer: a sixteenth of it */
	for (i = 0; i < 6000 && !self->s.done &&
	     shmem_kb() - base < BIG_BO / 16 / 1024; i++)
		usleep(1000);
	return !self->s.done;
}

/* Seen as: the removal returns while the map is still running */
TEST_F_TIMEOUT(unplug, not_held_by_a_dmabuf_attach, 300)
{
	ASSERT_TRUE(unplug_start_map(self)) {
		TH_LOG("the map ended (%d) before a sixteenth of the buffer came in",
		       self->s.ret);
	}
	ASSERT_EQ(0, sim_del(self->card));
	EXPECT_FALSE(self->s.done) {
		TH_LOG("the card's removal waited for the dma-buf's attach");
	}
	pthread_join(self->thread, NULL);
	EXPECT_EQ(-ENODEV, self->s.ret);
}

/*
 * The simulated card's DMA device is released by fpga_sim's code: while an
 * attach holds the device, fpga_sim cannot be unloaded (the last put would
 * run code that is gone), and the map then succeeds.
 */
TEST_F_TIMEOUT(unplug, card_driver_stays_for_a_dmabuf_attach, 300)
{
	long ret;
	int err;

	ASSERT_TRUE(unplug_start_map(self)) {
		TH_LOG("the map ended (%d) before a sixteenth of the buffer came in",
		       self->s.ret);
	}
	ret = syscall(SYS_delete_module, "fpga_sim", O_NONBLOCK);
	err = errno;
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EWOULDBLOCK, err);
	EXPECT_FALSE(self->s.done) {
		TH_LOG("the map ended before the unload could be tried");
	}
	pthread_join(self->thread, NULL);
	EXPECT_EQ(0, self->s.ret);
	/* Then the card goes with the mapping in place, as any unplug */
	EXPECT_EQ(0, syscall(SYS_delete_module, "fpga_sim", O_NONBLOCK));
}

TEST_HARNESS_MAIN
