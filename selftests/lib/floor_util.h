/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bench's floors: /dev/fpga_bench_floor of the bench-only module
 * fpga_bench_floor (selftests/bench/floor_module, in the bench's initramfs
 * only; Documentation/benchmarks.md, "Floors").
 */
#ifndef _FPGA_SELFTEST_FLOOR_UTIL_H
#define _FPGA_SELFTEST_FLOOR_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "fpga_bench_floor.h"
#include "sysfs_util.h"

/* Where make bench-initramfs puts the module */
#define FLOOR_KO	"/ksft/bench/floor/fpga_bench_floor.ko"
#define FLOOR_DEV	"/dev/fpga_bench_floor"

/*
 * Load the module (it needs fpga_dfl, loaded before) and open it.
 * Return: the descriptor, or -1 with a note on stderr for @who: the
 * benchmark then leaves its floor rows out.
 */
static inline int floor_open(const char *who)
{
	int fd;

	if (access("/sys/module/fpga_bench_floor", F_OK) &&
	    run_cmd("insmod " FLOOR_KO)) {
		fprintf(stderr, "%s: cannot load %s: no floor rows\n", who,
			FLOOR_KO);
		return -1;
	}
	fd = open(FLOOR_DEV, O_RDWR);
	if (fd < 0)
		fprintf(stderr, "%s: %s: %s: no floor rows\n", who, FLOOR_DEV,
			strerror(errno));
	return fd;
}

/* Close it and unload the module, which holds fpga_dfl while loaded */
static inline void floor_close(int fd)
{
	if (fd >= 0)
		close(fd);
	run_cmd("rmmod fpga_bench_floor");
}

/* Map for fpga-port.@port's DMA device from now on; 0 or -errno */
static inline int floor_bind_port(int fd, uint32_t port)
{
	return ioctl(fd, FPGA_BENCH_FLOOR_BIND_PORT, &port) ? -errno : 0;
}

/*
 * Pin @len bytes at @va (and with FPGA_BENCH_FLOOR_MAP map them for the
 * bound port's DMA device); @nents, if not NULL, gets the scatter table's
 * entries.  0 or -errno.
 */
static inline int floor_pin(int fd, void *va, uint64_t len, uint32_t flags,
			    uint32_t *nents)
{
	struct fpga_bench_floor_pin p = {
		.addr = (uintptr_t)va, .length = len, .flags = flags,
	};

	if (ioctl(fd, FPGA_BENCH_FLOOR_PIN, &p))
		return -errno;
	if (nents)
		*nents = p.nents;
	return 0;
}

static inline int floor_unpin(int fd)
{
	return ioctl(fd, FPGA_BENCH_FLOOR_UNPIN, 0) ? -errno : 0;
}

/*
 * The interrupt floor: a kernel thread on @cpu that signals @efd once per
 * ring of the doorbell returned (NULL on failure).
 */
static inline volatile uint64_t *floor_irq_start(int fd, int efd, int cpu)
{
	struct fpga_bench_floor_irq b = { .eventfd = efd, .cpu = cpu };
	void *bell;

	if (ioctl(fd, FPGA_BENCH_FLOOR_IRQ_BIND, &b))
		return NULL;
	bell = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	return bell == MAP_FAILED ? NULL : bell;
}

/* Have it answer the next @n doorbells: it spins on return */
static inline int floor_irq_arm(int fd, uint32_t n)
{
	return ioctl(fd, FPGA_BENCH_FLOOR_IRQ_ARM, &n) ? -errno : 0;
}

static inline void floor_irq_stop(int fd, volatile uint64_t *bell)
{
	struct fpga_bench_floor_irq b = { .eventfd = -1 };

	munmap((void *)bell, 4096);
	ioctl(fd, FPGA_BENCH_FLOOR_IRQ_BIND, &b);
}

#endif /* _FPGA_SELFTEST_FLOOR_UTIL_H */
