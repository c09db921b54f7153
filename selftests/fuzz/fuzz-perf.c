// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_fuzz, the perf PMU: perf_event_open() on the fpga_pmu_N of the
 * cards that exist (never another PMU), with configs in and out of the
 * format (event, evtype, portid), odd attr sizes, sampling, task and CPU
 * targets, groups and flags; then read(), the perf ioctls, mmap, poll and
 * close of what opened, while cards (and so PMUs) come and go.
 */
#include <dirent.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "perf_util.h"

/* perf_event_attr.type of one fpga_pmu_N, chosen by rank; -1 if none */
static int pmu_type(void)
{
	int types[16], n = 0;
	struct dirent *de;
	DIR *d;

	d = opendir(PMU_DEVICES);
	if (!d)
		return -1;
	while ((de = readdir(d)) && n < 16) {
		char path[300];
		long long t;

		if (strncmp(de->d_name, "fpga_pmu_", 9))
			continue;
		snprintf(path, sizeof(path), PMU_DEVICES "/%s/type", de->d_name);
		t = sysfs_read_num(path);
		if (t > 0)
			types[n++] = t;
	}
	closedir(d);
	if (!n)
		return -1;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (types[j] < types[i]) {
				int t = types[i];

				types[i] = types[j];
				types[j] = t;
			}
	return types[below(n)];
}

static uint64_t rnd_config(void)
{
	uint64_t event = below(4) ? below(EV_NUM) : below(16);
	uint64_t evtype = below(4) ? below(2) : below(16);
	uint64_t port = below(4) ? (below(2) ? below(4) : PMU_CARD) : below(256);

	if (one_in(16))
		return rnd_value();
	return PMU_EVENT(event) | PMU_EVTYPE(evtype) | PMU_PORTID(port);
}

static int rnd_perf(struct worker *w)
{
	return w->perf_fds[below(ARRAY_LEN(w->perf_fds))];
}

static void perf_open_one(struct worker *w)
{
	int *slot = &w->perf_fds[below(ARRAY_LEN(w->perf_fds))];
	struct perf_event_attr attr;
	int type = pmu_type(), pid = -1, cpu, group = -1, fd;
	unsigned long flags = 0;

	if (type < 0)
		return;
	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.size = below(6) ? sizeof(attr) :
		    below(2) ? PERF_ATTR_SIZE_VER0 : (uint32_t)rnd_value();
	attr.config = rnd_config();
	if (one_in(4)) {
		attr.config1 = rnd_value();
		attr.config2 = rnd_value();
	}
	if (one_in(8)) {	/* the bitfields: disabled, inherit, exclude_* ... */
		uint64_t bits = rnd();

		memcpy((char *)&attr + offsetof(struct perf_event_attr, read_format) +
		       sizeof(attr.read_format), &bits, sizeof(bits));
	}
	if (one_in(8)) {	/* sampling: a counting PMU must refuse it */
		attr.sample_period = below(2) ? 1000 : rnd_value();
		attr.sample_type = rnd_value();
	}
	attr.read_format = below(3) ? 0 : below(32);
	/* the PMU counts per card: system-wide on a CPU, or nothing */
	if (one_in(8))
		pid = below(2) ? 0 : getpid();
	/* the PMU's cpumask is CPU 0 unless a hotplug moved it */
	cpu = below(8) ? (one_in(4) ? 1 : 0) : below(2) ? -1 : (int)below(4096);
	if (one_in(4))
		group = rnd_perf(w);
	if (one_in(8))
		flags = below(2) ? PERF_FLAG_FD_CLOEXEC : below(32);
	fd = syscall(__NR_perf_event_open, &attr, pid, cpu, group, flags);
	if (fd < 0)
		return;
	w->ok[AREA_PERF]++;
	fuzz_close(slot);
	*slot = fd;
}

static void perf_use(struct worker *w)
{
	static const unsigned long cmds[] = {
		PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE,
		PERF_EVENT_IOC_RESET, PERF_EVENT_IOC_REFRESH,
		PERF_EVENT_IOC_PERIOD, PERF_EVENT_IOC_ID,
		PERF_EVENT_IOC_SET_OUTPUT, PERF_EVENT_IOC_PAUSE_OUTPUT,
		PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
	};
	int fd = rnd_perf(w);
	unsigned long cmd;
	uint64_t *arg = w->anon;

	switch (below(6)) {
	case 0 ... 2: {
		size_t len = below(3) ? 8 * (1 + below(4)) : below(64);

		FUZZ_OK(w, AREA_PERF,
			read(fd, below(8) ? w->anon : rnd_ptr(w, len), len));
		return;
	}
	case 3:
		cmd = cmds[below(ARRAY_LEN(cmds))];
		arg[0] = rnd_value();
		if (cmd == PERF_EVENT_IOC_SET_OUTPUT)
			ioctl(fd, cmd, below(2) ? rnd_perf(w) : -1);
		else if (cmd == PERF_EVENT_IOC_ID || cmd == PERF_EVENT_IOC_PERIOD)
			ioctl(fd, cmd, below(6) ? (void *)arg : rnd_ptr(w, 8));
		else
			ioctl(fd, cmd, below(2) ? (unsigned long)below(2)
					       : (unsigned long)rnd_value());
		return;
	case 4: {	/* a ring buffer on a counting event */
		size_t len = (1 + (below(2) ? 1u << below(3) : below(5))) * 4096;
		void *p = mmap(NULL, len, PROT_READ | (below(2) ? PROT_WRITE : 0),
			       MAP_SHARED, fd, 0);

		if (p != MAP_FAILED)
			munmap(p, len);
		return;
	}
	default: {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (below(2))
			poll(&p, 1, 0);
		else
			fuzz_close(&w->perf_fds[below(ARRAY_LEN(w->perf_fds))]);
	}
	}
}

void fuzz_perf(struct worker *w)
{
	if (below(3))
		perf_use(w);
	else
		perf_open_one(w);
}
