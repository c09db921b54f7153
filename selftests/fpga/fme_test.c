// SPDX-License-Identifier: GPL-2.0-only
/*
 * /dev/fpga-fme.N and the FME's sysfs on a simulated card.
 */
#include <sys/ioctl.h>
#include <linux/fpga-dfl.h>

#include "kselftest_harness.h"
#include "sim_util.h"

FIXTURE(fme) {
	unsigned int card;
	char dev[64];
	char sysfs[128];
	int fd;
};

FIXTURE_SETUP(fme)
{
	char path[256];
	const char *name;

	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_fme"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sim_add(self->card, 3));
	ASSERT_EQ(0, card_child(self->card, "fpga-fme.", path, sizeof(path)));
	name = strrchr(path, '/') + 1;
	snprintf(self->dev, sizeof(self->dev), "/dev/%s", name);
	snprintf(self->sysfs, sizeof(self->sysfs), DFL_DEVICES "/%s", name);
	self->fd = open(self->dev, O_RDWR);
	ASSERT_GE(self->fd, 0) {
		TH_LOG("open %s: %s", self->dev, strerror(errno));
	}
}

FIXTURE_TEARDOWN(fme)
{
	if (self->fd >= 0)
		close(self->fd);
	sim_del(self->card);
	run_cmd("modprobe -r fpga_fme fpga_sim fpga_dfl");
}

TEST_F(fme, common_ioctls)
{
	uint32_t n = 1234;

	EXPECT_EQ(DFL_FPGA_API_VERSION, ioctl(self->fd, DFL_FPGA_GET_API_VERSION));
	EXPECT_EQ(0, ioctl(self->fd, DFL_FPGA_CHECK_EXTENSION, 0));
	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_FME_ERR_GET_IRQ_NUM, &n));
	EXPECT_LE(n, 1);
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_FME_ERR_GET_IRQ_NUM, NULL));
	EXPECT_EQ(EFAULT, errno);
	/* No partial reconfiguration, no SR-IOV assignment on this FME */
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_FME_PORT_PR, NULL));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_FME_PORT_RELEASE, NULL));
	EXPECT_EQ(EINVAL, errno);
	/* Port ioctls are not FME ioctls */
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_PORT_RESET, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(fme, sysfs_header)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), "%s/ports_num", self->sysfs);
	EXPECT_EQ(3, sysfs_read_num(path));
	snprintf(path, sizeof(path), "%s/bitstream_id", self->sysfs);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("0x100000000010203", buf);
	snprintf(path, sizeof(path), "%s/bitstream_metadata", self->sysfs);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("0x20260101", buf);
	snprintf(path, sizeof(path), "%s/fabric_version", self->sysfs);
	EXPECT_EQ(1, sysfs_read_num(path));
	snprintf(path, sizeof(path), "%s/socket_id", self->sysfs);
	EXPECT_EQ(0, sysfs_read_num(path));
	snprintf(path, sizeof(path), "%s/cache_size", self->sysfs);
	EXPECT_EQ(0, sysfs_read_num(path));
}

TEST_F(fme, exclusive_open)
{
	EXPECT_EQ(-1, open(self->dev, O_RDWR | O_EXCL));
	EXPECT_EQ(EBUSY, errno);
	close(self->fd);
	self->fd = open(self->dev, O_RDWR | O_EXCL);
	ASSERT_GE(self->fd, 0);
	EXPECT_EQ(-1, open(self->dev, O_RDWR));
	EXPECT_EQ(EBUSY, errno);
}

TEST_F(fme, unplug_with_file_open)
{
	ASSERT_EQ(0, sim_del(self->card));
	EXPECT_FALSE(path_exists(self->dev));
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_GET_API_VERSION));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
}

TEST_HARNESS_MAIN
