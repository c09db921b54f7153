// SPDX-License-Identifier: GPL-2.0-only
/*
 * A simulated card's VF through the VFIO API alone, as a user-space driver
 * or QEMU sees it: fpga_vfio binds the VF, /dev/vfio/N appears, the device
 * is a resettable PCI device with vfio-pci's regions and interrupt
 * indexes, its configuration space is emulated (BAR 0 sizing, memory
 * decoding), BAR 0 is the released port (its header, then the AFU), a
 * reset goes through the port's handshake, bad calls get VFIO's errors,
 * and disabling the VFs with the device open asks the user to let go.
 */
#include <limits.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <linux/fpga-dfl.h>
#include <linux/pci_regs.h>
#include <linux/vfio.h>

#include "kselftest_harness.h"
#include "sim_util.h"
#include <fpga/nlb0.h>

#define PCI_DEVICES	"/sys/bus/pci/devices"
#define OFS(index)	((uint64_t)(index) << 40)	/* fpga_vfio's layout */
#define AFU_OFS		0x10000	/* the simulated port's NEXT_AFU */
#define DFH_TYPE(v)	((v) >> 60)
#define DFH_ID(v)	((v) & 0xfff)
#define PORT_CTRL	0x38
#define CTRL_SFTRST	0x1ULL
#define CTRL_ACK	0x10ULL

FIXTURE(vf) {
	unsigned int card;
	char pf[PATH_MAX];
	char vf_name[32];
	int fme, container, group, dev;
};

static int numvfs(const char *pf, const char *n)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/sriov_numvfs", pf);
	return sysfs_write(path, n);
}

FIXTURE_SETUP(vf)
{
	char path[PATH_MAX + 64], link[PATH_MAX], *name;
	struct vfio_group_status status = { .argsz = sizeof(status) };
	int port = 1;
	ssize_t n;

	self->fme = self->container = self->group = self->dev = -1;
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_fme && modprobe fpga_vfio && modprobe vfio_iommu_type1"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sim_add(self->card, 2));
	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/pci_function",
		 self->card);
	ASSERT_NE(NULL, realpath(path, self->pf));

	ASSERT_EQ(0, card_child(self->card, "fpga-fme.", path, sizeof(path)));
	name = strrchr(path, '/') + 1;
	snprintf(link, sizeof(link), "/dev/%s", name);
	self->fme = open(link, O_RDWR);
	ASSERT_GE(self->fme, 0);
	ASSERT_EQ(0, ioctl(self->fme, DFL_FPGA_FME_PORT_RELEASE, &port));
	ASSERT_EQ(0, numvfs(self->pf, "1"));

	/* Bound to fpga_vfio, in an IOMMU group of its own */
	snprintf(path, sizeof(path), "%s/virtfn0", self->pf);
	n = readlink(path, link, sizeof(link) - 1);
	ASSERT_GT(n, 0);
	link[n] = '\0';
	snprintf(self->vf_name, sizeof(self->vf_name), "%s", strrchr(link, '/') + 1);
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver", self->vf_name);
	n = readlink(path, link, sizeof(link) - 1);
	ASSERT_GT(n, 0) TH_LOG("VF %s is not bound", self->vf_name);
	link[n] = '\0';
	ASSERT_STREQ("fpga_vfio", strrchr(link, '/') + 1);
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/iommu_group", self->vf_name);
	n = readlink(path, link, sizeof(link) - 1);
	ASSERT_GT(n, 0);
	link[n] = '\0';
	snprintf(path, sizeof(path), "/dev/vfio/%s", strrchr(link, '/') + 1);

	/* The VFIO flow of a user-space driver */
	self->container = open("/dev/vfio/vfio", O_RDWR);
	ASSERT_GE(self->container, 0);
	ASSERT_EQ(VFIO_API_VERSION, ioctl(self->container, VFIO_GET_API_VERSION));
	ASSERT_EQ(1, ioctl(self->container, VFIO_CHECK_EXTENSION, VFIO_TYPE1v2_IOMMU));
	self->group = open(path, O_RDWR);
	ASSERT_GE(self->group, 0) TH_LOG("open %s: %s", path, strerror(errno));
	ASSERT_EQ(0, ioctl(self->group, VFIO_GROUP_GET_STATUS, &status));
	ASSERT_TRUE(status.flags & VFIO_GROUP_FLAGS_VIABLE);
	ASSERT_EQ(0, ioctl(self->group, VFIO_GROUP_SET_CONTAINER, &self->container));
	ASSERT_EQ(0, ioctl(self->container, VFIO_SET_IOMMU, VFIO_TYPE1v2_IOMMU));
	self->dev = ioctl(self->group, VFIO_GROUP_GET_DEVICE_FD, self->vf_name);
	ASSERT_GE(self->dev, 0) TH_LOG("GET_DEVICE_FD: %s", strerror(errno));
}

FIXTURE_TEARDOWN(vf)
{
	int port = 1;

	if (self->dev >= 0)
		close(self->dev);
	if (self->group >= 0)
		close(self->group);
	if (self->container >= 0)
		close(self->container);
	numvfs(self->pf, "0");
	if (self->fme >= 0) {
		ioctl(self->fme, DFL_FPGA_FME_PORT_ASSIGN, &port);
		close(self->fme);
	}
	sim_del(self->card);
	run_cmd("modprobe -r fpga_vfio fpga_port fpga_fme fpga_sim fpga_dfl vfio_iommu_type1");
}

static int region_info(int dev, uint32_t index, struct vfio_region_info *info)
{
	memset(info, 0, sizeof(*info));
	info->argsz = sizeof(*info);
	info->index = index;
	return ioctl(dev, VFIO_DEVICE_GET_REGION_INFO, info) ? -errno : 0;
}

static uint64_t cfg_read(int dev, off_t ofs, size_t n)
{
	uint64_t v = 0;

	if (pread(dev, &v, n, OFS(VFIO_PCI_CONFIG_REGION_INDEX) + ofs) != (ssize_t)n)
		return ~0ULL;
	return v;
}

static int cfg_write(int dev, off_t ofs, uint64_t v, size_t n)
{
	return pwrite(dev, &v, n, OFS(VFIO_PCI_CONFIG_REGION_INDEX) + ofs) ==
	       (ssize_t)n ? 0 : -errno;
}

static int bar_read(int dev, off_t ofs, uint64_t *v)
{
	return pread(dev, v, 8, OFS(VFIO_PCI_BAR0_REGION_INDEX) + ofs) == 8 ?
	       0 : -errno;
}

static int bar_write(int dev, off_t ofs, uint64_t v)
{
	return pwrite(dev, &v, 8, OFS(VFIO_PCI_BAR0_REGION_INDEX) + ofs) == 8 ?
	       0 : -errno;
}

/* Memory decoding on, as a driver (or QEMU's guest) turns it on */
static void enable_memory(struct __test_metadata *_metadata, int dev)
{
	ASSERT_EQ(0, cfg_write(dev, PCI_COMMAND, PCI_COMMAND_MEMORY, 2));
}

TEST_F(vf, device_info)
{
	struct vfio_device_info info = { .argsz = sizeof(info) };
	struct vfio_irq_info irq = { .argsz = sizeof(irq) };
	struct vfio_region_info r;
	unsigned int i;

	ASSERT_EQ(0, ioctl(self->dev, VFIO_DEVICE_GET_INFO, &info));
	EXPECT_TRUE(info.flags & VFIO_DEVICE_FLAGS_PCI);
	EXPECT_TRUE(info.flags & VFIO_DEVICE_FLAGS_RESET);
	EXPECT_EQ(VFIO_PCI_NUM_REGIONS, info.num_regions);
	EXPECT_EQ(VFIO_PCI_NUM_IRQS, info.num_irqs);

	ASSERT_EQ(0, region_info(self->dev, VFIO_PCI_CONFIG_REGION_INDEX, &r));
	EXPECT_EQ(4096, r.size);
	EXPECT_EQ(OFS(VFIO_PCI_CONFIG_REGION_INDEX), r.offset);
	/* The port's features (64 KiB) and NLB0 (256 KiB): 512 KiB */
	ASSERT_EQ(0, region_info(self->dev, VFIO_PCI_BAR0_REGION_INDEX, &r));
	EXPECT_EQ(512 * 1024, r.size);
	EXPECT_EQ(VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE |
		  VFIO_REGION_INFO_FLAG_MMAP | VFIO_REGION_INFO_FLAG_CAPS,
		  r.flags);
	/* No room for the capability: argsz says how much to give */
	EXPECT_GT(r.argsz, sizeof(r));
	EXPECT_EQ(0, r.cap_offset);
	for (i = VFIO_PCI_BAR1_REGION_INDEX; i <= VFIO_PCI_ROM_REGION_INDEX; i++) {
		ASSERT_EQ(0, region_info(self->dev, i, &r));
		EXPECT_EQ(0, r.size) TH_LOG("region %u", i);
	}

	irq.index = VFIO_PCI_REQ_IRQ_INDEX;
	ASSERT_EQ(0, ioctl(self->dev, VFIO_DEVICE_GET_IRQ_INFO, &irq));
	EXPECT_EQ(1, irq.count);
	EXPECT_TRUE(irq.flags & VFIO_IRQ_INFO_EVENTFD);
	irq.index = VFIO_PCI_INTX_IRQ_INDEX;
	ASSERT_EQ(0, ioctl(self->dev, VFIO_DEVICE_GET_IRQ_INFO, &irq));
	EXPECT_EQ(0, irq.count);
}

/* Only the AFU may be mapped: the sparse-mmap capability says so */
TEST_F(vf, sparse_mmap_is_the_afu)
{
	struct {
		struct vfio_region_info info;
		struct vfio_region_info_cap_sparse_mmap sparse;
		struct vfio_region_sparse_mmap_area area;
	} r = { .info = { .argsz = sizeof(r), .index = VFIO_PCI_BAR0_REGION_INDEX } };

	ASSERT_EQ(0, ioctl(self->dev, VFIO_DEVICE_GET_REGION_INFO, &r));
	ASSERT_EQ(sizeof(r.info), r.info.cap_offset);
	EXPECT_EQ(VFIO_REGION_INFO_CAP_SPARSE_MMAP, r.sparse.header.id);
	EXPECT_EQ(0, r.sparse.header.next);
	ASSERT_EQ(1, r.sparse.nr_areas);
	EXPECT_EQ(AFU_OFS, r.area.offset);
	EXPECT_EQ(256 * 1024, r.area.size);
}

TEST_F(vf, mmap_afu)
{
	off_t bar = OFS(VFIO_PCI_BAR0_REGION_INDEX);
	volatile uint64_t *afu;
	uint64_t v;

	enable_memory(_metadata, self->dev);
	afu = mmap(NULL, 256 * 1024, PROT_READ | PROT_WRITE, MAP_SHARED,
		   self->dev, bar + AFU_OFS);
	ASSERT_NE(MAP_FAILED, afu) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_EQ(1, DFH_TYPE(afu[0]));
	EXPECT_EQ(NLB0_AFU_GUID_L, afu[1]);
	EXPECT_EQ(NLB0_AFU_GUID_H, afu[2]);
	/* The same registers as read and write see */
	afu[NLB_SCRATCH / 8] = 0x1122334455667788ULL;
	ASSERT_EQ(0, bar_read(self->dev, AFU_OFS + NLB_SCRATCH, &v));
	EXPECT_EQ(0x1122334455667788ULL, v);
	munmap((void *)afu, 256 * 1024);

	/* Not the port's registers, not past the AFU, not private */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->dev, bar));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 8192, PROT_READ, MAP_SHARED, self->dev,
				   bar + AFU_OFS + 256 * 1024 - 4096));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, self->dev,
				   bar + AFU_OFS));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->dev,
				   OFS(VFIO_PCI_CONFIG_REGION_INDEX)));
}

TEST_F(vf, config_space)
{
	EXPECT_EQ(0x0000, cfg_read(self->dev, PCI_VENDOR_ID, 2));
	EXPECT_EQ(0xd5f2, cfg_read(self->dev, PCI_DEVICE_ID, 2));
	EXPECT_EQ(0x120000, cfg_read(self->dev, PCI_CLASS_REVISION, 4) >> 8);
	EXPECT_EQ(0, cfg_read(self->dev, PCI_INTERRUPT_PIN, 1));
	/* A PCIe capability, first in the list */
	EXPECT_EQ(0x40, cfg_read(self->dev, PCI_CAPABILITY_LIST, 1));
	EXPECT_EQ(PCI_CAP_ID_EXP, cfg_read(self->dev, 0x40, 1));

	/* BAR 0: 64-bit memory; sizing reads the size back */
	EXPECT_EQ(PCI_BASE_ADDRESS_MEM_TYPE_64,
		  cfg_read(self->dev, PCI_BASE_ADDRESS_0, 4));
	ASSERT_EQ(0, cfg_write(self->dev, PCI_BASE_ADDRESS_0, 0xffffffff, 4));
	EXPECT_EQ(~(512u * 1024 - 1) | PCI_BASE_ADDRESS_MEM_TYPE_64,
		  cfg_read(self->dev, PCI_BASE_ADDRESS_0, 4));
	ASSERT_EQ(0, cfg_write(self->dev, PCI_BASE_ADDRESS_0, 0xfe812345, 4));
	EXPECT_EQ(0xfe800000 | PCI_BASE_ADDRESS_MEM_TYPE_64,
		  cfg_read(self->dev, PCI_BASE_ADDRESS_0, 4));

	/* Read-only registers drop what is written, at any size or offset */
	ASSERT_EQ(0, cfg_write(self->dev, PCI_VENDOR_ID, 0x1234, 2));
	ASSERT_EQ(0, cfg_write(self->dev, PCI_DEVICE_ID + 1, 0xab, 1));
	ASSERT_EQ(0, cfg_write(self->dev, PCI_CLASS_REVISION - 1, 0xffffff, 3));
	EXPECT_EQ(0xd5f20000, cfg_read(self->dev, PCI_VENDOR_ID, 4));
	EXPECT_EQ(0x120000, cfg_read(self->dev, PCI_CLASS_REVISION, 4) >> 8);
	/* Past the first 256 bytes: zeros, writes dropped */
	ASSERT_EQ(0, cfg_write(self->dev, 0x100, 0xffffffff, 4));
	EXPECT_EQ(0, cfg_read(self->dev, 0x100, 4));
}

TEST_F(vf, bar0_is_the_port)
{
	uint64_t v, cap;

	/* Memory decoding off: BAR 0 does not answer */
	EXPECT_EQ(-EIO, bar_read(self->dev, 0, &v));
	enable_memory(_metadata, self->dev);

	/* The port's header first: an FIU, the port */
	ASSERT_EQ(0, bar_read(self->dev, 0, &v));
	EXPECT_EQ(4, DFH_TYPE(v));
	EXPECT_EQ(1, DFH_ID(v));
	ASSERT_EQ(0, bar_read(self->dev, 0x18, &v));	/* NEXT_AFU */
	EXPECT_EQ(AFU_OFS, v & 0xffffff);

	/* Then NLB0, the released port's AFU */
	ASSERT_EQ(0, bar_read(self->dev, AFU_OFS, &v));
	EXPECT_EQ(1, DFH_TYPE(v));
	ASSERT_EQ(0, bar_read(self->dev, AFU_OFS + 8, &v));
	EXPECT_EQ(NLB0_AFU_GUID_L, v);
	ASSERT_EQ(0, bar_read(self->dev, AFU_OFS + 16, &v));
	EXPECT_EQ(NLB0_AFU_GUID_H, v);

	/* The AFU's registers are the user's */
	ASSERT_EQ(0, bar_write(self->dev, AFU_OFS + NLB_SCRATCH, 0x5a5a1234ULL));
	ASSERT_EQ(0, bar_read(self->dev, AFU_OFS + NLB_SCRATCH, &v));
	EXPECT_EQ(0x5a5a1234ULL, v);

	/* The port's are not: its capability stays as the host left it */
	ASSERT_EQ(0, bar_read(self->dev, 0x30, &cap));
	ASSERT_EQ(0, bar_write(self->dev, 0x30, ~cap));
	ASSERT_EQ(0, bar_read(self->dev, 0x30, &v));
	EXPECT_EQ(cap, v);

	/* Past the AFU: all ones; past BAR 0: EINVAL */
	ASSERT_EQ(0, bar_read(self->dev, AFU_OFS + 256 * 1024, &v));
	EXPECT_EQ(~0ULL, v);
	EXPECT_EQ(-EINVAL, bar_read(self->dev, 512 * 1024, &v));
}

/* The guest's soft reset goes through the port's handshake, and so does RESET */
TEST_F(vf, reset)
{
	uint64_t v;

	enable_memory(_metadata, self->dev);
	ASSERT_EQ(0, bar_write(self->dev, PORT_CTRL, CTRL_SFTRST));
	ASSERT_EQ(0, bar_read(self->dev, PORT_CTRL, &v));
	EXPECT_EQ(CTRL_SFTRST | CTRL_ACK, v & (CTRL_SFTRST | CTRL_ACK));
	ASSERT_EQ(0, bar_write(self->dev, PORT_CTRL, 0));
	ASSERT_EQ(0, bar_read(self->dev, PORT_CTRL, &v));
	EXPECT_EQ(0, v & (CTRL_SFTRST | CTRL_ACK));

	EXPECT_EQ(0, ioctl(self->dev, VFIO_DEVICE_RESET));
	ASSERT_EQ(0, bar_read(self->dev, PORT_CTRL, &v));
	EXPECT_EQ(0, v & (CTRL_SFTRST | CTRL_ACK));
}

/* Announced like every reset, the port named by card and number */
TEST_F_TIMEOUT(vf, reset_is_announced, 120)
{
	bool seen = false;

	/* fpgactl monitor may not listen yet: reset until the line shows */
	ASSERT_EQ(0, run_cmd("fpgactl monitor --timeout 90 > /tmp/vfio_mon 2>&1 & echo $! > /tmp/vfio_mon.pid"));
	for (int i = 0; i < 30 && !seen; i++) {
		ASSERT_EQ(0, ioctl(self->dev, VFIO_DEVICE_RESET));
		for (int j = 0; j < 20 && !seen; j++) {
			seen = !run_cmd("grep -q ' reset-end card [0-9]* port 1 result 0$' /tmp/vfio_mon");
			if (!seen)
				usleep(100000);
		}
	}
	run_cmd("kill $(cat /tmp/vfio_mon.pid)");
	EXPECT_TRUE(seen) {
		run_cmd("cat /tmp/vfio_mon >&2");
	}
	EXPECT_EQ(0, run_cmd("grep -q ' reset-begin card [0-9]* port 1$' /tmp/vfio_mon"));
}

TEST_F(vf, bad_calls)
{
	struct vfio_device_info info = { .argsz = 4 };
	struct vfio_irq_info irq = { .argsz = sizeof(irq), .index = VFIO_PCI_NUM_IRQS };
	struct {
		struct vfio_irq_set set;
		int32_t fd;
	} s = { .set = { .argsz = sizeof(s), .index = VFIO_PCI_MSI_IRQ_INDEX,
			 .flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER,
			 .count = 1 }, .fd = -1 };
	struct vfio_region_info r;
	uint64_t v;

	EXPECT_EQ(-1, ioctl(self->dev, VFIO_DEVICE_GET_INFO, &info));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-EINVAL, region_info(self->dev, VFIO_PCI_NUM_REGIONS, &r));
	EXPECT_EQ(-1, ioctl(self->dev, VFIO_DEVICE_GET_IRQ_INFO, &irq));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->dev, VFIO_DEVICE_SET_IRQS, &s));
	EXPECT_EQ(EINVAL, errno);
	s.set.index = VFIO_PCI_REQ_IRQ_INDEX;
	s.set.argsz = sizeof(s.set);	/* no room for the eventfd */
	EXPECT_EQ(-1, ioctl(self->dev, VFIO_DEVICE_SET_IRQS, &s));
	EXPECT_EQ(EINVAL, errno);
	s.set.argsz = sizeof(s);
	s.fd = -2;
	EXPECT_EQ(-1, ioctl(self->dev, VFIO_DEVICE_SET_IRQS, &s));
	EXPECT_EQ(EINVAL, errno);
	/* An eventfd for no interrupt: count 0 is only for DATA_NONE */
	s.fd = -1;
	s.set.count = 0;
	EXPECT_EQ(-1, ioctl(self->dev, VFIO_DEVICE_SET_IRQS, &s));
	EXPECT_EQ(EINVAL, errno);

	/* Past the configuration space, a region that is not there */
	EXPECT_EQ(-1, pread(self->dev, &v, 4, OFS(VFIO_PCI_CONFIG_REGION_INDEX) + 4094));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, pread(self->dev, &v, 4, OFS(VFIO_PCI_BAR2_REGION_INDEX)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, pread(self->dev, &v, 4, OFS(VFIO_PCI_NUM_REGIONS)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->dev, _IO(VFIO_TYPE, VFIO_BASE + 60)));
	EXPECT_EQ(ENOTTY, errno);
}

/*
 * The VFs disabled while the device is open: the writer of sriov_numvfs
 * waits, the user is asked through REQ, and once it lets go the VF goes
 */
TEST_F(vf, removal_asks_the_user)
{
	struct {
		struct vfio_irq_set set;
		int32_t fd;
	} s = { .set = { .argsz = sizeof(s), .index = VFIO_PCI_REQ_IRQ_INDEX,
			 .flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER,
			 .count = 1 } };
	struct pollfd p = { .events = POLLIN };
	char path[PATH_MAX];
	int status;
	pid_t pid;

	p.fd = eventfd(0, EFD_CLOEXEC);
	ASSERT_GE(p.fd, 0);
	s.fd = p.fd;
	ASSERT_EQ(0, ioctl(self->dev, VFIO_DEVICE_SET_IRQS, &s));

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		/* Only the parent holds the device, or this would wait forever */
		close(self->dev);
		close(self->group);
		close(self->container);
		_exit(numvfs(self->pf, "0") ? 1 : 0);
	}
	/* vfio asks at once, then every 10 s */
	ASSERT_EQ(1, poll(&p, 1, 20000)) TH_LOG("no REQ");
	EXPECT_EQ(0, waitpid(pid, &status, WNOHANG));
	close(self->dev);
	self->dev = -1;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	snprintf(path, sizeof(path), PCI_DEVICES "/%s", self->vf_name);
	EXPECT_FALSE(path_exists(path));
	close(p.fd);
}

/* A mapping holds the device: the VF goes only once it is unmapped */
TEST_F(vf, removal_waits_for_mappings)
{
	void *afu;
	int status;
	pid_t pid;

	afu = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->dev,
		   OFS(VFIO_PCI_BAR0_REGION_INDEX) + AFU_OFS);
	ASSERT_NE(MAP_FAILED, afu);
	close(self->dev);
	self->dev = -1;
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		munmap(afu, 4096);
		close(self->group);
		close(self->container);
		_exit(numvfs(self->pf, "0") ? 1 : 0);
	}
	sleep(2);
	EXPECT_EQ(0, waitpid(pid, &status, WNOHANG));
	/* Still mapped, and the registers still there */
	EXPECT_EQ(1, DFH_TYPE(*(volatile uint64_t *)afu));
	munmap(afu, 4096);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
}

/* A card whose IOMMU does not confine each port: its VFs are not bound */
TEST(untranslated_card_not_bound)
{
	char pf[PATH_MAX], path[PATH_MAX + 64], fme[PATH_MAX];
	unsigned int card = sim_random_id() + 1000;
	int fd, port = 0;

	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_fme && modprobe fpga_vfio"));
	ASSERT_EQ(0, sysfs_write(SIM_IOMMU_PARAM, "0"));
	ASSERT_EQ(0, sim_add(card, 1));
	ASSERT_EQ(0, sysfs_write(SIM_IOMMU_PARAM, "1"));
	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/pci_function", card);
	ASSERT_NE(NULL, realpath(path, pf));
	ASSERT_EQ(0, card_child(card, "fpga-fme.", path, sizeof(path)));
	snprintf(fme, sizeof(fme), "/dev/%s", strrchr(path, '/') + 1);
	fd = open(fme, O_RDWR);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, DFL_FPGA_FME_PORT_RELEASE, &port));
	ASSERT_EQ(0, numvfs(pf, "1"));
	snprintf(path, sizeof(path), "%s/virtfn0/driver", pf);
	EXPECT_FALSE(path_exists(path));
	snprintf(path, sizeof(path), "%s/virtfn0/iommu_group", pf);
	EXPECT_FALSE(path_exists(path));
	EXPECT_EQ(0, numvfs(pf, "0"));
	EXPECT_EQ(0, ioctl(fd, DFL_FPGA_FME_PORT_ASSIGN, &port));
	close(fd);
	EXPECT_EQ(0, sim_del(card));
	run_cmd("modprobe -r fpga_vfio fpga_fme fpga_sim fpga_dfl");
}

static int set_msix(int dev, uint32_t flags, uint32_t start, uint32_t count,
		    const int32_t *fds)
{
	struct {
		struct vfio_irq_set set;
		int32_t fds[8];
	} s = { .set = { .argsz = sizeof(s.set) + count * sizeof(int32_t),
			 .index = VFIO_PCI_MSIX_IRQ_INDEX,
			 .flags = flags | VFIO_IRQ_SET_ACTION_TRIGGER,
			 .start = start, .count = count } };

	if (fds)
		memcpy(s.fds, fds, count * sizeof(int32_t));
	else
		s.set.argsz = sizeof(s.set);
	return ioctl(dev, VFIO_DEVICE_SET_IRQS, &s) ? -errno : 0;
}

/* Whether @fd's counter became nonzero within @ms; reads it back to 0 */
static bool fired(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t n;

	if (poll(&p, 1, ms) != 1)
		return false;
	return read(fd, &n, sizeof(n)) == sizeof(n) && n;
}

/* MSI-X carries the port's user interrupts: NLB0's doorbell raises them */
TEST_F(vf, msix_is_the_ports_user_interrupts)
{
	struct vfio_irq_info irq = { .argsz = sizeof(irq),
				     .index = VFIO_PCI_MSIX_IRQ_INDEX };
	int32_t fds[2];
	unsigned int n;

	ASSERT_EQ(0, ioctl(self->dev, VFIO_DEVICE_GET_IRQ_INFO, &irq));
	n = irq.count;
	ASSERT_GE(n, 2);
	EXPECT_EQ(VFIO_IRQ_INFO_EVENTFD | VFIO_IRQ_INFO_NORESIZE, irq.flags);
	/* The capability: after the PCIe one, a vector each, table in BAR 0 */
	EXPECT_EQ(0x80, cfg_read(self->dev, 0x41, 1));
	EXPECT_EQ(PCI_CAP_ID_MSIX, cfg_read(self->dev, 0x80, 1));
	EXPECT_EQ(n - 1, cfg_read(self->dev, 0x80 + PCI_MSIX_FLAGS, 2) & PCI_MSIX_FLAGS_QSIZE);
	EXPECT_EQ(0x8000, cfg_read(self->dev, 0x80 + PCI_MSIX_TABLE, 4));
	EXPECT_EQ(0x9000, cfg_read(self->dev, 0x80 + PCI_MSIX_PBA, 4));
	ASSERT_EQ(0, cfg_write(self->dev, 0x80 + PCI_MSIX_FLAGS, PCI_MSIX_FLAGS_ENABLE | 0x7ff, 2));
	EXPECT_EQ(PCI_MSIX_FLAGS_ENABLE | (n - 1), cfg_read(self->dev, 0x80 + PCI_MSIX_FLAGS, 2));

	fds[0] = eventfd(0, EFD_CLOEXEC);
	fds[1] = eventfd(0, EFD_CLOEXEC);
	ASSERT_GE(fds[0], 0);
	ASSERT_GE(fds[1], 0);
	ASSERT_EQ(0, set_msix(self->dev, VFIO_IRQ_SET_DATA_EVENTFD, 0, 2, fds));
	enable_memory(_metadata, self->dev);

	/* The AFU raises user interrupt 1: vector 1's eventfd, not 0's */
	ASSERT_EQ(0, bar_write(self->dev, AFU_OFS + NLB_DOORBELL, 1 << 1));
	EXPECT_TRUE(fired(fds[1], 5000));
	EXPECT_FALSE(fired(fds[0], 200));
	ASSERT_EQ(0, bar_write(self->dev, AFU_OFS + NLB_DOORBELL, 1 << 0));
	EXPECT_TRUE(fired(fds[0], 5000));

	/* Loopback, as vfio-pci's: DATA_NONE fires the vectors named */
	ASSERT_EQ(0, set_msix(self->dev, VFIO_IRQ_SET_DATA_NONE, 1, 1, NULL));
	EXPECT_TRUE(fired(fds[1], 1000));

	/* Vector 1 unbound (-1), then all (count 0): nothing fires */
	ASSERT_EQ(0, set_msix(self->dev, VFIO_IRQ_SET_DATA_EVENTFD, 1, 1, (int32_t[]){ -1 }));
	ASSERT_EQ(0, bar_write(self->dev, AFU_OFS + NLB_DOORBELL, 1 << 1));
	EXPECT_FALSE(fired(fds[1], 500));
	ASSERT_EQ(0, set_msix(self->dev, VFIO_IRQ_SET_DATA_NONE, 0, 0, NULL));
	ASSERT_EQ(0, bar_write(self->dev, AFU_OFS + NLB_DOORBELL, 1 << 0));
	EXPECT_FALSE(fired(fds[0], 500));

	/* Past the vectors, a bad eventfd, masking: refused */
	EXPECT_EQ(-EINVAL, set_msix(self->dev, VFIO_IRQ_SET_DATA_EVENTFD, n - 1, 2, fds));
	EXPECT_EQ(-EBADF, set_msix(self->dev, VFIO_IRQ_SET_DATA_EVENTFD, 0, 1, (int32_t[]){ 1000 }));
	EXPECT_EQ(-EINVAL, set_msix(self->dev, VFIO_IRQ_SET_DATA_EVENTFD, 0, 1, (int32_t[]){ -5 }));
	close(fds[0]);
	close(fds[1]);
}

/*
 * The port after its VF: assigned back, it is the host's again, whole: its
 * registers where they were, its user interrupts its driver's (the VF's
 * MSI-X walked its list and took its irqs)
 */
TEST_F(vf, port_back_after_its_vf)
{
	struct dfl_fpga_irq_set *set;
	volatile uint64_t *afu;
	int32_t efd;
	char dev[64];
	int num, fd, port = 1;

	efd = eventfd(0, EFD_CLOEXEC);
	ASSERT_GE(efd, 0);
	ASSERT_EQ(0, set_msix(self->dev, VFIO_IRQ_SET_DATA_EVENTFD, 0, 1, &efd));
	close(self->dev);
	self->dev = -1;
	close(self->group);
	self->group = -1;
	ASSERT_EQ(0, numvfs(self->pf, "0"));
	ASSERT_EQ(0, ioctl(self->fme, DFL_FPGA_FME_PORT_ASSIGN, &port));

	ASSERT_EQ(0, run_cmd("modprobe fpga_port"));
	num = sim_port_by_id(self->card, 1);
	ASSERT_GE(num, 0);
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", num);
	fd = open(dev, O_RDWR);
	ASSERT_GE(fd, 0) TH_LOG("open %s: %s", dev, strerror(errno));
	afu = mmap(NULL, 256 * 1024, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, afu);
	EXPECT_EQ(NLB0_AFU_GUID_L, afu[1]);
	set = calloc(1, sizeof(*set) + sizeof(int32_t));
	ASSERT_NE(NULL, set);
	set->start = 0;
	set->count = 1;
	set->evtfds[0] = efd;
	ASSERT_EQ(0, ioctl(fd, DFL_FPGA_PORT_UINT_SET_IRQ, set));
	afu[NLB_DOORBELL / 8] = 1;
	EXPECT_TRUE(fired(efd, 5000));
	free(set);
	munmap((void *)afu, 256 * 1024);
	close(fd);
	close(efd);
	ASSERT_EQ(0, ioctl(self->fme, DFL_FPGA_FME_PORT_RELEASE, &port));
	run_cmd("modprobe -r fpga_port");
}

TEST_HARNESS_MAIN
