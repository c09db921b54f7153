/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The card's perf PMU (fpga_pmu_N) from a selftest: find it, and open and
 * read its events with perf_event_open(2).
 */
#ifndef _FPGA_SELFTEST_PERF_UTIL_H
#define _FPGA_SELFTEST_PERF_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "sim_util.h"

#define PMU_DEVICES	"/sys/bus/event_source/devices"

/* config fields (format/) */
#define PMU_EVENT(e)	((uint64_t)(e))
#define PMU_EVTYPE(t)	((uint64_t)(t) << 12)
#define PMU_PORTID(p)	((uint64_t)(p) << 16)
#define PMU_CARD	0xff
#define PMU_EVTYPE_BASIC	0
#define PMU_EVTYPE_BANK		1
#define PMU_BANK(e, p)	(PMU_EVENT(e) | PMU_EVTYPE(PMU_EVTYPE_BANK) | \
			 PMU_PORTID(p))
#define PMU_CLOCK	(PMU_EVENT(0) | PMU_EVTYPE(PMU_EVTYPE_BASIC) | \
			 PMU_PORTID(PMU_CARD))

enum {
	EV_DMA_RD_BYTES, EV_DMA_WR_BYTES, EV_DMA_RD_LINES, EV_DMA_WR_LINES,
	EV_USER_IRQS, EV_ERROR_IRQS, EV_RESETS, EV_DMA_FAULTS,
	EV_AFU_BUSY_CLOCKS, EV_NUM
};

static const char *const pmu_event_names[EV_NUM] = {
	"dma_rd_bytes", "dma_wr_bytes", "dma_rd_lines", "dma_wr_lines",
	"user_irqs", "error_irqs", "resets", "dma_faults", "afu_busy_clocks",
};

/* Card number of sim card @id (its FME is fpga-fme.N), or -errno */
static inline int sim_card_number(unsigned int id)
{
	char path[256];
	int ret;

	ret = card_child(id, "fpga-fme.", path, sizeof(path));
	if (ret)
		return ret;
	return atoi(strrchr(path, '.') + 1);
}

/* /sys/bus/event_source/devices/fpga_pmu_N/@file into @out */
static inline void pmu_path(int card, const char *file, char *out, size_t size)
{
	snprintf(out, size, PMU_DEVICES "/fpga_pmu_%d%s%s", card,
		 *file ? "/" : "", file);
}

static inline long long pmu_read_num(int card, const char *file)
{
	char path[256];

	pmu_path(card, file, path, sizeof(path));
	return sysfs_read_num(path);
}

static inline int pmu_exists(int card)
{
	char path[256];

	pmu_path(card, "", path, sizeof(path));
	return path_exists(path);
}

static inline int perf_open_attr(struct perf_event_attr *attr, int pid,
				 int cpu, int group)
{
	int fd = syscall(__NR_perf_event_open, attr, pid, cpu, group, 0);

	return fd < 0 ? -errno : fd;
}

/* A counting event of PMU @type on @cpu; fd or -errno */
static inline int perf_open(uint32_t type, uint64_t config, int cpu, int group)
{
	struct perf_event_attr attr = {
		.type = type, .size = sizeof(attr), .config = config,
	};

	return perf_open_attr(&attr, -1, cpu, group);
}

/* The count, or (uint64_t)-1 on error */
static inline uint64_t perf_count(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return (uint64_t)-1;
	return v;
}

/* The model's own counter: portP/NAME, or counters/NAME for port < 0 */
static inline long long sim_counter(unsigned int id, int port,
				    const char *name)
{
	char path[256];

	if (port < 0)
		snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/counters/%s",
			 id, name);
	else
		snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/port%d/%s",
			 id, port, name);
	return sysfs_read_num(path);
}

/*
 * Does the count of @fd move within a second?  A card's model advances
 * its clock as it polls, every few milliseconds when idle; a loaded
 * emulated kernel (rt above all) can hold it back longer than a short
 * fixed wait (a CI failure at 10 ms).
 */
static inline bool perf_count_moves(int fd)
{
	uint64_t v1 = perf_count(fd), v2;
	int i;

	for (i = 0; v1 != (uint64_t)-1 && i < 100; i++) {
		usleep(10000);
		v2 = perf_count(fd);
		if (v2 == (uint64_t)-1)
			return false;
		if (v2 > v1)
			return true;
	}
	return false;
}

#endif /* _FPGA_SELFTEST_PERF_UTIL_H */
