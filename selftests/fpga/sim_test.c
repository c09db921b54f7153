// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card: new_device / del_device, enumeration of its DFL into
 * an FME and ports on the fpga_dfl bus, and the bus's sysfs ABI.
 */
#include <limits.h>
#include <time.h>

#include "kselftest_harness.h"
#include "sim_util.h"

FIXTURE(sim) {
	unsigned int id;
};

FIXTURE_SETUP(sim)
{
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim"));
	self->id = sim_random_id();
}

FIXTURE_TEARDOWN(sim)
{
	for (unsigned int i = 0; i < 4; i++)
		sim_del(self->id + i);
	run_cmd("modprobe -r fpga_sim fpga_dfl");
}

TEST_F(sim, card_enumerates_fme_and_ports)
{
	char path[512], buf[128];

	ASSERT_EQ(0, sim_add(self->id, 2));
	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/num_ports",
		 self->id);
	EXPECT_EQ(2, sysfs_read_num(path));

	EXPECT_EQ(1, card_children(self->id, "fpga-fme."));
	EXPECT_EQ(2, card_children(self->id, "fpga-port."));

	ASSERT_EQ(0, card_child(self->id, "fpga-port.", path, sizeof(path)));
	strncat(path, "/modalias", sizeof(path) - strlen(path) - 1);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("fpga_dfl:t0004f0001", buf);

	ASSERT_EQ(0, card_child(self->id, "fpga-fme.", path, sizeof(path)));
	strncat(path, "/modalias", sizeof(path) - strlen(path) - 1);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("fpga_dfl:t0004f0000", buf);

	/* The FME and ports are on the fpga_dfl bus too */
	ASSERT_EQ(0, card_child(self->id, "fpga-fme.", path, sizeof(path)));
	snprintf(buf, sizeof(buf), DFL_DEVICES "/%s", strrchr(path, '/') + 1);
	EXPECT_TRUE(path_exists(buf));
}

/*
 * The counters tell what another user's job does: root's only (the perf
 * PMU gives them as perf_event_paranoid allows); the clock is for all
 */
TEST_F(sim, counters_are_root_only)
{
	static const char *const files[] = {
		"port0/dma_rd_bytes", "port0/user_irqs", "port0/resets",
		"counters/dma_wr_bytes", "counters/error_irqs",
	};
	char path[192];
	unsigned int i;

	ASSERT_EQ(0, sim_add(self->id, 1));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/%s",
			 self->id, files[i]);
		EXPECT_GE(sysfs_read_num(path), 0);
		EXPECT_EQ(-EACCES, sysfs_as_nobody(path, NULL)) {
			TH_LOG("%s is readable by others", files[i]);
		}
	}
	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/counters/clock",
		 self->id);
	EXPECT_EQ(0, sysfs_as_nobody(path, NULL));
}

TEST_F(sim, uevent_carries_modalias)
{
	char path[512], buf[512];

	ASSERT_EQ(0, sim_add(self->id, 1));
	ASSERT_EQ(0, card_child(self->id, "fpga-port.", path, sizeof(path)));
	strncat(path, "/uevent", sizeof(path) - strlen(path) - 1);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "MODALIAS=fpga_dfl:t0004f0001"));
}

/* What udev does with a uevent: modprobe the modalias; the driver binds */
TEST_F(sim, modalias_loads_and_binds_the_drivers)
{
	char path[512], alias[64];
	int num;

	run_cmd("modprobe -r fpga_port fpga_fme 2>/dev/null");
	ASSERT_EQ(0, sim_add(self->id, 1));
	num = sim_port_number(self->id);
	ASSERT_GE(num, 0);
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/modalias", num);
	ASSERT_EQ(0, sysfs_read(path, alias, sizeof(alias)));
	ASSERT_EQ(0, run_cmd("modprobe %s", alias));
	EXPECT_TRUE(path_exists("/sys/module/fpga_port"));
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/driver", num);
	EXPECT_TRUE(path_exists(path));
	ASSERT_EQ(0, card_child(self->id, "fpga-fme.", path, sizeof(path)));
	strncat(path, "/modalias", sizeof(path) - strlen(path) - 1);
	ASSERT_EQ(0, sysfs_read(path, alias, sizeof(alias)));
	ASSERT_EQ(0, run_cmd("modprobe %s", alias));
	EXPECT_TRUE(path_exists("/sys/module/fpga_fme"));
	run_cmd("modprobe -r fpga_port fpga_fme");
}

TEST_F(sim, port_counts_and_several_cards)
{
	for (unsigned int i = 0; i < 4; i++)
		ASSERT_EQ(0, sim_add(self->id + i, i + 1));
	for (unsigned int i = 0; i < 4; i++) {
		EXPECT_EQ((int)i + 1, card_children(self->id + i, "fpga-port."));
		EXPECT_EQ(1, card_children(self->id + i, "fpga-fme."));
	}
}

TEST_F(sim, del_device_removes_everything)
{
	char path[128];
	int before = count_entries(DFL_DEVICES, "fpga-port.");

	ASSERT_EQ(0, sim_add(self->id, 3));
	EXPECT_EQ(before + 3, count_entries(DFL_DEVICES, "fpga-port."));
	ASSERT_EQ(0, sim_del(self->id));
	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u", self->id);
	EXPECT_FALSE(path_exists(path));
	EXPECT_EQ(before, count_entries(DFL_DEVICES, "fpga-port."));
	/* The id can be reused */
	ASSERT_EQ(0, sim_add(self->id, 1));
}

TEST_F(sim, new_device_rejects_bad_input)
{
	char buf[64];

	EXPECT_EQ(-EINVAL, sysfs_write(SIM_BUS "/new_device", "abc"));
	EXPECT_EQ(-EINVAL, sysfs_write(SIM_BUS "/new_device", " "));
	EXPECT_EQ(-EINVAL, sysfs_write(SIM_BUS "/new_device", "-1"));
	EXPECT_EQ(-EINVAL, sim_add(self->id, 0));
	EXPECT_EQ(-EINVAL, sim_add(self->id, 5));
	snprintf(buf, sizeof(buf), "%u 1 1", self->id);
	EXPECT_EQ(-EINVAL, sysfs_write(SIM_BUS "/new_device", buf));
	EXPECT_EQ(-ERANGE, sysfs_write(SIM_BUS "/new_device",
				       "99999999999999999999"));
	snprintf(buf, sizeof(buf), "%u", (unsigned int)INT_MAX + 1);
	EXPECT_EQ(-EINVAL, sysfs_write(SIM_BUS "/new_device", buf));

	/* Nothing was created by any of that */
	snprintf(buf, sizeof(buf), SIM_BUS "/devices/fpga_sim%u", self->id);
	EXPECT_FALSE(path_exists(buf));

	/* A single number means one port */
	snprintf(buf, sizeof(buf), "%u\n", self->id);
	ASSERT_EQ(0, sysfs_write(SIM_BUS "/new_device", buf));
	EXPECT_EQ(1, card_children(self->id, "fpga-port."));
	EXPECT_EQ(-EEXIST, sim_add(self->id, 1));
}

TEST_F(sim, del_device_rejects_bad_input)
{
	EXPECT_EQ(-ENOENT, sim_del(self->id));
	EXPECT_EQ(-EINVAL, sysfs_write(SIM_BUS "/del_device", "x"));
	EXPECT_EQ(-EINVAL, sysfs_write(SIM_BUS "/del_device", "1 2"));
}

TEST_F(sim, driver_override)
{
	char path[512], buf[64];

	ASSERT_EQ(0, sim_add(self->id, 1));
	ASSERT_EQ(0, card_child(self->id, "fpga-port.", path, sizeof(path)));
	strncat(path, "/driver_override", sizeof(path) - strlen(path) - 1);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("(null)", buf);
	ASSERT_EQ(0, sysfs_write(path, "uio_fpga"));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("uio_fpga", buf);
	ASSERT_EQ(0, sysfs_write(path, "\n"));
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("(null)", buf);
}

TEST_F(sim, module_unload_with_cards)
{
	ASSERT_EQ(0, sim_add(self->id, 2));
	ASSERT_EQ(0, sim_add(self->id + 1, 1));
	ASSERT_EQ(0, run_cmd("modprobe -r fpga_sim"));
	EXPECT_FALSE(path_exists(SIM_BUS));
	/* fpga_dfl is unloaded with it, or at least has no devices left */
	EXPECT_GE(0, count_entries(DFL_DEVICES, "fpga-"));
}

TEST_HARNESS_MAIN
