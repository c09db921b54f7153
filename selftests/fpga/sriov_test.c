// SPDX-License-Identifier: GPL-2.0-only
/*
 * SR-IOV on a simulated card: its PCI function is an SR-IOV PF with as
 * many VFs as ports; sriov_numvfs takes as many VFs as released ports
 * (upstream's rule), each VF a PCI function of its own beside the PF; a
 * port is not assigned back while VFs are enabled; the VFs go with the
 * card.  And fpga_dfl_pci also answers to upstream's driver name,
 * dfl-pci, where OPAE's admin tools look for cards.
 */
#include <limits.h>
#include <sys/ioctl.h>
#include <linux/fpga-dfl.h>

#include "kselftest_harness.h"
#include "nlb_util.h"
#include "sim_util.h"

#define PCI_DEVICES	"/sys/bus/pci/devices"

FIXTURE(vf) {
	unsigned int card;
	char pf[PATH_MAX];	/* the PF's sysfs directory */
	char bdf[32];
	int fme;
	int released;
};

FIXTURE_SETUP(vf)
{
	char path[256], link[PATH_MAX], *name;
	ssize_t n;

	self->fme = -1;
	self->released = -1;
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_fme && modprobe fpga_port"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sim_add(self->card, 2));

	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/pci_function",
		 self->card);
	n = readlink(path, link, sizeof(link) - 1);
	ASSERT_GT(n, 0) TH_LOG("%s: %s", path, strerror(errno));
	link[n] = '\0';
	snprintf(self->bdf, sizeof(self->bdf), "%s", strrchr(link, '/') + 1);
	snprintf(self->pf, sizeof(self->pf), PCI_DEVICES "/%s", self->bdf);

	ASSERT_EQ(0, card_child(self->card, "fpga-fme.", path, sizeof(path)));
	name = strrchr(path, '/') + 1;
	snprintf(link, sizeof(link), "/dev/%s", name);
	self->fme = open(link, O_RDWR);
	ASSERT_GE(self->fme, 0) TH_LOG("open %s: %s", link, strerror(errno));
}

FIXTURE_TEARDOWN(vf)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/sriov_numvfs", self->pf);
	sysfs_write(path, "0");
	if (self->fme >= 0) {
		if (self->released >= 0)
			ioctl(self->fme, DFL_FPGA_FME_PORT_ASSIGN, &self->released);
		close(self->fme);
	}
	sim_del(self->card);
	run_cmd("modprobe -r fpga_vfio fpga_port fpga_fme fpga_sim fpga_dfl_pci fpga_dfl");
}

static int numvfs(FIXTURE_DATA(vf) *self, const char *n)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/sriov_numvfs", self->pf);
	return sysfs_write(path, n);
}

/* The PF's sysfs attribute @attr as a number; -1 if unreadable */
static long long pf_attr(FIXTURE_DATA(vf) *self, const char *attr)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", self->pf, attr);
	return sysfs_read_num(path);
}

static int release(FIXTURE_DATA(vf) *self, int port)
{
	int ret = ioctl(self->fme, DFL_FPGA_FME_PORT_RELEASE, &port);

	if (!ret)
		self->released = port;
	return ret;
}

/* The VF @k's sysfs directory, through the PF's virtfnK link */
static int vf_dir(FIXTURE_DATA(vf) *self, int k, char *out, size_t size)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/virtfn%d", self->pf, k);
	return realpath(path, out) && strlen(out) < size ? 0 : -1;
}

TEST_F(vf, pf_is_sriov_capable)
{
	char path[PATH_MAX + 32], buf[16];

	/* As many VFs as ports, none enabled; class processing accelerator */
	EXPECT_EQ(2, pf_attr(self, "sriov_totalvfs"));
	EXPECT_EQ(0, pf_attr(self, "sriov_numvfs"));
	EXPECT_EQ(0x120000, pf_attr(self, "class"));
	snprintf(path, sizeof(path), "%s/sriov_vf_device", self->pf);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("d5f2", buf);
}

TEST_F(vf, vfs_are_the_released_ports)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], link[PATH_MAX];
	ssize_t n;

	/* No released port: no VF */
	EXPECT_EQ(-EINVAL, numvfs(self, "1"));
	EXPECT_EQ(0, release(self, 1));
	EXPECT_EQ(-EINVAL, numvfs(self, "2"));
	EXPECT_EQ(0, pf_attr(self, "sriov_numvfs"));

	ASSERT_EQ(0, numvfs(self, "1"));
	EXPECT_EQ(1, pf_attr(self, "sriov_numvfs"));
	ASSERT_EQ(0, vf_dir(self, 0, dir, sizeof(dir)));
	snprintf(path, sizeof(path), "%s/device", dir);
	EXPECT_EQ(0xd5f2, sysfs_read_num(path));
	snprintf(path, sizeof(path), "%s/vendor", dir);
	EXPECT_EQ(0, sysfs_read_num(path));
	snprintf(path, sizeof(path), "%s/class", dir);
	EXPECT_EQ(0x120000, sysfs_read_num(path));
	/* Function 1 of the PF's slot, its physfn the PF */
	EXPECT_EQ('1', dir[strlen(dir) - 1]);
	snprintf(path, sizeof(path), "%s/physfn", dir);
	n = readlink(path, link, sizeof(link) - 1);
	ASSERT_GT(n, 0);
	link[n] = '\0';
	EXPECT_STREQ(self->bdf, strrchr(link, '/') + 1);

	/* Not back to the host while a VF may hold it */
	EXPECT_EQ(-1, ioctl(self->fme, DFL_FPGA_FME_PORT_ASSIGN, &(int){ 1 }));
	EXPECT_EQ(EBUSY, errno);
	/* Only 0 changes the count (the PCI core's rule) */
	EXPECT_EQ(-EBUSY, numvfs(self, "2"));

	/* 0: the VF goes, the port stays released until it is assigned */
	ASSERT_EQ(0, numvfs(self, "0"));
	EXPECT_FALSE(path_exists(dir));
	snprintf(path, sizeof(path), "%s/virtfn0", self->pf);
	EXPECT_FALSE(path_exists(path));
	EXPECT_EQ(-1, sim_port_by_id(self->card, 1));
	ASSERT_EQ(0, ioctl(self->fme, DFL_FPGA_FME_PORT_ASSIGN, &(int){ 1 }));
	self->released = -1;
	EXPECT_LE(0, sim_port_by_id(self->card, 1));
}

/* Both ports released: two VFs, functions 1 and 2 */
TEST_F(vf, every_port_a_vf)
{
	char dir[PATH_MAX];
	int port = 0;

	EXPECT_EQ(0, release(self, 1));
	ASSERT_EQ(0, ioctl(self->fme, DFL_FPGA_FME_PORT_RELEASE, &port));
	EXPECT_EQ(-EINVAL, numvfs(self, "1"));
	ASSERT_EQ(0, numvfs(self, "2"));
	ASSERT_EQ(0, vf_dir(self, 1, dir, sizeof(dir)));
	EXPECT_EQ('2', dir[strlen(dir) - 1]);
	EXPECT_EQ(0, card_children(self->card, "fpga-port."));
	ASSERT_EQ(0, numvfs(self, "0"));
	ASSERT_EQ(0, ioctl(self->fme, DFL_FPGA_FME_PORT_ASSIGN, &port));
}

/* The card deleted, then its PF removed, with VFs enabled: they go first */
TEST_F(vf, vfs_go_with_the_card)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];

	EXPECT_EQ(0, release(self, 0));
	ASSERT_EQ(0, numvfs(self, "1"));
	ASSERT_EQ(0, vf_dir(self, 0, dir, sizeof(dir)));
	close(self->fme);
	self->fme = -1;
	ASSERT_EQ(0, sim_del(self->card));
	EXPECT_FALSE(path_exists(dir));
	EXPECT_FALSE(path_exists(self->pf));

	/* A surprise removal of the PF (sysfs remove) */
	ASSERT_EQ(0, sim_add(self->card, 1));
	ASSERT_EQ(0, card_child(self->card, "fpga-fme.", path, sizeof(path)));
	snprintf(path, sizeof(path), "/dev/%s", strrchr(path, '/') + 1);
	self->fme = open(path, O_RDWR);
	ASSERT_GE(self->fme, 0);
	EXPECT_EQ(0, release(self, 0));
	ASSERT_EQ(0, numvfs(self, "1"));
	ASSERT_EQ(0, vf_dir(self, 0, dir, sizeof(dir)));
	snprintf(path, sizeof(path), "%s/remove", self->pf);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	EXPECT_FALSE(path_exists(dir));
	EXPECT_FALSE(path_exists(self->pf));
	/* The FME is gone with the card: nothing to assign */
	close(self->fme);
	self->fme = -1;
}

/*
 * A port whose last user's DMA is still mapped for an AFU that did not
 * stop goes to no VF: the VF's user would drive that AFU.  Root clears it
 * as for a new user on the host: assign the port, reset it.
 */
TEST_F(vf, no_vf_over_abandoned_dma)
{
	char ack[128], path[128], name[32];
	struct dma_buf b = { 0 };
	int num, fd;

	ASSERT_EQ(0, run_cmd("modprobe fpga_port"));
	num = sim_port_by_id(self->card, 1);
	ASSERT_GE(num, 0);
	snprintf(name, sizeof(name), "fpga-port.%d", num);
	snprintf(path, sizeof(path), "/dev/%s", name);
	fd = open(path, O_RDWR);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, dma_buf_alloc(fd, 4096, &b));
	/* The port's driver goes while the card ignores resets */
	snprintf(ack, sizeof(ack), SIM_BUS "/devices/fpga_sim%u/fail_reset_ack",
		 self->card);
	ASSERT_EQ(0, sysfs_write(ack, "1"));
	EXPECT_EQ(0, sysfs_write("/sys/bus/fpga_dfl/drivers/fpga_port/unbind", name));
	EXPECT_EQ(0, sysfs_write(ack, "0"));
	close(fd);
	munmap(b.va, b.len);

	ASSERT_EQ(0, release(self, 1));
	EXPECT_EQ(-EBUSY, numvfs(self, "1"));
	EXPECT_EQ(0, pf_attr(self, "sriov_numvfs"));

	/* Assigned back (its driver binds again) and reset: the VF may have it */
	ASSERT_EQ(0, ioctl(self->fme, DFL_FPGA_FME_PORT_ASSIGN, &(int){ 1 }));
	self->released = -1;
	num = sim_port_by_id(self->card, 1);
	ASSERT_GE(num, 0);
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/reset", num);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	ASSERT_EQ(0, release(self, 1));
	EXPECT_EQ(0, numvfs(self, "1"));
	EXPECT_EQ(0, numvfs(self, "0"));
	run_cmd("modprobe -r fpga_port");
}

/* upstream's name, for OPAE's admin tools, where upstream's is absent */
TEST(upstream_driver_name)
{
	ASSERT_EQ(0, run_cmd("modprobe fpga_dfl_pci"));
	EXPECT_TRUE(path_exists("/sys/bus/pci/drivers/dfl-pci"));
	EXPECT_TRUE(path_exists("/sys/bus/pci/drivers/fpga_dfl_pci"));
	ASSERT_EQ(0, run_cmd("modprobe -r fpga_dfl_pci"));
	EXPECT_FALSE(path_exists("/sys/bus/pci/drivers/dfl-pci"));
}

TEST_HARNESS_MAIN
