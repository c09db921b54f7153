/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Simulated cards for the selftests: create and remove them, and find the
 * FME and ports the DFL core made of them.
 */
#ifndef _FPGA_SELFTEST_SIM_UTIL_H
#define _FPGA_SELFTEST_SIM_UTIL_H

#include <time.h>

#include "sysfs_util.h"

#define SIM_BUS		"/sys/bus/fpga_sim"
/* Read when a card is made: 0 makes cards no IOMMU translates */
#define SIM_IOMMU_PARAM	"/sys/module/fpga_sim/parameters/iommu"
#define DFL_DEVICES	"/sys/bus/fpga_dfl/devices"

/* Children of card @id whose name starts with @prefix */
static inline int card_children(unsigned int id, const char *prefix)
{
	char dir[128];

	snprintf(dir, sizeof(dir), SIM_BUS "/devices/fpga_sim%u", id);
	return count_entries(dir, prefix);
}

/* Path of the first child of card @id named @prefix* into @out */
static inline int card_child(unsigned int id, const char *prefix, char *out,
			     size_t size)
{
	char dir[128];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), SIM_BUS "/devices/fpga_sim%u", id);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, prefix, strlen(prefix))) {
			int n = snprintf(out, size, "%s/%.64s", dir, de->d_name);

			closedir(d);
			return n < (int)size ? 0 : -ENAMETOOLONG;
		}
	}
	closedir(d);
	return -ENOENT;
}

static inline int sim_add(unsigned int id, unsigned int ports)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%u %u", id, ports);
	return sysfs_write(SIM_BUS "/new_device", buf);
}

static inline int sim_del(unsigned int id)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u", id);
	return sysfs_write(SIM_BUS "/del_device", buf);
}

/* Number N of port @index of card @id (/dev/fpga-port.N), or -errno */
static inline int sim_port_number_at(unsigned int id, unsigned int index)
{
	int nums[8], n = 0, i, j, t;
	char dir[128];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), SIM_BUS "/devices/fpga_sim%u", id);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < 8)
		if (!strncmp(de->d_name, "fpga-port.", 10))
			nums[n++] = atoi(de->d_name + 10);
	closedir(d);
	/* Ports are numbered in card order */
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (nums[j] < nums[i]) {
				t = nums[i];
				nums[i] = nums[j];
				nums[j] = t;
			}
	return index < (unsigned int)n ? nums[index] : -ENOENT;
}

static inline int sim_port_number(unsigned int id)
{
	return sim_port_number_at(id, 0);
}

/*
 * The N of fpga-port.N that is port @hw_id of card @id (its sysfs id, the
 * port's number on the card); -1 if none
 */
static inline int sim_port_by_id(unsigned int id, int hw_id)
{
	char path[256];
	int i, num;

	for (i = 0; (num = sim_port_number_at(id, i)) >= 0; i++) {
		snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/id", num);
		if (sysfs_read_num(path) == hw_id)
			return num;
	}
	return -1;
}

/* A random card id, so that tests do not trip over leftovers */
static inline unsigned int sim_random_id(void)
{
	srand(time(NULL) ^ getpid());
	return 1000 + rand() % 1000;
}

#endif /* _FPGA_SELFTEST_SIM_UTIL_H */
