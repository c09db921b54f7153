// SPDX-License-Identifier: GPL-2.0-only
/*
 * /dev/fpga-fme.N and the FME's sysfs on a simulated card.
 */
#include <poll.h>
#include <sys/eventfd.h>
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
	/* Partial reconfiguration (pr_test.c), release (port_release_test.c) */
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_FME_PORT_PR, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, DFL_FPGA_FME_PORT_RELEASE, NULL));
	EXPECT_EQ(EFAULT, errno);
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

/*
 * A reader (a member of group fpga with the node read-only, say) cannot
 * hold the FME to itself and keep fpgaconf and every writer out: EPERM
 */
TEST_F(fme, exclusive_open_is_a_writers)
{
	int fd2;

	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(-1, open(self->dev, O_RDONLY | O_EXCL));
	EXPECT_EQ(EPERM, errno);
	self->fd = open(self->dev, O_RDWR | O_EXCL);
	ASSERT_GE(self->fd, 0) TH_LOG("%s", strerror(errno));
	close(self->fd);
	/* A reader's plain open shares it with writers */
	self->fd = open(self->dev, O_RDONLY);
	ASSERT_GE(self->fd, 0);
	fd2 = open(self->dev, O_RDWR);
	EXPECT_GE(fd2, 0);
	if (fd2 >= 0)
		close(fd2);
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

/* errors/NAME of the FME: its value, or -1 */
static long long fme_error(const char *sysfs, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/errors/%s", sysfs, name);
	return sysfs_read_num(path);
}

static int fme_error_write(const char *sysfs, const char *name,
			   const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/errors/%s", sysfs, name);
	return sysfs_write(path, val);
}

/* Until errors/NAME reads @want (the model acts within a poll period) */
static long long fme_error_wait(const char *sysfs, const char *name,
				long long want)
{
	long long v = -1;

	for (int i = 0; i < 200; i++) {
		v = fme_error(sysfs, name);
		if (v == want)
			break;
		usleep(10000);
	}
	return v;
}

/*
 * inject_errors, as OPAE's hello_events uses it: each injection bit shows
 * as its "injected" status bit (catastrophic: catfatal bit 11, fatal:
 * catfatal bit 8, non-fatal: nonfatal bit 6) and raises the FME error
 * interrupt; writing 0 clears them.  Both names show the same files.
 */
TEST_F(fme, inject_errors_raise_and_clear)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = 0, .count = 1 } };
	struct pollfd pfd = { .events = POLLIN };
	uint64_t n;

	EXPECT_EQ(0, fme_error(self->sysfs, "inject_errors"));
	EXPECT_EQ(0, fme_error(self->sysfs, "catfatal_errors"));
	EXPECT_EQ(0, fme_error(self->sysfs, "nonfatal_errors"));
	set.fd = eventfd(0, EFD_NONBLOCK);
	ASSERT_GE(set.fd, 0);
	pfd.fd = set.fd;
	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_FME_ERR_SET_IRQ, &set));

	ASSERT_EQ(0, fme_error_write(self->sysfs, "inject_errors", "0x2"));
	EXPECT_EQ(2, fme_error(self->sysfs, "inject_errors"));
	EXPECT_EQ(1 << 8, fme_error_wait(self->sysfs, "catfatal_errors", 1 << 8));
	EXPECT_EQ(1, poll(&pfd, 1, 5000)) TH_LOG("no FME error interrupt");
	EXPECT_EQ(sizeof(n), read(set.fd, &n, sizeof(n)));

	ASSERT_EQ(0, fme_error_write(self->sysfs, "inject_errors", "5"));
	EXPECT_EQ(1 << 11, fme_error_wait(self->sysfs, "catfatal_errors", 1 << 11));
	EXPECT_EQ(1 << 6, fme_error_wait(self->sysfs, "nonfatal_errors", 1 << 6));
	EXPECT_EQ(1, poll(&pfd, 1, 5000)) TH_LOG("no interrupt for the second");

	ASSERT_EQ(0, fme_error_write(self->sysfs, "inject_errors", "0"));
	EXPECT_EQ(0, fme_error_wait(self->sysfs, "catfatal_errors", 0));
	EXPECT_EQ(0, fme_error_wait(self->sysfs, "nonfatal_errors", 0));
	close(set.fd);
}

/*
 * A file opened read-only may count the error interrupts but not bind
 * one, as on the port; the binding made through a writer lasts until the
 * last file closes, whichever closes first.
 */
TEST_F(fme, read_only_file_binds_no_interrupt)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = 0, .count = 1 } };
	struct pollfd pfd = { .events = POLLIN };
	uint32_t n = 0;
	uint64_t v;
	int ro;

	set.fd = eventfd(0, EFD_NONBLOCK);
	ASSERT_GE(set.fd, 0);
	pfd.fd = set.fd;
	ro = open(self->dev, O_RDONLY);
	ASSERT_GE(ro, 0);
	EXPECT_EQ(0, ioctl(ro, DFL_FPGA_FME_ERR_GET_IRQ_NUM, &n));
	EXPECT_EQ(1, n);
	EXPECT_EQ(-1, ioctl(ro, DFL_FPGA_FME_ERR_SET_IRQ, &set));
	EXPECT_EQ(EBADF, errno);

	/* Bound through the writer, the read-only file's close keeps it */
	ASSERT_EQ(0, ioctl(self->fd, DFL_FPGA_FME_ERR_SET_IRQ, &set));
	close(ro);
	ASSERT_EQ(0, fme_error_write(self->sysfs, "inject_errors", "4"));
	EXPECT_EQ(1 << 6, fme_error_wait(self->sysfs, "nonfatal_errors", 1 << 6));
	EXPECT_EQ(1, poll(&pfd, 1, 5000)) TH_LOG("no FME error interrupt");
	EXPECT_EQ(sizeof(v), read(set.fd, &v, sizeof(v)));
	ASSERT_EQ(0, fme_error_write(self->sysfs, "inject_errors", "0"));
	EXPECT_EQ(0, fme_error_wait(self->sysfs, "nonfatal_errors", 0));

	/* The last close unbinds: nothing reaches the eventfd after it */
	close(self->fd);
	self->fd = open(self->dev, O_RDONLY);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, fme_error_write(self->sysfs, "inject_errors", "4"));
	EXPECT_EQ(1 << 6, fme_error_wait(self->sysfs, "nonfatal_errors", 1 << 6));
	EXPECT_EQ(0, poll(&pfd, 1, 200));
	ASSERT_EQ(0, fme_error_write(self->sysfs, "inject_errors", "0"));
	EXPECT_EQ(0, fme_error_wait(self->sysfs, "nonfatal_errors", 0));
	close(set.fd);
}

/*
 * Upstream's write semantics: inject_errors takes 0..7 (base 0), an
 * error file takes only its current value (which clears it), and
 * anything else is -EINVAL; the read-only files take nothing.
 */
TEST_F(fme, error_files_refuse_bad_input)
{
	static const char *const bad_inject[] = { "8", "0x10", "-1", "abc" };
	static const char *const clearable[] = {
		"fme_errors", "pcie0_errors", "pcie1_errors",
	};
	static const char *const read_only[] = {
		"nonfatal_errors", "catfatal_errors", "first_error", "next_error",
	};
	char val[32];

	for (size_t i = 0; i < ARRAY_SIZE(bad_inject); i++) {
		EXPECT_EQ(-EINVAL, fme_error_write(self->sysfs, "inject_errors",
						   bad_inject[i]))
			TH_LOG("inject_errors took '%s'", bad_inject[i]);
	}
	EXPECT_EQ(0, fme_error(self->sysfs, "inject_errors"));
	for (size_t i = 0; i < ARRAY_SIZE(clearable); i++) {
		long long cur = fme_error(self->sysfs, clearable[i]);

		ASSERT_GE(cur, 0);
		snprintf(val, sizeof(val), "%#llx", cur + 1);
		EXPECT_EQ(-EINVAL, fme_error_write(self->sysfs, clearable[i], val))
			TH_LOG("%s took %s", clearable[i], val);
		EXPECT_EQ(-EINVAL, fme_error_write(self->sysfs, clearable[i], "x"));
		snprintf(val, sizeof(val), "%lld", cur);
		EXPECT_EQ(0, fme_error_write(self->sysfs, clearable[i], val))
			TH_LOG("%s refused its current value %s", clearable[i], val);
	}
	for (size_t i = 0; i < ARRAY_SIZE(read_only); i++) {
		EXPECT_NE(0, fme_error_write(self->sysfs, read_only[i], "0"))
			TH_LOG("%s is writable", read_only[i]);
	}
}

TEST_HARNESS_MAIN
